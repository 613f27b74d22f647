import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileLogger, isSecretKey, REDACTED, redact } from '../../src/terminal/log.js';
import { memoryLogger } from '../support/log.js';

describe('redaction', () => {
  it('replaces secret-named keys at any depth', () => {
    const out = redact({
      check: { special_account_pin: '1234', check_items: [{ code: 'A', auth_code: '99' }] },
      central: {
        api_key: 'k',
        nested: { deeper: { password: 'p', token: 't', clientSecret: 's' } },
      },
    });
    expect(out).toEqual({
      check: { special_account_pin: REDACTED, check_items: [{ code: 'A', auth_code: REDACTED }] },
      central: {
        api_key: REDACTED,
        nested: { deeper: { password: REDACTED, token: REDACTED, clientSecret: REDACTED } },
      },
    });
  });

  it('keeps keys that only contain the letters of a secret word', () => {
    expect(isSecretKey('shipping_amount')).toBe(false);
    expect(isSecretKey('spinner')).toBe(false);
    expect(isSecretKey('special_account_pin_required')).toBe(true);
    expect(isSecretKey('cardotppassword')).toBe(true);
    expect(isSecretKey('Authorization')).toBe(true);
    expect(isSecretKey('apiKey')).toBe(true);
  });

  it('survives cycles', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    expect(redact(a)).toEqual({ name: 'a', self: '[circular]' });
  });

  it('redacts what a logger writes, including a child logger fields', () => {
    const log = memoryLogger();
    log.child({ token: 'abc' }).info('signed in', { staff: { auth_code: '1234', name: 'Ann' } });
    expect(log.records[0]).toMatchObject({
      msg: 'signed in',
      token: REDACTED,
      staff: { auth_code: REDACTED, name: 'Ann' },
    });
    expect(JSON.stringify(log.records)).not.toContain('1234');
  });

  it('writes an Error as its name, message and stack', () => {
    const log = memoryLogger();
    log.error('failed', { err: new Error('disk full') });
    expect(log.records[0]).toMatchObject({ err: { name: 'Error', message: 'disk full' } });
  });
});

describe('the file logger', () => {
  it('writes one JSON object a line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lt-log-'));
    const log = createFileLogger({ dir, now: () => new Date('2025-01-01T00:00:00Z') });
    log.info('one', { n: 1 });
    log.warn('two');
    log.close();
    const lines = readFileSync(join(dir, 'terminal.log'), 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([
      { time: '2025-01-01T00:00:00.000Z', level: 'info', msg: 'one', n: 1 },
      { time: '2025-01-01T00:00:00.000Z', level: 'warn', msg: 'two' },
    ]);
  });

  it('rotates by size and keeps a bounded number of files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lt-log-'));
    const log = createFileLogger({ dir, maxBytes: 200, keep: 2 });
    for (let i = 0; i < 40; i++) log.info('line', { i, pad: 'x'.repeat(40) });
    log.close();
    expect(readdirSync(dir).sort()).toEqual(['terminal.1.log', 'terminal.2.log', 'terminal.log']);
    for (const f of readdirSync(dir)) expect(statSync(join(dir, f)).size).toBeLessThanOrEqual(200);
    // The newest line is in the current file, the ones before it in .1.
    const current = readFileSync(join(dir, 'terminal.log'), 'utf8').trim().split('\n');
    expect(JSON.parse(current.at(-1)!)).toMatchObject({ i: 39 });
  });

  it('creates the log file readable by its owner only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lt-log-'));
    const log = createFileLogger({ dir });
    log.info('x');
    log.close();
    if (process.platform !== 'win32')
      expect(statSync(join(dir, 'terminal.log')).mode & 0o077).toBe(0);
  });

  it('skips records below its level', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lt-log-'));
    const log = createFileLogger({ dir, level: 'warn' });
    log.info('quiet');
    log.error('loud');
    log.close();
    expect(readFileSync(join(dir, 'terminal.log'), 'utf8')).not.toContain('quiet');
  });
});
