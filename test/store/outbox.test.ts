import Database from 'better-sqlite3';
import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/open.js';
import {
  openTest,
  sale,
  tempDir,
  testClock,
  testId,
  type TempDir,
  type TestClock,
} from './helpers.js';

let t: TempDir;
let clock: TestClock;
let store: Store;
beforeEach(async () => {
  t = tempDir('outbox-');
  clock = testClock();
  store = await openTest(t.file, clock);
});
afterEach(() => {
  store.close();
  t.cleanup();
});

describe('outbox', () => {
  it('hands out due rows oldest first', () => {
    const ids = [testId(), testId(), testId()];
    for (const id of ids) store.record(sale(id));
    expect(store.outbox.due(clock.now()).map((r) => r.transactionId)).toEqual(ids);
    expect(store.outbox.due(clock.now(), 2)).toHaveLength(2);
  });

  it('moves a row queued -> sending -> done, counting attempts', () => {
    const id = testId();
    store.record(sale(id));
    const row = store.outbox.byTransaction(id);
    if (!row) throw new Error('no row');
    expect(store.outbox.markSending(row.id, clock.now())).toBe(true);
    expect(store.outbox.markSending(row.id, clock.now())).toBe(false);
    expect(store.outbox.markDone(row.id, { check: 'processed' }, clock.now())).toBe(true);
    expect(store.outbox.get(row.id)).toMatchObject({
      status: 'done',
      attempts: 1,
      response: { check: 'processed' },
    });
    expect(store.outbox.depth()).toEqual({ queued: 0, sending: 0, rejected: 0 });
  });

  it('puts a failed attempt back with its error and the next attempt time', () => {
    const id = testId();
    store.record(sale(id));
    const row = store.outbox.byTransaction(id);
    store.outbox.markSending(row?.id ?? 0, clock.now());
    store.outbox.markRetry(row?.id ?? 0, 'ECONNRESET', clock.now() + 2_000, clock.now());
    expect(store.outbox.due(clock.now())).toEqual([]);
    expect(store.outbox.nextDueAt()).toBe(clock.now() + 2_000);
    expect(store.outbox.due(clock.now() + 2_000)[0]).toMatchObject({
      lastError: 'ECONNRESET',
      attempts: 1,
    });
  });

  it('keeps a rejected row with the server reason until staff resolve it', () => {
    const id = testId();
    store.record(sale(id));
    const row = store.outbox.byTransaction(id);
    store.outbox.markRejected(row?.id ?? 0, { error: { code: 'limit-exceeded' } }, clock.now());
    expect(store.outbox.attention()).toMatchObject([
      { transactionId: id, response: { error: { code: 'limit-exceeded' } } },
    ]);
    expect(store.outbox.depth().rejected).toBe(1);
    expect(store.outbox.resolve(row?.id ?? 0, 'manager-1', clock.now())).toBe(true);
    expect(store.outbox.attention()).toEqual([]);
    expect(store.outbox.get(row?.id ?? 0)?.status).toBe('rejected');
  });

  it('puts rows left sending by a crash back to queued at start', async () => {
    const id = testId();
    store.record(sale(id));
    store.outbox.markSending(store.outbox.byTransaction(id)?.id ?? 0, clock.now());
    store.close();
    store = await openTest(t.file, clock);
    expect(store.outbox.byTransaction(id)?.status).toBe('queued');
  });

  it('validates a stored payload again when it is read', async () => {
    store.record(
      sale(testId(), {
        outbox: { operation: 'process_check', payload: { version: 1, check: 5 }, version: 1 },
      }),
    );
    store.close();
    store = await openTest(t.file, clock, {
      payloadSchemas: (op, v) =>
        op === 'process_check' && v === 1
          ? z.object({ version: z.literal(1), check: z.object({}) })
          : undefined,
    });
    expect(() => store.outbox.due(clock.now())).toThrow(
      expect.objectContaining({ code: 'invalid-record' }),
    );
  });

  it('lists every unsent row for an export', () => {
    const a = testId();
    const b = testId();
    store.record(sale(a));
    store.record(sale(b));
    store.outbox.markDone(store.outbox.byTransaction(a)?.id ?? 0, null, clock.now());
    expect(store.outbox.unsent().map((r) => r.transactionId)).toEqual([b]);
  });

  it('names the oldest unsent row with its age and backoff, skipping delivered ones', () => {
    expect(store.outbox.oldestUnsent()).toBeNull();
    const [a, b, c] = [testId(), testId(), testId()];
    store.record(sale(a));
    const recordedB = clock.now() + 1_000;
    clock.set(recordedB);
    store.record(sale(b));
    store.record(sale(c));
    const rowA = store.outbox.byTransaction(a)?.id ?? 0;
    const rowB = store.outbox.byTransaction(b)?.id ?? 0;
    store.outbox.markDone(rowA, null, clock.now());
    store.outbox.markSending(rowB, clock.now());
    store.outbox.markRetry(rowB, 'ETIMEDOUT', clock.now() + 60_000, clock.now());
    expect(store.outbox.oldestUnsent()).toEqual({
      id: rowB,
      transactionId: b,
      operation: 'process_check',
      attempts: 1,
      createdAt: recordedB,
      nextAttemptAt: recordedB + 60_000,
    });
    // A row being sent is still unsent.
    store.outbox.markSending(store.outbox.byTransaction(c)?.id ?? 0, clock.now());
    store.outbox.markRejected(rowB, { error: { code: 'x' } }, clock.now());
    expect(store.outbox.oldestUnsent()?.transactionId).toBe(c);
  });

  it('finds the oldest unsent row through its index, not by walking the delivered history', () => {
    expect(store.outbox.oldestUnsentPlan()).toContain('USING INDEX outbox_unsent');
  });

  it('commits a batch of state changes together, or none of them', () => {
    const [a, b] = [testId(), testId()];
    store.record(sale(a));
    store.record(sale(b));
    const rowA = store.outbox.byTransaction(a)?.id ?? 0;
    const rowB = store.outbox.byTransaction(b)?.id ?? 0;
    expect(() =>
      store.batch(() => {
        store.outbox.markSending(rowA, clock.now());
        store.outbox.markSending(rowB, clock.now());
        throw new Error('crash in the middle');
      }),
    ).toThrow('crash in the middle');
    expect(store.outbox.depth()).toMatchObject({ queued: 2, sending: 0 });
    store.batch(() => {
      store.outbox.markSending(rowA, clock.now());
      store.outbox.markDone(rowA, { ok: 1 }, clock.now());
    });
    expect(store.outbox.get(rowA)?.status).toBe('done');
  });

  it('takes the write lock before a batch runs, so a busy database fails it before any work', async () => {
    store.close();
    store = await openTest(t.file, clock, { busyTimeoutMs: 20 });
    const other = new Database(t.file);
    other.exec('BEGIN IMMEDIATE');
    try {
      let ran = false;
      expect(() => store.batch(() => (ran = true))).toThrow(/busy|locked/i);
      expect(ran).toBe(false);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  });
});
