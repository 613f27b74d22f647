// The outbox drained through write_batch (docs/sync.md, "Drain over a slow link"): still
// exactly once and in lane order, with a cut batch, an item the server fails on, a lane longer
// than a batch, and a central without the batch operation.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { defaultEngine } from '../../src/central/engine.js';
import type { RunEngine } from '../../src/central/service.js';
import type { CentralClient } from '../../src/sync/client.js';
import { recordCancel } from './sales-world.js';
import { drainAll, recordCashSale, startWorld, type World } from './world.js';

let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
});

/** The transaction id the sandbox's engine fails on (throws: answered 500), when set. */
let failOn: string | null = null;
const engine: RunEngine = (fixture) => {
  if (failOn !== null && (fixture.check as { transaction_id?: string }).transaction_id === failOn)
    throw new Error('the disk is on fire');
  return defaultEngine(fixture);
};

async function start(): Promise<World> {
  failOn = null;
  world = await startWorld({ engine });
  return world;
}

/** Counts the client's requests by kind. */
function countCalls(client: CentralClient): { batches: number; singles: number } {
  const n = { batches: 0, singles: 0 };
  const writeBatch = client.writeBatch.bind(client);
  const write = client.write.bind(client);
  client.writeBatch = (...a) => ((n.batches += 1), writeBatch(...a));
  client.write = ((...a: Parameters<typeof write>) => ((n.singles += 1), write(...a))) as never;
  return n;
}

const ben = { customer_id: DEMO.customers.ben };
const serverOrder = (w: World) => w.central.store.transactions().map((t) => t.transaction_id);

describe('draining through write_batch', () => {
  it('sends a sale and its cancel in one request, the cancel applied after the sale', async () => {
    const w = await start();
    const calls = countCalls(w.client);
    const sale = recordCashSale(w.store, 2.5, w.clock);
    const others = [1, 2, 3].map((i) => recordCashSale(w.store, i, w.clock));
    const cancel = recordCancel(w, sale);
    expect(await w.pusher.drain()).toMatchObject({ sent: 5, done: 5, rejected: 0 });
    expect(calls).toEqual({ batches: 1, singles: 0 });
    expect(w.central.store.transaction(sale)).toMatchObject({ cancelled: 1 });
    for (const id of [...others, cancel])
      expect(w.store.outbox.byTransaction(id)?.status).toBe('done');
  });

  it('sends each write alone to a central without the batch operation, and remembers it', async () => {
    const w = await start();
    w.central.server.setFaults({ no_batch: true });
    const calls = countCalls(w.client);
    const ids = [1, 2, 3].map((i) => recordCashSale(w.store, i, w.clock, ben));
    expect(await w.pusher.drain()).toMatchObject({ done: 3, rejected: 0 });
    expect(calls).toEqual({ batches: 1, singles: 3 });
    expect(serverOrder(w)).toEqual(ids);

    recordCashSale(w.store, 4, w.clock);
    expect(await w.pusher.drain()).toMatchObject({ done: 1 });
    expect(calls).toEqual({ batches: 1, singles: 4 });
  });

  it('an item the server fails on waits with its lane: nothing after it overtakes it', async () => {
    const w = await start();
    const first = recordCashSale(w.store, 1, w.clock, ben);
    const anon = recordCashSale(w.store, 2, w.clock);
    const failing = recordCashSale(w.store, 3, w.clock, ben);
    const after = recordCashSale(w.store, 4, w.clock, ben);
    const anon2 = recordCashSale(w.store, 5, w.clock);
    failOn = failing;
    const r = await w.pusher.drain();
    // The server stopped at the failing sale: it and every item after it were not applied.
    expect(r).toMatchObject({ done: 2, retried: 1, lastFailure: { status: 500 } });
    expect(serverOrder(w)).toEqual([first, anon]);
    expect(w.store.outbox.byTransaction(after)).toMatchObject({ status: 'queued', attempts: 0 });

    failOn = null;
    await drainAll(w.pusher, w.store);
    expect(serverOrder(w)).toEqual([first, anon, failing, after, anon2]);
  });

  it('a batch cut off mid-way is sent again, and every sale is applied once, in lane order', async () => {
    const w = await start();
    expect((await w.client.signIn()).ok).toBe(true);
    const ids = Array.from({ length: 30 }, (_, i) =>
      recordCashSale(w.store, 1 + i, w.clock, i % 3 === 0 ? ben : {}),
    );
    w.central.server.setFaults({ commit_then_drop_rate: 1 });
    const cut = await w.pusher.drain();
    expect(cut).toMatchObject({ done: 0, lastFailure: { kind: 'network' } });
    const applied = serverOrder(w).length;
    expect(applied).toBeGreaterThan(0);
    expect(applied).toBeLessThan(30);

    w.central.server.setFaults({ commit_then_drop_rate: 0 });
    await drainAll(w.pusher, w.store);
    expect([...serverOrder(w)].sort()).toEqual([...ids].sort());
    const bens = ids.filter((_, i) => i % 3 === 0);
    expect(serverOrder(w).filter((id) => bens.includes(id))).toEqual(bens);
    expect(w.store.outbox.depth()).toEqual({ queued: 0, sending: 0, rejected: 0 });
  });

  it('a lane longer than one request holds goes on in the next pass, in order', async () => {
    const w = await start();
    const ids = Array.from({ length: 105 }, () => recordCashSale(w.store, 1, w.clock, ben));
    const first = await w.pusher.drain();
    expect(first).toMatchObject({ done: 100, rejected: 0 });
    await drainAll(w.pusher, w.store);
    expect(serverOrder(w)).toEqual(ids);
  }, 30_000);
});
