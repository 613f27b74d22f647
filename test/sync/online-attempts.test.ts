// Online attempts (docs/sync.md, "Online attempts"): a sale that spends goes to the server
// before the till records it. The attempt is written first, so a till killed in between
// voids that sale at its next start instead of leaving it applied on the server while
// sale-status says unknown.
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
import type { SaleService } from '../../src/terminal/sale-service.js';
import { annaSpends, connectTill, waitUntil, openTerminalStore, tillSales } from './world.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Till {
  store: Store;
  client: CentralClient;
  pusher: OutboxPusher;
  /** A sale service as a (re)started till makes it. */
  sales(standin?: { customer_day_limit: number }): SaleService;
}

async function till(central: RunningCentral): Promise<Till> {
  const dir = mkdtempSync(join(tmpdir(), 'lt-attempt-'));
  const clock = systemSyncClock;
  const store = await openTerminalStore(dir, clock);
  const { link, client } = connectTill(store, central.url, central, clock);
  const pusher = new OutboxPusher({ store, client, clock, retry: { base_ms: 1, max_ms: 20 } });
  cleanups.push(async () => {
    await client.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  expect((await new Puller({ store, client, clock }).pull()).ok).toBe(true);
  return {
    store,
    client,
    pusher,
    sales: (standin) =>
      tillSales({ store, client, link, clock }, central.terminal_id, {
        central: { timeouts: { online_deadline_ms: 300 } },
        ...(standin ? { standin } : {}),
      }),
  };
}

async function sandbox(): Promise<RunningCentral> {
  const central = await startCentral();
  cleanups.push(() => central.close());
  return central;
}

const spend = annaSpends;

const annaRegular = (central: RunningCentral): number =>
  (central.store.getRecord('customer', DEMO.customers.anna) as { bonuses: { regular: number } })
    .bonuses.regular;

describe('online attempts', () => {
  it('voids at start a sale the server applied but the till never recorded', async () => {
    const central = await sandbox();
    const t = await till(central);
    const before = annaRegular(central);
    // The run that was killed: attempt written, request applied, answer never recorded.
    const id = '019a4444-0000-7000-8000-000000000001';
    t.store.onlineAttempts.begin(id, Date.now());
    const sent = await t.client.write('processCheck', { ...spend, transaction_id: id }, id);
    expect(sent.ok).toBe(true);
    expect(annaRegular(central)).not.toBe(before);

    expect(t.sales().recoverOnlineAttempts()).toEqual({ voided: 1, recorded: 0 });
    expect(t.store.onlineAttempts.open()).toEqual([]);
    expect(t.store.ledger.storedCheck(id)).toBeNull();
    expect(await t.pusher.drain()).toMatchObject({ done: 1, rejected: 0 });
    expect(central.store.transaction(id)?.cancelled).toBe(1);
    expect(annaRegular(central)).toBe(before);
  });

  it('fences at start a sale whose request never reached the server', async () => {
    const central = await sandbox();
    const t = await till(central);
    const id = '019a4444-0000-7000-8000-000000000002';
    t.store.onlineAttempts.begin(id, Date.now());

    expect(t.sales().recoverOnlineAttempts()).toEqual({ voided: 1, recorded: 0 });
    expect(await t.pusher.drain()).toMatchObject({ done: 1, rejected: 0 });
    const late = await t.client.write('processCheck', { ...spend, transaction_id: id }, id);
    expect(late.ok ? null : late.failure).toMatchObject({ kind: 'http', status: 409 });
  });

  it('only closes the attempt of a sale the till did record', async () => {
    const central = await sandbox();
    const t = await till(central);
    const r = await t.sales().process({ check: spend });
    expect(r.ok).toBe(true);
    t.store.onlineAttempts.begin(r.transaction_id, Date.now());

    expect(t.sales().recoverOnlineAttempts()).toEqual({ voided: 0, recorded: 1 });
    expect(t.store.outbox.unsent()).toEqual([]);
    expect(central.store.transaction(r.transaction_id)?.cancelled).toBe(0);
  });

  it('delivers the stand-in copy of an attempt that did land as a repeat, applied once', async () => {
    const central = await sandbox();
    const t = await till(central);
    const before = annaRegular(central);
    // The server applies the sale after the till's deadline: the till stands in.
    central.server.setFaults({ latency_ms: 600 });
    const r = await t.sales().process({ check: spend });
    expect(r).toMatchObject({ ok: true, subtype: 'offline' });
    await waitUntil(() => central.store.transaction(r.transaction_id) !== undefined);
    const applied = annaRegular(central);
    expect(applied).not.toBe(before);
    central.server.setFaults({ latency_ms: 0 });

    expect(await t.pusher.drain()).toMatchObject({ done: 1, rejected: 0 });
    expect(central.store.transactions().map((x) => x.transaction_id)).toEqual([r.transaction_id]);
    expect(central.store.transaction(r.transaction_id)?.cancelled).toBe(0);
    expect(annaRegular(central)).toBe(applied);
  });

  it('leaves no attempt open after a sale recorded online', async () => {
    const central = await sandbox();
    const t = await till(central);
    const r = await t.sales().process({ check: spend });
    expect(r).toMatchObject({ ok: true, subtype: 'online' });
    expect(t.store.onlineAttempts.open()).toEqual([]);
  });

  it('leaves no attempt open after a sale recorded in stand-in', async () => {
    const central = await sandbox();
    const t = await till(central);
    central.server.setFaults({ error_rate: 1 });
    const r = await t.sales().process({ check: spend });
    expect(r).toMatchObject({ ok: true, subtype: 'offline' });
    expect(t.store.onlineAttempts.open()).toEqual([]);
  });

  it('leaves no attempt open after a stand-in refusal, its void queued instead', async () => {
    const central = await sandbox();
    const t = await till(central);
    central.server.setFaults({ reset_rate: 1 });
    const r = await t.sales({ customer_day_limit: 0 }).process({ check: spend });
    expect(r.ok).toBe(false);
    expect(t.store.onlineAttempts.open()).toEqual([]);
    expect(t.store.outbox.unsent().map((row) => row.operation)).toEqual(['cancel_check']);
  });
});
