// The wall clock the terminal sees, moved while offline (issue 8): "two days forward and a year
// back while offline: sales are kept and flagged, the offline window cannot be stretched".
// Only the clock port moves (src/sync/clock.ts manualClock); the machine's clock is never set.
// The sync layer runs for real against a store and the sandbox central service, which is
// stopped after the first pull so the till stands in.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, startCentral, type RunningCentral } from '../../src/central/index.js';
import type { EngineCheck } from '../../src/contract/engine.js';
import type { Store } from '../../src/store/open.js';
import type { CentralClient } from '../../src/sync/client.js';
import type { SyncClock } from '../../src/sync/clock.js';
import { manualClock } from '../support/clock.js';
import type { Connectivity } from '../../src/sync/connectivity.js';
import type { OutboxPayloadV1 } from '../../src/sync/outbox-payload.js';
import { OutboxPusher } from '../../src/sync/pusher.js';
import { Puller } from '../../src/sync/puller.js';
import type { SaleOutcome, SaleService } from '../../src/terminal/sale-service.js';
import { connectTill, openTerminalStore, tillSales } from '../sync/world.js';

const T0 = Date.parse('2026-11-22T10:15:00Z');
const DAY = 86_400_000;
const YEAR = 365 * DAY;
const WINDOW_S = 3_600;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Till {
  store: Store;
  link: Connectivity;
  client: CentralClient;
  sales: SaleService;
}

function till(
  store: Store,
  url: string,
  central: RunningCentral,
  clock: SyncClock,
  customerDayLimit = 1_000,
): Till {
  const { link, client } = connectTill(store, url, central, clock);
  cleanups.push(() => client.close());
  const sales = tillSales({ store, client, link, clock }, central.terminal_id, {
    central: { timeouts: { online_deadline_ms: 1_000 } },
    standin: {
      max_cache_age_s: WINDOW_S,
      customer_day_limit: customerDayLimit,
      terminal_total_limit: 1_000,
    },
  });
  return { store, link, client, sales };
}

const cash: EngineCheck = {
  check_items: [{ code: 'WTR-1', category: 'shop', quantity: 1, price: 1.49 }],
};
const spend: EngineCheck = {
  customer_id: DEMO.customers.anna,
  bonuses_redeemed_amount: 1,
  check_items: [{ code: 'COF-1', category: 'coffee', quantity: 1, price: 2.5 }],
};

/** A till that pulled everything at T0 and then lost the central service. */
async function offlineTill(customerDayLimit?: number) {
  const dir = mkdtempSync(join(tmpdir(), 'lt-clock-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const clock = manualClock(T0);
  const dbFile = join(dir, 'central.sqlite');
  const central = await startCentral({ db: dbFile, clock });
  const port = Number(new URL(central.url).port);
  const store = await openTerminalStore(join(dir, 'till'), clock);
  cleanups.push(() => store.close());
  const t = till(store, central.url, central, clock, customerDayLimit);
  expect((await new Puller({ store, client: t.client, clock }).pull()).ok).toBe(true);
  await central.close();
  return { dir, clock, central, dbFile, port, ...t };
}

function payloadOf(store: Store, id: string): OutboxPayloadV1 {
  return store.outbox.byTransaction(id)?.payload as OutboxPayloadV1;
}

function expectKept(store: Store, r: SaleOutcome, flagged: boolean): string {
  expect(r.ok, JSON.stringify(r)).toBe(true);
  if (!r.ok) throw new Error('refused');
  expect(r.subtype).toBe('offline');
  expect(r.clock_suspect).toBe(flagged);
  expect(store.ledger.status(r.transaction_id)?.syncStatus).toBe('unconfirmed');
  const row = store.outbox.byTransaction(r.transaction_id);
  expect(row?.status).toBe('queued');
  expect(payloadOf(store, r.transaction_id).clock_suspect).toBe(flagged);
  return r.transaction_id;
}

describe('the wall clock moved while offline', () => {
  it('keeps and flags sales two days forward and a year back, and never stretches the window', async () => {
    const { clock, store, sales, link } = await offlineTill();
    const kept: string[] = [];

    clock.advance(60_000);
    kept.push(expectKept(store, await sales.process({ check: spend }), false));
    kept.push(expectKept(store, await sales.process({ check: cash }), false));
    expect(link.current).toBe('offline');

    // Two days forward: the sales are kept, flagged, and stamped with the time the clock says.
    clock.jumpWall(2 * DAY);
    const ahead = expectKept(store, await sales.process({ check: cash }), true);
    kept.push(ahead);
    expect(Date.parse(payloadOf(store, ahead).made_at)).toBe(T0 + 60_000 + 2 * DAY);
    // The window runs on the monotonic clock: a minute of it is gone, not two days.
    kept.push(expectKept(store, await sales.process({ check: spend }), true));
    expect(link.sinceContactMs()).toBe(60_000);

    // A year back: kept and flagged; the window is still a minute old.
    clock.jumpWall(-2 * DAY - YEAR);
    kept.push(expectKept(store, await sales.process({ check: cash }), true));
    kept.push(expectKept(store, await sales.process({ check: spend }), true));
    expect(link.status().clockReason).toBe('the system clock moved backwards');

    // Real time passes beyond the window: spending is refused, however far back the wall
    // clock is put; cash sales go on, flagged.
    clock.advance(WINDOW_S * 1_000);
    const late = await sales.process({ check: spend });
    expect(late).toMatchObject({
      ok: false,
      error: { code: 'standin-limit', details: { limit: 'cache-age' } },
    });
    clock.jumpWall(-DAY);
    expect(await sales.process({ check: spend })).toMatchObject({
      ok: false,
      error: { details: { limit: 'cache-age' } },
    });
    kept.push(expectKept(store, await sales.process({ check: cash }), true));

    // Every sale is there once, in the order sold, each with its own sequence number.
    const queued = store.outbox.unsent().map((r) => r.transactionId);
    expect(queued).toEqual(kept);
    expect(new Set(kept.map((id) => store.ledger.status(id)?.seq)).size).toBe(kept.length);
    expect(store.check().ok).toBe(true);
  }, 60_000);

  it('opens no new day of offline allowance for a customer when the clock jumps two days ahead', async () => {
    // One bonus is worth one unit of money here; the limit holds one spend a day.
    const { clock, store, sales } = await offlineTill(1.5);
    clock.advance(60_000);
    expectKept(store, await sales.process({ check: spend }), false);
    expect(await sales.process({ check: spend })).toMatchObject({
      ok: false,
      error: { details: { limit: 'customer-day' } },
    });
    clock.jumpWall(2 * DAY);
    expect(await sales.process({ check: spend })).toMatchObject({
      ok: false,
      error: { code: 'standin-limit', details: { limit: 'customer-day' } },
    });
    // Cash and earning are always allowed.
    expectKept(store, await sales.process({ check: cash }), true);
  }, 60_000);

  it('keeps the window closed after a restart with the wall clock set a year back', async () => {
    const { store, central } = await offlineTill();
    // The process restarts (a new monotonic origin) on a clock a year behind the last contact.
    const back = manualClock(T0 - YEAR);
    const t = till(store, 'http://127.0.0.1:9', central, back);
    expect(t.link.status()).toMatchObject({ sinceContactMs: null, clockSuspect: true });
    expect(await t.sales.process({ check: spend })).toMatchObject({
      ok: false,
      error: { details: { limit: 'cache-age' } },
    });
    expectKept(store, await t.sales.process({ check: cash }), true);
  }, 60_000);

  it('counts the window from the last contact after a restart with the clock two days ahead', async () => {
    const { store, central } = await offlineTill();
    const ahead = manualClock(T0 + 2 * DAY);
    const t = till(store, 'http://127.0.0.1:9', central, ahead);
    expect(t.link.sinceContactMs()).toBe(2 * DAY);
    expect(await t.sales.process({ check: spend })).toMatchObject({
      ok: false,
      error: { details: { limit: 'cache-age' } },
    });
    const r = await t.sales.process({ check: cash });
    expect(r.ok).toBe(true);
  }, 60_000);

  // A row's first attempt was once due at the wall time it was made; a due time beyond now +
  // the longest backoff now counts as due, so these rows are not held back.
  it('delivers the sales made while the clock ran ahead once the link returns', async () => {
    const { clock, store, sales, client, dbFile, port } = await offlineTill();
    clock.advance(60_000);
    clock.jumpWall(2 * DAY);
    const ids = [
      expectKept(store, await sales.process({ check: spend }), true),
      expectKept(store, await sales.process({ check: cash }), true),
    ];
    // The clock is put right, and the central service comes back.
    clock.jumpWall(-2 * DAY);
    const central = await startCentral({ db: dbFile, port, clock });
    cleanups.push(() => central.close());
    const pusher = new OutboxPusher({ store, client, clock, retry: { base_ms: 1, max_ms: 20 } });
    await pusher.drain();
    for (const id of ids) expect(store.outbox.byTransaction(id)?.status).toBe('done');
  }, 60_000);
});
