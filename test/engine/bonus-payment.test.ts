import { describe, expect, it } from 'vitest';
import { checkOf, customer, errorOf, fixture, item, rule, run } from './helpers.js';

const paying = (over: Parameters<typeof fixture>[0] = {}, redeem = 3) =>
  fixture({
    loyalty: { id: 'l1', currency: 'EUR', bonus_payment_max_percent: 50 },
    ...over,
    check: {
      customer_id: 'c1',
      bonuses_redeemed_amount: redeem,
      check_items: [item('A', 1, 10)],
      ...(over.check ?? {}),
    },
  });

describe('paying with bonuses', () => {
  it('grants what is asked within the ceiling', () => {
    const check = checkOf(paying());
    expect(check).toMatchObject({ bonuses_redeemed_amount: 3, amount_to_pay: 7 });
  });

  it('caps at the ceiling in calc with a warning', () => {
    const out = run(paying({}, 8));
    expect(out).toMatchObject({
      check: { bonuses_redeemed_amount: 5, amount_to_pay: 5 },
      warnings: [{ code: 'bonuses-redeemed-capped', path: 'check.bonuses_redeemed_amount' }],
    });
  });

  it('refuses a capped request in process', () => {
    expect(errorOf({ ...paying({}, 8), mode: 'process' })).toMatchObject({
      code: 'insufficient-bonuses',
    });
  });

  it('counts active promotional lots and takes pending spends off', () => {
    const out = run(
      paying(
        {
          customer: customer({
            bonuses: {
              regular: 1,
              promotional: [
                { amount: 2, starting: '2026-11-01', expire: '2026-11-22' },
                { amount: 50, starting: '2026-11-23', expire: '2026-12-31' },
                { amount: 50, starting: '2026-10-01', expire: '2026-11-21' },
              ],
            },
          }),
          pending: { bonuses_redeemed: 0.5 },
        },
        4,
      ),
    );
    expect(out).toMatchObject({ check: { bonuses_redeemed_amount: 2.5 } });
  });

  it('records the lots spent, earliest expiry first, then regular bonuses', () => {
    const check = checkOf(
      paying(
        {
          customer: customer({
            bonuses: {
              regular: 10,
              promotional: [
                { id: 'late', amount: 1, expire: '2026-12-31' },
                { id: 'soon', amount: 1, expire: '2026-11-30' },
              ],
            },
          }),
        },
        3,
      ),
    );
    expect(check.external_additional_info).toEqual({
      bonuses_spent: [
        { source: 'promotional', id: 'soon', expire: '2026-11-30', amount: 1 },
        { source: 'promotional', id: 'late', expire: '2026-12-31', amount: 1 },
        { source: 'regular', amount: 1 },
      ],
    });
  });

  it('converts bonuses with bonus_rate and rounds the ceiling down', () => {
    const check = checkOf(
      fixture({
        loyalty: { id: 'l1', bonus_payment_max_percent: 50, bonus_rate: 0.3 },
        check: { bonuses_redeemed_amount: 100, check_items: [item('A', 1, 10)] },
      }),
    );
    // ceiling 5.00 money = 16.666 bonuses -> 16.66; money 16.66 x 0.3 = 4.998 -> 5.00
    expect(check).toMatchObject({ bonuses_redeemed_amount: 16.66, amount_to_pay: 5 });
  });

  it('lets a limit rule replace the default percentage on its lines', () => {
    const check = checkOf(
      paying({
        rules: [
          rule('lim', {
            action_type: 'bonus-payment-limit',
            included_items: ['A'],
            value: { type: 'percentage', thresholds: [{ from: 0, value: 10 }] },
          }),
        ],
        check: { bonuses_redeemed_amount: 5, check_items: [item('A', 1, 10), item('B', 1, 10)] },
      }),
    );
    expect(check.check_items!.map((l) => l.calculated_bonuses_redeemed_amount)).toEqual([
      0.83, 4.17,
    ]);
  });

  it('refuses an add-bonuses-only customer', () => {
    expect(
      errorOf(paying({ customer: customer({ access_type: 'add-bonuses-only' }) })),
    ).toMatchObject({
      code: 'bonus-redeem-not-allowed',
    });
  });

  it('answers customer-blocked to a black-listed customer', () => {
    expect(errorOf(paying({ customer: customer({ access_type: 'in-black-list' }) }))).toMatchObject(
      { code: 'customer-blocked' },
    );
  });
});
