// Refunds reach the central service: a partial refund queued as `refund_check` is sent under
// its own id, the sandbox computes it from its stored sale with the engine's refund mode,
// applies it once whatever the link does, and lands on the figures the terminal computed.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, type RunningCentral } from '../../src/central/index.js';
import { add, dec, sub, toNumber, ZERO } from '../../src/money/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { recordRefund, startSalesWorld, type SalesWorld } from './sales-world.js';
import { drainAll } from './world.js';

let w: SalesWorld | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

/** A customer's bonuses on the server: regular plus every lot. */
function serverBonuses(central: RunningCentral, customerId: string): number {
  const c = central.store.getRecord('customer', customerId) as { bonuses?: { regular?: number } };
  const lots = (
    central.store.findBy('bonus_lot', 'customer_id', customerId) as { amount: number }[]
  ).reduce((s, l) => add(s, dec(l.amount)), ZERO);
  return toNumber(add(dec(c.bonuses?.regular ?? 0), lots));
}

const item = (code: string, category: string, quantity: number, price: number) => ({
  code,
  category,
  quantity,
  price,
});

describe('refund_check', () => {
  it('delivers a partial refund exactly once, with the balances the terminal computed', async () => {
    w = await startSalesWorld();
    const world = w;
    const saleId = uuidv7(Date.now());
    const sale = await world.sales.process({
      check: {
        transaction_id: saleId,
        customer_id: DEMO.customers.anna,
        bonuses_redeemed_amount: 5,
        check_items: [item('FUEL-95', 'fuel', 10, 1.789), item('COF-1', 'coffee', 2, 2.5)],
      },
    });
    expect(sale).toMatchObject({ ok: true, sync: 'done' });
    const before = serverBonuses(world.central, DEMO.customers.anna);

    const refund = recordRefund(world, saleId, [{ index: 0, quantity: 4 }]);
    expect(refund.check.bonuses_redeemed_amount).toBeGreaterThan(0);
    // The first answer is lost after the sandbox committed: the retry must not apply it again.
    world.central.server.setFaults({ commit_then_drop_rate: 1 });
    const first = await world.pusher.drain();
    expect(first.retried).toBe(1);
    world.central.server.setFaults({ commit_then_drop_rate: 0 });
    await drainAll(world.pusher, world.store);

    const row = world.store.outbox.byTransaction(refund.id);
    expect(row?.status).toBe('done');
    const refunds = world.central.store
      .transactions()
      .filter((t) => t.operation === 'refund_check');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.transaction_id).toBe(refund.id);
    expect(JSON.parse(refunds[0]!.body)).toMatchObject({ original_transaction_id: saleId });

    const answer = row?.response as Record<string, unknown>;
    for (const k of ['amount_to_pay', 'bonuses_redeemed_amount', 'bonuses_added_amount'] as const)
      expect(answer[k]).toBe(refund.check[k]);
    expect(answer.preliminary_transaction_id).toBe(saleId);
    const expected = sub(
      add(dec(before), dec(refund.check.bonuses_redeemed_amount ?? 0)),
      dec(refund.check.bonuses_added_amount ?? 0),
    );
    expect(serverBonuses(world.central, DEMO.customers.anna)).toBe(toNumber(expected));
  }, 30_000);

  it('refunds the rest of a sale in steps that add up to the whole sale', async () => {
    w = await startSalesWorld();
    const world = w;
    const saleId = uuidv7(Date.now());
    await world.sales.process({
      check: {
        transaction_id: saleId,
        customer_id: DEMO.customers.anna,
        bonuses_redeemed_amount: 5,
        check_items: [item('FUEL-95', 'fuel', 10, 1.789)],
      },
    });
    const first = recordRefund(world, saleId, [{ index: 0, quantity: 3 }]);
    await drainAll(world.pusher, world.store);
    const answers = world.central.store
      .transactions()
      .filter((t) => t.operation === 'refund_check')
      .map((t) => (JSON.parse(t.body) as { check: { amount_to_pay: number } }).check);
    expect(answers).toHaveLength(1);
    expect(answers[0]!.amount_to_pay).toBe(first.check.amount_to_pay);

    // The sandbox refunds the second step from what the first left.
    const saleRow = world.central.store.transaction(saleId)!;
    const sold = (JSON.parse(saleRow.body) as { check: { amount_to_pay: number } }).check;
    const rest = await fetchRefund(world, saleId, [{ index: 0, quantity: 7 }]);
    expect(toNumber(add(dec(first.check.amount_to_pay ?? 0), dec(rest.amount_to_pay)))).toBe(
      sold.amount_to_pay,
    );
  }, 30_000);

  it('refuses a refund of more than the sale', async () => {
    w = await startSalesWorld();
    const world = w;
    const saleId = uuidv7(Date.now());
    await world.sales.process({
      check: {
        transaction_id: saleId,
        customer_id: DEMO.customers.ben,
        check_items: [item('COF-1', 'coffee', 1, 2.5)],
      },
    });
    await drainAll(world.pusher, world.store);
    const id = uuidv7(Date.now());
    const r = await world.client.write(
      'refundCheck',
      { transaction_id: id, original_transaction_id: saleId, lines: [{ index: 0, quantity: 2 }] },
      id,
    );
    expect(r.ok ? null : r.failure).toMatchObject({
      kind: 'http',
      status: 422,
      code: 'invalid-input',
    });
  }, 30_000);
});

async function fetchRefund(
  world: SalesWorld,
  originalId: string,
  lines: { index: number; quantity: number }[],
): Promise<{ amount_to_pay: number }> {
  const id = uuidv7(Date.now());
  const r = await world.client.write(
    'refundCheck',
    { transaction_id: id, original_transaction_id: originalId, lines },
    id,
  );
  if (!r.ok) throw new Error(JSON.stringify(r.failure));
  return r.value as { amount_to_pay: number };
}
