// The fast paths of src/money give the same answers as the plain routes they shortcut: the
// JSON number by division vs through the decimal text, a double read without printing it vs
// its shortest text, and the largest-remainder allocation by selection vs by sorting.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocate,
  dec,
  div,
  fromMinor,
  parseDec,
  quotientToNumber,
  round,
  roundedToNumber,
  toFixed,
  toNumber,
  toNumberByText,
} from '../../src/money/index.js';

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Units around every boundary of the division route: small, near 2^53, beyond it. */
const unitsArb = fc.oneof(
  fc.bigInt({ min: -1_000_000n, max: 1_000_000n }),
  fc.bigInt({ min: -SAFE, max: SAFE }),
  fc.bigInt({ min: SAFE - 1000n, max: SAFE + 1000n }),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
);

describe('toNumber', () => {
  it('gives the double of the decimal text for every units and scale', () => {
    fc.assert(
      fc.property(unitsArb, fc.integer({ min: 0, max: 30 }), (units, scale) => {
        const d = fromMinor(units, scale);
        expect(Object.is(toNumber(d), toNumberByText(d))).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it('never gives -0', () => {
    expect(Object.is(toNumber(fromMinor(0n, 2)), 0)).toBe(true);
    expect(Object.is(toNumber(fromMinor(-0n, 25)), 0)).toBe(true);
  });
});

describe('dec of a double', () => {
  const textRoute = (x: number) => parseDec(String(x))!;

  it('reads any double as its shortest text says, to the same units and scale', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(dec(x)).toEqual(textRoute(x));
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads prices, quantities and rates (n / 10^k) as their text says', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 53), max: 2 ** 53 }),
        fc.integer({ min: 0, max: 16 }),
        (n, k) => {
          const x = n / 10 ** k;
          expect(dec(x)).toEqual(textRoute(x));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('keeps the awkward ones exact', () => {
    for (const x of [
      0.1,
      0.3,
      2.675,
      1.005,
      0.1 + 0.2,
      1e-7,
      1.5e-7,
      123456.789,
      1 - 2 ** -53,
      10 - 2 ** -49,
    ]) {
      expect(toFixed(dec(x))).toBe(toFixed(textRoute(x)));
    }
  });
});

describe('allocate', () => {
  /** The definition: floors, then one unit each to the largest remainders by a stable sort. */
  function reference(total: bigint, weights: readonly bigint[]): bigint[] {
    if (total < 0n) return reference(-total, weights).map((p) => -p);
    const sum = weights.reduce((a, b) => a + b, 0n);
    if (sum === 0n || total === 0n) return weights.map(() => 0n);
    const parts = weights.map((w) => (total * w) / sum);
    const rems = weights.map((w, i) => total * w - parts[i]! * sum);
    let left = total - parts.reduce((a, b) => a + b, 0n);
    const order = rems
      .map((r, i) => ({ r, i }))
      .sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
    for (const { i } of order) {
      if (left === 0n) break;
      parts[i] = parts[i]! + 1n;
      left -= 1n;
    }
    return parts;
  }

  it('hands out the same parts as sorting the remainders', () => {
    const small = fc.bigInt({ min: 0n, max: 50n }); // many ties
    const money = fc.bigInt({ min: 0n, max: 100_000n });
    const huge = fc.bigInt({ min: 0n, max: 2n ** 70n }); // beyond the 64-bit path
    fc.assert(
      fc.property(
        fc.oneof(small, money, huge),
        fc.oneof(
          fc.array(small, { maxLength: 60 }),
          fc.array(money, { maxLength: 60 }),
          fc.array(huge, { maxLength: 20 }),
        ),
        fc.boolean(),
        (total, weights, negative) => {
          const t = negative ? -total : total;
          expect(allocate(t, weights)).toEqual(reference(t, weights));
        },
      ),
      { numRuns: 20_000 },
    );
  });
});

describe('roundedToNumber', () => {
  it('gives the double of the value rounded half away from zero, for every units and scale', () => {
    fc.assert(
      fc.property(
        unitsArb,
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 0, max: 6 }),
        (units, scale, digits) => {
          const d = fromMinor(units, scale);
          expect(roundedToNumber(d, digits)).toBe(toNumberByText(round(d, digits)));
        },
      ),
      { numRuns: 20_000 },
    );
  });
});

describe('quotientToNumber', () => {
  it('gives the double of the exact quotient rounded half away from zero', () => {
    const nonZero = unitsArb.filter((u) => u !== 0n);
    fc.assert(
      fc.property(
        unitsArb,
        fc.integer({ min: 0, max: 8 }),
        nonZero,
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 6 }),
        (a, aScale, b, bScale, digits) => {
          const x = fromMinor(a, aScale);
          const y = fromMinor(b, bScale);
          expect(quotientToNumber(x, y, digits)).toBe(toNumberByText(div(x, y, digits)));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('refuses a zero divisor', () => {
    expect(() => quotientToNumber(dec(1), dec(0), 2)).toThrow(RangeError);
  });
});
