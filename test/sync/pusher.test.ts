// The outbox pusher against the sandbox on 127.0.0.1: exactly once under every fault.
import { afterEach, describe, expect, it } from 'vitest';
import { OutboxPusher } from '../../src/sync/pusher.js';
import { drainAll, manualClock, recordCashSale, startWorld, type World } from './world.js';

let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
});

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

  it('honours, after a restart, the backoff of the oldest unsent row before sending anything', async () => {
    const clock = manualClock(Date.now());
    world = await startWorld({ clock });
    const { store, client, central } = world;
    const first = recordCashSale(store, 1.5, clock);
    const second = recordCashSale(store, 2.5, clock);
    // The process that failed the first row (and gave it a minute's backoff) is gone.
    const oldest = store.outbox.oldestUnsent();
    expect(oldest?.transactionId).toBe(first);
    store.outbox.markSending(oldest?.id ?? 0, clock.now());
    store.outbox.markRetry(oldest?.id ?? 0, 'ECONNRESET', clock.now() + 60_000, clock.now());

    const pusher = new OutboxPusher({ store, client, clock, retry: { base_ms: 1, max_ms: 20 } });
    expect(pusher.gatedUntil()).toBe(clock.now() + 60_000);
    // The second row is due, but must not overtake the first.
    expect(await pusher.drain()).toMatchObject({ sent: 0, nextDueAt: clock.now() + 60_000 });
    expect(central.store.transactions()).toEqual([]);

    clock.advance(60_000);
    expect(await pusher.drain()).toMatchObject({ sent: 2, done: 2 });
    expect(central.store.transactions().map((t) => t.transaction_id)).toEqual([first, second]);
  });
});
