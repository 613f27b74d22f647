import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  add,
  cmp,
  dec,
  div,
  fromMinor,
  mul,
  neg,
  round,
  sub,
  toFixed,
  toMinor,
  toNumber,
} from '../../src/money/index.js';

describe('dec', () => {
  it('reads a JSON number exactly as its shortest decimal form', () => {
    expect(toFixed(dec(0.1))).toBe('0.1');
    expect(toFixed(dec(2.675))).toBe('2.675');
  });

  it('reads exponent forms', () => {
    expect(toFixed(dec(1e-7))).toBe('0.0000001');
    expect(toFixed(dec('1.5e3'))).toBe('1500');
  });

  it('refuses what is not a finite number', () => {
    expect(() => dec(Number.NaN)).toThrow(RangeError);
    expect(() => dec('12a')).toThrow(RangeError);
  });
});

describe('arithmetic', () => {
  it('adds without binary float error', () => {
    expect(toNumber(add(dec(0.1), dec(0.2)))).toBe(0.3);
  });

  it('subtracts and multiplies exactly', () => {
    expect(toFixed(sub(dec(10), dec(0.01)))).toBe('9.99');
    expect(toFixed(mul(dec(2.5), dec(1.1)))).toBe('2.75');
  });

  it('divides to the asked digits, rounding half away from zero', () => {
    expect(toFixed(div(dec(10), dec(3), 2))).toBe('3.33');
    expect(toFixed(div(dec(-2), dec(3), 2))).toBe('-0.67');
    expect(toFixed(div(dec(1), dec(8), 2))).toBe('0.13');
  });

  it('converts to and from minor units', () => {
    expect(toMinor(dec(12.345), 2)).toBe(1235n);
    expect(toFixed(fromMinor(1234n, 2))).toBe('12.34');
  });
});

describe('round', () => {
  it('rounds half away from zero on the exact decimal (2.675 -> 2.68)', () => {
    expect(toFixed(round(dec(2.675), 2))).toBe('2.68');
    expect(toFixed(round(dec(-2.675), 2))).toBe('-2.68');
  });

  it('rounds to 0 and 3 digits', () => {
    expect(toFixed(round(dec(2.5), 0))).toBe('3');
    expect(toFixed(round(dec(1.0005), 3))).toBe('1.001');
  });

  it('rounds down, floor and ceil when asked', () => {
    expect(toFixed(round(dec(2.495), 2, 'down'))).toBe('2.49');
    expect(toFixed(round(dec(-2.491), 2, 'floor'))).toBe('-2.50');
    expect(toFixed(round(dec(2.491), 2, 'ceil'))).toBe('2.50');
  });

  it('is symmetric: round(-x) = -round(x)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.nat(8),
        fc.nat(8),
        (u, s, d) => {
          const x = fromMinor(u, s);
          expect(cmp(round(neg(x), d), neg(round(x, d)))).toBe(0);
        },
      ),
    );
  });

  it('moves a value by at most half a unit of the last digit', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.nat(8),
        fc.nat(8),
        (u, s, d) => {
          const x = fromMinor(u, s);
          const error = sub(round(x, d), x);
          const half = fromMinor(5n, d + 1);
          expect(cmp(error.units < 0n ? neg(error) : error, half)).toBeLessThanOrEqual(0);
        },
      ),
    );
  });
});
