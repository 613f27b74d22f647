import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

const example = (name: string) => readFileSync(`test/contract/examples/${name}.json`, 'utf8');

async function validate(args: string[], files: Record<string, string> = {}, stdin = '') {
  const io = memoryIO(files, stdin);
  const code = await main(['contract', 'validate', ...args], io);
  return { code, out: io.out, err: io.err };
}

describe('contract validate', () => {
  for (const [type, file] of [
    ['Check', 'check'],
    ['Coupon', 'coupon'],
    ['BusinessStaff', 'business-staff'],
  ] as const) {
    it(`accepts a valid ${type} with exit 0`, async () => {
      const r = await validate([type, 'p.json'], { 'p.json': example(`${file}.valid`) });
      expect(r).toMatchObject({ code: 0, out: `ok: the payload is a valid ${type}\n` });
    });

    it(`prints every problem of a broken ${type} with its path and exits 1`, async () => {
      const r = await validate([type, 'p.json'], { 'p.json': example(`${file}.broken`) });
      expect(r.code).toBe(1);
      const lines = r.out.trim().split('\n');
      expect(lines.length).toBeGreaterThan(1);
      for (const line of lines) expect(line).toMatch(/^[\w.[\]()]+: .+/);
    });
  }

  it('names the path of each problem of a broken Check', async () => {
    const r = await validate(['Check', 'p.json'], { 'p.json': example('check.broken') });
    expect(r.out).toContain('id: the user identifier has at least 3 characters\n');
    expect(r.out).toContain('odometer: at most two decimal digits\n');
    expect(r.out).toContain('transaction_cancelled: a 0/1 integer flag\n');
    expect(r.out).toContain('summary_amount: unknown field\n');
  });

  it('reads the payload from standard input with -', async () => {
    const r = await validate(['Check', '-'], {}, example('check.valid'));
    expect(r.code).toBe(0);
  });

  it('exits 1 for malformed JSON', async () => {
    const r = await validate(['Check', '-'], {}, '{"id": ');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^\(root\): malformed JSON/);
  });

  it('exits 2 for an unknown type', async () => {
    const r = await validate(['Cheque', 'p.json'], { 'p.json': '{}' });
    expect(r.code).toBe(2);
    expect(r.err).toContain('unknown type "Cheque"');
  });

  it('exits 2 for an unreadable file', async () => {
    const r = await validate(['Check', 'missing.json']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('cannot read missing.json');
  });

  it('refuses an unknown field by default and keeps it with --inbound', async () => {
    const payload = JSON.stringify({ id: 'card-123', added_by_server: 1 });
    expect((await validate(['Check', '-'], {}, payload)).out).toBe(
      'added_by_server: unknown field\n',
    );
    expect((await validate(['--inbound', 'Check', '-'], {}, payload)).code).toBe(0);
  });

  it('names a type of two surfaces by its surface', async () => {
    const io = memoryIO();
    expect(await main(['contract', 'validate', '--types'], io)).toBe(0);
    const types = io.out.trim().split('\n');
    expect(types).toEqual(
      expect.arrayContaining(['corporate.Business', 'business.Business', 'Check', 'CheckResponse']),
    );
    expect(types).not.toContain('Business');
  });
});
