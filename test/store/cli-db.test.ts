import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDb } from '../../src/cli/db.js';
import { memoryIO } from '../../src/cli/io.js';
import { findMigrationsDir, loadMigrations } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open.js';
import { acquireDataDirLock, currentProcess } from '../../src/terminal/lock.js';
import { checkpoint, rootPageOf, smashPage } from '../reliability/damage.js';
import { sale, sha256, tempDir, testClock, testId, type TempDir } from './helpers.js';

const shipped = loadMigrations(findMigrationsDir());
let t: TempDir;
beforeEach(() => {
  t = tempDir('cli-db-');
});
afterEach(() => t.cleanup());

async function run(...args: string[]) {
  const io = memoryIO();
  const code = await runDb(args, io);
  return { code, out: io.out, err: io.err };
}

describe('loyalty-terminal db', () => {
  it('status lists every migration as pending for a new file and creates nothing', async () => {
    const r = await run('status', '--db', t.file);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`pending (${shipped.length}):`);
    expect(r.out).toContain('0001_cache_and_sync_state');
    expect(existsSync(t.file)).toBe(false);
  });

  it('migrate applies the pending migrations, then status shows them applied', async () => {
    const m = await run('migrate', '--db', t.file);
    expect(m.code).toBe(0);
    expect(m.out).toContain('applied 0002_ledger_outbox_payment_journal');
    const s = await run('status', '--db', t.file);
    expect(s.out).toContain(`applied (${shipped.length}):`);
    expect(s.out).toContain('pending (0):');
    expect(s.out).toMatch(/0001_cache_and_sync_state .* ok/);
  });

  it('migrate from an earlier schema takes a backup first', async () => {
    (
      await openStore({
        file: t.file,
        clock: testClock(),
        migrations: shipped.slice(0, 1),
        dailyBackup: false,
      })
    ).close();
    expect((await run('migrate', '--db', t.file)).code).toBe(0);
    expect(
      readdirSync(join(t.dir, 'backups')).some((f) =>
        f.startsWith(`pre-migrate-v0001-to-v${String(shipped.length).padStart(4, '0')}`),
      ),
    ).toBe(true);
  });

  it('status and migrate refuse a database newer than the app, naming the reason', async () => {
    (await openStore({ file: t.file, clock: testClock(), dailyBackup: false })).close();
    const dir = join(t.dir, 'old-migrations');
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(dir);
    const first = shipped[0];
    writeFileSync(join(dir, `0001_${first?.name}.sql`), first?.sql ?? '');
    const before = sha256(t.file);
    const s = await run('status', '--db', t.file, '--migrations', dir);
    expect(s.code).toBe(1);
    expect(s.err).toMatch(/newer than this app/);
    const m = await run('migrate', '--db', t.file, '--migrations', dir);
    expect(m.code).toBe(1);
    expect(m.err).toMatch(/schema-newer/);
    expect(sha256(t.file)).toBe(before);
  });

  it('check reports ok for a whole database', async () => {
    const store = await openStore({ file: t.file, clock: testClock(), dailyBackup: false });
    store.record(sale('01900000-0000-7000-8000-00000000c0c0'));
    store.close();
    const r = await run('check', '--db', t.file);
    expect(r.code).toBe(0);
    expect(r.out).toContain('integrity_check: ok');
    expect(r.out).toContain('ledger: ok');
  });

  it('backup writes a copy with --out', async () => {
    (await openStore({ file: t.file, clock: testClock(), dailyBackup: false })).close();
    const out = join(t.dir, 'copy.sqlite');
    const r = await run('backup', '--db', t.file, '--out', out);
    expect(r.code).toBe(0);
    expect(existsSync(out)).toBe(true);
    expect((await run('check', '--db', out)).code).toBe(0);
  });

  it('finds the database in --data DIR', async () => {
    const r = await run('migrate', '--data', t.dir);
    expect(r.code).toBe(0);
    expect(existsSync(join(t.dir, 'terminal.sqlite'))).toBe(true);
  });

  it('answers usage errors with exit 2', async () => {
    expect((await run()).code).toBe(2);
    expect((await run('explode', '--db', t.file)).code).toBe(2);
    expect((await run('status', '--db')).code).toBe(2);
  });

  // Issue 12: recovery at every start, the operator's migrate included.
  it('migrate recovers a damaged file from its backup and lists the recovery for the cashier', async () => {
    const clock = testClock();
    const store = await openStore({ file: t.file, clock, dailyBackup: false });
    const id = testId();
    store.record(sale(id));
    await store.backup();
    store.close();
    checkpoint(t.file);
    const { page, pageSize } = rootPageOf(t.file, 'schema_migrations');
    smashPage(t.file, page, pageSize);

    const r = await run('migrate', '--db', t.file);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(
      /damaged; it was set aside and the backup manual-.+\.sqlite was restored/,
    );
    expect(readdirSync(join(t.dir, 'quarantine'))).toHaveLength(1);
    const after = await openStore({ file: t.file, clock, dailyBackup: false });
    try {
      expect(after.outbox.byTransaction(id)?.status).toBe('queued');
      expect(after.attention.list().map((a) => a.kind)).toEqual(['store-recovered']);
    } finally {
      after.close();
    }
  });

  it('migrate refuses while a running terminal holds the data directory', async () => {
    const held = acquireDataDirLock(t.dir, { ...currentProcess(), pid: process.ppid });
    expect(held.ok).toBe(true);
    const r = await run('migrate', '--db', t.file);
    expect(r.code).toBe(1);
    expect(existsSync(t.file)).toBe(false);
    if (held.ok) held.lock.release();
  });
});
