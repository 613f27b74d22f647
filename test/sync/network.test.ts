// Sync over a slow or thin link (issue 17): compressed pages, a cut snapshot resumed, and the
// outbox's drain in batches on a 100 ms link, still exactly once, in lane order.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { chooseEncoding } from '../../src/central/server.js';
import { OutboxPusher, PUSH_IN_FLIGHT } from '../../src/sync/pusher.js';
import { drainAll, recordCashSale, startWorld, type World } from './world.js';

let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
});

function addBatches(w: World, n: number): void {
  w.central.store.bulkUpsert(
    'coupon_batch',
    Array.from({ length: n }, (_, i) => ({
      id: `batch-${i}`,
      data: { id: `batch-${i}`, code: `B${i}` },
    })),
  );
}

describe('compressed pages', () => {
  it('a compressed snapshot page is applied like a plain one and costs fewer bytes on the wire', async () => {
    world = await startWorld();
    addBatches(world, 400);
    const r = await world.puller.pull({ limit: 500 });
    expect(r.ok).toBe(true);
    expect(world.store.cache.count('coupon_batch')).toBe(404);
    const bytes = world.client.wireBytes();
    expect(bytes.received * 3).toBeLessThan(bytes.decoded);
  });

  it('the sandbox answers brotli first, gzip else, and plain when neither is accepted', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
  });
});

describe('a snapshot cut off', () => {
  it('resumes from the page after its last applied one, not from page 1', async () => {
    world = await startWorld();
    addBatches(world, 400);
    const { central, store, puller, client } = world;
    let pages = 0;
    const cut = await puller.pull({
      limit: 50,
      // The link dies after the third page: every later request has its connection reset.
      onProgress: () => (++pages === 3 ? central.server.setFaults({ reset_rate: 1 }) : undefined),
    });
    expect(cut.ok).toBe(false);
    const progress = store.sync.snapshot();
    expect(progress?.staged).toBeGreaterThanOrEqual(150);
    central.server.setFaults({ reset_rate: 0 });

    const asked: (string | null)[] = [];
    const changesLazy = client.changesLazy.bind(client);
    client.changesLazy = (cursor, limit, options) => {
      asked.push(cursor);
      return changesLazy(cursor, limit, options);
    };
    const seen: number[] = [];
    const r = await puller.pull({ limit: 50, onProgress: (p) => seen.push(p.done) });
    expect(r.ok).toBe(true);
    expect(asked[0]).toBe(progress?.cursor);
    expect(asked).not.toContain(null);
    expect(seen[0]).toBe((progress?.staged ?? 0) + 50);
    expect(store.cache.count('coupon_batch')).toBe(404);
  });
});

describe('drain over a slow link', () => {
  it('with 100 ms per request, in batches, sends every sale once and each lane in order', async () => {
    world = await startWorld();
    const { store, central, client, clock } = world;
    const ids: string[] = [];
    const bens: string[] = [];
    for (let i = 0; i < 120; i++) {
      const customer = i % 4 === 0 ? { customer_id: DEMO.customers.ben } : {};
      const id = recordCashSale(store, 1 + (i % 7), clock, customer);
      ids.push(id);
      if (i % 4 === 0) bens.push(id);
    }
    central.server.setFaults({ latency_ms: 100 });
    const pusher = new OutboxPusher({ store, client, clock, retry: { base_ms: 1, max_ms: 20 } });
    await drainAll(pusher, store, 60_000);
    central.server.setFaults({ latency_ms: 0 });

    const rows = central.store.transactions();
    expect(rows.map((r) => r.transaction_id).sort()).toEqual([...ids].sort());
    // Ben's lane reached the server in the order it was sold.
    expect(rows.map((r) => r.transaction_id).filter((id) => bens.includes(id))).toEqual(bens);
    expect(store.outbox.depth()).toEqual({ queued: 0, sending: 0, rejected: 0 });
    expect(PUSH_IN_FLIGHT).toBeGreaterThanOrEqual(20);
  }, 60_000);
});
