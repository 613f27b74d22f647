// Every way the till's Node is started runs it with the same V8 flags
// (src/config/runtime-flags.ts): the command's shebang, npm start and npm run bench, Electron.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { V8_FLAGS } from '../../src/config/runtime-flags.js';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const flags = V8_FLAGS.join(' ');

describe('the V8 flags the till runs with', () => {
  it('are on the loyalty-terminal command’s shebang', () => {
    expect(read('bin/loyalty-terminal.cjs').split('\n')[0]).toBe(`#!/usr/bin/env -S node ${flags}`);
  });

  it('are on npm start and npm run bench', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts.start).toContain(`node ${flags} bin/loyalty-terminal.cjs`);
    expect(scripts.bench).toContain(`node ${flags} dist/bench/run.js`);
  });

  it('are given to Electron as its js-flags', () => {
    expect(read('main/main.ts')).toContain("appendSwitch('js-flags', V8_FLAGS.join(' '))");
  });

  it('cap the young generation at 16 MB a half', () => {
    const r = spawnSync(
      process.execPath,
      [
        ...V8_FLAGS,
        '-e',
        "const s = require('node:v8').getHeapSpaceStatistics().find((x) => x.space_name === 'new_space'); let k = []; for (let i = 0; i < 2e6; i++) { k.push({ i }); if (k.length > 5e4) k = []; } const n = require('node:v8').getHeapSpaceStatistics().find((x) => x.space_name === 'new_space'); console.log(Math.max(s.space_size, n.space_size));",
      ],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(Number(r.stdout.trim())).toBeLessThanOrEqual(32 * 2 ** 20);
  });
});
