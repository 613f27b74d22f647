// Forward-only schema migrations (shared/style.md, "What we take", 6; Signal-Desktop's
// updateSchema): `migrations/NNNN_snake_name.sql`, applied in order, all pending ones in one
// transaction, each recorded with the checksum of its text. A kill mid-way leaves the previous
// schema, which the previous app version still opens. A recorded migration whose text changed,
// or a database newer than the app, is refused before anything is written.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import { StoreError, storeError } from './errors.js';

export interface Migration {
  /** NNNN as a number, 1-based and contiguous. */
  readonly version: number;
  /** The snake_case part of the file name. */
  readonly name: string;
  readonly sql: string;
  /** sha256 of the text with line endings normalised to LF (a CRLF checkout is not a change). */
  readonly checksum: string;
}

export interface AppliedMigration {
  readonly version: number;
  readonly name: string;
  readonly checksum: string;
  readonly appliedAt: string;
}

export interface SchemaStatus {
  /** No table at all: a new file. */
  readonly empty: boolean;
  readonly applied: readonly AppliedMigration[];
  readonly pending: readonly Migration[];
  /** Versions whose recorded checksum differs from the shipped file. */
  readonly changed: readonly number[];
  /** Why the store must not open this file, or null. */
  readonly problem: StoreError | null;
}

const FILE_NAME = /^(\d{4})_([a-z0-9]+(?:_[a-z0-9]+)*)\.sql$/;
/** Transaction control inside a file would break the one-transaction guarantee. */
const TRANSACTION_CONTROL =
  /^\s*(BEGIN\s*(TRANSACTION|IMMEDIATE|EXCLUSIVE|DEFERRED)?\s*;|COMMIT\b|ROLLBACK\b|SAVEPOINT\b|RELEASE\b)/im;

export function checksumOf(sql: string): string {
  return createHash('sha256').update(sql.replace(/\r\n/g, '\n'), 'utf8').digest('hex');
}

export function migrationFrom(fileName: string, sql: string): Migration {
  const m = FILE_NAME.exec(fileName);
  if (!m)
    throw storeError(
      'schema-unknown',
      `migration file ${fileName} is not named NNNN_snake_name.sql`,
    );
  if (TRANSACTION_CONTROL.test(sql)) {
    throw storeError(
      'schema-unknown',
      `migration ${fileName} controls transactions itself; the migrator owns them`,
    );
  }
  return { version: Number(m[1]), name: m[2] ?? '', sql, checksum: checksumOf(sql) };
}

/** Reads every migration of a directory, checking names and that versions run 1, 2, 3... */
export function loadMigrations(dir: string): Migration[] {
  if (!existsSync(dir)) throw storeError('schema-unknown', `no migrations directory at ${dir}`);
  const list = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .map((f) => migrationFrom(f, readFileSync(join(dir, f), 'utf8')))
    .sort((a, b) => a.version - b.version);
  list.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw storeError(
        'schema-unknown',
        `migrations must be numbered 0001, 0002, ... without gaps; found ${m.version} at ${i + 1}`,
      );
    }
  });
  return list;
}

/**
 * The shipped migrations directory: the nearest `migrations/` holding a 0001 file, walking up
 * from this module (src/store in tests, dist/src/store in the build; in the packaged app,
 * resources/app.asar/... up to resources/migrations, where electron-builder puts them).
 */
export function findMigrationsDir(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  for (;;) {
    const candidate = join(dir, 'migrations');
    if (existsSync(candidate) && readdirSync(candidate).some((f) => /^0001_.*\.sql$/.test(f)))
      return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw storeError('schema-unknown', `no migrations directory above ${from}`);
    dir = parent;
  }
}

const pad = (v: number): string => String(v).padStart(4, '0');

/** Reads what the file records and compares it with the shipped list; writes nothing. */
export function inspectSchema(
  db: Database.Database,
  migrations: readonly Migration[],
): SchemaStatus {
  const tables = db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    .all()
    .map((r) => r.name);
  const userVersion = db.pragma('user_version', { simple: true }) as number;
  const known = migrations.length;
  if (!tables.includes('schema_migrations')) {
    const empty = tables.length === 0;
    const problem = empty
      ? userVersion > known
        ? storeError(
            'schema-newer',
            `the database is at schema ${userVersion}, newer than this app (${known}); use a newer app or restore a backup`,
          )
        : null
      : storeError(
          'schema-unknown',
          'the file holds tables but no schema_migrations: it is not a loyalty-terminal database',
        );
    return { empty, applied: [], pending: empty ? migrations : [], changed: [], problem };
  }
  const applied = db
    .prepare<[], AppliedMigration>(
      'SELECT version, name, checksum, applied_at AS appliedAt FROM schema_migrations ORDER BY version',
    )
    .all();
  const byVersion = new Map(migrations.map((m) => [m.version, m]));
  const changed: number[] = [];
  let problem: StoreError | null = null;
  const newest = Math.max(userVersion, ...applied.map((a) => a.version));
  if (newest > known) {
    problem = storeError(
      'schema-newer',
      `the database is at schema ${pad(newest)}, newer than this app (${pad(known)}); use a newer app or restore a backup from DIR/backups/`,
    );
  }
  for (const a of applied) {
    const shipped = byVersion.get(a.version);
    if (!shipped) continue;
    if (shipped.checksum !== a.checksum || shipped.name !== a.name) changed.push(a.version);
  }
  if (!problem && changed.length > 0) {
    const first = changed[0] ?? 0;
    problem = storeError(
      'schema-tampered',
      `migration ${pad(first)} recorded in the database differs from the one this app ships (checksum changed): released migrations must never be edited; the file was left untouched`,
    );
  }
  const appliedSet = new Set(applied.map((a) => a.version));
  // Forward-only and in order: a hole means the file was assembled by something else.
  if (!problem && applied.some((a, i) => a.version !== i + 1)) {
    problem = storeError(
      'schema-unknown',
      'the recorded migrations are not a prefix 0001, 0002, ...; the file was left untouched',
    );
  }
  const pending = migrations.filter((m) => !appliedSet.has(m.version));
  return { empty: false, applied, pending, changed, problem };
}

/**
 * Applies every pending migration in one IMMEDIATE transaction, recording each with its
 * checksum and setting user_version; rolls back on any failure (the file keeps its schema).
 */
export function applyMigrations(
  db: Database.Database,
  pending: readonly Migration[],
  appliedAt: string,
): void {
  if (pending.length === 0) return;
  const last = pending[pending.length - 1];
  db.exec('BEGIN IMMEDIATE');
  let current: Migration | undefined;
  try {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    INTEGER PRIMARY KEY,
      name       TEXT NOT NULL,
      checksum   TEXT NOT NULL,
      applied_at TEXT NOT NULL
    ) STRICT`);
    const record = db.prepare(
      'INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)',
    );
    for (const m of pending) {
      current = m;
      db.exec(m.sql);
      record.run(m.version, m.name, m.checksum, appliedAt);
    }
    current = undefined;
    const violations = db.pragma('foreign_key_check') as unknown[];
    if (violations.length > 0)
      throw new Error(`foreign_key_check found ${violations.length} violations`);
    db.pragma(`user_version = ${last?.version ?? 0}`);
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    const where = current ? `migration ${pad(current.version)}_${current.name}` : 'migrations';
    const text = error instanceof Error ? error.message : String(error);
    throw new StoreError(
      {
        code: 'migration-failed',
        message: `${where} failed and was rolled back: ${text}`,
        retryable: false,
      },
      { cause: error },
    );
  }
}
