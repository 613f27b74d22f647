// The void path (docs/sync.md, "Online first, stand-in"): an online spend whose request may
// have reached the server (a timeout, a reset) and that the stand-in then refuses queues a
// cancel_check of that transaction id. The sandbox cancels the sale when it did apply it, and
// otherwise answers a cancelled stub and fences the id for good. A refused connection cannot
// have reached the server: no void.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, startCentral, type RunningCentral } from '../../src/central/index.js';
import type { Store } from '../../src/store/open.js';
import type { CentralClient } from '../../src/sync/client.js';
import { systemSyncClock } from '../../src/sync/clock.js';
import { OutboxPusher } from '../../src/sync/pusher.js';
import { Puller } from '../../src/sync/puller.js';
import type { SaleOutcome, SaleService } from '../../src/terminal/sale-service.js';
import {
  annaSpends,
  connectTill,
  waitUntil,
  makeClient,
  openTerminalStore,
  tillSales,
} from './world.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Till {
  store: Store;
  client: CentralClient;
  sales: SaleService;
  pusher: OutboxPusher;
  /** The same till's sale service over another client. */
  salesVia(client: CentralClient): SaleService;
}

/** A till whose stand-in refuses every offline spend (customer-day limit 0). */
async function till(central: RunningCentral, deadlineMs = 150): Promise<Till> {
  const dir = mkdtempSync(join(tmpdir(), 'lt-void-'));
  const clock = systemSyncClock;
  const store = await openTerminalStore(dir, clock);
  const { link, client } = connectTill(store, central.url, central, clock);
  const salesVia = (via: CentralClient) =>
    tillSales({ store, client: via, link, clock }, central.terminal_id, {
      central: { timeouts: { online_deadline_ms: deadlineMs } },
      standin: { customer_day_limit: 0 },
    });
  const sales = salesVia(client);
  const pusher = new OutboxPusher({ store, client, clock, retry: { base_ms: 1, max_ms: 20 } });
  cleanups.push(async () => {
    await client.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  expect((await new Puller({ store, client, clock }).pull()).ok).toBe(true);
  return { store, client, sales, pusher, salesVia };
}

async function sandbox(): Promise<RunningCentral> {
  const central = await startCentral();
  cleanups.push(() => central.close());
  return central;
}

const spend = annaSpends;

/** Anna's bonuses on the server: the regular balance and every promotional lot. */
const serverBonuses = (central: RunningCentral) => ({
  regular: (
    central.store.getRecord('customer', DEMO.customers.anna) as { bonuses: { regular: number } }
  ).bonuses.regular,
  lots: (
    central.store.findBy('bonus_lot', 'customer_id', DEMO.customers.anna) as {
      amount: number;
    }[]
  ).map((l) => l.amount),
});

function expectRefused(r: SaleOutcome): void {
  expect(r.ok ? null : r.error).toMatchObject({
    code: 'standin-limit',
    details: { limit: 'customer-day' },
  });
}

describe('void of a refused stand-in', () => {
  it('queues a cancel_check when the online attempt timed out and the stand-in refused', async () => {
    const central = await sandbox();
    const t = await till(central);
    const before = serverBonuses(central);
    // The server applies the sale, but only after the till's deadline.
    central.server.setFaults({ latency_ms: 400 });
    const r = await t.sales.process({ check: spend });
    expectRefused(r);
    const row = t.store.outbox.unsent();
    expect(row).toHaveLength(1);
    expect(row[0]).toMatchObject({
      operation: 'cancel_check',
      payload: { body: { transaction_id: r.transaction_id } },
    });
    // Nothing is held for the refused sale: the till's figures stay the server's.
    expect(t.store.ledger.storedCheck(r.transaction_id)).toBeNull();

    await waitUntil(() => central.store.transaction(r.transaction_id) !== undefined);
    expect(serverBonuses(central)).not.toEqual(before);
    central.server.setFaults({ latency_ms: 0 });
    const drained = await t.pusher.drain();
    expect(drained).toMatchObject({ done: 1, rejected: 0 });
    // The void cancelled what the lost request had applied.
    expect(central.store.transaction(r.transaction_id)?.cancelled).toBe(1);
    expect(serverBonuses(central)).toEqual(before);
  });

  it('voids a sale the server never saw with a cancelled stub, and fences its id for good', async () => {
    const central = await sandbox();
    const t = await till(central);
    const before = serverBonuses(central);
    // The connection is reset before the request is handled: its fate is unknown to the till.
    central.server.setFaults({ reset_rate: 1 });
    const r = await t.sales.process({ check: spend });
    expectRefused(r);
    const [queued] = t.store.outbox.unsent();
    expect(queued?.operation).toBe('cancel_check');

    central.server.setFaults({ reset_rate: 0 });
    expect(await t.pusher.drain()).toMatchObject({ done: 1, rejected: 0 });
    expect(t.store.outbox.get(queued?.id ?? 0)).toMatchObject({
      status: 'done',
      response: { transaction_id: r.transaction_id, transaction_cancelled: 1 },
    });
    expect(central.store.transactions()).toMatchObject([
      { transaction_id: r.transaction_id, operation: 'void' },
    ]);

    // The lost request arrives late, under its own key: refused, never applied.
    const late = await t.client.write(
      'processCheck',
      { ...spend, transaction_id: r.transaction_id },
      r.transaction_id,
    );
    expect(late.ok ? null : late.failure).toMatchObject({ kind: 'http', status: 409 });
    expect(serverBonuses(central)).toEqual(before);
    expect(central.store.transactions()).toHaveLength(1);
  });

  it('answers a cancel of an unknown transaction with a cancelled stub, every time it is asked', async () => {
    const central = await sandbox();
    const t = await till(central);
    const id = '019a3333-0000-7000-8000-000000000001';
    const body = { transaction_id: id, comment: 'void: refused while standing in' };
    const first = await t.client.write('cancelCheck', body, '019a3333-0000-7000-8000-0000000000aa');
    expect(first.ok && first.value).toMatchObject({ transaction_id: id, transaction_cancelled: 1 });
    // The same key again (a dropped answer) gets the same stub.
    const again = await t.client.write('cancelCheck', body, '019a3333-0000-7000-8000-0000000000aa');
    expect(again.ok && again.value).toEqual(first.ok && first.value);
    const sale = await t.client.write('processCheck', { ...spend, transaction_id: id }, id);
    expect(sale.ok ? null : sale.failure).toMatchObject({ kind: 'http', status: 409 });
  });

  it('queues no void when the connection was refused: the request never left', async () => {
    const central = await sandbox();
    const t = await till(central);
    await central.close();
    // A new client: no kept-alive socket whose late close would look like a reset.
    const fresh = makeClient(central.url, central);
    cleanups.push(() => fresh.close());
    const r = await t.salesVia(fresh).process({ check: spend });
    expectRefused(r);
    expect(t.store.outbox.unsent()).toEqual([]);
    expect(t.store.outbox.oldestUnsent()).toBeNull();
  });
});

describe('an answer the terminal cannot read', () => {
  it('an unreadable answer to an online sale is an unknown outcome, fenced by a void', async () => {
    const central = await sandbox();
    // A server whose coupon ids break the contract: its answer to a check presenting the
    // coupon fails the terminal's schema, though the server applied the sale.
    const [coffee] = central.store.findBy('coupon', 'code', DEMO.coupons.coffee) as {
      id: string;
    }[];
    central.store.remove('coupon', coffee!.id);
    central.store.upsert('coupon', 'legacy-coupon-c0', { ...coffee, id: 'legacy-coupon-c0' });
    // A deadline the answer always meets: its body, not its time, is the fault here.
    const t = await till(central, 5_000);
    const before = serverBonuses(central);
    const r = await t.sales.process({
      check: { ...spend, redeemed_coupons: [{ code: DEMO.coupons.coffee }] },
    });
    expect(central.store.transaction(r.transaction_id)?.operation).toBe('process_check');
    // Not a definite refusal: the stand-in decided (and refused), and a void fences the sale.
    expectRefused(r);
    expect(t.store.outbox.unsent()).toMatchObject([
      { operation: 'cancel_check', payload: { body: { transaction_id: r.transaction_id } } },
    ]);
    await t.pusher.drain();
    expect(central.store.transaction(r.transaction_id)?.cancelled).toBe(1);
    expect(serverBonuses(central)).toEqual(before);
  });
});
