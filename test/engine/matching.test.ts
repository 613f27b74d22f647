import { describe, expect, it } from 'vitest';
import { checkOf, fixture, item, percent, rule } from './helpers.js';

const discounts = (input: Parameters<typeof checkOf>[0]) =>
  checkOf(input).check_items!.map((l) => l.discount_amount);

describe('matching and coverage', () => {
  it('acts on lines matched by code or by category', () => {
    const out = discounts(
      fixture({
        rules: [rule('a', { included_items: ['S1'], included_item_categories: ['coffee'] })],
        check: { check_items: [item('C1', 1, 10), item('S1', 1, 10), item('X1', 1, 10)] },
      }),
    );
    expect(out).toEqual([1, 1, 0]);
  });

  it('covers the cheapest units first under items_limit_max', () => {
    const out = discounts(
      fixture({
        rules: [rule('a', { items_limit_max: 2, value: percent(50) })],
        check: { check_items: [item('A', 2, 3), item('B', 3, 1)] },
      }),
    );
    expect(out).toEqual([0, 1]); // two of B's units: 2 x 1.00 x 50%
  });

  it('covers whole units of a weighed line before its partial unit', () => {
    const out = discounts(
      fixture({
        rules: [rule('a', { items_limit_max: 1, value: percent(100) })],
        check: { check_items: [item('A', 2.5, 4)] }, // 10.00 for 2.5 kg
      }),
    );
    expect(out).toEqual([4]);
  });

  it('counts a partial unit as one unit of the limit', () => {
    const out = discounts(
      fixture({
        rules: [rule('a', { items_limit_max: 3, value: percent(100) })],
        check: { check_items: [item('A', 2.5, 4), item('B', 1, 5)] },
      }),
    );
    expect(out).toEqual([10, 0]);
  });

  it('never covers a quantity-0 line without zero-as-one', () => {
    const out = discounts(
      fixture({ rules: [rule('a')], check: { check_items: [item('A', 0, 4, { amount: 5 })] } }),
    );
    expect(out).toEqual([0]);
  });

  it('covers a quantity-0 line as one unit with zero-as-one', () => {
    const out = discounts(
      fixture({
        rules: [rule('a', { item_zero_quantity_as_one_quantity: 1 })],
        check: { check_items: [item('A', 0, 4, { amount: 5 })] },
      }),
    );
    expect(out).toEqual([0.5]);
  });

  // engine.md 17.9 reverses the old decision 8 (a rule that matched no line was not returned):
  // every candidate is returned, a rule without a matching line not applied with `no-line`.
  it('returns a candidate that matches no line as not applied, no-line', () => {
    const check = checkOf(fixture({ rules: [rule('a', { included_items: ['nothing'] })] }));
    expect(check.implemented_rules).toMatchObject([
      { id: 'a', implementation_data: { applied: false, reason: 'no-line' } },
    ]);
    expect(check.check_items!.map((l) => l.discount_amount)).toEqual([0, 0]);
  });

  it('says no-line, not lines-taken, when the taken lines have no unit for the rule', () => {
    // engine.md 17.9: a quantity-0 line can never take a rule without zero-as-one, taken or not.
    const check = checkOf(
      fixture({
        rules: [
          rule('a', { priority: 0, combine: 0, item_zero_quantity_as_one_quantity: 1 }),
          rule('b', { priority: 1, combine: 1 }),
        ],
        check: { check_items: [item('A', 0, 4, { amount: 5 })] },
      }),
    );
    expect(check.implemented_rules).toMatchObject([
      { id: 'a', implementation_data: { applied: true, amount: 0.5 } },
      { id: 'b', implementation_data: { applied: false, reason: 'no-line' } },
    ]);
  });

  it('says lines-taken when an earlier exclusive rule closed the lines with a unit', () => {
    const check = checkOf(
      fixture({
        rules: [rule('a', { priority: 0, combine: 0 }), rule('b', { priority: 1, combine: 1 })],
        check: { check_items: [item('A', 1, 4), item('B', 0, 4, { amount: 5 })] },
      }),
    );
    expect(check.implemented_rules).toMatchObject([
      { id: 'a', implementation_data: { applied: true, amount: 0.4 } },
      { id: 'b', implementation_data: { applied: false, reason: 'lines-taken' } },
    ]);
  });
});
