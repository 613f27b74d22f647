import { describe, expect, it } from 'vitest';
import { EngineRules } from '../../src/contract/engine.js';
import { promotionalDates } from '../../src/engine/bonuses.js';
import { checkOf, customer, fixture, item, percent, rule } from './helpers.js';

const bonus = (id: string, over: Parameters<typeof rule>[1] = {}) =>
  rule(id, { action_type: 'bonuses', charge_type: 'regular-bonuses', value: percent(5), ...over });

describe('bonuses', () => {
  it('credits a percentage of the amount after discounts, rounded per line', () => {
    const check = checkOf(fixture({ rules: [rule('d'), bonus('b')] }));
    // coffee 4.50 x 5% = 0.225 -> 0.23; sandwich 4.49 x 5% = 0.2245 -> 0.22
    expect(check.check_items!.map((l) => l.bonuses_added)).toEqual([0.23, 0.22]);
    expect(check).toMatchObject({
      bonuses_added_amount: 0.45,
      bonuses_added: [{ amount: 0.45, object_id: 'b' }],
    });
  });

  it('credits nothing to an anonymous sale', () => {
    const check = checkOf(fixture({ customer: null, rules: [bonus('b')] }));
    expect(check).toMatchObject({ bonuses_added_amount: 0, bonuses_added: [] });
  });

  it('divides a percentage credit by the bonus rate', () => {
    const check = checkOf(
      fixture({
        loyalty: { id: 'l1', bonus_rate: 0.5 },
        rules: [bonus('b')],
        check: { check_items: [item('A', 1, 10)] },
      }),
    );
    expect(check.bonuses_added_amount).toBe(1);
  });

  it('takes bonuses paid on a line out of the base when they do not count', () => {
    const check = checkOf(
      fixture({
        loyalty: { id: 'l1', bonus_payment_max_percent: 50 },
        rules: [bonus('b', { count_bonuses_redeemed_amount: 0, value: percent(10) })],
        check: { bonuses_redeemed_amount: 4, check_items: [item('A', 1, 10)] },
      }),
    );
    expect(check.bonuses_added_amount).toBe(0.6);
  });

  it('pays cashback to a special account as a credit in money', () => {
    const check = checkOf(
      fixture({
        special_accounts: [{ id: 'sa1', currency: 'USD' }],
        rules: [bonus('b', { charge_type: 'special-account', special_account_id: 'sa1' })],
        check: { check_items: [item('A', 1, 10)] },
      }),
    );
    expect(check).toMatchObject({
      bonuses_added_amount: 0,
      bonuses_added: [],
      special_accounts_charges: [
        { special_account_id: 'sa1', amount: 0.5, currency: 'USD', direction: 'credit' },
      ],
    });
  });

  it('dates promotional bonuses from the sale date', () => {
    const check = checkOf(
      fixture({
        rules: [
          bonus('b', {
            charge_type: 'promotional-bonuses',
            promotional_bonuses_starting_type: 'days',
            promotional_bonuses_starting_value: 1,
            promotional_bonuses_expire_type: 'days',
            promotional_bonuses_expire_value: 30,
          }),
        ],
      }),
    );
    expect(check.bonuses_added).toMatchObject([{ starting: '2026-11-23', expire: '2026-12-23' }]);
  });

  it('clamps a months expiry to the end of the month', () => {
    const [r] = EngineRules.parse([
      bonus('b', {
        charge_type: 'promotional-bonuses',
        promotional_bonuses_starting_type: 'date',
        promotional_bonuses_starting_date: '2027-01-31',
        promotional_bonuses_expire_type: 'months',
        promotional_bonuses_expire_value: 1,
      }),
    ]);
    expect(promotionalDates(r!, '2026-11-22')).toEqual({
      starting: '2027-01-31',
      expire: '2027-02-28',
    });
  });

  it('credits bonuses to add-bonuses-only customers', () => {
    const check = checkOf(
      fixture({ customer: customer({ access_type: 'add-bonuses-only' }), rules: [bonus('b')] }),
    );
    expect(check.bonuses_added_amount).toBeGreaterThan(0);
  });

  it('makes one entry per crediting rule, in rule order', () => {
    const check = checkOf(
      fixture({ rules: [bonus('b2', { priority: 2 }), bonus('b1', { priority: 1 })] }),
    );
    expect(check.bonuses_added!.map((b) => b.object_id)).toEqual(['b1', 'b2']);
  });
});
