// The snapshot writer (src/store/snapshot-writer.ts): a snapshot's pages before the last are
// checked on the store's thread and staged on the writer's, each page one transaction with the
// snapshot's progress (docs/sync.md, "Apply speed", fourth round).
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../src/store/cache.js';
import { ENTITIES } from '../../src/contract/feed.js';
import { tables } from '../../src/store/entities.js';
import type { TableShapes } from '../../src/store/feed-writes.js';
import type { Store } from '../../src/store/open.js';
import { SnapshotWriter } from '../../src/store/snapshot-writer.js';
import type * as writerModule from '../../src/store/snapshot-writer.js';
import type { SnapshotStager } from '../../src/store/sync-state.js';
import { card, customer } from './fixtures/changes.js';
import { openTest, tempDir, testClock, type TempDir } from './helpers.js';

/** The store's snapshot stager; its thread must start here. */
async function opened(store: Store): Promise<SnapshotStager> {
  const stager = await store.openSnapshotStager();
  if (!stager) throw new Error('the snapshot writer did not start');
  return stager;
}

/** The cache tables as the store sends them to the thread. */
const shapes = Object.fromEntries(
  ENTITIES.map((e) => [e, { table: tables[e].table, columns: [...tables[e].columns] }]),
) as unknown as TableShapes;

const page = (from: number, n: number): Change[] =>
  Array.from({ length: n }, (_, k) => customer(`c${from + k}`, `+49 30 ${from + k}`));

describe('the snapshot writer', () => {
  let t: TempDir;
  let store: Store;
  const clock = testClock();
  beforeEach(async () => {
    t = tempDir('snapshot-writer-');
    store = await openTest(t.file, clock, { busyTimeoutMs: 100 });
  });
  afterEach(() => {
    store.close();
    t.cleanup();
  });
  const at = () => ({ requestedAt: clock.now() });

  it('stages pages on its own thread: once committed the store holds their rows, cursor and count', async () => {
    const stager = await opened(store);
    try {
      expect(stager.stage({ ...at(), changes: page(0, 1_500), cursor: 's1' })).toEqual({
        applied: 1_500,
        quarantined: 0,
      });
      stager.stage({ ...at(), changes: page(1_500, 700), cursor: 's2' });
      await stager.drain();
    } finally {
      await stager.close();
    }
    expect(store.sync.snapshot()).toMatchObject({ cursor: 's2', staged: 2_200 });
    // Nothing is live before the last page swaps the snapshot in.
    expect(store.cache.count('customer')).toBe(0);
    store.applyPage({ ...at(), changes: [], cursor: 'd1', snapshot: true, hasMore: false });
    expect(store.cache.count('customer')).toBe(2_200);
    expect(store.cache.customerByPhone('4930 2199')?.id).toBe('c2199');
  });

  it('continues a snapshot an earlier pull staged, and a repeated id keeps its last record', async () => {
    store.applyPage({ ...at(), changes: page(0, 10), cursor: 's1', snapshot: true, hasMore: true });
    const stager = await opened(store);
    try {
      stager.stage({
        ...at(),
        changes: [customer('c3', '+49 40 3'), ...page(10, 5)],
        cursor: 's2',
      });
      await stager.drain();
    } finally {
      await stager.close();
    }
    expect(store.sync.snapshot()).toMatchObject({ cursor: 's2', staged: 15 });
    store.applyPage({ ...at(), changes: [], cursor: 'd1', snapshot: true, hasMore: false });
    expect(store.cache.customerByPhone('4940 3')?.id).toBe('c3');
    expect(store.cache.customerByPhone('4930 3')).toBeNull();
  });

  it('rolls back a page whose records cannot be read and stages the next one', async () => {
    function* broken(): Generator<Change> {
      yield* page(0, 2_500); // more than one chunk reaches the thread before the failure
      throw new Error('record 2501 is not JSON');
    }
    const stager = await opened(store);
    try {
      stager.stage({ ...at(), changes: page(10_000, 3), cursor: 's1' });
      expect(() => stager.stage({ ...at(), changes: broken(), cursor: 's2' })).toThrow(
        'record 2501 is not JSON',
      );
      stager.stage({ ...at(), changes: page(20_000, 4), cursor: 's3' });
      await stager.drain();
    } finally {
      await stager.close();
    }
    expect(store.sync.snapshot()).toMatchObject({ cursor: 's3', staged: 7 });
    store.applyPage({ ...at(), changes: [], cursor: 'd1', snapshot: true, hasMore: false });
    expect(store.cache.customerById('c0')).toBeNull();
    expect(store.cache.count('customer')).toBe(7);
  });

  it('quarantines a bad record of a staged page, and a later valid one of its id clears it', async () => {
    const bad: Change = { entity: 'customer', op: 'upsert', id: 'b1', data: { id: 'b1' } };
    const stager = await opened(store);
    try {
      const planned = stager.stage({ ...at(), changes: [...page(0, 3), bad], cursor: 's1' });
      expect(planned).toEqual({ applied: 3, quarantined: 1 });
      await stager.drain();
      expect(store.sync.quarantined().map((q) => [q.recordId, q.cursor])).toEqual([['b1', 's1']]);
      stager.stage({ ...at(), changes: [customer('b1', '+49 30 77')], cursor: 's2' });
      await stager.drain();
    } finally {
      await stager.close();
    }
    expect(store.sync.quarantineCount()).toBe(0);
    expect(store.sync.snapshot()).toMatchObject({ cursor: 's2', staged: 4 });
  });

  it('refuses every page after a write fails on its thread, and writes nothing of them', async () => {
    store.applyPage({ ...at(), changes: page(0, 2), cursor: 's1', snapshot: true, hasMore: true });
    // Another connection holds the write lock past the store's busy timeout (100 ms).
    const other = new Database(t.file);
    other.exec('BEGIN IMMEDIATE');
    const stager = await opened(store);
    try {
      stager.stage({ ...at(), changes: page(2, 3), cursor: 's2' });
      await expect(stager.drain()).rejects.toThrow('snapshot writer: database is locked');
      other.exec('ROLLBACK');
      expect(() => stager.stage({ ...at(), changes: page(5, 1), cursor: 's3' })).toThrow(
        'database is locked',
      );
    } finally {
      other.close();
      await stager.close();
    }
    expect(store.sync.snapshot()).toMatchObject({ cursor: 's1', staged: 2 });
  });

  it('stages cards and customers of one page, each into its own twin', async () => {
    const stager = await opened(store);
    try {
      stager.stage({
        ...at(),
        changes: [customer('c1', '+49 30 1'), card('k1', 'c1', 'CARD-1')],
        cursor: 's1',
      });
      await stager.drain();
    } finally {
      await stager.close();
    }
    store.applyPage({ ...at(), changes: [], cursor: 'd1', snapshot: true, hasMore: false });
    expect(store.cache.customerByCard('CARD-1')?.id).toBe('c1');
  });
  it('starts a snapshot on the first page that commits: a rolled-back first page starts none', async () => {
    function* broken(): Generator<Change> {
      yield* page(0, 1_200);
      throw new Error('not JSON');
    }
    const stager = await opened(store);
    try {
      expect(() => stager.stage({ requestedAt: 1_000, changes: broken(), cursor: 's1' })).toThrow(
        'not JSON',
      );
      stager.stage({ requestedAt: 2_000, changes: page(5_000, 2), cursor: 's2' });
      await stager.drain();
    } finally {
      await stager.close();
    }
    expect(store.sync.snapshot()).toEqual({ cursor: 's2', startedAt: 2_000, staged: 2 });
  });

  it('is not ready when its thread cannot open the file, and stops', async () => {
    const writer = new SnapshotWriter({
      file: `${t.dir}/missing/terminal.sqlite`,
      busyTimeoutMs: 100,
      pragmas: [],
      shapes,
    });
    expect(await writer.ready).toBe(false);
    await writer.close();
  });
  it("runs from the build as well: the thread's .js and its rewritten imports (npm test builds first)", async () => {
    const built = new URL('../../dist/src/store/snapshot-writer.js', import.meta.url);
    const { SnapshotWriter: Built } = (await import(built.href)) as typeof writerModule;
    const writer = new Built({ file: t.file, busyTimeoutMs: 100, pragmas: [], shapes });
    try {
      expect(await writer.ready).toBe(true);
      writer.stage({ cursor: 's1', requestedAt: 1, nowMs: 1 }, (emit) => {
        emit({
          op: 'stage',
          entity: 'coupon_batch',
          rows: 1,
          values: ['b1', 'B1', '{"id":"b1","code":"B1"}', 1],
        });
        return { applied: 1, quarantined: 0 };
      });
      await writer.drain();
    } finally {
      await writer.close();
    }
    expect(store.sync.snapshot()).toMatchObject({ cursor: 's1', staged: 1 });
  });
  it('holds the POS stamp still while its pages commit (the catalogue is not reread), and moves it after', async () => {
    const before = store.cache.posVersion();
    const stager = await opened(store);
    try {
      stager.stage({ ...at(), changes: page(0, 1_500), cursor: 's1' });
      await stager.drain();
      expect(store.cache.posVersion()).toBe(before);
    } finally {
      await stager.close();
    }
    expect(store.cache.posVersion()).not.toBe(before);
  });
});
