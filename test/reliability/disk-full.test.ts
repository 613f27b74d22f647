// Disk full during a commit (issue 8): the sale is not acknowledged, the error is clear (the
// store's `full`), nothing of the sale is half-written, and selling works again when space
// returns. The full disk is SQLite's own: PRAGMA max_page_count on the store's connection makes
// the next page allocation fail with a real SQLITE_FULL, the code a full disk gives.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyStoreError, StoreError } from '../../src/store/errors.js';
import { openStore, type Store } from '../../src/store/open.js';
import { sale, tempDir, testClock, testId, type TempDir } from '../store/helpers.js';

const dirs: TempDir[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

/** Opens a store and hands back its connection too (caught as the store makes its first call). */
async function openWithConnection(file: string): Promise<{ store: Store; db: Database.Database }> {
  const proto = Database.prototype as { pragma: Database.Database['pragma'] };
  const original = proto.pragma;
  const seen: Database.Database[] = [];
  proto.pragma = function (this: Database.Database, ...args: Parameters<typeof original>) {
    seen.push(this);
    return original.apply(this, args);
  } as typeof original;
  try {
    const store = await openStore({ file, clock: testClock(), dailyBackup: false });
    const db = seen[0];
    if (!db) throw new Error('the store made no pragma call');
    return { store, db };
  } finally {
    proto.pragma = original;
  }
}

const uniqueSale = (id: string) => sale(id, { coupons: [{ code: `CPN-${id}`, action: 'redeem' }] });

/** Sells until the file cannot grow; returns the sales that committed and the refused one. */
function sellUntilFull(store: Store): { committed: string[]; refused: string; error: unknown } {
  const committed: string[] = [];
  for (let i = 0; i < 5_000; i++) {
    const id = testId();
    try {
      store.record(uniqueSale(id));
      committed.push(id);
    } catch (error) {
      return { committed, refused: id, error };
    }
  }
  throw new Error('the database never filled up');
}

describe('disk full during a commit', () => {
  it('refuses the sale with the store error `full`, writing nothing of it', async () => {
    const t = tempDir('full-');
    dirs.push(t);
    const { store, db } = await openWithConnection(t.file);
    try {
      for (let i = 0; i < 3; i++) store.record(uniqueSale(testId()));
      const before = store.ledger.count();
      db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);

      const { committed, refused, error } = sellUntilFull(store);
      expect(error).toBeInstanceOf(StoreError);
      const failure = classifyStoreError(error);
      expect(failure.code).toBe('full');
      expect(failure.sqliteCode).toMatch(/^SQLITE_FULL/);
      expect(failure.retryable).toBe(false);
      expect(failure.message).toMatch(/full; free space before selling again/);

      // All or nothing: the refused sale left no operation, effect, hold or outbox row.
      expect(store.ledger.status(refused)).toBeNull();
      expect(store.outbox.byTransaction(refused)).toBeNull();
      expect(store.ledger.storedCheck(refused)).toBeNull();
      const fx = store.ledger.effectsOf(refused);
      expect([fx.bonuses, fx.payments, fx.accounts, fx.coupons, fx.pending]).toEqual([
        [],
        [],
        [],
        [],
        [],
      ]);
      expect(store.ledger.count()).toBe(before + committed.length);
      expect(store.check().ok).toBe(true);
    } finally {
      store.close();
    }
  });

  it('sells again, the same sale included, once space returns', async () => {
    const t = tempDir('full-');
    dirs.push(t);
    const { store, db } = await openWithConnection(t.file);
    try {
      db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
      const { refused } = sellUntilFull(store);
      // A second try while still full fails the same way, and still writes nothing.
      expect(() => store.record(uniqueSale(refused))).toThrow(/full/);
      expect(store.ledger.status(refused)).toBeNull();

      db.pragma('max_page_count = 1073741823');
      expect(store.record(uniqueSale(refused)).status).toBe('committed');
      expect(store.outbox.byTransaction(refused)?.status).toBe('queued');
      expect(store.record(uniqueSale(testId())).status).toBe('committed');
      expect(store.check().ok).toBe(true);
    } finally {
      store.close();
    }
    // And the file is whole after a restart.
    const again = await openStore({ file: t.file, clock: testClock(), dailyBackup: false });
    try {
      expect(again.check().ok).toBe(true);
    } finally {
      again.close();
    }
  });
});
