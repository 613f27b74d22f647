import { describe, expect, it } from 'vitest';
import { runCalc } from '../../src/cli/calc.js';
import { memoryIO } from '../../src/cli/io.js';

// The worked example of shared/spec/engine-fixture.md.
const worked = {
  now: '2026-11-22T10:15:00Z',
  mode: 'calc',
  business: { id: 'b1', currency: 'EUR', base_time_zone: 'UTC' },
  loyalty: {
    id: 'l1',
    currency: 'EUR',
    bonus_payment_max_percent: 50,
    bonus_rate: 1,
    count_bonuses_redeemed_amount: 1,
  },
  pos: { id: 'p1', time_zone: 'UTC' },
  rules: [
    {
      id: 'r1',
      loyalty_id: 'l1',
      title: '10% off coffee',
      active: 1,
      automatic: 1,
      scope: 'retail',
      priority: 1,
      combine: 1,
      action_type: 'discount',
      applicable_for_customer: 'all',
      depends_type: 'none',
      included_item_categories: ['coffee'],
      value: { type: 'percentage', thresholds: [{ from: 0, value: 10 }] },
    },
    {
      id: 'r2',
      loyalty_id: 'l1',
      title: '5% back',
      active: 1,
      automatic: 1,
      scope: 'retail',
      priority: 2,
      combine: 1,
      action_type: 'bonuses',
      charge_type: 'regular-bonuses',
      applicable_for_customer: 'identified',
      depends_type: 'none',
      value: { type: 'percentage', thresholds: [{ from: 0, value: 5 }] },
    },
  ],
  customer: {
    id: 'c1',
    type: 'customer',
    access_type: 'full-bonuses-access',
    bonuses: { regular: 100, promotional: [] },
    stats: {},
  },
  special_accounts: [],
  corporate_accesses: [],
  coupons: [],
  additional_services: [],
  additional_costs: [],
  vehicles: [],
  pending: {},
  check: {
    customer_id: 'c1',
    loyalty: { id: 'l1' },
    pos: { id: 'p1' },
    bonuses_redeemed_amount: 3,
    check_items: [
      { code: 'C1', category: 'coffee', title: 'Coffee', quantity: 2, price: 2.5 },
      { code: 'S1', category: 'food', title: 'Sandwich', quantity: 1, price: 4.99 },
    ],
  },
};

async function calc(text: string, arg = 'in.json') {
  const io = memoryIO({ 'in.json': text }, text);
  const code = await runCalc([arg], io);
  return { code, out: io.out, err: io.err };
}

describe('calc', () => {
  it('prints the worked example of engine-fixture.md and exits 0', async () => {
    const { code, out, err } = await calc(JSON.stringify(worked));
    expect(code).toBe(0);
    expect(err).toBe('');
    const answer = JSON.parse(out);
    expect(answer).toMatchObject({
      check: {
        amount: 9.99,
        discount_amount: 0.5,
        bonuses_redeemed_amount: 3,
        bonuses_added_amount: 0.48,
        summary_amount: 9.99,
        amount_to_pay: 6.49,
        bonuses_added: [{ amount: 0.48 }],
        check_items: [
          {
            code: 'C1',
            discount_amount: 0.5,
            calculated_price: 2.25,
            calculated_unit_discount_amount: 0.25,
            calculated_bonuses_redeemed_amount: 1.42,
            calculated_unit_bonuses_redeemed_amount: 0.71,
          },
          { code: 'S1', discount_amount: 0, calculated_bonuses_redeemed_amount: 1.58 },
        ],
      },
      warnings: [],
    });
  });

  it('reads the fixture from standard input with -', async () => {
    const { code, out } = await calc(JSON.stringify(worked), '-');
    expect(code).toBe(0);
    expect(JSON.parse(out).check.amount_to_pay).toBe(6.49);
  });

  it('prints an engine error value and exits 0', async () => {
    const anonymous = { ...worked, customer: null };
    const { code, out, err } = await calc(JSON.stringify(anonymous));
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(JSON.parse(out)).toMatchObject({
      error: { code: 'bonus-redeem-not-allowed', path: 'check.bonuses_redeemed_amount' },
    });
  });

  it('refuses a fixture that breaks its schema with exit 2, naming the path', async () => {
    const bad = structuredClone(worked) as { check: { check_items: Record<string, unknown>[] } };
    bad.check.check_items[1]!.quantity = 'one';
    const { code, out, err } = await calc(JSON.stringify(bad));
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain('check.check_items[1].quantity');
    expect(err.trim().split('\n')).toHaveLength(1);
  });

  it('names an unknown field of a fixture', async () => {
    const bad = structuredClone(worked) as { rules: Record<string, unknown>[] };
    bad.rules[0]!.valeu = 1;
    const { code, err } = await calc(JSON.stringify(bad));
    expect(code).toBe(2);
    expect(err).toContain('rules[0].valeu');
  });

  it('refuses malformed JSON with exit 2', async () => {
    const { code, out, err } = await calc('{ "now": ');
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(/not JSON/);
  });

  it('exits 2 when the file cannot be read', async () => {
    const io = memoryIO({});
    expect(await runCalc(['missing.json'], io)).toBe(2);
    expect(io.err).toContain('missing.json');
  });

  it('exits 2 without a file argument', async () => {
    const io = memoryIO({});
    expect(await runCalc([], io)).toBe(2);
    expect(io.err).toMatch(/usage/);
  });

  it('prints the same bytes twice for the same fixture', async () => {
    const fixture = JSON.stringify(worked);
    const a = await calc(fixture);
    const b = await calc(fixture);
    expect(a.out).toBe(b.out);
  });
});
