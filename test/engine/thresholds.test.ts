import { describe, expect, it } from 'vitest';
import { dec } from '../../src/money/index.js';
import { missingTo, tierFor } from '../../src/engine/thresholds.js';
import { checkOf, customer, fixture, item, rule } from './helpers.js';

const tiers = [
  { from: dec(0), value: dec(5) },
  { from: dec(10), value: dec(10) },
];

describe('thresholds', () => {
  it('takes the last tier whose from is at most the base', () => {
    expect(tierFor(tiers, dec(10))?.value).toEqual(dec(10));
    expect(tierFor(tiers, dec('9.99'))?.value).toEqual(dec(5));
  });

  it('finds no tier below the lowest from', () => {
    expect(tierFor([{ from: dec(1), value: dec(1) }], dec(0))).toBeNull();
  });

  it('measures what is missing to the lowest threshold above the base', () => {
    expect(missingTo(tiers, dec(4))).toEqual(dec(6));
    expect(missingTo(tiers, dec(20))).toBeNull();
  });

  it('adds the pending stats and this check to a period base', () => {
    const check = checkOf(
      fixture({
        customer: customer({ stats: { month: { amount: 80, quantity: 0, visits: 0 } } }),
        pending: { stats: { month: { amount: 10 } } },
        rules: [
          rule('a', {
            depends_type: 'period-amount',
            depends_calc_period: 'month',
            value: { type: 'percentage', thresholds: [{ from: 100, value: 10 }] },
          }),
        ],
        check: { check_items: [item('A', 1, 10)] },
      }),
    );
    expect(check.discount_amount).toBe(1);
  });

  it('counts this check as one visit', () => {
    const check = checkOf(
      fixture({
        customer: customer({ stats: { year: { visits: 2 } } }),
        rules: [
          rule('a', {
            depends_type: 'period-visits',
            depends_calc_period: 'year',
            value: { type: 'percentage', thresholds: [{ from: 3, value: 10 }] },
          }),
        ],
        check: { check_items: [item('A', 1, 10)] },
      }),
    );
    expect(check.discount_amount).toBe(1);
  });

  it('reports a rule below its threshold with the reason and what is missing', () => {
    const check = checkOf(
      fixture({
        rules: [
          rule('a', {
            depends_type: 'quantity',
            value: { type: 'percentage', thresholds: [{ from: 5, value: 10 }] },
          }),
        ],
        check: { check_items: [item('A', 2, 1)] },
      }),
    );
    expect(check.implemented_rules).toMatchObject([
      { id: 'a', implementation_data: { applied: false, reason: 'threshold', missing: 3 } },
    ]);
  });

  it('reports items-limit-min with the units missing', () => {
    const check = checkOf(
      fixture({
        rules: [rule('a', { items_limit_min: 5 })],
        check: { check_items: [item('A', 2, 1)] },
      }),
    );
    expect(check.implemented_rules).toMatchObject([
      { implementation_data: { applied: false, reason: 'items-limit-min', missing: 3 } },
    ]);
  });
});
