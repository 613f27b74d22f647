// `loyalty-terminal db` finds its database as every other command finds the data directory
// (src/config): `--db FILE`, else terminal.sqlite where the configuration's
// `terminal.data_dir` puts the data, else in `--data DIR` (docs/terminal.md, "Configuration").
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

const dirs: string[] = [];
function tempDir(): string {
  dirs.push(mkdtempSync(join(tmpdir(), 'lt-cli-db-')));
  return dirs.at(-1)!;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function db(...args: string[]) {
  // The files the command reads are the real ones (the CLI's port, as the process's is).
  const io = memoryIO();
  io.readInput = (f) => readFile(f, 'utf8');
  const code = await main(['db', ...args], io);
  return { code, out: io.out, err: io.err };
}

/** DIR with a config.json whose `terminal.data_dir` moves the data to DIR/moved. */
function movedData(): { dir: string; moved: string } {
  const dir = tempDir();
  const moved = join(dir, 'moved');
  mkdirSync(moved);
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ terminal: { data_dir: moved } }));
  return { dir, moved };
}

describe('loyalty-terminal db and the data directory', () => {
  it('migrates the database in the data directory the configuration names, not in --data', async () => {
    const { dir, moved } = movedData();
    const r = await db('migrate', '--data', dir);
    expect(r.code).toBe(0);
    expect(r.out).toContain(join(moved, 'terminal.sqlite'));
    expect(existsSync(join(moved, 'terminal.sqlite'))).toBe(true);
    expect(existsSync(join(dir, 'terminal.sqlite'))).toBe(false);
  });

  it('reports the status of the database the configuration given with --config names', async () => {
    const { dir, moved } = movedData();
    await db('migrate', '--data', dir);
    const r = await db('status', '--config', join(dir, 'config.json'), '--data', tempDir());
    expect(r.code).toBe(0);
    expect(r.out).toContain(`database: ${join(moved, 'terminal.sqlite')}\n`);
    expect(r.out).toContain('pending (0):');
  });

  it('works on DIR/terminal.sqlite when the configuration names no data directory', async () => {
    const dir = tempDir();
    const r = await db('status', '--data', dir);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`database: ${join(dir, 'terminal.sqlite')} (no schema yet)\n`);
  });

  it('works on the file --db names, whatever the configuration says', async () => {
    const { dir, moved } = movedData();
    const file = join(tempDir(), 'other.sqlite');
    expect((await db('migrate', '--db', file, '--data', dir)).code).toBe(0);
    expect(existsSync(file)).toBe(true);
    expect(existsSync(join(moved, 'terminal.sqlite'))).toBe(false);
  });

  it('refuses a configuration that does not validate, naming the file and the key, exit 2', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ terminal: { data_dir: '' } }));
    const r = await db('migrate', '--data', dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${join(dir, 'config.json')}: terminal.data_dir`);
    expect(existsSync(join(dir, 'terminal.sqlite'))).toBe(false);
  });
});
