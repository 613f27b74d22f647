import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/store/errors.js';
import {
  checksumOf,
  findMigrationsDir,
  loadMigrations,
  migrationFrom,
  type Migration,
} from '../../src/store/migrate.js';
import { inspectFile } from '../../src/store/open.js';
import { openTest, sale, sha256, tempDir, testClock, testId, type TempDir } from './helpers.js';

const shipped = loadMigrations(findMigrationsDir());

let t: TempDir;
beforeEach(() => {
  t = tempDir('migrate-');
});
afterEach(() => t.cleanup());

async function refusal(p: Promise<unknown>): Promise<StoreError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof StoreError) return e;
    throw e;
  }
  throw new Error('expected the store to refuse');
}

/** Rows a schema at `version` can hold, written through the store's API. */
async function seedAt(version: number, file: string): Promise<void> {
  const clock = testClock();
  const store = await openTest(file, clock, { migrations: shipped.slice(0, version) });
  store.cache.put(
    'customer',
    {
      id: 'c1',
      access_type: 'full-bonuses-access',
      phone: '+49 30 1234',
      bonuses: { regular: 100 },
    },
    clock.now(),
  );
  store.cache.put('card', { id: 'k1', customer_id: 'c1', code: 'CARD-1' }, clock.now());
  store.cache.put(
    'rule',
    {
      id: 'r1',
      loyalty_id: 'l1',
      pos: [{ id: 'p1' }],
      action_type: 'discount',
      value: { type: 'percentage', thresholds: [{ from: 0, value: 5 }] },
    },
    clock.now(),
  );
  store.sync.setValue('cursor', 'cur-1', clock.now());
  if (version >= 2) store.record(sale('01900000-0000-7000-8000-0000000000aa'));
  store.close();
}

describe('migrations', () => {
  it('ships at least two migrations numbered from 0001 without gaps', () => {
    expect(shipped.length).toBeGreaterThanOrEqual(2);
    expect(shipped.map((m) => m.version)).toEqual(shipped.map((_, i) => i + 1));
  });

  it('migrates an empty file to the newest schema with checksums and WAL, FULL, foreign keys', async () => {
    const store = await openTest(t.file, testClock());
    const schema = store.schema();
    expect(schema.pending).toEqual([]);
    expect(schema.applied.map((a) => [a.version, a.name, a.checksum])).toEqual(
      shipped.map((m) => [m.version, m.name, m.checksum]),
    );
    expect(store.pragmas()).toEqual({
      journalMode: 'wal',
      synchronous: 2,
      foreignKeys: 1,
      busyTimeout: 5000,
      walAutocheckpoint: 1000,
    });
    store.close();
  });

  it('takes no backup when migrating a new file', async () => {
    const store = await openTest(t.file, testClock());
    store.close();
    expect(existsSync(join(t.dir, 'backups')) ? readdirSync(join(t.dir, 'backups')) : []).toEqual(
      [],
    );
  });

  for (let from = 1; from < shipped.length; from++) {
    it(`migrates a file at schema ${from} to the newest, keeping its rows, after a backup`, async () => {
      await seedAt(from, t.file);
      expect(inspectFile(t.file, shipped).pending.map((m) => m.version)).toEqual(
        shipped.slice(from).map((m) => m.version),
      );
      const clock = testClock();
      const store = await openTest(t.file, clock);
      expect(store.schema().pending).toEqual([]);
      expect(store.cache.customerByCard('CARD-1')?.id).toBe('c1');
      expect(store.cache.customerByPhone('49301234')?.id).toBe('c1');
      expect(store.sync.cursor()).toBe('cur-1');
      expect(store.rules.candidates('l1', 'p1')).toHaveLength(1);
      // The new schema works on the old rows.
      expect(store.record(sale(testId())).status).toBe('committed');
      expect(store.check().ok).toBe(true);
      store.close();
      const backups = readdirSync(join(t.dir, 'backups'));
      expect(
        backups.some((f) => f.startsWith(`pre-migrate-v${String(from).padStart(4, '0')}-to-v`)),
      ).toBe(true);
    });

    it(`leaves a file at schema ${from} openable by the app of schema ${from} when a later migration fails`, async () => {
      await seedAt(from, t.file);
      const broken: Migration[] = [
        ...shipped,
        migrationFrom(
          `${String(shipped.length + 1).padStart(4, '0')}_broken.sql`,
          'CREATE TABLE ok_table (x INTEGER);\nTHIS IS NOT SQL;',
        ),
      ];
      const e = await refusal(openTest(t.file, testClock(), { migrations: broken }));
      expect(e.code).toBe('migration-failed');
      const old = await openTest(t.file, testClock(), { migrations: shipped.slice(0, from) });
      expect(old.schema().applied).toHaveLength(from);
      expect(old.cache.customerByCard('CARD-1')?.id).toBe('c1');
      old.close();
    });
  }

  it('starts a snapshot that was paging at schema 12 again from its first page (0013)', async () => {
    const clock = testClock();
    const old = await openTest(t.file, clock, { migrations: shipped.slice(0, 12) });
    old.sync.setValue('snapshot', { cursor: 's.1.500.900.500', startedAt: 0, staged: 1 }, 0);
    old.close();
    const raw = new Database(t.file);
    raw
      .prepare("INSERT INTO snapshot_staging (entity, id, data) VALUES ('customer', 'c9', '{}')")
      .run();
    raw.close();
    const store = await openTest(t.file, clock);
    // Its staged rows had no lookup columns to move with them: the snapshot begins anew.
    expect(store.sync.snapshot()).toBeNull();
    expect(store.sync.cursor()).toBeNull();
    store.close();
  });

  it('uses the lookup indexes after migrating (query plans)', async () => {
    await seedAt(1, t.file);
    const store = await openTest(t.file, testClock());
    for (const [lookup, plan] of Object.entries(store.cache.queryPlans())) {
      expect(plan, lookup).toMatch(/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY|PRIMARY KEY/);
      expect(plan, lookup).not.toMatch(/^SCAN \w+$/m);
    }
    store.close();
  });

  it('refuses a database whose recorded migration changed, leaving the file untouched', async () => {
    (await openTest(t.file, testClock())).close();
    const before = sha256(t.file);
    const first = shipped[0];
    if (!first) throw new Error('no migrations');
    const edited = [
      migrationFrom(`0001_${first.name}.sql`, `${first.sql}\n-- edited after release\n`),
      ...shipped.slice(1),
    ];
    const e = await refusal(openTest(t.file, testClock(), { migrations: edited }));
    expect(e.code).toBe('schema-tampered');
    expect(e.message).toMatch(/migration 0001 .*checksum changed/);
    expect(sha256(t.file)).toBe(before);
  });

  it('refuses a database newer than the app, leaving the file untouched', async () => {
    (await openTest(t.file, testClock())).close();
    const before = sha256(t.file);
    const e = await refusal(openTest(t.file, testClock(), { migrations: shipped.slice(0, 1) }));
    expect(e.code).toBe('schema-newer');
    expect(e.message).toMatch(/newer than this app/);
    expect(sha256(t.file)).toBe(before);
  });

  it('refuses a file that is not a loyalty-terminal database', async () => {
    writeFileSync(
      t.file,
      'this is not sqlite at all, just text that is long enough to look like a header.....',
    );
    const before = sha256(t.file);
    const e = await refusal(openTest(t.file, testClock()));
    expect(e.code).toBe('corrupt');
    expect(sha256(t.file)).toBe(before);
  });

  it('counts a CRLF checkout of a migration as the same migration', () => {
    expect(checksumOf('CREATE TABLE a (x);\r\nCREATE TABLE b (y);\r\n')).toBe(
      checksumOf('CREATE TABLE a (x);\nCREATE TABLE b (y);\n'),
    );
  });

  it('rejects a misnamed migration file and one that controls transactions', () => {
    expect(() => migrationFrom('1_init.sql', 'SELECT 1;')).toThrow(/NNNN_snake_name/);
    expect(() => migrationFrom('0003_x.sql', 'BEGIN;\nCREATE TABLE t (x);\nCOMMIT;')).toThrow(
      /controls transactions/,
    );
  });
});

describe('finding the shipped migrations', () => {
  it('finds resources/migrations from a module inside resources/app.asar, as packaged', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const t2 = tempDir('resources-');
    try {
      const store = join(t2.dir, 'resources', 'app.asar', 'dist', 'src', 'store');
      mkdirSync(store, { recursive: true });
      mkdirSync(join(t2.dir, 'resources', 'migrations'));
      writeFileSync(join(t2.dir, 'resources', 'migrations', '0001_x.sql'), 'CREATE TABLE x (a);');
      expect(findMigrationsDir(join(store, 'migrate.js'))).toBe(
        join(t2.dir, 'resources', 'migrations'),
      );
    } finally {
      t2.cleanup();
    }
  });
});
