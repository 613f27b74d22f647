// The outbox pusher against the sandbox on 127.0.0.1: exactly once under every fault.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import type { Store } from '../../src/store/open.js';
import type { SyncClock } from '../../src/sync/clock.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { OUTBOX_PAYLOAD_VERSION } from '../../src/sync/outbox-payload.js';
import { OutboxPusher } from '../../src/sync/pusher.js';
import { recordCancel, recordRefund, startSalesWorld, type SalesWorld } from './sales-world.js';
import { drainAll, manualClock, recordCashSale, startWorld, type World } from './world.js';

let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
});

const coffee = (quantity: number) => ({ code: 'COF-1', category: 'coffee', quantity, price: 2.5 });
/** Ben buys coffee for cash: a sale that only earns, queued at once. */
const bensCoffees = { customer_id: DEMO.customers.ben, check_items: [coffee(3)] };

/** Gives a queued row the backoff a failed attempt would have left. */
function backOff(store: Store, transactionId: string, dueAt: number, nowMs: number): void {
  const id = store.outbox.byTransaction(transactionId)?.id ?? 0;
  expect(store.outbox.markSending(id, nowMs)).toBe(true);
  expect(store.outbox.markRetry(id, 'ECONNRESET: socket hang up', dueAt, nowMs)).toBe(true);
}

async function anonymousSales(w: SalesWorld, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await w.sales.process({
      check: { check_items: [{ code: 'WTR-1', category: 'shop', quantity: 1, price: 1.49 }] },
    });
    ids.push(r.transaction_id);
  }
  return ids;
}

/** Records a cancel of `saleId` with its `cancel_check` row. */
function recordCancelOf(store: Store, saleId: string, clock: SyncClock): string {
  const id = uuidv7(clock.now());
  store.record({
    id,
    kind: 'cancellation',
    subtype: 'online',
    localDate: new Date(clock.now()).toISOString().slice(0, 10),
    cancellation: { transactionId: saleId, comment: null },
    outbox: {
      operation: 'cancel_check',
      version: OUTBOX_PAYLOAD_VERSION,
      payload: {
        body: { transaction_id: saleId },
        app_version: 'test',
        schema_version: 2,
        made_at: new Date(clock.now()).toISOString(),
        clock_suspect: false,
      },
    },
  });
  return id;
}

describe('outbox pusher', () => {
  it('delivers 500 sales exactly once with every fault at 30% and commit-then-drop', async () => {
    world = await startWorld({ faultSeed: 42 });
    const { store, central, pusher } = world;
    const ids: string[] = [];
    let total = 0;
    for (let i = 0; i < 500; i++) {
      const amount = 1 + (i % 17) + 0.25;
      total += Math.round(amount * 100);
      ids.push(recordCashSale(store, amount));
    }
    central.server.setFaults({
      latency_ms: 1,
      error_rate: 0.3,
      rate_429: 0.3,
      retry_after_s: 0,
      reset_rate: 0.3,
      commit_then_drop_rate: 0.3,
    });
    await drainAll(pusher, store, 120_000);
    central.server.setFaults({
      error_rate: 0,
      rate_429: 0,
      reset_rate: 0,
      commit_then_drop_rate: 0,
      latency_ms: 0,
    });

    const rows = central.store.transactions();
    expect(rows).toHaveLength(500);
    expect(new Set(rows.map((r) => r.transaction_id))).toEqual(new Set(ids));
    const serverTotal = rows.reduce(
      (s, r) => s + Math.round((JSON.parse(r.body).check.amount_to_pay as number) * 100),
      0,
    );
    expect(serverTotal).toBe(total);
    expect(store.outbox.depth()).toEqual({ queued: 0, sending: 0, rejected: 0 });
  }, 150_000);

  it('honours, after a restart, the backoff of the oldest unsent row in its lane', async () => {
    const clock = manualClock(Date.now());
    world = await startWorld({ clock });
    const { store, client, central } = world;
    const sale = recordCashSale(store, 1.5, clock);
    const cancel = recordCancelOf(store, sale, clock);
    const other = recordCashSale(store, 2.5, clock);
    // The process that failed the sale (and gave it a minute's backoff) is gone.
    backOff(store, sale, clock.now() + 60_000, clock.now());

    const pusher = new OutboxPusher({ store, client, clock, retry: { base_ms: 1, max_ms: 20 } });
    // The cancel is due, but must not overtake its sale; another lane goes.
    expect(await pusher.drain()).toMatchObject({
      sent: 1,
      done: 1,
      nextDueAt: clock.now() + 60_000,
    });
    expect(central.store.transactions().map((t) => t.transaction_id)).toEqual([other]);

    clock.advance(60_000);
    expect(await pusher.drain()).toMatchObject({ sent: 2, done: 2 });
    expect(central.store.transaction(sale)?.cancelled).toBe(1);
    expect(store.outbox.byTransaction(cancel)?.status).toBe('done');
  });

  it('a manual drain sends backed-off rows now, a cancel still after its sale', async () => {
    const clock = manualClock(Date.now());
    world = await startWorld({ clock });
    const { store, client, central } = world;
    const sale = recordCashSale(store, 1.5, clock);
    const cancel = recordCancelOf(store, sale, clock);
    backOff(store, sale, clock.now() + 600_000, clock.now());
    const pusher = new OutboxPusher({ store, client, clock, retry: { base_ms: 1, max_ms: 20 } });

    expect(await pusher.drain()).toMatchObject({ sent: 0 });
    expect(await pusher.drain(undefined, { now: true })).toMatchObject({ sent: 2, done: 2 });
    expect(central.store.transaction(sale)?.cancelled).toBe(1);
    expect(store.outbox.byTransaction(cancel)?.status).toBe('done');
  });

  it('a manual drain waits for the running drain and then runs its own pass', async () => {
    const clock = manualClock(Date.now());
    world = await startWorld({ clock });
    const { store, client } = world;
    const sale = recordCashSale(store, 1.5, clock);
    backOff(store, sale, clock.now() + 600_000, clock.now());
    const pusher = new OutboxPusher({ store, client, clock, retry: { base_ms: 1, max_ms: 20 } });

    const background = pusher.drain();
    const manual = pusher.drain(undefined, { now: true });
    expect(await background).toMatchObject({ sent: 0 });
    expect(await manual).toMatchObject({ sent: 1, done: 1 });
  });

  it('a refund waits for its backed-off sale across chunks', async () => {
    const w = await startSalesWorld();
    world = w;
    // The pusher's clock runs a little ahead of the rows' stamps, so each is due at once.
    const clock = manualClock(Date.now() + 5_000);
    const pusher = new OutboxPusher({ ...w, clock, retry: { base_ms: 1, max_ms: 20 } });
    const sale = await w.sales.process({ check: bensCoffees });
    backOff(w.store, sale.transaction_id, clock.now() + 60_000, clock.now());
    const others = await anonymousSales(w, 20);
    const refund = recordRefund(w, sale.transaction_id, [{ index: 0, quantity: 1 }]);

    // Other lanes go; the refund stays behind its sale, more than one chunk (16 rows) on.
    expect(await pusher.drain()).toMatchObject({ done: 20, rejected: 0 });
    for (const id of others) expect(w.store.outbox.byTransaction(id)?.status).toBe('done');
    expect(w.store.outbox.byTransaction(refund.id)).toMatchObject({
      status: 'queued',
      attempts: 0,
    });

    clock.advance(60_000);
    expect(await pusher.drain()).toMatchObject({ done: 2, rejected: 0 });
    expect(w.central.store.transaction(refund.id)).toBeDefined();
  });

  it('a cancel waits for its backed-off sale, and never fences it', async () => {
    const w = await startSalesWorld();
    world = w;
    const clock = manualClock(Date.now() + 5_000);
    const pusher = new OutboxPusher({ ...w, clock, retry: { base_ms: 1, max_ms: 20 } });
    const sale = await w.sales.process({ check: bensCoffees });
    backOff(w.store, sale.transaction_id, clock.now() + 60_000, clock.now());
    await anonymousSales(w, 17);
    const cancel = recordCancel(w, sale.transaction_id);

    expect(await pusher.drain()).toMatchObject({ done: 17 });
    expect(w.central.store.transaction(sale.transaction_id)).toBeUndefined();
    clock.advance(60_000);
    expect(await pusher.drain()).toMatchObject({ done: 2, rejected: 0 });
    expect(w.central.store.transaction(sale.transaction_id)).toMatchObject({
      operation: 'process_check',
      cancelled: 1,
    });
    expect(w.store.outbox.byTransaction(cancel)?.status).toBe('done');
  });

  it("a lane in backoff does not stop other customers' rows", async () => {
    const w = await startSalesWorld();
    world = w;
    const clock = manualClock(Date.now() + 5_000);
    const pusher = new OutboxPusher({ ...w, clock, retry: { base_ms: 1, max_ms: 20 } });
    const first = await w.sales.process({ check: bensCoffees });
    const second = await w.sales.process({ check: bensCoffees });
    const anna = await w.sales.process({
      check: { customer_id: DEMO.customers.anna, check_items: [coffee(1)] },
    });
    backOff(w.store, first.transaction_id, clock.now() + 60_000, clock.now());

    // Ben's lane waits for its first row; Anna's row goes, in this pass and the next.
    expect(await pusher.drain()).toMatchObject({
      sent: 1,
      done: 1,
      nextDueAt: clock.now() + 60_000,
    });
    expect(w.store.outbox.byTransaction(anna.transaction_id)?.status).toBe('done');
    expect(w.store.outbox.byTransaction(second.transaction_id)?.status).toBe('queued');
    const later = await anonymousSales(w, 3);
    expect(await pusher.drain()).toMatchObject({ sent: 3, done: 3 });
    for (const id of later) expect(w.store.outbox.byTransaction(id)?.status).toBe('done');
  });

  it('a row the server refuses as malformed is set aside on the attention list', async () => {
    const clock = manualClock(Date.now());
    world = await startWorld({ clock });
    const { store, pusher } = world;
    const bad = recordCashSale(store, 1.5, clock, {
      check_items: [{ code: 'WTR-1', quantity: 'a lot' }],
    });
    const good = recordCashSale(store, 2.5, clock);
    expect(await pusher.drain()).toMatchObject({ done: 1, rejected: 1 });
    expect(store.outbox.attention()).toMatchObject([
      { transactionId: bad, status: 'rejected', response: { status: 400 } },
    ]);
    expect(store.outbox.byTransaction(good)?.status).toBe('done');
  });

  it('a row whose stored payload no longer reads is set aside as unsendable', async () => {
    const clock = manualClock(Date.now());
    world = await startWorld({ clock });
    const { store, pusher } = world;
    const bad = recordCashSale(store, 1.5, clock, {}, { app_version: undefined });
    const good = recordCashSale(store, 2.5, clock);
    expect(await pusher.drain()).toMatchObject({ done: 1, rejected: 1 });
    expect(store.outbox.attention()).toMatchObject([
      { transactionId: bad, response: { error: { code: 'unsendable' } } },
    ]);
    expect(store.outbox.byTransaction(good)?.status).toBe('done');
  });

  it('an answer that stays unreadable is set aside after 5 attempts, and other lanes go on', async () => {
    const w = await startSalesWorld();
    world = w;
    // A server whose coupon ids break the contract: every answer to a check presenting the
    // coupon fails the terminal's schema, the same stored answer under the same key.
    const [coupon] = w.central.store.findBy('coupon', 'code', DEMO.coupons.coffee) as {
      id: string;
    }[];
    w.central.store.remove('coupon', coupon!.id);
    w.central.store.upsert('coupon', 'legacy-coupon-c0', { ...coupon, id: 'legacy-coupon-c0' });
    expect((await w.puller.pull()).ok).toBe(true);
    const sale = await w.sales.process({
      check: {
        ...bensCoffees,
        customer_id: DEMO.customers.anna,
        redeemed_coupons: [{ code: DEMO.coupons.coffee }],
      },
    });
    // The online answer was unreadable: an unknown outcome, so the till stood in.
    expect(sale).toMatchObject({ ok: true, subtype: 'offline', sync: 'queued' });
    const clock = manualClock(Date.now() + 5_000);
    const pusher = new OutboxPusher({ ...w, clock, retry: { base_ms: 1, max_ms: 20 } });
    for (let i = 0; i < 5; i++) {
      const others = await anonymousSales(w, 2);
      await pusher.drain();
      for (const id of others) expect(w.store.outbox.byTransaction(id)?.status).toBe('done');
      clock.advance(1_000);
    }
    expect(w.store.outbox.attention()).toMatchObject([
      {
        transactionId: sale.transaction_id,
        attempts: 5,
        response: { error: { code: 'invalid-response' } },
      },
    ]);
  });
});
