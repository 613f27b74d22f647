// The sandbox with the real check engine and the demo seed: the operations move the
// balances the way engine.md says, and the feed carries the moved records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEMO, startCentral, type RunningCentral } from '../../src/central/index.js';
import { operations } from '../../src/contract/central-api.js';

let central: RunningCentral;
let token = '';

beforeAll(async () => {
  central = await startCentral();
  const r = await post('/v1/terminal/sign_in', {
    terminal_id: central.terminal_id,
    api_key: central.api_key,
  });
  token = r.body.token as string;
});
afterAll(async () => {
  await central.close();
});

async function post(path: string, body: unknown, key?: string) {
  const res = await fetch(`${central.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The record the change feed serves now (read from a snapshot to its end). */
async function fed(entity: string, id: string): Promise<Record<string, unknown>> {
  let cursor: string | null = null;
  let found: Record<string, unknown> | undefined;
  for (let page = 0; page < 100; page++) {
    const q = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const res = await fetch(`${central.url}/v1/terminal/changes?limit=500${q}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await res.json()) as {
      changes: { entity: string; id: string; data: Record<string, unknown> }[];
      cursor: string;
      has_more: boolean;
    };
    for (const c of body.changes) if (c.entity === entity && c.id === id) found = c.data;
    cursor = body.cursor;
    if (!body.has_more) break;
  }
  if (!found) throw new Error(`the feed has no ${entity} ${id}`);
  return found;
}

function balance(customerId: string): number {
  const c = central.store.getRecord('customer', customerId) as { bonuses: { regular: number } };
  return c.bonuses.regular;
}

describe('sandbox with the engine', () => {
  it('calculates a gold card fuel discount per litre', async () => {
    const r = await post('/v1/terminal/calc_check', {
      customer_id: DEMO.customers.anna,
      check_items: [{ code: 'FUEL-95', category: 'fuel', quantity: 20, price: 1.789 }],
    });
    expect(r.status).toBe(200);
    expect(r.body.discount_amount).toBe(1);
  });

  it('a rule changed between two checks applies to the second (prepared rules are not kept past a change)', async () => {
    const fuel = {
      customer_id: DEMO.customers.anna,
      check_items: [{ code: 'FUEL-95', category: 'fuel', quantity: 20, price: 1.789 }],
    };
    expect((await post('/v1/terminal/calc_check', fuel)).body.discount_amount).toBe(1);
    const rule = (central.store.list('rule') as Record<string, unknown>[]).find((r) =>
      String(r.title).startsWith('Gold card'),
    )!;
    const tiers = { type: 'amount-per-unit', thresholds: [{ from: 0, value: 0.1 }] };
    central.store.upsert('rule', rule.id as string, { ...rule, value: tiers });
    try {
      expect((await post('/v1/terminal/calc_check', fuel)).body.discount_amount).toBe(2);
    } finally {
      central.store.upsert('rule', rule.id as string, rule);
    }
  });

  it('processes a sale paid partly with bonuses and moves the balance', async () => {
    const before = balance(DEMO.customers.ben);
    const id = '019a1111-0000-7000-8000-000000000001';
    const r = await post(
      '/v1/terminal/process_check',
      {
        transaction_id: id,
        customer_id: DEMO.customers.ben,
        bonuses_redeemed_amount: 2,
        check_items: [{ code: 'SNK-1', category: 'shop', quantity: 1, price: 4.99 }],
      },
      id,
    );
    expect(r.status).toBe(200);
    expect(r.body.bonuses_redeemed_amount).toBe(2);
    // 2 bonuses: Ben's promotional lot (5) pays first, so the regular balance only grows by what he earned.
    const earnedRegular = ((r.body.bonuses_added as { amount: number; expire?: string }[]) ?? [])
      .filter((b) => b.expire === undefined)
      .reduce((s, b) => s + b.amount, 0);
    expect(balance(DEMO.customers.ben)).toBeCloseTo(before + earnedRegular, 2);
  });

  it('refuses a fleet payment over the driver day limit with 422 limit-exceeded', async () => {
    const id = '019a1111-0000-7000-8000-000000000002';
    const r = await post(
      '/v1/terminal/process_check',
      {
        transaction_id: id,
        customer_id: DEMO.customers.driver2,
        corporate_customer_id: DEMO.customers.fleet,
        payment_type: 'corporate-special-account',
        payment_id: DEMO.accesses.driver2,
        odometer: 50000,
        odometer_unit: 'km',
        check_items: [{ code: 'DIESEL', category: 'fuel', quantity: 80, price: 1.659 }],
      },
      id,
    );
    expect(r.status).toBe(422);
    expect((r.body.error as { code: string }).code).toBe('limit-exceeded');
  });

  it("books a driver's fills on the access, refuses the third past the day limit and serves the usage", async () => {
    const fill = (n: number) => {
      const id = `019a1111-0000-7000-8000-00000000001${n}`;
      return post(
        '/v1/terminal/process_check',
        {
          transaction_id: id,
          customer_id: DEMO.customers.driver2,
          corporate_customer_id: DEMO.customers.fleet,
          payment_type: 'corporate-special-account',
          payment_id: DEMO.accesses.driver2,
          check_items: [{ code: 'DIESEL', category: 'fuel', quantity: 27, price: 1.659 }],
        },
        id,
      );
    };
    const first = await fill(0);
    expect((await fill(1)).status).toBe(200);
    const third = await fill(2);
    expect(third.status).toBe(422);
    expect(third.body.error).toMatchObject({
      code: 'limit-exceeded',
      details: { limit: 'user-day' },
    });
    const charge = first.body.amount_to_pay as number;
    const served = await fed('corporate_access', DEMO.accesses.driver2);
    expect(served.used).toMatchObject({
      user: { day: charge * 2, month: charge * 2, overall: charge * 2 },
    });
    expect(served.used_as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(served.limits).toMatchObject({ user_day_limit_used: charge * 2 });
    // A cancel gives the driver's usage back.
    await post(
      '/v1/terminal/cancel_check',
      { transaction_id: '019a1111-0000-7000-8000-000000000010' },
      '019a1111-0000-7000-8000-000000000019',
    );
    const after = await fed('corporate_access', DEMO.accesses.driver2);
    expect(after.used).toMatchObject({ user: { day: charge } });
  });

  it('cancels a processed check and returns what it spent', async () => {
    const before = balance(DEMO.customers.anna);
    const id = '019a1111-0000-7000-8000-000000000003';
    const sale = await post(
      '/v1/terminal/process_check',
      {
        transaction_id: id,
        customer_id: DEMO.customers.anna,
        bonuses_redeemed_amount: 1,
        check_items: [{ code: 'COF-1', category: 'coffee', quantity: 2, price: 2.5 }],
      },
      id,
    );
    expect(sale.status).toBe(200);
    const cancelId = '019a1111-0000-7000-8000-000000000004';
    const r = await post(
      '/v1/terminal/cancel_check',
      { transaction_id: id, comment: 'test' },
      cancelId,
    );
    expect(r.status).toBe(200);
    expect(r.body.transaction_cancelled).toBe(1);
    expect(balance(DEMO.customers.anna)).toBeCloseTo(before, 2);
  });

  it("a cancel's answer holds to the documented answer, the owed bonuses included", async () => {
    const id = '019a1111-0000-7000-8000-000000000013';
    const sale = await post(
      '/v1/terminal/process_check',
      {
        transaction_id: id,
        customer_id: DEMO.customers.ben,
        check_items: [{ code: 'COF-1', category: 'coffee', quantity: 1, price: 2.5 }],
      },
      id,
    );
    expect(sale.status).toBe(200);
    const r = await post(
      '/v1/terminal/cancel_check',
      { transaction_id: id, comment: 'test' },
      '019a1111-0000-7000-8000-000000000014',
    );
    expect(r.status).toBe(200);
    const answer = operations.cancelCheck.response.parse(r.body);
    expect(answer.owed).toEqual({ bonuses: expect.any(Number) as number });
  });

  it('a cancel gives back bonuses spent from a lot that the cancel of its sale removed', async () => {
    const ben = DEMO.customers.ben;
    const lots = () =>
      (central.store.findBy('bonus_lot', 'customer_id', ben) as { amount: number }[]).reduce(
        (s, l) => s + l.amount,
        0,
      );
    const total = () => {
      const c = central.store.getRecord('customer', ben) as {
        bonuses: { regular: number; owed?: number };
      };
      return c.bonuses.regular + lots() - (c.bonuses.owed ?? 0);
    };
    const before = total();
    const sell = (id: string, extra: Record<string, unknown>, items: unknown[]) =>
      post(
        '/v1/terminal/process_check',
        { transaction_id: id, customer_id: ben, ...extra, check_items: items },
        id,
      );
    // Sale A credits a promotional lot (shop goods); sale B spends every older lot and 2
    // bonuses of A's lot.
    const a = '019a1111-0000-7000-8000-000000000031';
    const sold = await sell(a, {}, [
      { code: 'SNK-1', category: 'shop', quantity: 20, price: 4.99 },
    ]);
    expect(sold.status).toBe(200);
    const lot = ((sold.body.bonuses_added as { amount: number; expire?: string }[]) ?? []).find(
      (b) => b.expire !== undefined,
    );
    expect(lot?.amount).toBeGreaterThan(2);
    const spend = Math.round((lots() - lot!.amount + 2) * 100) / 100;
    const b = '019a1111-0000-7000-8000-000000000032';
    const spent = await sell(b, { bonuses_redeemed_amount: spend }, [
      { code: 'OIL-1', category: 'oil', quantity: 2, price: 12.9 },
    ]);
    expect(spent.status).toBe(200);
    expect(spent.body.bonuses_redeemed_amount).toBe(spend);
    // Cancelling A removes its lot; cancelling B then gives the 2 bonuses back all the same.
    for (const [id, key] of [
      [a, '019a1111-0000-7000-8000-000000000033'],
      [b, '019a1111-0000-7000-8000-000000000034'],
    ] as const) {
      const r = await post('/v1/terminal/cancel_check', { transaction_id: id }, key);
      expect(r.status).toBe(200);
    }
    expect(total()).toBeCloseTo(before, 2);
  });

  it('the sandbox emits coupon ids that are UUIDs', async () => {
    // Anna fills 45 EUR (a coffee coupon) and buys shop goods (a dated promotional lot).
    const ids = (entity: string) =>
      (central.store.findBy(entity, 'customer_id', DEMO.customers.anna) as { id: string }[]).map(
        (r) => r.id,
      );
    const before = new Set([...ids('coupon'), ...ids('bonus_lot')]);
    const id = '019a1111-0000-7000-8000-000000000005';
    const sale = await post(
      '/v1/terminal/process_check',
      {
        transaction_id: id,
        customer_id: DEMO.customers.anna,
        check_items: [
          { code: 'FUEL-95', category: 'fuel', quantity: 25, price: 1.8 },
          { code: 'SNK-1', category: 'shop', quantity: 4, price: 4.99 },
        ],
      },
      id,
    );
    expect(sale.status).toBe(200);
    expect(sale.body.emitted_coupons).toHaveLength(1);
    const made = [...ids('coupon'), ...ids('bonus_lot')].filter((r) => !before.has(r));
    expect(made.length).toBe(2);
    for (const r of made) expect(z.uuid().safeParse(r).success, r).toBe(true);
  });
});
