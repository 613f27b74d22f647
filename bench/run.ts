// `npm run bench [-- NAME...]`: every benchmark of this folder, one after another, in one run.
import { spawnSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

const benches = ['engine', 'store', 'catalog', 'sync', 'network', 'devices', 'ui'] as const;

async function main(argv: string[]): Promise<void> {
  const child = argv.includes('--child');
  const names = argv.filter((a) => a !== '--child');
  const chosen = names.length > 0 ? names : [...benches];
  const unknown = chosen.filter((n) => !(benches as readonly string[]).includes(n));
  if (unknown.length > 0)
    throw new Error(`unknown bench: ${unknown.join(', ')} (known: ${benches.join(', ')})`);
  if (!child)
    console.log(
      `# loyalty-terminal bench, ${new Date().toISOString()}, Node ${process.versions.node}, ` +
        `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB`,
    );
  if (chosen.length > 1) {
    // Each bench in its own process, so one's heap and page cache never count in another's
    // figures (the snapshot's peak RSS above all).
    for (const name of chosen) {
      // with this process's V8 flags (package.json's, the till's own: src/config/runtime-flags.ts)
      const r = spawnSync(
        process.execPath,
        [...process.execArgv, fileURLToPath(import.meta.url), name, '--child'],
        { stdio: 'inherit' },
      );
      if (r.status !== 0) throw new Error(`bench ${name} failed (exit ${r.status})`);
    }
    return;
  }
  for (const name of chosen) {
    const fn = `bench${name[0]?.toUpperCase()}${name.slice(1)}`;
    // Each bench is its own module so one can run alone; the path is computed on purpose.
    const mod = (await import(`./${name}.js`)) as Record<string, () => Promise<void>>;
    const run = mod[fn];
    if (!run) throw new Error(`bench/${name}.ts does not export ${fn}`);
    console.log(`\n## ${name}`);
    await run();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
