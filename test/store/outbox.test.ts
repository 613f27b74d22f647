import Database from 'better-sqlite3';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { sale, testId } from './helpers.js';
import { storePerTest } from './store-per-test.js';

const db = storePerTest('outbox-');

describe('outbox', () => {
  it('hands out due rows oldest first', () => {
    const ids = [testId(), testId(), testId()];
    for (const id of ids) db.store.record(sale(id));
    expect(db.store.outbox.due(db.clock.now()).map((r) => r.transactionId)).toEqual(ids);
    expect(db.store.outbox.due(db.clock.now(), 2)).toHaveLength(2);
  });

  it('moves a row queued -> sending -> done, counting attempts', () => {
    const id = testId();
    db.store.record(sale(id));
    const row = db.store.outbox.byTransaction(id);
    if (!row) throw new Error('no row');
    expect(db.store.outbox.markSending(row.id, db.clock.now())).toBe(true);
    expect(db.store.outbox.markSending(row.id, db.clock.now())).toBe(false);
    expect(db.store.outbox.markDone(row.id, { check: 'processed' }, db.clock.now())).toBe(true);
    expect(db.store.outbox.get(row.id)).toMatchObject({
      status: 'done',
      attempts: 1,
      response: { check: 'processed' },
    });
    expect(db.store.outbox.depth()).toEqual({ queued: 0, sending: 0, rejected: 0 });
  });

  it('puts a failed attempt back with its error and the next attempt time', () => {
    const id = testId();
    db.store.record(sale(id));
    const row = db.store.outbox.byTransaction(id);
    db.store.outbox.markSending(row?.id ?? 0, db.clock.now());
    db.store.outbox.markRetry(row?.id ?? 0, 'ECONNRESET', db.clock.now() + 2_000, db.clock.now());
    expect(db.store.outbox.due(db.clock.now())).toEqual([]);
    expect(db.store.outbox.nextDueAt()).toBe(db.clock.now() + 2_000);
    expect(db.store.outbox.due(db.clock.now() + 2_000)[0]).toMatchObject({
      lastError: 'ECONNRESET',
      attempts: 1,
    });
  });

  it('keeps a rejected row with the server reason until staff resolve it', () => {
    const id = testId();
    db.store.record(sale(id));
    const row = db.store.outbox.byTransaction(id);
    db.store.outbox.markRejected(
      row?.id ?? 0,
      { error: { code: 'limit-exceeded' } },
      db.clock.now(),
    );
    expect(db.store.outbox.attention()).toMatchObject([
      { transactionId: id, response: { error: { code: 'limit-exceeded' } } },
    ]);
    expect(db.store.outbox.depth().rejected).toBe(1);
    expect(db.store.outbox.resolve(row?.id ?? 0, 'manager-1', db.clock.now())).toBe(true);
    expect(db.store.outbox.attention()).toEqual([]);
    expect(db.store.outbox.get(row?.id ?? 0)?.status).toBe('rejected');
  });

  it('puts rows left sending by a crash back to queued at start', async () => {
    const id = testId();
    db.store.record(sale(id));
    db.store.outbox.markSending(db.store.outbox.byTransaction(id)?.id ?? 0, db.clock.now());
    await db.reopen();
    expect(db.store.outbox.byTransaction(id)?.status).toBe('queued');
  });

  it('validates a stored payload again when it is read', async () => {
    db.store.record(
      sale(testId(), {
        outbox: { operation: 'process_check', payload: { version: 1, check: 5 }, version: 1 },
      }),
    );
    await db.reopen({
      payloadSchemas: (op, v) =>
        op === 'process_check' && v === 1
          ? z.object({ version: z.literal(1), check: z.object({}) })
          : undefined,
    });
    expect(() => db.store.outbox.due(db.clock.now())).toThrow(
      expect.objectContaining({ code: 'invalid-record' }),
    );
  });

  it("marks a row whose payload no longer reads instead of throwing, in the pusher's and the attention list's reads", async () => {
    const id = testId();
    db.store.record(
      sale(id, {
        outbox: { operation: 'process_check', payload: { version: 1, check: 5 }, version: 1 },
      }),
    );
    await db.reopen({
      payloadSchemas: (op, v) =>
        op === 'process_check' && v === 1
          ? z.object({ version: z.literal(1), check: z.object({}) })
          : undefined,
    });
    const [row] = db.store.outbox.unsentAfter(0, 10);
    expect(row).toMatchObject({ transactionId: id, payload: null });
    expect(row?.unreadable).toMatch(/no longer valid/);
    db.store.outbox.markSending(row?.id ?? 0, db.clock.now());
    db.store.outbox.markRejected(row?.id ?? 0, { error: { code: 'unsendable' } }, db.clock.now());
    expect(db.store.outbox.attention()).toMatchObject([{ transactionId: id, payload: null }]);
  });

  it('puts a row back to queued with its attempt uncounted when it was not sent', () => {
    const id = testId();
    db.store.record(sale(id));
    const row = db.store.outbox.byTransaction(id)!;
    expect(db.store.outbox.markSending(row.id, db.clock.now())).toBe(true);
    expect(db.store.outbox.unsend(row.id, db.clock.now())).toBe(true);
    expect(db.store.outbox.get(row.id)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(db.store.outbox.unsend(row.id, db.clock.now())).toBe(false);
  });

  it('lists every unsent row for an export', () => {
    const a = testId();
    const b = testId();
    db.store.record(sale(a));
    db.store.record(sale(b));
    db.store.outbox.markDone(db.store.outbox.byTransaction(a)?.id ?? 0, null, db.clock.now());
    expect(db.store.outbox.unsent().map((r) => r.transactionId)).toEqual([b]);
  });

  it('names the oldest unsent row with its age and backoff, skipping delivered ones', () => {
    expect(db.store.outbox.oldestUnsent()).toBeNull();
    const [a, b, c] = [testId(), testId(), testId()];
    db.store.record(sale(a));
    const recordedB = db.clock.now() + 1_000;
    db.clock.set(recordedB);
    db.store.record(sale(b));
    db.store.record(sale(c));
    const rowA = db.store.outbox.byTransaction(a)?.id ?? 0;
    const rowB = db.store.outbox.byTransaction(b)?.id ?? 0;
    db.store.outbox.markDone(rowA, null, db.clock.now());
    db.store.outbox.markSending(rowB, db.clock.now());
    db.store.outbox.markRetry(rowB, 'ETIMEDOUT', db.clock.now() + 60_000, db.clock.now());
    expect(db.store.outbox.oldestUnsent()).toEqual({
      id: rowB,
      transactionId: b,
      operation: 'process_check',
      attempts: 1,
      createdAt: recordedB,
      nextAttemptAt: recordedB + 60_000,
    });
    // A row being sent is still unsent.
    db.store.outbox.markSending(db.store.outbox.byTransaction(c)?.id ?? 0, db.clock.now());
    db.store.outbox.markRejected(rowB, { error: { code: 'x' } }, db.clock.now());
    expect(db.store.outbox.oldestUnsent()?.transactionId).toBe(c);
  });

  it('finds the oldest unsent row through its index, not by walking the delivered history', () => {
    expect(db.store.outbox.oldestUnsentPlan()).toContain('USING INDEX outbox_unsent');
  });

  it('commits a batch of state changes together, or none of them', () => {
    const [a, b] = [testId(), testId()];
    db.store.record(sale(a));
    db.store.record(sale(b));
    const rowA = db.store.outbox.byTransaction(a)?.id ?? 0;
    const rowB = db.store.outbox.byTransaction(b)?.id ?? 0;
    expect(() =>
      db.store.write(() => {
        db.store.outbox.markSending(rowA, db.clock.now());
        db.store.outbox.markSending(rowB, db.clock.now());
        throw new Error('crash in the middle');
      }),
    ).toThrow('crash in the middle');
    expect(db.store.outbox.depth()).toMatchObject({ queued: 2, sending: 0 });
    db.store.write(() => {
      db.store.outbox.markSending(rowA, db.clock.now());
      db.store.outbox.markDone(rowA, { ok: 1 }, db.clock.now());
    });
    expect(db.store.outbox.get(rowA)?.status).toBe('done');
  });

  it('takes the write lock before a batch runs, so a busy database fails it before any work', async () => {
    await db.reopen({ busyTimeoutMs: 20 });
    const other = new Database(db.file);
    other.exec('BEGIN IMMEDIATE');
    try {
      let ran = false;
      expect(() => db.store.write(() => (ran = true))).toThrow(/busy|locked/i);
      expect(ran).toBe(false);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  });
});
