import { describe, expect, it } from 'vitest';
import { checkOf, fixture, item, rule } from './helpers.js';

const delivery = {
  id: 'svc1',
  code: 'DEL',
  public_title: 'Delivery',
  cost: [
    {
      currency: 'EUR',
      decimal_digits: 2,
      min_value: 3,
      values: [
        { threshold: 0, type: 'multiplier' as const, value: 0.5 },
        { threshold: 50, type: 'amount' as const, value: 0 },
      ],
    },
  ],
};

describe('services, margins and taxes', () => {
  it('prices an unknown service as value x cost', () => {
    const check = checkOf(
      fixture({
        check: {
          check_items: [item('A', 1, 10)],
          check_services: [{ code: 'TIP', value: 2, cost: 1.25 }],
        },
      }),
    );
    expect(check).toMatchObject({
      services_amount: 2.5,
      summary_amount: 12.5,
      amount_to_pay: 12.5,
    });
  });

  it('prices a known service from its tier, never below min_value', () => {
    const check = checkOf(
      fixture({
        additional_services: [delivery],
        check: { check_items: [item('A', 1, 10)], check_services: [{ code: 'DEL', value: 4 }] },
      }),
    );
    expect(check).toMatchObject({
      services_amount: 3,
      check_services: [{ code: 'DEL', amount: 3, additional_service_id: 'svc1' }],
    });
  });

  it('chooses the tier by the check amount before discounts', () => {
    const check = checkOf(
      fixture({
        additional_services: [delivery],
        rules: [rule('a', { value: { type: 'percentage', thresholds: [{ from: 0, value: 50 }] } })],
        check: { check_items: [item('A', 1, 60)], check_services: [{ code: 'DEL', value: 20 }] },
      }),
    );
    expect(check.services_amount).toBe(3); // tier 50 -> 0, raised to min_value
  });

  it('keeps VAT inside the price and adds sales tax on top', () => {
    const check = checkOf(
      fixture({
        check: {
          check_items: [
            item('A', 1, 12, { taxes: [{ code: 'VAT20', type: 'vat', rate: 20 }] }),
            item('B', 1, 10, { taxes: [{ code: 'ST', type: 'sales', rate: 8.25 }] }),
          ],
        },
      }),
    );
    expect(check).toMatchObject({
      amount_to_pay: 22.83,
      calculated_taxes: {
        base: [{ value_code: 'VAT20', value: 2 }],
        sales: [{ value_code: 'ST', value: 0.83 }],
      },
    });
  });

  it('gives an exempt line a zero tax item', () => {
    const check = checkOf(
      fixture({
        check: {
          check_items: [
            item('A', 1, 12, { taxes: [{ code: 'V', type: 'vat', rate: 20, exempt: true }] }),
          ],
        },
      }),
    );
    expect(check.check_items![0]!.calculated_taxes).toMatchObject({
      base: [{ value_code: 'V', exempt: true, value: 0 }],
    });
  });

  it('reports margins per line and per code without changing the payment', () => {
    const check = checkOf(
      fixture({
        additional_costs: [
          { id: 'ac1', code: 'H', type: 'amount', default_value: 0.1 },
          { id: 'ac2', code: 'M', type: 'percentage', default_value: 2 },
        ],
        check: { check_items: [item('A', 3, 5), item('B', 1, 10)] },
      }),
    );
    expect(check).toMatchObject({
      amount_to_pay: 25,
      calculated_margins: {
        terminal_additional_costs: [
          { value_code: 'H', value: 0.4 },
          { value_code: 'M', value: 0.5 },
        ],
      },
    });
    expect(check.check_items![0]!.calculated_margins).toMatchObject({
      terminal_additional_costs: [{ value: 0.3 }, { value: 0.3 }],
    });
  });
});
