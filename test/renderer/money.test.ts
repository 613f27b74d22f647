// The screen's exact decimals are src/money's (through renderer/money.ts); what is the
// screen's own is reading what a cashier types.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { add, cmp, dec, div, parseTyped, sub, toFixed, toNumber } from '../../renderer/money.js';

const d = (s: string) => {
  const v = parseTyped(s);
  if (!v) throw new Error(s);
  return v;
};

describe('what a cashier types', () => {
  it('parses a comma as the decimal separator', () => {
    expect(toFixed(d('12,50'))).toBe('12.50');
  });

  it('refuses text that is not a plain decimal', () => {
    expect(parseTyped('1e3')).toBeNull();
    expect(parseTyped('12.5.1')).toBeNull();
    expect(parseTyped('')).toBeNull();
    expect(parseTyped('.')).toBeNull();
  });

  it('reads a leading or a trailing point', () => {
    expect(toFixed(d('.5'))).toBe('0.5');
    expect(toFixed(d('-.5'))).toBe('-0.5');
    expect(toFixed(d('5.'))).toBe('5');
    expect(toFixed(d(' +3 '))).toBe('3');
  });
});

describe('the sums the screen makes, by src/money', () => {
  it('adds 0.1 and 0.2 to exactly 0.3', () => {
    expect(toFixed(add(d('0.1'), d('0.2')))).toBe('0.3');
  });

  it('subtracts across scales', () => {
    expect(toFixed(sub(d('27'), d('10.05')))).toBe('16.95');
  });

  it('compares across scales', () => {
    expect(cmp(d('1.50'), d('1.5'))).toBe(0);
    expect(cmp(d('-1'), d('0'))).toBe(-1);
  });

  it('rounds half away from zero', () => {
    expect(toFixed(d('1.005'), 2)).toBe('1.01');
    expect(toFixed(d('-1.005'), 2)).toBe('-1.01');
    expect(toFixed(d('1.004'), 2)).toBe('1.00');
  });

  it('divides a prepaid amount by a litre price to three decimals', () => {
    expect(toFixed(div(d('50'), d('1.799'), 3))).toBe('27.793');
  });

  it('refuses to divide by zero', () => {
    expect(() => div(d('1'), d('0'), 2)).toThrow(RangeError);
  });

  it('expands exponent forms of JSON numbers', () => {
    expect(toFixed(dec(1e-7))).toBe('0.0000001');
    expect(toFixed(dec(1.5e21))).toBe('1500000000000000000000');
    expect(toFixed(dec(0.1))).toBe('0.1');
  });

  it('converts back to the JSON number it stands for', () => {
    expect(toNumber(d('27.793'))).toBe(27.793);
  });
});

describe('one money module', () => {
  const root = join(import.meta.dirname, '../../renderer');
  const sources = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.startsWith('dist'))
    .map((f) => ({ file: f.split('\\').join('/'), text: readFileSync(join(root, f), 'utf8') }));

  it('is reached by the renderer through money.ts only', () => {
    const doors = sources.filter((s) => /from '(\.\.\/)+src\/money/.test(s.text));
    expect(doors.map((s) => s.file)).toEqual(['money.ts']);
  });

  it('leaves the renderer no decimal arithmetic of its own (no bigint)', () => {
    const own = sources.filter((s) => /\bBigInt\b|\b\d+n\b/.test(s.text)).map((s) => s.file);
    expect(own).toEqual([]);
  });
});
