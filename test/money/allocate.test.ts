import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate } from '../../src/money/index.js';

describe('allocate', () => {
  it('gives the leftover units to the largest remainders', () => {
    // 300 over 142.4 : 157.6 -> floors 142 and 157, the spare unit to .6
    expect(allocate(300n, [2250n, 2490n])).toEqual([142n, 158n]);
  });

  it('breaks a tie in favour of the earlier line', () => {
    expect(allocate(1n, [1n, 1n])).toEqual([1n, 0n]);
    expect(allocate(2n, [1n, 1n, 1n])).toEqual([1n, 1n, 0n]);
  });

  it('allocates nothing over weights that are all zero', () => {
    expect(allocate(5n, [0n, 0n])).toEqual([0n, 0n]);
  });

  it('gives nothing to a zero weight', () => {
    expect(allocate(10n, [0n, 3n, 0n])).toEqual([0n, 10n, 0n]);
  });

  it('allocates a negative total as the mirror of the positive one', () => {
    expect(allocate(-300n, [2250n, 2490n])).toEqual([-142n, -158n]);
  });

  it('always sums exactly to the total', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 9n }), { minLength: 1, maxLength: 60 }),
        (total, weights) => {
          const parts = allocate(total, weights);
          const expected = weights.some((w) => w > 0n) ? total : 0n;
          expect(parts.reduce((a, b) => a + b, 0n)).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('keeps every part within one unit of its exact share', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 9n }), { minLength: 1, maxLength: 60 }),
        (total, weights) => {
          const sum = weights.reduce((a, b) => a + b, 0n);
          fc.pre(sum > 0n);
          allocate(total, weights).forEach((part, i) => {
            const exactTimesSum = total * (weights[i] ?? 0n);
            expect(part * sum <= exactTimesSum + sum).toBe(true);
            expect(part * sum >= exactTimesSum - sum).toBe(true);
          });
        },
      ),
      { numRuns: 2000 },
    );
  });
});
