// The screen's exact decimals are src/money's (through renderer/money.ts); what is the
// screen's own is reading what a cashier types.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { numberStyle } from '../../renderer/i18n.js';
import {
  add,
  cmp,
  dec,
  div,
  parseTyped,
  sub,
  toFixed,
  toNumber,
  typedText,
} from '../../renderer/money.js';

const d = (s: string) => {
  const v = parseTyped(s);
  if (!v) throw new Error(s);
  return v;
};

describe('what a cashier types', () => {
  it('refuses a comma where the point is the decimal separator', () => {
    expect(parseTyped('12,50')).toBeNull();
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

describe('what a cashier types in German', () => {
  const de = numberStyle('de');
  const read = (text: string) => {
    const v = parseTyped(text, de);
    return v && toFixed(v);
  };

  it('reads a comma as the decimal separator', () => {
    expect(read('12,50')).toBe('12.50');
    expect(read(',5')).toBe('0.5');
  });

  it('reads points between groups of three digits as thousands separators', () => {
    expect(read('1.234,50')).toBe('1234.50');
    expect(read('1.234.567')).toBe('1234567');
  });

  it('refuses a point anywhere else rather than guess what it means', () => {
    expect(read('12.50')).toBeNull();
    expect(read('1.23')).toBeNull();
    expect(read('1234.567')).toBeNull();
    expect(read('1,234.5')).toBeNull();
    expect(read('1,2,3')).toBeNull();
  });

  it('writes a value back into a field with a decimal comma and no groups', () => {
    expect(typedText(dec('1234.5'), de)).toBe('1234,5');
  });
});

describe('what a cashier types in English', () => {
  const en = numberStyle('en');

  it('reads commas between groups of three digits as thousands separators', () => {
    expect(toFixed(parseTyped('1,234.50', en)!)).toBe('1234.50');
  });

  it('refuses a comma anywhere else', () => {
    expect(parseTyped('12,50', en)).toBeNull();
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
