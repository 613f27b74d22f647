import { describe, expect, it } from 'vitest';
import { checkOf, fixture, item, percent, rule } from './helpers.js';

const lines = (rules: ReturnType<typeof rule>[], items = [item('A', 2, 5), item('B', 1, 10)]) =>
  checkOf(fixture({ rules, check: { check_items: items } })).check_items!.map(
    (l) => l.discount_amount,
  );

const value = (type: 'amount' | 'amount-per-unit' | 'price' | 'percentage', v: number) => ({
  type,
  thresholds: [{ from: 0, value: v }],
});

describe('discounts', () => {
  it('takes a percentage of the current line amount', () => {
    expect(lines([rule('a', { value: percent(15) })])).toEqual([1.5, 1.5]);
  });

  it('spreads an amount once per check by the current amounts', () => {
    expect(lines([rule('a', { value: value('amount', 3) })])).toEqual([1.5, 1.5]);
  });

  it('caps an amount at the matching lines total', () => {
    expect(lines([rule('a', { value: value('amount', 50) })])).toEqual([10, 10]);
  });

  it('takes an amount per unit, never more than the line', () => {
    expect(lines([rule('a', { value: value('amount-per-unit', 6) })])).toEqual([10, 6]);
  });

  it('sets a new unit price and gives nothing when it is higher', () => {
    expect(lines([rule('a', { value: value('price', 4) })])).toEqual([2, 6]);
    expect(lines([rule('a', { value: value('price', 20) })])).toEqual([0, 0]);
  });

  it('compounds combinable rules on the current amount', () => {
    expect(
      lines(
        [rule('a', { value: percent(10) }), rule('b', { value: percent(10) })],
        [item('A', 1, 100)],
      ),
    ).toEqual([19]);
  });

  it('closes the lines an exclusive rule touches', () => {
    const out = lines([
      rule('a', { combine: 0, included_items: ['A'] }),
      rule('b', { value: percent(50) }),
    ]);
    expect(out).toEqual([1, 5]);
  });

  it('keeps an exclusive rule off lines an earlier rule touched', () => {
    const out = lines([
      rule('a', { included_items: ['A'] }),
      rule('b', { combine: 0, value: percent(50) }),
    ]);
    expect(out).toEqual([1, 5]);
  });

  it('acts on one unit only when only_once_per_check', () => {
    expect(lines([rule('a', { only_once_per_check: 1, value: percent(100) })])).toEqual([5, 0]);
  });

  it('reports the money it discounted and the lines it touched', () => {
    const check = checkOf(
      fixture({ rules: [rule('a')], check: { check_items: [item('A', 2, 5)] } }),
    );
    expect(check.implemented_rules).toMatchObject([
      { id: 'a', implementation_data: { applied: true, amount: 1, lines: [0] } },
    ]);
  });

  it('gives a black-listed customer no discount', () => {
    const check = checkOf(
      fixture({
        customer: { id: 'c1', access_type: 'in-black-list' },
        rules: [rule('a')],
      }),
    );
    expect(check.discount_amount).toBe(0);
    expect(check.implemented_rules).toEqual([]);
  });

  it('keeps identified-only rules away from an anonymous sale', () => {
    const check = checkOf(
      fixture({
        customer: null,
        rules: [rule('a', { applicable_for_customer: 'identified' }), rule('b')],
      }),
    );
    expect(check.implemented_rules!.map((r) => r.id)).toEqual(['b']);
  });
});
