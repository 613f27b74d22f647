// A recovery a kill cut short is finished at the next start (issue 12, recovery at every
// start): the damaged file was already moved, so without this the till would start on an
// empty or half-filled file and tell no one. The states a kill leaves are built by hand.
import { copyFileSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/open.js';
import { openStoreWithRecovery } from '../../src/store/recovery.js';
import { sale, tempDir, testClock, testId, type TempDir } from '../store/helpers.js';
import { checkpoint, rootPageOf, smashPage } from './damage.js';

const dirs: TempDir[] = [];
const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) d.cleanup();
});

/** One sale in the backup, two after it (unsent), then the file damaged and set aside. */
async function damagedAndSetAside() {
  const t = tempDir('recovery-resume-');
  dirs.push(t);
  const clock = testClock();
  const { store } = await openStoreWithRecovery({ file: t.file, clock, dailyBackup: false });
  const before = testId();
  store.record(sale(before));
  const backup = await store.backup();
  const after = [testId(), testId()];
  for (const id of after) store.record(sale(id));
  store.close();
  checkpoint(t.file);
  const { page, pageSize } = rootPageOf(t.file, 'schema_migrations');
  smashPage(t.file, page, pageSize);
  // What the recovery does first: the damaged file into its quarantine directory.
  const quarantine = join(t.dir, 'quarantine', '2026-11-22T10-00-00-000Z');
  mkdirSync(quarantine, { recursive: true });
  renameSync(t.file, join(quarantine, 'terminal.sqlite'));
  return { t, clock, before, after, backup, quarantine };
}

async function open(t: TempDir, clock: ReturnType<typeof testClock>) {
  const opened = await openStoreWithRecovery({ file: t.file, clock, dailyBackup: false });
  stores.push(opened.store);
  return opened;
}

describe('a recovery cut short by a kill', () => {
  it('is finished at the next start when the kill came before the backup was restored', async () => {
    const { t, clock, before, after, backup, quarantine } = await damagedAndSetAside();
    const { store, recovery } = await open(t, clock);
    expect(recovery).toMatchObject({ quarantineDir: quarantine, restoredFrom: backup });
    expect([...recovery!.reinserted].sort()).toEqual([...after].sort());
    expect(recovery!.reason).toContain('resumed');
    for (const id of [before, ...after]) expect(store.ledger.status(id)).not.toBeNull();
    expect(store.check().ok).toBe(true);
    expect(existsSync(join(quarantine, 'recovery.json'))).toBe(true);
  });

  it('is done again from the backup when the kill came while unsent sales were put back', async () => {
    const { t, clock, after, backup, quarantine } = await damagedAndSetAside();
    writeFileSync(join(quarantine, 'progress.json'), JSON.stringify({ reason: 'quick_check: x' }));
    copyFileSync(backup, t.file); // restored, nothing put back yet
    const { store, recovery } = await open(t, clock);
    expect(recovery).toMatchObject({
      restoredFrom: backup,
      reason: 'quick_check: x (resumed after a stop)',
    });
    expect([...recovery!.reinserted].sort()).toEqual([...after].sort());
    for (const id of after) expect(store.outbox.byTransaction(id)?.status).toBe('queued');
  });

  it('is not resumed again once its report is written', async () => {
    const { t, clock } = await damagedAndSetAside();
    (await open(t, clock)).store.close();
    stores.pop();
    expect((await open(t, clock)).recovery).toBeNull();
  });
});
