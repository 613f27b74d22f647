import { describe, expect, it } from 'vitest';
import { checkOf, errorOf, fixture, item, percent, rule } from './helpers.js';

const fuel = (over: Record<string, unknown> = {}) =>
  item('F95', 25, 2, {
    amount: 50,
    price_decimal_digits: 3,
    quantity_recalculate_type: 'recalculate-by-amount',
    ...over,
  });

describe('fuel', () => {
  it('grows the quantity of a discounted prepaid line and keeps the prepaid amount to pay', () => {
    const check = checkOf(
      fixture({ rules: [rule('a', { value: percent(4) })], check: { check_items: [fuel()] } }),
    );
    // D = 2.00; unit price (50 - 2) / 25 = 1.920; quantity 50 / 1.92 = 26.042; amount 52.08; discount 2.08
    expect(check).toMatchObject({
      amount: 52.08,
      discount_amount: 2.08,
      amount_to_pay: 50,
      check_items: [
        {
          quantity: 26.042,
          amount: 52.08,
          discount_amount: 2.08,
          additions: { quantity_recalculate_skipped: false },
        },
      ],
    });
  });

  it('leaves an undiscounted prepaid line alone', () => {
    const check = checkOf(fixture({ check: { check_items: [fuel()] } }));
    expect(check.check_items).toMatchObject([
      { quantity: 25, amount: 50, additions: { quantity_recalculate_skipped: true } },
    ]);
  });

  it('lowers the amount to pay of an adjust-by-amount line', () => {
    const check = checkOf(
      fixture({
        rules: [rule('a', { value: percent(4) })],
        check: { check_items: [fuel({ quantity_recalculate_type: 'adjust-by-amount' })] },
      }),
    );
    expect(check).toMatchObject({ amount_to_pay: 48, check_items: [{ quantity: 25 }] });
  });

  it('calculates a completion on its processed values', () => {
    const check = checkOf(
      fixture({
        check: {
          transaction_type: 'completion',
          check_items: [
            item('F95', 30, 2, {
              authorized_quantity: 30,
              authorized_amount: 60,
              processed_quantity: 20.5,
              processed_amount: 41,
            }),
          ],
        },
      }),
    );
    expect(check).toMatchObject({ amount: 41, check_items: [{ quantity: 20.5, amount: 41 }] });
  });

  it('refuses a completion above its authorisation', () => {
    const input = fixture({
      check: {
        transaction_type: 'completion',
        check_items: [item('F95', 30, 2, { authorized_amount: 60, processed_amount: 61 })],
      },
    });
    expect(errorOf(input)).toMatchObject({
      code: 'invalid-input',
      message: 'processed amount above the authorised one',
      path: 'check.check_items[0].processed_amount',
    });
  });

  it('refuses what a pump dispensed on a check that is not a completion (engine.md 17.4)', () => {
    const input = fixture({
      check: { check_items: [item('F95', 30, 2, { authorized_amount: 60, processed_amount: 61 })] },
    });
    expect(errorOf(input)).toMatchObject({
      code: 'invalid-input',
      message: expect.stringContaining('only a completion reports it'),
      path: 'check.check_items[0].processed_amount',
    });
  });

  it('prices a completion that reports only a processed quantity at the price (engine.md 17.3)', () => {
    const check = checkOf(
      fixture({
        check: {
          transaction_type: 'completion',
          check_items: [
            item('F95', 1.5, 4.1, {
              amount: 38.4,
              authorized_amount: 38.4,
              processed_quantity: 0.75,
            }),
          ],
        },
      }),
    );
    expect(check.check_items).toMatchObject([{ quantity: 0.75, amount: 3.08 }]);
  });

  it('refuses a processed quantity alone on a completion line without a price', () => {
    const line = { ...item('F95', 1.5, 0, { amount: 38.4, processed_quantity: 0.75 }) };
    delete (line as { price?: number }).price;
    const input = fixture({
      check: { transaction_type: 'completion', check_items: [line] },
    });
    expect(errorOf(input)).toMatchObject({
      code: 'invalid-input',
      path: 'check.check_items[0].processed_amount',
    });
  });
});

// engine.md 12 divides the discounted amount by the request's quantity, so the prepay
// quantity a caller sends decides the litres sold (docs/engine.md 29).
describe('prepay quantity', () => {
  const fleet = rule('fleet', {
    value: { type: 'amount-per-unit', thresholds: [{ from: 0, value: 0.03 }] },
  });
  const diesel = (quantity: number, amount: number) =>
    checkOf(
      fixture({
        rules: [fleet],
        check: {
          check_items: [
            item('DIESEL', quantity, 1.659, {
              amount,
              quantity_recalculate_type: 'recalculate-by-amount',
            }),
          ],
        },
      }),
    ).check_items?.[0];

  it('sells what the prepaid amount buys at the discounted price when the quantity matches it', () => {
    // 150.00 buys 90.416 l at 1.659; D = 2.71; (150 - 2.71) / 90.416 = 1.63; 150 / 1.63 = 92.025 l
    expect(diesel(90.416, 150)).toMatchObject({
      quantity: 92.025,
      amount: 152.67,
      discount_amount: 2.67,
      calculated_price: 1.63,
    });
  });

  it('reads a quantity left at a larger amount as a shortfall spread over the litres', () => {
    // the request's 120.55 l is what 200.00 bought: (150 - 3.62) / 120.55 = 1.21 a litre
    expect(diesel(120.55, 150)).toMatchObject({
      quantity: 123.967,
      amount: 205.66,
      discount_amount: 55.66,
      calculated_price: 1.21,
    });
  });
});
