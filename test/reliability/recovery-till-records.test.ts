// A corrupt database at start (issue 12): the till's own records written after the backup
// come back from the damaged file with the unsent sales: wrong PINs and sign-ins (a restore
// must not reset a lockout), the cash handed over and its change, and the cash a fuel prepay
// put in the drawer, with its shift. Damage is real: pages overwritten after the store closed.
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { Store } from '../../src/store/open.js';
import { openStoreWithRecovery } from '../../src/store/recovery.js';
import { tempDir, testClock, type TempDir, type TestClock } from '../store/helpers.js';
import { checkpoint, rootPageOf, smashPage } from './damage.js';

const dirs: TempDir[] = [];
const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) d.cleanup();
});

const POLICY = { maxFailures: 3, windowMs: 60_000, lockoutMs: 15 * 60_000 };
const TARGET = 'special-account:SA-1';

/** A till with a backup taken now; `after` writes into the live file once the backup exists. */
async function tillWithBackup(before: (s: Store, c: TestClock) => void = () => {}) {
  const t = tempDir('recovery-records-');
  dirs.push(t);
  const clock = testClock();
  const { store } = await openStoreWithRecovery({ file: t.file, clock, dailyBackup: false });
  before(store, clock);
  await store.backup();
  clock.advance(60_000);
  return { t, clock, store };
}

/** Closes the live file, damages it so the open fails, and recovers. */
async function damageAndRecover(
  live: Store,
  t: TempDir,
  clock: TestClock,
  table = 'schema_migrations',
) {
  live.close();
  checkpoint(t.file);
  const { page, pageSize } = rootPageOf(t.file, table);
  smashPage(t.file, page, pageSize);
  const opened = await openStoreWithRecovery({
    file: t.file,
    clock,
    dailyBackup: false,
    verifyAtStart: true,
  });
  stores.push(opened.store);
  expect(opened.recovery).not.toBeNull();
  return opened.store;
}

describe('a recovery keeps the till records written after the backup', () => {
  it('keeps a PIN lockout reached after the backup', async () => {
    const { t, clock, store } = await tillWithBackup();
    for (let i = 0; i < 3; i++) store.pins.fail(TARGET, POLICY, clock.now());
    expect(store.pins.state(TARGET, POLICY, clock.now()).lockedUntil).not.toBeNull();
    const recovered = await damageAndRecover(store, t, clock);
    expect(recovered.pins.state(TARGET, POLICY, clock.now()).lockedUntil).toBe(
      clock.now() + POLICY.lockoutMs,
    );
  });

  it('keeps a PIN failure whose id the backup holds for an older, pruned failure', async () => {
    // The backup holds failure id 1 from long ago; after it, the prune removes it and the new
    // failures take ids 1, 2, 3 again: matched by id, one of them would be lost, and the lock.
    const { t, clock, store } = await tillWithBackup((s, c) => {
      s.pins.fail(TARGET, POLICY, c.now());
      c.advance(10 * 60_000);
    });
    for (let i = 0; i < 3; i++) store.pins.fail(TARGET, POLICY, clock.now());
    const recovered = await damageAndRecover(store, t, clock);
    expect(recovered.pins.state(TARGET, POLICY, clock.now())).toEqual({
      failures: 3,
      lockedUntil: clock.now() + POLICY.lockoutMs,
    });
  });

  it('keeps a sign-in lockout reached after the backup', async () => {
    const { t, clock, store } = await tillWithBackup();
    for (let i = 0; i < 3; i++) store.signin.fail(POLICY, clock.now());
    const recovered = await damageAndRecover(store, t, clock);
    expect(recovered.signin.state(POLICY, clock.now()).lockedUntil).toBe(
      clock.now() + POLICY.lockoutMs,
    );
  });

  it('keeps the cash handed over and the change of a sale made after the backup', async () => {
    const { t, clock, store } = await tillWithBackup();
    store.shifts.putCashTender('tx-cash-1', '50', '3.51');
    const recovered = await damageAndRecover(store, t, clock);
    expect(recovered.shifts.cashTenderOf('tx-cash-1')).toEqual({ given: '50', change: '3.51' });
  });

  it('keeps the cash a fuel prepay put in the drawer of a shift the backup has open', async () => {
    const { t, clock, store } = await tillWithBackup((s, c) => {
      s.shifts.open(
        { id: 'shift-1', staffId: 'st1', staffName: 'Anna', openingCash: 100 },
        c.now(),
      );
    });
    store.shifts.takeCashPrepay('auth-1', 'shift-1', '50', clock.now());
    const recovered = await damageAndRecover(store, t, clock);
    expect(recovered.shifts.cashPrepaysOf('shift-1')).toEqual([
      { authorisationId: 'auth-1', amount: '50' },
    ]);
  });

  it('keeps a shift closed and the next one opened after the backup, with its cash prepay', async () => {
    const { t, clock, store } = await tillWithBackup((s, c) => {
      s.shifts.open(
        { id: 'shift-1', staffId: 'st1', staffName: 'Anna', openingCash: 100 },
        c.now(),
      );
    });
    store.shifts.close(
      { id: 'shift-1', staffId: 'st1', staffName: 'Anna', countedCash: 100 },
      clock.now(),
    );
    store.shifts.open(
      { id: 'shift-2', staffId: 'st2', staffName: 'Ben', openingCash: 80 },
      clock.now(),
    );
    store.shifts.takeCashPrepay('auth-2', 'shift-2', '40', clock.now());
    const closed = store.shifts.get('shift-1');
    const recovered = await damageAndRecover(store, t, clock);
    expect(closed?.closedBy).toBe('st1');
    expect(recovered.shifts.get('shift-1')).toEqual(closed);
    expect(recovered.shifts.current()).toMatchObject({ id: 'shift-2', openedByName: 'Ben' });
    expect(recovered.shifts.cashPrepaysOf('shift-2')).toEqual([
      { authorisationId: 'auth-2', amount: '40' },
    ]);
  });

  it('loses only the PIN failures on a damaged page of their table, not the rest', async () => {
    const { t, clock, store } = await tillWithBackup();
    // Enough failures of many targets to fill several pages; then one leaf page is damaged.
    const policy = { ...POLICY, maxFailures: 1_000_000 };
    for (let i = 0; i < 3_000; i++)
      store.pins.fail(`corporate-access:CA-${i}`, policy, clock.now());
    store.close();
    checkpoint(t.file);
    const leaves = leafPages(t.file, 'pin_failure');
    expect(leaves.length).toBeGreaterThan(3);
    const { pageSize } = rootPageOf(t.file, 'pin_failure');
    smashPage(t.file, leaves[1]!, pageSize);
    const { store: recovered, recovery } = await openStoreWithRecovery({
      file: t.file,
      clock,
      dailyBackup: false,
      verifyAtStart: true,
    });
    stores.push(recovered);
    expect(recovery).not.toBeNull();
    const kept = Array.from({ length: 3_000 }, (_, i) => `corporate-access:CA-${i}`).filter(
      (target) => recovered.pins.state(target, policy, clock.now()).failures === 1,
    );
    // The first and the last targets sit on intact pages; only one page's rows are lost.
    expect(kept).toContain('corporate-access:CA-0');
    expect(kept).toContain('corporate-access:CA-2999');
    expect(kept.length).toBeLessThan(3_000);
    expect(kept.length).toBeGreaterThan(3_000 - 3_000 / (leaves.length - 1));
  });
});

/** The leaf pages of a table's b-tree, in key order. */
function leafPages(file: string, table: string): number[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare<[string], { pageno: number }>(
        "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY path",
      )
      .all(table)
      .map((r) => r.pageno);
  } finally {
    db.close();
  }
}
