import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

describe('loyalty-terminal', () => {
  it('prints its help with --help and exits 0', async () => {
    const io = memoryIO();
    expect(await main(['--help'], io)).toBe(0);
    expect(io.out).toContain('contract validate TYPE FILE|-');
  });

  it('prints the package version with --version', async () => {
    const io = memoryIO();
    expect(await main(['--version'], io)).toBe(0);
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(io.out).toBe(`${pkg.version}\n`);
  });

  it('refuses an unknown command with exit 2', async () => {
    const io = memoryIO();
    expect(await main(['frobnicate'], io)).toBe(2);
    expect(io.err).toContain('unknown command "frobnicate"');
  });
});

describe('the bin launcher', () => {
  it('tells an older Node what it needs instead of crashing', () => {
    const r = spawnSync(
      process.execPath,
      ['-r', './test/cli/fixtures/pretend-node-20.cjs', 'bin/loyalty-terminal.cjs', '--version'],
      { encoding: 'utf8' },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('needs Node.js 24 or newer; this is Node.js 20.20.2');
  });

  it('runs the built CLI on Node 24', () => {
    // `npm test` builds first, so dist/ is what the bin runs.
    const r = spawnSync(process.execPath, ['bin/loyalty-terminal.cjs', '--version'], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
