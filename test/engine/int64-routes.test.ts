// A line's current amount lives in a 64-bit slot (LineState) while it fits, and the hot loops
// compute on machine integers there; beyond 64 bits (or the tighter bounds of each loop)
// they take the bigint and decimal routes. Checks that mix lines far beyond 2^63 minor units
// with ordinary ones give each line what exact decimal arithmetic gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EngineCheckItem } from '../../src/contract/engine.js';
import { LineState } from '../../src/engine/state.js';
import {
  type Dec,
  ZERO,
  allocate,
  dec,
  div,
  fromMinor,
  mul,
  round,
  sub,
  toNumber,
} from '../../src/money/index.js';
import { fixture, item, rule, run } from './helpers.js';

const INT64 = 2n ** 63n;

describe('LineState', () => {
  it('keeps any current amount exactly, in its slot within 64 bits and aside beyond', () => {
    const units = fc.oneof(
      fc.bigInt({ min: -1_000_000n, max: 1_000_000n }),
      fc.bigInt({ min: INT64 - 10n, max: INT64 + 10n }),
      fc.bigInt({ min: -INT64 - 10n, max: -INT64 + 10n }),
      fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
    );
    fc.assert(
      fc.property(units, fc.array(units, { minLength: 1, maxLength: 8 }), (start, steps) => {
        const slots = new BigInt64Array(3);
        const line = new LineState(
          {
            index: 2,
            item: { code: 'A', quantity: 1 },
            quantity: dec(1),
            amount: fromMinor(start, 2),
            moneyDigits: 2,
            priceDigits: 2,
            quantityDigits: 3,
          },
          slots,
        );
        for (const u of steps) {
          line.currentUnits = u;
          expect(line.currentUnits).toBe(u);
          const inside = u >= -INT64 && u < INT64;
          expect(line.wide === null).toBe(inside);
          if (inside) expect(slots[2]).toBe(u);
          expect(line.discount).toEqual(fromMinor(start - u, 2));
        }
        expect(slots[0]).toBe(0n); // other lines' slots untouched
        expect(slots[1]).toBe(0n);
      }),
      { numRuns: 3000 },
    );
  });
});

/** A line amount in minor units at two digits: ordinary, or beyond 64 bits. */
const amountArb = fc.oneof(
  fc.bigInt({ min: 0n, max: 10_000_000n }),
  fc.bigInt({ min: INT64, max: 2n ** 70n }),
  fc.bigInt({ min: 2n ** 31n - 100n, max: 2n ** 31n + 100n }),
);

/** Check lines with authoritative amounts (2 digits) and quantities 1-3. */
function lines(amounts: readonly bigint[]): { items: EngineCheckItem[]; decs: Dec[] } {
  const decs = amounts.map((a) => fromMinor(a, 2));
  const items = decs.map((d, i) => item(`A${i}`, 1 + (i % 3), 1, { amount: toNumber(d) }));
  return { items: items as EngineCheckItem[], decs: decs.map((d) => dec(toNumber(d))) };
}

const lineOf = (answer: ReturnType<typeof run>, i: number): EngineCheckItem => {
  if ('error' in answer) throw new Error(answer.error.message);
  return answer.check.check_items![i]!;
};

describe('checks with lines beyond 64 bits', () => {
  it('gives each line its exact percentage discount and percentage bonuses', () => {
    fc.assert(
      fc.property(
        fc.array(amountArb, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 1000 }), // tenths of a percent
        fc.integer({ min: 1, max: 20 }),
        (amounts, tenths, bonusPercent) => {
          const { items, decs } = lines(amounts);
          const answer = run(
            fixture({
              rules: [
                rule('d', {
                  combine: 1,
                  value: { type: 'percentage', thresholds: [{ from: 0, value: tenths / 10 }] },
                }),
                rule('b', {
                  action_type: 'bonuses',
                  value: { type: 'percentage', thresholds: [{ from: 0, value: bonusPercent }] },
                }),
              ],
              check: { customer_id: 'c1', check_items: items },
            }),
          );
          decs.forEach((amount, i) => {
            // tenths/10 % of the line, rounded once half away from zero; the bonuses on the rest
            const discount = div(mul(amount, dec(tenths)), dec(1000), 2);
            const bonuses = div(mul(sub(amount, discount), dec(bonusPercent)), dec(100), 2);
            const out = lineOf(answer, i);
            expect(out.discount_amount).toBe(toNumber(discount));
            expect(out.bonuses_added).toBe(toNumber(bonuses));
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('spreads a fixed amount over the lines as the largest-remainder allocation does', () => {
    fc.assert(
      fc.property(
        fc.array(amountArb, { minLength: 1, maxLength: 8 }),
        fc.oneof(fc.integer({ min: 0, max: 500 }), fc.constant(1e15)),
        (amounts, value) => {
          const { items, decs } = lines(amounts);
          const answer = run(
            fixture({
              rules: [
                rule('d', {
                  combine: 1,
                  value: { type: 'amount', thresholds: [{ from: 0, value }] },
                }),
              ],
              check: { customer_id: 'c1', check_items: items },
            }),
          );
          const weights = decs.map((d) => round(d, 2).units);
          const sum = weights.reduce((a, b) => a + b, 0n);
          const wanted = round(dec(value), 2).units;
          const parts = allocate(wanted > sum ? sum : wanted, weights);
          parts.forEach((p, i) => {
            expect(lineOf(answer, i).discount_amount).toBe(toNumber(fromMinor(p, 2)));
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('spreads bonuses paid over the lines by their ceilings', () => {
    fc.assert(
      fc.property(
        fc.array(amountArb, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 100 }),
        (amounts, requested) => {
          const { items, decs } = lines(amounts);
          const answer = run(
            fixture({
              loyalty: { id: 'l1', currency: 'EUR', bonus_payment_max_percent: 50, bonus_rate: 1 },
              check: { customer_id: 'c1', bonuses_redeemed_amount: requested, check_items: items },
            }),
          );
          // Ceilings: half of each line, rounded down; the granted money spread over them.
          const ceilings = decs.map((d) => div(mul(d, dec(50)), dec(100), 2, 'down').units);
          const total = ceilings.reduce((a, b) => a + b, 0n);
          const granted = [BigInt(requested) * 100n, 100n * 100n, total].reduce((a, b) =>
            a < b ? a : b,
          ); // requested, the customer's 100 bonuses, the ceiling
          const parts = allocate(granted, ceilings);
          parts.forEach((p, i) => {
            expect(lineOf(answer, i).calculated_bonuses_redeemed_amount).toBe(
              toNumber(p === 0n ? ZERO : fromMinor(p, 2)),
            );
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
