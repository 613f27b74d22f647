// The puller against the sandbox: snapshot, deltas with deletes, quarantine, 410, resume.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { Puller, type PullProgress } from '../../src/sync/puller.js';
import { stubEngine } from '../central/stub-engine.js';
import { makeClient, openTerminalStore, startWorld, type World } from './world.js';

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

describe('puller', () => {
  it('loads the first snapshot with its progress and swaps it in', async () => {
    world = await startWorld({ engine: stubEngine });
    const progress: PullProgress[] = [];
    const r = await world.puller.pull({ limit: 10, onProgress: (p) => progress.push(p) });
    expect(r.ok).toBe(true);
    expect(world.store.cache.customerByCard(DEMO.cards.anna)?.id).toBe(DEMO.customers.anna);
    const total = world.central.store.countLive();
    expect(progress.filter((p) => p.phase === 'snapshot').at(-1)).toEqual({
      done: total,
      total,
      phase: 'snapshot',
    });
    expect(world.store.sync.cursor()).toMatch(/^d\./);
  });

  it('asks for the next snapshot page before applying the current one (the request is on the wire)', async () => {
    world = await startWorld({ engine: stubEngine });
    addBatches(world, 100);
    // undici publishes this as it writes a request's headers to the socket.
    let sent = 0;
    const onSend = (m: unknown) => {
      const path = (m as { request?: { path?: string } }).request?.path ?? '';
      if (path.includes('/changes')) sent += 1;
    };
    subscribe('undici:client:sendHeaders', onSend);
    const store = world.store;
    const applyPage = store.applyPage.bind(store);
    const sentAtApply: { sent: number; snapshot: boolean; more: boolean }[] = [];
    store.applyPage = (page) => {
      sentAtApply.push({ sent, snapshot: page.snapshot === true, more: page.hasMore === true });
      return applyPage(page);
    };
    // A snapshot's pages before the last are checked here and staged on the writer's thread.
    const openStager = store.openSnapshotStager.bind(store);
    store.openSnapshotStager = async () => {
      const stager = await openStager();
      if (!stager) throw new Error('the snapshot writer did not start');
      return {
        ...stager,
        stage: (page) => {
          sentAtApply.push({ sent, snapshot: true, more: true });
          return stager.stage(page);
        },
      };
    };
    try {
      const r = await world.puller.pull({ limit: 10 });
      expect(r.ok).toBe(true);
    } finally {
      unsubscribe('undici:client:sendHeaders', onSend);
    }
    const snapshotPages = sentAtApply.filter((p) => p.snapshot);
    expect(snapshotPages.length).toBeGreaterThan(5);
    // While page i (0-based) is applied, its own request and the next one's have gone out.
    sentAtApply.forEach((p, i) => expect(p.sent).toBe(p.more ? i + 2 : i + 1));
  });

  it('applies deltas, deletes included', async () => {
    world = await startWorld({ engine: stubEngine });
    await world.puller.pull();
    world.central.store.upsert('coupon_batch', 'x1', { id: 'x1', code: 'X1' });
    world.central.store.remove(
      'coupon',
      world.store.cache.couponsByCode(DEMO.coupons.cross)[0]?.id as string,
    );
    const r = await world.puller.pull();
    expect(r.ok && r.applied).toBe(2);
    expect(world.store.cache.couponBatchByCode('X1')?.id).toBe('x1');
    expect(world.store.cache.couponsByCode(DEMO.coupons.cross)).toEqual([]);
  });

  it('quarantines a malformed record, counts it and applies the rest of the page', async () => {
    world = await startWorld({ engine: stubEngine });
    await world.puller.pull();
    world.central.store.upsertRaw(
      'customer',
      'bad-1',
      JSON.stringify({ id: 'bad-1', type: 'customer' }),
    );
    world.central.store.upsertRaw('rule', 'bad-2', '{not json');
    world.central.store.upsert('coupon_batch', 'ok-1', { id: 'ok-1', code: 'OK1' });
    const r = await world.puller.pull();
    expect(r.ok && r.quarantined).toBe(2);
    expect(r.ok && r.applied).toBe(1);
    expect(world.store.sync.quarantineCount()).toBe(2);
    expect(world.store.cache.couponBatchByCode('OK1')?.id).toBe('ok-1');
    expect(world.store.cache.customerById('bad-1')).toBeNull();
  });

  it('starts a new snapshot when the server answers 410 cursor-expired', async () => {
    world = await startWorld({ engine: stubEngine });
    await world.puller.pull();
    world.central.store.upsert('coupon_batch', 'late', { id: 'late', code: 'LATE' });
    world.central.store.compact();
    world.central.store.upsertRaw('rule', 'x', JSON.stringify({ id: 'x' }));
    // The cursor now points before the horizon.
    world.store.sync.resetCursor(Date.now());
    world.store.sync.setValue('cursor', 'd.1', Date.now());
    const r = await world.puller.pull();
    expect(r.ok && r.snapshot).toBe(true);
    expect(world.store.cache.couponBatchByCode('LATE')?.id).toBe('late');
  });

  it('runs one pull at a time: a second asked for meanwhile waits, and no record is lost', async () => {
    world = await startWorld({ engine: stubEngine });
    addBatches(world, 3_000);
    const [a, b] = await Promise.all([
      world.puller.pull({ limit: 100 }),
      world.puller.pull({ limit: 100 }),
    ]);
    expect(a.ok && a.snapshot && a.complete).toBe(true);
    // The second began where the first ended: a page of deltas, nothing to stage again.
    expect(b.ok && !b.snapshot && b.pages).toBe(1);
    expect(world.store.cache.count('coupon_batch')).toBe(3_004);
    expect(world.store.sync.snapshot()).toBeNull();
  });

  it("stages on the store's connection when the snapshot writer's thread cannot start", async () => {
    world = await startWorld({ engine: stubEngine });
    addBatches(world, 300);
    world.store.openSnapshotStager = () => Promise.resolve(null);
    const r = await world.puller.pull({ limit: 50 });
    expect(r.ok && r.snapshot).toBe(true);
    expect(world.store.cache.count('coupon_batch')).toBe(304);
  });

  it('resumes a snapshot killed half-way where it stopped', async () => {
    world = await startWorld({ engine: stubEngine });
    addBatches(world, 400);
    const total = world.central.store.countLive();
    const abort = new AbortController();
    let pages = 0;
    await world.puller.pull({
      limit: 50,
      signal: abort.signal,
      onProgress: () => (++pages === 3 ? abort.abort() : undefined),
    });
    expect(world.store.sync.snapshot()?.staged).toBe(150);
    // The till still sees the old (empty) cache, never a half snapshot.
    expect(world.store.cache.count('coupon_batch')).toBe(0);
    // A new process: the store reopened, a new client and puller.
    world.store.close();
    const store = await openTerminalStore(world.dir, world.clock);
    world.store = store;
    const client = makeClient(world.central.url, world.central);
    const seen: number[] = [];
    const r = await new Puller({ store, client, clock: world.clock }).pull({
      limit: 50,
      onProgress: (p) => seen.push(p.done),
    });
    await client.close();
    expect(r.ok).toBe(true);
    expect(seen[0]).toBe(200);
    // The remaining snapshot pages, then one page of deltas.
    expect(r.ok && r.pages).toBe(Math.ceil((total - 150) / 50) + 1);
    expect(store.cache.count('coupon_batch')).toBe(404);
  });

  it('fails a page whose record is not JSON, applying none of it and keeping the cursor', async () => {
    world = await startWorld({ engine: stubEngine });
    await world.puller.pull();
    const cursor = world.store.sync.cursor();
    // A server whose change page is cut inside its second record: the sign-in is the sandbox's.
    const signIn = await fetch(`${world.central.url}/v1/terminal/sign_in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        terminal_id: world.central.terminal_id,
        api_key: world.central.api_key,
      }),
    });
    const token = await signIn.text();
    const good = JSON.stringify({
      entity: 'coupon_batch',
      op: 'upsert',
      id: 'z1',
      data: { id: 'z1', code: 'Z1' },
    });
    const broken = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url?.startsWith('/v1/terminal/sign_in')) res.end(token);
      else
        res.end(
          `{"changes":[${good},{"entity":"coupon_batch","op":tru}],"cursor":"d.999","has_more":false,"total":null}`,
        );
    });
    await new Promise<void>((r) => broken.listen(0, '127.0.0.1', r));
    try {
      const port = (broken.address() as AddressInfo).port;
      const client = makeClient(`http://127.0.0.1:${port}`, world.central);
      const r = await new Puller({ store: world.store, client, clock: world.clock }).pull();
      await client.close();
      expect(r.ok ? null : r.failure.kind).toBe('invalid-response');
      expect(world.store.cache.couponBatchByCode('Z1')).toBeNull();
      expect(world.store.sync.cursor()).toBe(cursor);
    } finally {
      await new Promise((r) => broken.close(r));
    }
  });
});
