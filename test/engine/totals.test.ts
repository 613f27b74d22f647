import { describe, expect, it } from 'vitest';
import { EngineFixture } from '../../src/contract/engine.js';
import { calculate, compileRules } from '../../src/engine/index.js';
import { checkOf, errorOf, fixture, item, rule } from './helpers.js';

describe('totals and line values', () => {
  it('sums the rounded line values into the totals', () => {
    const check = checkOf(
      fixture({
        rules: [
          rule('a', { value: { type: 'percentage', thresholds: [{ from: 0, value: 33.333 }] } }),
        ],
        check: {
          shipping_amount: 2,
          check_items: [item('A', 1, 1), item('B', 1, 1), item('C', 1, 1)],
        },
      }),
    );
    expect(check).toMatchObject({
      amount: 3,
      discount_amount: 0.99,
      summary_amount: 5,
      amount_to_pay: 4.01,
    });
  });

  it('divides line values by the quantity for the calculated_* unit values', () => {
    const check = checkOf(
      fixture({ rules: [rule('a')], check: { check_items: [item('A', 3, 1)] } }),
    );
    expect(check.check_items![0]).toMatchObject({
      calculated_price: 0.9,
      calculated_discount_amount: 0.3,
      calculated_unit_discount_amount: 0.1,
    });
  });

  it('gives null unit values on a quantity-0 line', () => {
    const check = checkOf(fixture({ check: { check_items: [item('A', 0, 1, { amount: 3 })] } }));
    expect(check.check_items![0]).toMatchObject({
      amount: 3,
      calculated_price: null,
      calculated_unit_discount_amount: null,
    });
  });

  it('returns a rule with its identity and implementation data, not its filters', () => {
    const check = checkOf(
      fixture({ rules: [rule('a', { included_item_categories: ['coffee'] })] }),
    );
    expect(check.implemented_rules![0]).not.toHaveProperty('included_item_categories');
    expect(check.implemented_rules![0]).toMatchObject({
      id: 'a',
      action_type: 'discount',
      implementation_data: { applied: true },
    });
  });

  it('drops the PIN from the answer', () => {
    const check = checkOf(
      fixture({ check: { special_account_pin: '1234', check_items: [item('A', 1, 1)] } }),
    );
    expect(check).not.toHaveProperty('special_account_pin');
  });

  it('refuses a negative quantity as invalid-input', () => {
    expect(errorOf(fixture({ check: { check_items: [item('A', -1, 1)] } }))).toMatchObject({
      code: 'invalid-input',
      path: 'check.check_items[0].quantity',
    });
  });

  it('gives the same bytes for the same input', () => {
    const input = fixture({
      rules: [
        rule('a'),
        rule('b', {
          action_type: 'bonuses',
          value: { type: 'percentage', thresholds: [{ from: 0, value: 3 }] },
        }),
      ],
    });
    expect(JSON.stringify(checkOf(input))).toBe(JSON.stringify(checkOf(input)));
  });
});

describe('rules reported not applied for a fixed reason (engine.md 17.9)', () => {
  it('share one frozen answer entry per rule and reason across checks of one rule set', () => {
    const { rules, ...context } = EngineFixture.parse(
      fixture({ rules: [rule('a', { included_items: ['nothing'] })] }),
    );
    const prepared = compileRules(rules);
    const first = calculate(context, prepared);
    const second = calculate(context, prepared);
    if ('error' in first || 'error' in second) throw new Error('unexpected error');
    const entry = first.check.implemented_rules![0]!;
    expect(entry).toMatchObject({
      id: 'a',
      implementation_data: { applied: false, reason: 'no-line' },
    });
    expect(second.check.implemented_rules![0]).toBe(entry);
    expect(Object.isFrozen(entry) && Object.isFrozen(entry.implementation_data)).toBe(true);
  });
});
