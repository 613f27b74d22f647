// The snapshot writer (src/store/snapshot-writer.ts): a snapshot's pages before the last are
// checked on the store's thread and staged on the writer's, each page one transaction with the
// snapshot's progress (docs/sync.md, "Apply speed", fourth round).
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../src/store/cache.js';
import type { Store } from '../../src/store/open.js';
import { card, customer } from './fixtures/changes.js';
import { openTest, tempDir, testClock, type TempDir } from './helpers.js';

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
    const stager = store.openSnapshotStager();
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
    const stager = store.openSnapshotStager();
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
    const stager = store.openSnapshotStager();
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
    const stager = store.openSnapshotStager();
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
    const stager = store.openSnapshotStager();
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
    const stager = store.openSnapshotStager();
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
});
