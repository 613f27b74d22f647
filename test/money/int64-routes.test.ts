// The machine-integer routes of src/money (values held within 64 bits, each with a guard and
// a bigint fallback) give what the plain routes give, on both sides of every guard: units
// below and beyond 2^31, 2^53, 2^62 and 2^63, shifts beyond what the route takes, negative
// values and divisors.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocate,
  allocateSmall,
  div,
  fromMinor,
  mul,
  mulRounded,
  round,
  roundedUnitsToNumber,
  toNumber,
  toNumberByText,
  unitsQuotientToNumber,
  unitsToNumber,
} from '../../src/money/index.js';

/** Units on both sides of every guard of the 64-bit routes. */
const unitsArb = fc.oneof(
  fc.bigInt({ min: -1_000_000n, max: 1_000_000n }),
  fc.bigInt({ min: -(2n ** 31n) - 10n, max: 2n ** 31n + 10n }),
  fc.bigInt({ min: 2n ** 53n - 10n, max: 2n ** 53n + 10n }),
  fc.bigInt({ min: -(2n ** 53n) - 10n, max: -(2n ** 53n) + 10n }),
  fc.bigInt({ min: 2n ** 62n - 10n, max: 2n ** 62n + 10n }),
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
  fc.bigInt({ min: -(2n ** 90n), max: 2n ** 90n }),
);

describe('unitsToNumber', () => {
  it('gives the double of the decimal text, through the 64-bit slot or the text', () => {
    fc.assert(
      fc.property(unitsArb, fc.integer({ min: 0, max: 25 }), (units, scale) => {
        expect(unitsToNumber(units, scale)).toBe(toNumberByText(fromMinor(units, scale)));
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads the slot exactly at the edges of the safe integers', () => {
    const edges = [2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 32n - 1n, 2n ** 32n, 1n, 0n];
    for (const e of edges) {
      for (const units of [e, -e]) {
        expect(unitsToNumber(units, 0)).toBe(toNumberByText(fromMinor(units, 0)));
        expect(unitsToNumber(units, 3)).toBe(toNumberByText(fromMinor(units, 3)));
      }
    }
  });
});

describe('roundedUnitsToNumber', () => {
  it('gives the double of the value rounded half away from zero', () => {
    fc.assert(
      fc.property(
        unitsArb,
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 8 }),
        (units, scale, digits) => {
          expect(roundedUnitsToNumber(units, scale, digits)).toBe(
            toNumber(round(fromMinor(units, scale), digits)),
          );
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('rounds exact halves away from zero on the 64-bit route', () => {
    expect(roundedUnitsToNumber(125n, 3, 2)).toBe(0.13);
    expect(roundedUnitsToNumber(-125n, 3, 2)).toBe(-0.13);
    expect(roundedUnitsToNumber(124n, 3, 2)).toBe(0.12);
  });
});

describe('unitsQuotientToNumber', () => {
  const divisorArb = fc.oneof(
    fc.bigInt({ min: 1n, max: 5000n }),
    fc.bigInt({ min: -5000n, max: -1n }),
    fc.bigInt({ min: 2n ** 62n - 10n, max: 2n ** 62n + 10n }),
    fc.bigInt({ min: 1n, max: 2n ** 80n }),
  );

  it('gives the double of the exact quotient rounded half away from zero', () => {
    fc.assert(
      fc.property(
        unitsArb,
        fc.integer({ min: 0, max: 14 }),
        divisorArb,
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 8 }),
        (units, scale, divisorUnits, divisorScale, digits) => {
          const b = fromMinor(divisorUnits, divisorScale);
          expect(unitsQuotientToNumber(units, scale, b, digits)).toBe(
            toNumber(div(fromMinor(units, scale), b, digits)),
          );
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('refuses a zero divisor', () => {
    expect(() => unitsQuotientToNumber(1n, 0, fromMinor(0n, 2), 2)).toThrow(RangeError);
  });
});

describe('mulRounded', () => {
  it('gives round(mul(a, b)) half away from zero, on both sides of its 2^30 guard', () => {
    const factor = fc.oneof(
      fc.bigInt({ min: 0n, max: 100_000n }),
      fc.bigInt({ min: 2n ** 30n - 10n, max: 2n ** 30n + 10n }),
      fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n }),
    );
    fc.assert(
      fc.property(
        factor,
        fc.integer({ min: 0, max: 12 }),
        factor,
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 0, max: 6 }),
        (au, as, bu, bs, digits) => {
          const a = fromMinor(au, as);
          const b = fromMinor(bu, bs);
          expect(mulRounded(a, b, digits)).toEqual(round(mul(a, b), digits));
        },
      ),
      { numRuns: 20_000 },
    );
  });
});

describe('allocateSmall', () => {
  const weightArb = fc.oneof(
    fc.bigInt({ min: 0n, max: 50n }),
    fc.bigInt({ min: 0n, max: 100_000n }),
    fc.bigInt({ min: 2n ** 31n - 5n, max: 2n ** 31n + 5n }),
    fc.bigInt({ min: -5n, max: 5n }),
  );
  const totalArb = fc.oneof(
    fc.bigInt({ min: 0n, max: 100_000n }),
    fc.bigInt({ min: 2n ** 31n - 5n, max: 2n ** 31n + 5n }),
    fc.bigInt({ min: -100n, max: 100n }),
  );

  it('writes what allocate gives within its ground, and no part outside it', () => {
    let inside = 0;
    let outside = 0;
    fc.assert(
      fc.property(totalArb, fc.array(weightArb, { maxLength: 60 }), (total, list) => {
        const n = list.length;
        const weights = new BigInt64Array(n + 3).fill(7n); // slots beyond n are not read
        list.forEach((w, i) => (weights[i] = w));
        const work = new BigInt64Array(3 * n + 2).fill(-9n);
        const sum = list.reduce((a, b) => a + b, 0n);
        const ground =
          total >= 0n && total < 2n ** 31n && list.every((w) => w >= 0n && w < 2n ** 31n);
        const small = ground && sum < 2n ** 31n;
        const done = allocateSmall(total, weights, n, work);
        expect(done).toBe(small);
        if (done) {
          inside += 1;
          expect(Array.from(work.subarray(0, n))).toEqual(allocate(total, list));
        } else {
          outside += 1;
          expect(Array.from(work.subarray(0, n))).toEqual(list.map(() => -9n)); // no part written
        }
      }),
      { numRuns: 20_000 },
    );
    // Both routes were taken.
    expect(inside).toBeGreaterThan(1000);
    expect(outside).toBeGreaterThan(1000);
  });
});
