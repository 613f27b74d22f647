// The sync service's loops against the sandbox on 127.0.0.1, with its timers and clock moved
// by hand: a drain on start, on the drain timer, on a new write, on reconnect and when a
// backoff ends; a pull on start and every pull interval while online, none while offline.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { ConfigSchema } from '../../src/contract/config.js';
import { SaleService } from '../../src/terminal/sale-service.js';
import { startCentral, type RunningCentral } from '../../src/central/index.js';
import type { Store } from '../../src/store/open.js';
import { manualClock, manualTimers } from '../support/clock.js';
import { SyncService } from '../../src/sync/sync-service.js';
import { openTerminalStore, recordCashSale } from './world.js';

const PULL_EVERY = 60_000;
const DRAIN_EVERY = 30_000;

interface Rig {
  central: RunningCentral;
  store: Store;
  sync: SyncService;
  clock: ReturnType<typeof manualClock>;
  timers: ReturnType<typeof manualTimers>;
  drains: MockInstance<SyncService['pusher']['drain']>;
  pulls: MockInstance<SyncService['puller']['pull']>;
  /**
   * Moves the clock by `ms`, firing the timers due, and waits for the drains and pulls they
   * started and for any timer those set to fire at once (bounded).
   */
  advance(ms: number): Promise<void>;
}

let rig: Rig | null = null;
afterEach(async () => {
  if (!rig) return;
  await rig.sync.stop();
  rig.store.close();
  await rig.central.close();
  rig = null;
});

async function start(): Promise<Rig> {
  const central = await startCentral();
  const clock = manualClock(Date.now());
  const timers = manualTimers(clock);
  const dir = mkdtempSync(join(tmpdir(), 'lt-sync-service-'));
  const store = await openTerminalStore(dir, clock);
  const config = ConfigSchema.parse({
    central: {
      url: central.url,
      pull_interval_ms: PULL_EVERY,
      retry: { base_ms: 1_000, max_ms: 4_000, drain_interval_ms: DRAIN_EVERY },
    },
  });
  const sync = new SyncService({
    store,
    config,
    clock,
    timers,
    baseUrl: central.url,
    appVersion: 'test',
    schemaVersion: 2,
    terminalId: central.terminal_id,
  });
  const drains = vi.spyOn(sync.pusher, 'drain');
  const pulls = vi.spyOn(sync.puller, 'pull');
  const settle = async () => {
    // Bounded: every round waits for what the last timers started; they start nothing new
    // until the next advance (the timers are manual).
    for (let round = 0; round < 5; round++) {
      await Promise.allSettled([...drains.mock.results, ...pulls.mock.results].map((r) => r.value));
      await new Promise((r) => setImmediate(r));
    }
  };
  const r: Rig = {
    central,
    store,
    sync,
    clock,
    timers,
    drains,
    pulls,
    async advance(ms) {
      timers.advance(ms);
      await settle();
      for (let round = 0; round < 5 && timers.pending().some((due) => due <= 0); round++) {
        timers.advance(0);
        await settle();
      }
    },
  };
  const close = store.close.bind(store);
  store.close = () => {
    close();
    rmSync(dir, { recursive: true, force: true });
  };
  return r;
}

describe('sync service loops', () => {
  it('pulls at start and every pull interval while online, and skips the pull while offline', async () => {
    rig = await start();
    rig.sync.start();
    await rig.advance(0);
    expect(rig.pulls).toHaveBeenCalledTimes(1);
    // The first answer is a reconnect (the link was unknown): it drains as well.
    expect(rig.drains).toHaveBeenCalledTimes(2);
    expect(rig.store.sync.cursor()).not.toBeNull();

    await rig.advance(PULL_EVERY - 1);
    expect(rig.pulls).toHaveBeenCalledTimes(1);
    await rig.advance(1);
    expect(rig.pulls).toHaveBeenCalledTimes(2);

    rig.sync.link.recordFailure();
    await rig.advance(PULL_EVERY);
    expect(rig.pulls).toHaveBeenCalledTimes(2);
    // The loop is still alive: back online, the next interval pulls again.
    rig.sync.link.recordContact(null);
    await rig.advance(PULL_EVERY);
    expect(rig.pulls).toHaveBeenCalledTimes(3);
  });

  it('drains at start and again on the drain timer', async () => {
    rig = await start();
    rig.sync.start();
    await rig.advance(0);
    const atStart = rig.drains.mock.calls.length;
    recordCashSale(rig.store, 3.5, rig.clock);
    await rig.advance(DRAIN_EVERY - 1);
    expect(rig.drains).toHaveBeenCalledTimes(atStart);
    await rig.advance(1);
    expect(rig.drains).toHaveBeenCalledTimes(atStart + 1);
    expect(rig.store.outbox.depth().queued).toBe(0);
    expect(rig.central.store.transactions()).toHaveLength(1);
  });

  it('drains at once when a sale is queued, without waiting for the timer', async () => {
    rig = await start();
    rig.sync.start();
    await rig.advance(0);
    const atStart = rig.drains.mock.calls.length;
    const { store, sync, clock } = rig;
    const sales = new SaleService({
      store,
      client: sync.client,
      link: sync.link,
      clock,
      config: ConfigSchema.parse({ central: { url: 'http://127.0.0.1:1' } }),
      terminalId: rig.central.terminal_id,
      appVersion: 'test',
      schemaVersion: 2,
      onQueued: () => sync.kick(),
    });
    const sale = await sales.process({
      check: { check_items: [{ code: 'WTR-1', category: 'shop', quantity: 1, price: 1.49 }] },
    });
    expect(sale.ok && sale.sync).toBe('queued');
    await rig.advance(0);
    expect(rig.drains).toHaveBeenCalledTimes(atStart + 1);
    expect(rig.central.store.transaction(sale.transaction_id)).toBeDefined();
    expect(rig.store.outbox.oldestUnsent()).toBeNull();
  });

  it('drains at once on reconnect', async () => {
    rig = await start();
    rig.sync.start();
    await rig.advance(0);
    const atStart = rig.drains.mock.calls.length;
    rig.sync.link.recordFailure();
    recordCashSale(rig.store, 2, rig.clock);
    await rig.advance(1_000);
    expect(rig.drains).toHaveBeenCalledTimes(atStart);
    // Any answer brings the link back (here a sign-in), and the link's change starts a drain.
    expect((await rig.sync.client.signIn()).ok).toBe(true);
    expect(rig.sync.link.current).toBe('online');
    await rig.advance(0);
    expect(rig.drains).toHaveBeenCalledTimes(atStart + 1);
    expect(rig.store.outbox.depth().queued).toBe(0);
  });

  it('drains a failed row again when its backoff ends, not at the next drain interval', async () => {
    rig = await start();
    rig.sync.start();
    await rig.advance(0);
    const atStart = rig.drains.mock.calls.length;
    rig.central.server.setFaults({ error_rate: 1 });
    recordCashSale(rig.store, 4, rig.clock);
    rig.sync.kick();
    await rig.advance(0);
    expect(rig.drains).toHaveBeenCalledTimes(atStart + 1);
    const waiting = rig.store.outbox.oldestUnsent();
    expect(waiting?.attempts).toBe(1);
    const backoff = (waiting?.nextAttemptAt ?? 0) - rig.clock.now();
    expect(backoff).toBeGreaterThan(0);
    expect(backoff).toBeLessThanOrEqual(1_000);
    expect(rig.sync.status().oldestUnsent).toMatchObject({
      transactionId: waiting?.transactionId,
      attempts: 1,
    });

    rig.central.server.setFaults({ error_rate: 0 });
    await rig.advance(backoff - 1);
    expect(rig.drains).toHaveBeenCalledTimes(atStart + 1);
    await rig.advance(1);
    expect(rig.drains).toHaveBeenCalledTimes(atStart + 2);
    expect(rig.store.outbox.oldestUnsent()).toBeNull();
    expect(rig.sync.status().oldestUnsent).toBeNull();
  });

  it('sets no timer once stopped', async () => {
    rig = await start();
    rig.sync.start();
    await rig.advance(0);
    expect(rig.timers.pending().length).toBe(2);
    const calls = [rig.drains.mock.calls.length, rig.pulls.mock.calls.length];
    await rig.sync.stop();
    expect(rig.timers.pending()).toEqual([]);
    rig.sync.kick();
    await rig.advance(PULL_EVERY);
    expect([rig.drains.mock.calls.length, rig.pulls.mock.calls.length]).toEqual(calls);
  });
});
