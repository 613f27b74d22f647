// A corrupt database at start (issue 8): the file is quarantined, the newest good backup is
// restored, the unsent sales still readable in the damaged file are put back (or exported when
// they cannot be), and the report tells the cashier. Damage is real: pages of the file are
// overwritten after the store closed it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, resolveMigrations, type Store } from '../../src/store/open.js';
import { openStoreWithRecovery } from '../../src/store/recovery.js';
import { sale, tempDir, testClock, testId, type TempDir } from '../store/helpers.js';
import { checkpoint, rootPageOf, smashHeader, smashPage } from './damage.js';

const dirs: TempDir[] = [];
const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) d.cleanup();
});

function uniqueSale(id: string) {
  return sale(id, { coupons: [{ code: `CPN-${id}`, action: 'redeem' }] });
}

/**
 * A till that sold three sales, took a backup, then sold three more (unsent) and confirmed
 * the first: the backup lacks the last three, the live file has all six.
 */
async function tillWithBackup() {
  const t = tempDir('recovery-');
  dirs.push(t);
  const clock = testClock();
  const { store } = await openStoreWithRecovery({ file: t.file, clock, dailyBackup: false });
  const before = [testId(), testId(), testId()];
  const after = [testId(), testId(), testId()];
  for (const id of before) store.record(uniqueSale(id));
  clock.advance(60_000);
  const backup = await store.backup();
  clock.advance(60_000);
  for (const id of after) store.record(uniqueSale(id));
  const first = store.outbox.byTransaction(before[0]!);
  store.outbox.markDone(first!.id, { ok: true }, clock.now());
  const effects = new Map(after.map((id) => [id, store.ledger.effectsOf(id)]));
  store.close();
  checkpoint(t.file);
  return { t, clock, before, after, backup, effects };
}

describe('a corrupt database at start', () => {
  it('quarantines the file, restores the last backup and puts the unsent sales back', async () => {
    const { t, clock, before, after, backup, effects } = await tillWithBackup();
    // The schema record is what opening reads first: damage there makes the open fail.
    const { page, pageSize } = rootPageOf(t.file, 'schema_migrations');
    smashPage(t.file, page, pageSize);

    clock.advance(60_000);
    const { store, recovery } = await openStoreWithRecovery({
      file: t.file,
      clock,
      dailyBackup: false,
    });
    stores.push(store);
    expect(recovery).not.toBeNull();
    expect(recovery!.restoredFrom).toBe(backup);
    expect([...recovery!.reinserted].sort()).toEqual([...after].sort());
    expect(recovery!.alreadyPresent).toBe(2);
    expect(recovery!.exported).toBe(0);
    expect(recovery!.unreadableFile).toBe(false);
    expect(recovery!.ledgerProblems).toEqual([]);

    // The damaged file is kept, untouched by the recovery, with its report beside it.
    const quarantined = readdirSync(recovery!.quarantineDir);
    expect(quarantined).toContain('terminal.sqlite');
    expect(quarantined).toContain('recovery.json');
    expect(recovery!.quarantineDir.startsWith(join(t.dir, 'quarantine'))).toBe(true);

    expect(store.check().ok).toBe(true);
    for (const id of [...before, ...after]) expect(store.ledger.status(id)).not.toBeNull();
    for (const id of after) {
      expect(store.outbox.byTransaction(id)?.status).toBe('queued');
      expect(store.ledger.effectsOf(id)).toEqual(effects.get(id));
    }
    // Sent oldest first, in the order they were sold.
    const due = store.outbox.due(clock.now() + 1, 50).map((r) => r.transactionId);
    expect(due.slice(-3)).toEqual(after);
  });

  it('keeps the online attempts of the damaged file, so their sales are still voided', async () => {
    const t = tempDir('recovery-attempt-');
    dirs.push(t);
    const clock = testClock();
    const { store: live } = await openStoreWithRecovery({
      file: t.file,
      clock,
      dailyBackup: false,
    });
    live.record(uniqueSale(testId()));
    await live.backup();
    const inFlight = testId();
    live.onlineAttempts.begin(inFlight, clock.now());
    live.close();
    checkpoint(t.file);
    const { page, pageSize } = rootPageOf(t.file, 'schema_migrations');
    smashPage(t.file, page, pageSize);

    const { store, recovery } = await openStoreWithRecovery({
      file: t.file,
      clock,
      dailyBackup: false,
    });
    stores.push(store);
    expect(recovery).not.toBeNull();
    expect(store.onlineAttempts.open().map((a) => a.transactionId)).toEqual([inFlight]);
  });

  it('tells the cashier what happened and where the damaged file is', async () => {
    const { t, clock } = await tillWithBackup();
    const { page, pageSize } = rootPageOf(t.file, 'schema_migrations');
    smashPage(t.file, page, pageSize);
    const { store, recovery } = await openStoreWithRecovery({ file: t.file, clock });
    stores.push(store);
    expect(recovery!.message).toMatch(/damaged/);
    expect(recovery!.message).toMatch(/3 unsent operation\(s\) were recovered/);
    expect(recovery!.message).toContain(recovery!.quarantineDir);
    const kept = JSON.parse(
      readFileSync(join(recovery!.quarantineDir, 'recovery.json'), 'utf8'),
    ) as { message: string };
    expect(kept.message).toBe(recovery!.message);
  });

  it('exports unsent sales it can read but not put back, to DIR/export/unsent-STAMP.jsonl', async () => {
    const { t, clock, after } = await tillWithBackup();
    // The checks' page is damaged: the open itself does not notice, the quick check does, and
    // the sales' records cannot be read whole, so they are exported from their outbox rows.
    const { page, pageSize } = rootPageOf(t.file, 'ledger_check');
    smashPage(t.file, page, pageSize);
    const { store, recovery } = await openStoreWithRecovery({
      file: t.file,
      clock,
      verifyAtStart: true,
    });
    stores.push(store);
    expect(recovery!.reason).toMatch(/quick_check/);
    expect(recovery!.reinserted).toEqual([]);
    expect(recovery!.exported).toBe(3);
    expect(recovery!.exportFile).toMatch(/[/\\]export[/\\]unsent-.*\.jsonl$/);
    const lines = readFileSync(recovery!.exportFile!, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { transaction_id: string; operation: string; payload: unknown });
    expect(lines.map((l) => l.transaction_id)).toEqual(after);
    expect(lines[0]).toMatchObject({
      operation: 'process_check',
      payload: { version: 1, check: { transaction_id: after[0] } },
    });
    expect(recovery!.message).toMatch(/3 unsent operation\(s\) could not be put back/);
    expect(store.check().ok).toBe(true);
  });

  it('skips a damaged backup for an older good one, and says which', async () => {
    const { t, clock, backup } = await tillWithBackup();
    const { store: s } = await openStoreWithRecovery({ file: t.file, clock, dailyBackup: false });
    clock.advance(60_000);
    const newer = await s.backup();
    s.close();
    checkpoint(newer);
    smashHeader(newer);
    smashHeader(t.file);
    const { store, recovery } = await openStoreWithRecovery({ file: t.file, clock });
    stores.push(store);
    expect(recovery!.restoredFrom).toBe(backup);
    expect(recovery!.rejectedBackups.map((b) => b.file)).toContain(newer);
  });

  it('starts empty, with every readable unsent sale put back, when no backup is usable', async () => {
    const { t, clock, before, after, backup } = await tillWithBackup();
    smashHeader(backup);
    const { page, pageSize } = rootPageOf(t.file, 'schema_migrations');
    smashPage(t.file, page, pageSize);
    const { store, recovery } = await openStoreWithRecovery({ file: t.file, clock });
    stores.push(store);
    expect(recovery!.restoredFrom).toBeNull();
    // The confirmed first sale is the server's already; the five unsent ones come back.
    expect(recovery!.reinserted).toEqual([...before.slice(1), ...after]);
    expect(store.check().ok).toBe(true);
    expect(store.ledger.status(before[0]!)).toBeNull();
  });

  it('reports an unreadable file, and restores the backup with its queue', async () => {
    const { t, clock, before } = await tillWithBackup();
    smashHeader(t.file);
    const { store, recovery } = await openStoreWithRecovery({ file: t.file, clock });
    stores.push(store);
    expect(recovery!.unreadableFile).toBe(true);
    expect(recovery!.message).toMatch(/could not be read/);
    for (const id of before) expect(store.outbox.byTransaction(id)?.status).toBe('queued');
  });

  it('leaves a healthy file alone and reports nothing', async () => {
    const { t, clock } = await tillWithBackup();
    const { store, recovery } = await openStoreWithRecovery({
      file: t.file,
      clock,
      verifyAtStart: true,
    });
    stores.push(store);
    expect(recovery).toBeNull();
    expect(existsSync(join(t.dir, 'quarantine'))).toBe(false);
  });

  it('does not treat a failure that is not damage as damage (a newer schema is refused as before)', async () => {
    const { t, clock } = await tillWithBackup();
    const migrations = resolveMigrations({});
    await expect(
      openStoreWithRecovery({ file: t.file, clock, migrations: migrations.slice(0, 1) }),
    ).rejects.toMatchObject({ code: 'schema-newer' });
    expect(existsSync(join(t.dir, 'quarantine'))).toBe(false);
    (await openStore({ file: t.file, clock, dailyBackup: false })).close();
  });
});
