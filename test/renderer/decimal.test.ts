import { describe, expect, it } from 'vitest';
import {
  add,
  compare,
  divide,
  fromNumber,
  numberText,
  parseDec,
  round,
  sub,
  toNumber,
  toText,
} from '../../renderer/decimal.js';

const d = (s: string) => {
  const v = parseDec(s);
  if (!v) throw new Error(s);
  return v;
};

describe('decimal', () => {
  it('parses a comma as the decimal separator', () => {
    expect(toText(d('12,50'))).toBe('12.50');
  });

  it('refuses text that is not a plain decimal', () => {
    expect(parseDec('1e3')).toBeNull();
    expect(parseDec('12.5.1')).toBeNull();
    expect(parseDec('')).toBeNull();
    expect(parseDec('.')).toBeNull();
  });

  it('adds 0.1 and 0.2 to exactly 0.3', () => {
    expect(toText(add(d('0.1'), d('0.2')))).toBe('0.3');
  });

  it('subtracts across scales', () => {
    expect(toText(sub(d('27'), d('10.05')))).toBe('16.95');
  });

  it('compares across scales', () => {
    expect(compare(d('1.50'), d('1.5'))).toBe(0);
    expect(compare(d('-1'), d('0'))).toBe(-1);
  });

  it('rounds half away from zero', () => {
    expect(toText(round(d('1.005'), 2))).toBe('1.01');
    expect(toText(round(d('-1.005'), 2))).toBe('-1.01');
    expect(toText(round(d('1.004'), 2))).toBe('1.00');
  });

  it('divides a prepaid amount by a litre price to three decimals', () => {
    expect(toText(divide(d('50'), d('1.799'), 3)!)).toBe('27.793');
  });

  it('refuses to divide by zero', () => {
    expect(divide(d('1'), d('0'), 2)).toBeNull();
  });

  it('expands exponent forms of JSON numbers', () => {
    expect(numberText(1e-7)).toBe('0.0000001');
    expect(numberText(1.5e21)).toBe('1500000000000000000000');
    expect(toText(fromNumber(0.1))).toBe('0.1');
  });

  it('converts back to the JSON number it stands for', () => {
    expect(toNumber(d('27.793'))).toBe(27.793);
  });
});
