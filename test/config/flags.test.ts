// src/config/flags.ts: one strict reading of the command line for every entry.
import { describe, expect, it } from 'vitest';
import {
  DATA_FLAGS,
  HELP_FLAG,
  parseFlags,
  parseKnownFlags,
  parsePort,
  PORT_FLAG,
} from '../../src/config/flags.js';

const SPEC = { ...DATA_FLAGS, ...PORT_FLAG, ...HELP_FLAG, json: { type: 'boolean' } } as const;

describe('parseFlags', () => {
  it('reads --flag value and --flag=value alike, and leaves positionals to the command', () => {
    const r = parseFlags(['push', '--data', 'D', '--config=c.json', '--json', '-'], SPEC);
    expect(r).toEqual({
      ok: true,
      values: { data: 'D', config: 'c.json', json: true },
      positionals: ['push', '-'],
    });
  });

  it('refuses an unknown flag, naming it', () => {
    expect(parseFlags(['--data', 'D', '--bogus'], SPEC)).toEqual({
      ok: false,
      message: 'unknown flag --bogus',
    });
    expect(parseFlags(['--bogus=1'], SPEC)).toEqual({ ok: false, message: 'unknown flag --bogus' });
    expect(parseFlags(['-x'], SPEC)).toEqual({ ok: false, message: 'unknown flag -x' });
  });

  it('refuses a flag without its value, also when the next word is another flag', () => {
    for (const args of [['--data'], ['--data', '--json'], ['--data=']]) {
      expect(parseFlags(args, SPEC), args.join(' ')).toEqual({
        ok: false,
        message: '--data needs a value',
      });
    }
  });

  it('refuses a value given to a switch', () => {
    expect(parseFlags(['--json=yes'], SPEC)).toEqual({
      ok: false,
      message: '--json takes no value',
    });
  });

  it('takes -h for --help', () => {
    expect(parseFlags(['-h'], SPEC)).toMatchObject({ ok: true, values: { help: true } });
  });
});

describe('parseKnownFlags (the Electron app, whose argv carries Chromium switches too)', () => {
  it('takes its own flags and leaves every other switch alone', () => {
    const argv = ['/app', '--no-sandbox', '--data', 'D', '--remote-debugging-port=9222'];
    expect(parseKnownFlags(argv, DATA_FLAGS)).toMatchObject({ ok: true, values: { data: 'D' } });
  });

  it('still refuses its own flag without a value', () => {
    expect(parseKnownFlags(['/app', '--config'], DATA_FLAGS)).toEqual({
      ok: false,
      message: '--config needs a value',
    });
  });
});

describe('parsePort', () => {
  it('takes 0..65535, 0 when absent', () => {
    expect(parsePort(undefined)).toEqual({ ok: true, port: 0 });
    expect(parsePort('8080')).toEqual({ ok: true, port: 8080 });
    expect(parsePort('65536')).toEqual({
      ok: false,
      message: '--port takes 0..65535, not "65536"',
    });
    expect(parsePort('eighty')).toMatchObject({ ok: false });
  });
});
