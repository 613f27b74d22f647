// Sync gaps the sale workflow found: a cancel or refund travels in its sale's lane, an
// offline PIN sale is verified against the cached hash and accepted by the central service
// without its PIN, and a split payment is recorded part by part.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { laneKey } from '../../src/sync/pusher.js';
import { recordCancel, recordRefund, startSalesWorld, type SalesWorld } from './sales-world.js';
import { drainAll } from './world.js';

let w: SalesWorld | null = null;
afterEach(async () => {
  await w?.close();
  w = null;
});

const item = (code: string, category: string, quantity: number, price: number) => ({
  code,
  category,
  quantity,
  price,
});

const row = (operation: string, body: Record<string, unknown>) => ({
  id: 9,
  operation,
  payload: { body },
});

/** Driver 1 paying from the fleet account through the driver's access, for the truck. */
const fleetPayment = {
  customer_id: DEMO.customers.driver1,
  corporate_customer_id: DEMO.customers.fleet,
  payment_type: 'corporate-special-account',
  payment_id: DEMO.accesses.driver1,
  vehicle_id: 'TRUCK-1',
};

describe('outbox lanes', () => {
  it("puts a cancel and a refund in their sale's lane", () => {
    const sales = new Map([
      ['s1', { payload: { body: { transaction_id: 's1', customer_id: 'c1' } } }],
      ['s2', { payload: { body: { transaction_id: 's2' } } }],
    ]);
    const find = (id: string) => sales.get(id) ?? null;
    expect(laneKey(row('cancel_check', { transaction_id: 's1' }), find)).toBe('c1');
    expect(
      laneKey(row('refund_check', { transaction_id: 'r1', original_transaction_id: 's1' }), find),
    ).toBe('c1');
    expect(laneKey(row('cancel_check', { transaction_id: 's2' }), find)).toBe(
      laneKey(row('process_check', { transaction_id: 's2' }), find),
    );
    expect(laneKey(row('cancel_check', { transaction_id: 'gone' }), find)).toBe('tx:gone');
  });

  it('delivers a cancel queued behind its sale after the sale, never as a void', async () => {
    w = await startSalesWorld();
    const world = w;
    const sales: string[] = [];
    // Other customers' rows first, so the sale and its cancel share a chunk of the drain.
    for (let i = 0; i < 6; i++) {
      const r = await world.sales.process({
        check: { check_items: [item('WTR-1', 'shop', 1, 1.49)] },
      });
      if (r.ok) sales.push(r.transaction_id);
    }
    const sale = await world.sales.process({
      check: { customer_id: DEMO.customers.ben, check_items: [item('COF-1', 'coffee', 1, 2.5)] },
    });
    expect(sale).toMatchObject({ ok: true, sync: 'queued' });
    const cancelId = recordCancel(world, sale.transaction_id);
    // A slow link: the sale is still in flight when the cancel could start.
    world.central.server.setFaults({ latency_ms: 50 });
    await drainAll(world.pusher, world.store);
    world.central.server.setFaults({ latency_ms: 0 });

    expect(world.store.outbox.byTransaction(cancelId)?.status).toBe('done');
    const onServer = world.central.store.transaction(sale.transaction_id);
    expect(onServer).toMatchObject({ operation: 'process_check', cancelled: 1 });
  }, 30_000);

  it('delivers a refund queued behind its sale after the sale', async () => {
    w = await startSalesWorld();
    const world = w;
    const sale = await world.sales.process({
      check: { customer_id: DEMO.customers.ben, check_items: [item('COF-1', 'coffee', 3, 2.5)] },
    });
    const refund = recordRefund(world, sale.transaction_id, [{ index: 0, quantity: 1 }]);
    world.central.server.setFaults({ latency_ms: 50 });
    await drainAll(world.pusher, world.store);
    world.central.server.setFaults({ latency_ms: 0 });
    expect(world.store.outbox.byTransaction(refund.id)?.status).toBe('done');
  }, 30_000);
});

describe('an offline sale paid from a PIN account', () => {
  it('is verified against the cached hash, stores no PIN and is accepted by the server', async () => {
    w = await startSalesWorld();
    const world = w;
    const fleetBefore = (
      world.central.store.getRecord('special_account', DEMO.accounts.fleet) as { balance: number }
    ).balance;
    world.central.server.setFaults({ error_rate: 1 });
    const id = uuidv7(Date.now());
    const sale = await world.sales.process({
      check: {
        transaction_id: id,
        ...fleetPayment,
        odometer: 120_600,
        special_account_pin: DEMO.pins.driver1,
        check_items: [item('DIESEL', 'fuel', 10, 1.659)],
      } as never,
    });
    expect(sale).toMatchObject({ ok: true, subtype: 'offline', sync: 'queued' });
    const outboxRow = world.store.outbox.byTransaction(id)!;
    expect(JSON.stringify(outboxRow.payload)).not.toContain(DEMO.pins.driver1);
    expect(JSON.stringify(world.store.ledger.storedCheck(id))).not.toContain(DEMO.pins.driver1);
    expect((outboxRow.payload as { body: object }).body).toMatchObject({
      transaction_subtype: 'offline',
      special_account_required_values_verify: false,
    });

    world.central.server.setFaults({ error_rate: 0 });
    await drainAll(world.pusher, world.store);
    expect(world.store.outbox.byTransaction(id)?.status).toBe('done');
    const fleetAfter = (
      world.central.store.getRecord('special_account', DEMO.accounts.fleet) as { balance: number }
    ).balance;
    expect(fleetAfter).toBeCloseTo(
      fleetBefore - (sale.ok ? (sale.check.amount_to_pay ?? 0) : 0),
      2,
    );
    expect(world.central.store.transaction(id)?.body).not.toContain(DEMO.pins.driver1);
  }, 30_000);

  it('is refused offline with a wrong PIN', async () => {
    w = await startSalesWorld();
    const world = w;
    world.central.server.setFaults({ error_rate: 1 });
    const sale = await world.sales.process({
      check: {
        ...fleetPayment,
        odometer: 120_600,
        special_account_pin: '9999',
        check_items: [item('DIESEL', 'fuel', 10, 1.659)],
      } as never,
    });
    expect(sale).toMatchObject({ ok: false, error: { code: 'pin-invalid' } });
  }, 30_000);
});

describe('a split payment', () => {
  it('records each part of the payment in the ledger', async () => {
    w = await startSalesWorld();
    const world = w;
    const sale = await world.sales.process({
      check: {
        check_items: [item('OIL-1', 'shop', 1, 12.9)],
        payments: [
          { type: 'cash', amount: 5 },
          { type: 'bank-card', amount: 7.9, payment_id: 'card-1' },
        ],
      },
    });
    expect(sale.ok).toBe(true);
    const payments = world.store.ledger.effectsOf(sale.transaction_id).payments as unknown[];
    expect(payments).toEqual([
      expect.objectContaining({ payment_type: 'cash', amount: '5' }),
      expect.objectContaining({ payment_type: 'bank-card', amount: '7.9' }),
    ]);
  }, 30_000);
});
