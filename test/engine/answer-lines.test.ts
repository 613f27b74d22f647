// Answer lines are copied from a per-check shell when their request line has the same keys
// in the same order as the check's first one, else built by the literal: either way each
// answer line is the request line's keys in its own order, then the calculated ones.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EngineFixture, type EngineCheckItem } from '../../src/contract/engine.js';
import { calculate, compileRules } from '../../src/engine/index.js';
import { fixture, rule } from './helpers.js';

const CALCULATED = [
  'quantity',
  'amount',
  'discount_amount',
  'bonuses_added',
  'calculated_price',
  'calculated_discount_amount',
  'calculated_unit_discount_amount',
  'calculated_bonuses_redeemed_amount',
  'calculated_unit_bonuses_redeemed_amount',
  'amount_decimal_digits',
  'price_decimal_digits',
  'bonuses_decimal_digits',
];

/** A request line with some optional keys, in a chosen order. */
const lineArb = fc
  .record({
    withCategory: fc.boolean(),
    withTitle: fc.boolean(),
    withUnit: fc.boolean(),
    withAmount: fc.boolean(),
    order: fc.array(fc.nat(), { minLength: 7, maxLength: 7 }),
    quantity: fc.integer({ min: 0, max: 3 }),
    price: fc.integer({ min: 1, max: 5000 }),
  })
  .map((r) => {
    const entries: [string, unknown][] = [
      ['code', 'A'],
      ['quantity', r.quantity],
      ['price', r.price / 100],
    ];
    if (r.withCategory) entries.push(['category', 'food']);
    if (r.withTitle) entries.push(['title', 'Apples']);
    if (r.withUnit) entries.push(['unit', 'kg']);
    if (r.withAmount) entries.push(['amount', (r.price * r.quantity) / 100]);
    const keyed = entries.map((e, i) => ({ e, k: r.order[i] ?? 0 }));
    keyed.sort((a, b) => a.k - b.k);
    return Object.fromEntries(keyed.map((x) => x.e)) as EngineCheckItem;
  });

describe('answer lines', () => {
  it("list the request line's keys in its order, then the calculated ones, and equal the literal", () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (items, same) => {
          // Half the time every line has the first line's keys and order (the shell route).
          const lines = same ? items.map((it) => ({ ...items[0]!, price: it.price })) : items;
          // Parsed (the schema orders every line's keys alike), then given to the engine as
          // built here, each line in its own order.
          const { rules, ...context } = EngineFixture.parse(
            fixture({
              rules: [rule('d', { combine: 1 })],
              check: { customer_id: 'c1', check_items: lines },
            }),
          );
          const answer = calculate(
            { ...context, check: { ...context.check!, check_items: lines } },
            compileRules(rules),
          );
          if ('error' in answer) throw new Error(answer.error.message);
          answer.check.check_items!.forEach((out, i) => {
            const request = lines[i]!;
            const keys = Object.keys(request);
            const expected = [...keys, ...CALCULATED.filter((k) => !keys.includes(k))];
            expect(Object.keys(out)).toEqual(expected);
            for (const k of keys) {
              if (!CALCULATED.includes(k))
                expect(out[k as keyof EngineCheckItem]).toEqual(
                  request[k as keyof EngineCheckItem],
                );
            }
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});
