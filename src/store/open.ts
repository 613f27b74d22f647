// Opening the terminal's database (DIR/terminal.sqlite): refuse a file this app must not touch,
// back it up before migrating, migrate, set the pragmas, and hand back the store as a value.
//
// One writer without locks of our own: the store owns the file's connection, and
// better-sqlite3 is synchronous, so a transaction runs start to end before any other
// JavaScript does; nothing can interleave with it. Writes take BEGIN IMMEDIATE, so a second
// connection (an operator's `db` command, the snapshot writer's thread while a snapshot is
// pulled: snapshot-writer.ts) waits up to the busy timeout instead of failing later.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import {
  backupBeforeMigrate,
  backupTo,
  dailyBackup,
  DEFAULT_RETENTION,
  stampOf,
  type BackupRetention,
} from './backup.js';
import { EngineRule } from '../contract/engine.js';
import { createCache, type EntitySchemas } from './cache.js';
import {
  createContextAssembler,
  type AssembledContext,
  type ContextRequest,
  type RefundRequest,
} from './context.js';
import { pick } from '../contract/wire.js';
import { engineRuleKeys, tables } from './entities.js';
import { ENTITIES, type Entity } from '../contract/feed.js';
import { asStoreError, storeError } from './errors.js';
import { createLedger, type OperationInput, type RecordResult } from './ledger.js';
import {
  applyMigrations,
  findMigrationsDir,
  inspectSchema,
  loadMigrations,
  type Migration,
  type SchemaStatus,
} from './migrate.js';
import { createOutbox, type PayloadSchemas } from './outbox.js';
import { createAttention } from './attention.js';
import { createCardJournal } from './card-journal.js';
import { createCommandResults } from './command-results.js';
import { createOnlineAttempts } from './online-attempts.js';
import { createCouponAttempts } from './coupon-attempts.js';
import { createRefunds } from './refunds.js';
import { createSalesIndex } from './sales-index.js';
import { createCashMovements } from './cash-movements.js';
import { createDrawerOpenings } from './drawer-openings.js';
import { createPumpFills } from './pump-fills.js';
import { createPumpPrices } from './pump-prices.js';
import { createShiftReports } from './shift-reports.js';
import { createTanks } from './tanks.js';
import { createShifts } from './shifts.js';
import { createSigninGuard } from './signin-guard.js';
import { privateDatabaseFile, privateDir } from './private-files.js';
import { rekeyBackups, rekeySecretHashes, type RekeyReport } from './secret-rekey.js';
import { plainSecretHashes, type SecretHashes } from '../secret-hash/index.js';
import { createPinGuard } from './pin-guard.js';
import { createRuleSet, type RuleValidator } from './rules.js';
import {
  createSyncState,
  type PageInput,
  type PageResult,
  type SnapshotStager,
  type StagedPageInput,
} from './sync-state.js';
import type { PlannedPage, TableShape, TableShapes } from './feed-writes.js';
import { SnapshotWriter } from './snapshot-writer.js';

/** The store's clock port: epoch milliseconds. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface OpenStoreOptions {
  /** DIR/terminal.sqlite, or the `--db FILE` override. */
  readonly file: string;
  readonly clock: Clock;
  /** The shipped migrations; default: `migrations/` found beside the package root. */
  readonly migrationsDir?: string;
  /** The migrations themselves (tests pass a prefix to build an earlier schema). */
  readonly migrations?: readonly Migration[];
  /** Default: `backups/` beside the database file (DIR/backups/). */
  readonly backupsDir?: string;
  /** Take today's rotating copy when it is missing (default true). */
  readonly dailyBackup?: boolean;
  readonly retention?: BackupRetention;
  /** How long a write waits for another process's lock (default 5 s). */
  readonly busyTimeoutMs?: number;
  /** Stricter schemas per change-feed entity (the contract's), on top of the store's own. */
  readonly entitySchemas?: EntitySchemas;
  /** Schemas to validate stored outbox payloads again when read. */
  readonly payloadSchemas?: PayloadSchemas;
  /** How a stored rule becomes an engine rule (default: the engine contract's EngineRule). */
  readonly ruleValidator?: RuleValidator<EngineRule>;
  /**
   * How cached hashes of auth codes and PINs are kept and checked: keyed with the terminal's
   * secret (docs/store.md, "Secrets in the cache"); default: as the feed sends them.
   */
  readonly secretHashes?: SecretHashes;
}

/** Stored rules carry fields the engine does not know (the server may add some): pick, then check. */
const engineRuleValidator: RuleValidator<EngineRule> = (data) => {
  const r = EngineRule.safeParse(pick(data as Record<string, unknown>, engineRuleKeys));
  if (r.success) return { ok: true, rule: r.data };
  const issue = r.error.issues[0];
  return {
    ok: false,
    error: `${issue?.path.join('.') || '(rule)'}: ${issue?.message ?? 'invalid'}`,
  };
};

export interface CheckReport {
  readonly ok: boolean;
  /** PRAGMA integrity_check: ['ok'] when whole. */
  readonly integrity: readonly string[];
  readonly foreignKeyViolations: number;
  readonly ledger: ReadonlyArray<{ problem: string; ids: string[] }>;
}

// journal_size_limit: a WAL grown by a big snapshot swap is truncated after its checkpoint.
/** What every connection to the file sets for itself (the snapshot writer's thread too). */
const CONNECTION_PRAGMAS = ['foreign_keys = ON', 'journal_size_limit = 67108864'] as const;

const PRAGMAS = ['journal_mode = WAL', 'synchronous = FULL', ...CONNECTION_PRAGMAS] as const;

/** How long a write waits for another connection's lock before it fails `busy`. */
const BUSY_TIMEOUT_MS = 5_000;

function openConnection(file: string, busyTimeoutMs: number, readonly = false): Database.Database {
  try {
    return new Database(file, { timeout: busyTimeoutMs, readonly, fileMustExist: readonly });
  } catch (error) {
    throw asStoreError(error);
  }
}

/** Reads what the file records, without writing a byte (also for `db status`). */
export function inspectFile(
  file: string,
  migrations: readonly Migration[],
  busyTimeoutMs = BUSY_TIMEOUT_MS,
): SchemaStatus {
  if (!existsSync(file) || statSync(file).size === 0) {
    return { empty: true, applied: [], pending: migrations, changed: [], problem: null };
  }
  const db = openConnection(file, busyTimeoutMs);
  try {
    return inspectSchema(db, migrations);
  } catch (error) {
    throw asStoreError(error);
  } finally {
    db.close();
  }
}

export function resolveMigrations(options: {
  migrations?: readonly Migration[];
  migrationsDir?: string;
}): readonly Migration[] {
  return options.migrations ?? loadMigrations(options.migrationsDir ?? findMigrationsDir());
}

/**
 * Opens (creating or migrating) the terminal's database and returns the store. Refuses, with
 * the file untouched, a tampered or newer database. Before migrating an existing file it takes
 * a backup; then it applies every pending migration in one transaction.
 */
export async function openStore(options: OpenStoreOptions) {
  const { file, clock } = options;
  const busyTimeoutMs = options.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
  const backupsDir = options.backupsDir ?? join(dirname(file), 'backups');
  const retention = options.retention ?? DEFAULT_RETENTION;
  const migrations = resolveMigrations(options);
  // A new directory is made 0700; an existing one is the caller's (a `--db` elsewhere).
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  privateDatabaseFile(file);

  const db = openConnection(file, busyTimeoutMs);
  let status: SchemaStatus;
  try {
    // Nothing is written before these checks pass: no pragma that changes the file, no table.
    status = inspectSchema(db, migrations);
    if (status.problem) throw status.problem;
    if (status.pending.length > 0 && status.applied.length > 0) {
      const from = status.applied[status.applied.length - 1]?.version ?? 0;
      await backupBeforeMigrate(db, backupsDir, from, migrations.length, clock.now(), retention);
    }
    for (const p of PRAGMAS) db.pragma(p);
    const mode = db.pragma('journal_mode', { simple: true });
    if (mode !== 'wal')
      throw storeError(
        'other',
        `the database could not switch to WAL (journal_mode is ${String(mode)})`,
      );
    applyMigrations(db, status.pending, new Date(clock.now()).toISOString());
  } catch (error) {
    db.close();
    throw asStoreError(error);
  }

  const store = buildStore(db, { ...options, backupsDir, retention, migrations });
  if (store.hasTable('outbox')) store.outbox.resetSending(clock.now());
  store.rekeyed = rekeySecretHashes(db, store.secretHashes);
  // The upgrade: the copies taken before it (the pre-migrate one of this very open too).
  if (store.rekeyed.rekeyed > 0) rekeyBackups(backupsDir, store.secretHashes);
  // Hashes keyed with a lost secret verify nothing: the next pull fetches them afresh.
  if (store.rekeyed.foreign > 0) store.sync.resetCursor(clock.now());
  if (options.dailyBackup ?? true) {
    try {
      await store.dailyBackup();
    } catch (error) {
      // A failed copy must not stop the till from selling; the next start tries again.
      void error;
    }
  }
  return store;
}

type BuildOptions = OpenStoreOptions & {
  backupsDir: string;
  retention: BackupRetention;
  migrations: readonly Migration[];
};

/** A value made on first use, then kept. */
const lazy = <T>(make: () => T): (() => T) => {
  let value: T | undefined;
  return () => (value ??= make());
};

/**
 * The store's modules, each made on first use: a module prepares its statements when made, so
 * a file at an earlier schema (a test building schema N-1, an operator's `db status`) opens
 * without the later tables.
 */
function storeModules(db: Database.Database, options: BuildOptions) {
  const rules = createRuleSet<EngineRule>(db, options.ruleValidator ?? engineRuleValidator);
  const secretHashes = options.secretHashes ?? plainSecretHashes;
  const cacheOf = lazy(() =>
    createCache(db, {
      entitySchemas: options.entitySchemas,
      onRulesChanged: () => rules.invalidate(),
      wrapHash: (h) => secretHashes.wrap(h),
    }),
  );
  const outboxOf = lazy(() => createOutbox(db, { payloadSchemas: options.payloadSchemas }));
  const ledgerOf = lazy(() => createLedger(db, outboxOf()));
  const read = <T>(fn: () => T): T => db.transaction(fn).deferred();
  return {
    rules,
    secretHashes,
    read,
    cacheOf,
    outboxOf,
    ledgerOf,
    syncOf: lazy(() => createSyncState(db, cacheOf(), ledgerOf)),
    contextOf: lazy(() =>
      createContextAssembler({ cache: cacheOf, ledger: ledgerOf, rules, read }),
    ),
    // The till's own records (0003).
    shiftsOf: lazy(() => createShifts(db)),
    signinOf: lazy(() => createSigninGuard(db)),
    pinsOf: lazy(() => createPinGuard(db)),
    attentionOf: lazy(() => createAttention(db)),
    resultsOf: lazy(() => createCommandResults(db)),
    attemptsOf: lazy(() => createOnlineAttempts(db)),
    couponAttemptsOf: lazy(() => createCouponAttempts(db)),
    cardJournalOf: lazy(() => createCardJournal(db)),
    refundsOf: lazy(() => createRefunds(db)),
    salesOf: lazy(() => createSalesIndex(db)),
    cashMovesOf: lazy(() => createCashMovements(db)),
    drawerOf: lazy(() => createDrawerOpenings(db)),
    fillsOf: lazy(() => createPumpFills(db)),
    shiftReportsOf: lazy(() => createShiftReports(db)),
    tanksOf: lazy(() => createTanks(db)),
    pumpPricesOf: lazy(() => createPumpPrices(db)),
  };
}

/** PRAGMA integrity_check (['ok'] when whole) and the number of foreign key violations. */
function integrityOf(db: Database.Database): {
  integrity: string[];
  foreignKeyViolations: number;
} {
  const integrity = (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map(
    (r) => r.integrity_check,
  );
  return { integrity, foreignKeyViolations: (db.pragma('foreign_key_check') as unknown[]).length };
}

/** Whether a check found the file whole. */
const whole = (r: Omit<CheckReport, 'ok'>): boolean =>
  r.integrity.length === 1 &&
  r.integrity[0] === 'ok' &&
  r.foreignKeyViolations === 0 &&
  r.ledger.length === 0;

/** The pragmas in force (for `db status` and tests). */
function pragmasOf(db: Database.Database): {
  journalMode: string;
  synchronous: number;
  foreignKeys: number;
  busyTimeout: number;
  walAutocheckpoint: number;
} {
  return {
    journalMode: db.pragma('journal_mode', { simple: true }) as string,
    synchronous: db.pragma('synchronous', { simple: true }) as number,
    foreignKeys: db.pragma('foreign_keys', { simple: true }) as number,
    busyTimeout: db.pragma('busy_timeout', { simple: true }) as number,
    walAutocheckpoint: db.pragma('wal_autocheckpoint', { simple: true }) as number,
  };
}

/** The cache tables' names and lookup columns, as a thread is sent them (no functions). */
function tableShapes(): TableShapes {
  const shapes = {} as Record<Entity, TableShape>;
  for (const e of ENTITIES) shapes[e] = { table: tables[e].table, columns: [...tables[e].columns] };
  return shapes;
}

function buildStore(db: Database.Database, options: BuildOptions) {
  const { clock } = options;
  const m = storeModules(db, options);
  let closed = false;
  const tableNames = db.prepare<[string], { name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?",
  );
  const hasTable = (name: string): boolean => tableNames.get(name) !== undefined;

  return {
    file: options.file,
    backupsDir: options.backupsDir,
    clock,
    get cache() {
      return m.cacheOf();
    },
    get ledger() {
      return m.ledgerOf();
    },
    get outbox() {
      // The ledger wires the outbox's confirm/reject hooks; build it first.
      return m.ledgerOf() && m.outboxOf();
    },
    get sync() {
      return m.syncOf();
    },
    get shifts() {
      return m.shiftsOf();
    },
    get signin() {
      return m.signinOf();
    },
    /** Wrong special-account and corporate-access PINs per target (0006). */
    get pins() {
      return m.pinsOf();
    },
    get attention() {
      return m.attentionOf();
    },
    get commandResults() {
      return m.resultsOf();
    },
    /** Online-first sales sent and not yet recorded (0005). */
    get onlineAttempts() {
      return m.attemptsOf();
    },
    /** Coupon sales sent and not yet recorded (0017). */
    get couponAttempts() {
      return m.couponAttemptsOf();
    },
    /** The payment flow's view of the payment journal (phases, receipts). */
    get cardJournal() {
      return m.cardJournalOf();
    },
    /** Refunds recorded against a sale. */
    get refunds() {
      return m.refundsOf();
    },
    /** Recorded sales, newest first (sales-recent). */
    get salesIndex() {
      return m.salesOf();
    },
    /** Cash paid into or out of the drawer outside a sale (0008). */
    get cashMovements() {
      return m.cashMovesOf();
    },
    /** The cash drawer opened on request (0009). */
    get drawerOpenings() {
      return m.drawerOf();
    },
    /** Shift reports kept: X reports printed, Z reports of closes (0009). */
    get shiftReports() {
      return m.shiftReportsOf();
    },
    /** The forecourt's fills, kept until sold or recorded as drive-offs (0010). */
    get pumpFills() {
      return m.fillsOf();
    },
    /** Tank readings, deliveries and kept wet-stock reports (0011). */
    get tanks() {
      return m.tanksOf();
    },
    /** Price updates sent to the pumps, and totalizers read at shift open and close (0012). */
    get pumpPrices() {
      return m.pumpPricesOf();
    },
    rules: m.rules,
    /** How cached auth-code and PIN hashes are kept and checked (keyed or as sent). */
    secretHashes: m.secretHashes,
    /** What the start-up step did to hashes an older cache held unkeyed. */
    rekeyed: { rekeyed: 0, foreign: 0 } as RekeyReport,
    /** Records an operation with its effects and outbox row (ledger.record) at the clock's now. */
    record(op: OperationInput): RecordResult {
      return m.ledgerOf().record(op, clock.now());
    },
    /** Applies one page of the change feed (sync-state.applyPage); rules reload after it. */
    applyPage(page: PageInput): PageResult {
      return m.syncOf().applyPage(page, clock.now(), () => m.rules.reload());
    },
    /**
     * Starts a thread that stages snapshot pages on its own connection while this one checks
     * the next (snapshot-writer.ts); the last page, with the swap, goes through `applyPage`.
     * Null when the thread cannot start: the caller stages on this connection instead.
     */
    async openSnapshotStager(): Promise<SnapshotStager | null> {
      const writer = new SnapshotWriter({
        file: options.file,
        busyTimeoutMs: options.busyTimeoutMs ?? BUSY_TIMEOUT_MS,
        pragmas: CONNECTION_PRAGMAS,
        shapes: tableShapes(),
      });
      // Its commits touch no live table: the till's catalogue need not reread meanwhile.
      const release = m.cacheOf().holdPosVersion();
      const close = async (): Promise<void> => {
        await writer.close();
        release();
      };
      if (!(await writer.ready)) {
        await close();
        return null;
      }
      return {
        stage(page: StagedPageInput): PlannedPage {
          const nowMs = clock.now();
          return writer.stage(
            { cursor: page.cursor, requestedAt: page.requestedAt, nowMs },
            (emit) => m.cacheOf().planSnapshotPage(page.changes, nowMs, emit),
          );
        },
        drain: (pages?: number) => writer.drain(pages),
        close,
      };
    },
    /** Runs `fn` in one read transaction: every read inside sees the same snapshot. */
    read: m.read,
    /**
     * Runs `fn` in one IMMEDIATE write transaction: one commit (one fsync) for all its writes,
     * the write lock taken up front so no upgrade can fail half-way (bulk seeding, the outbox
     * pusher's chunks, a record with the end of its online attempt).
     */
    write<T>(fn: () => T): T {
      return db.transaction(fn).immediate();
    },
    /** The engine's context for a check, in one read transaction (context.ts). */
    assembleContext(req: ContextRequest): AssembledContext {
      return m.contextOf().assemble(req, clock.now());
    },
    /** The engine's context to refund or cancel a check this terminal stored. */
    assembleRefund(req: RefundRequest): AssembledContext | null {
      return m.contextOf().assembleRefund(req, clock.now());
    },
    /** The applied and pending migrations. */
    schema(): SchemaStatus {
      return inspectSchema(db, options.migrations);
    },
    /** A consistent copy at `dest` (default DIR/backups/manual-STAMP.sqlite). */
    async backup(dest?: string): Promise<string> {
      privateDir(options.backupsDir);
      return backupTo(
        db,
        dest ?? join(options.backupsDir, `manual-${stampOf(clock.now())}.sqlite`),
      );
    },
    /** Today's rotating copy when missing; null when it exists. */
    async dailyBackup(): Promise<string | null> {
      return dailyBackup(db, options.backupsDir, clock.now(), options.retention);
    },
    /** True when the schema holds this table (an earlier schema may not). */
    hasTable,
    /** Integrity check, foreign keys and the ledger's invariants. */
    check(): CheckReport {
      const found = integrityOf(db);
      const ledger = hasTable('ledger_operation') ? m.ledgerOf().verify() : [];
      return { ok: whole({ ...found, ledger }), ...found, ledger };
    },
    pragmas: () => pragmasOf(db),
    get closed(): boolean {
      return closed;
    },
    close(): void {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}

export type Store = ReturnType<typeof buildStore>;

/**
 * Checks a file without migrating it (`db check`): integrity and foreign keys always, the
 * ledger's invariants when the schema is the app's own. Writes nothing.
 */
export function checkFile(
  file: string,
  migrations: readonly Migration[],
): { schema: SchemaStatus; report: CheckReport } {
  if (!existsSync(file)) throw storeError('cannot-open', `no database at ${file}`);
  const db = openConnection(file, BUSY_TIMEOUT_MS);
  try {
    const schema = inspectSchema(db, migrations);
    const found = integrityOf(db);
    const current = !schema.problem && schema.pending.length === 0 && !schema.empty;
    const ledger = current ? createLedger(db, createOutbox(db, {})).verify() : [];
    return { schema, report: { ok: whole({ ...found, ledger }), ...found, ledger } };
  } catch (error) {
    throw asStoreError(error);
  } finally {
    db.close();
  }
}

/** Copies a file with the backup API without opening it as a store (no migration): `db backup`. */
export async function backupFile(file: string, dest: string): Promise<string> {
  if (!existsSync(file)) throw storeError('cannot-open', `no database at ${file}`);
  const db = openConnection(file, BUSY_TIMEOUT_MS);
  try {
    mkdirSync(dirname(dest), { recursive: true });
    return await backupTo(db, dest);
  } catch (error) {
    throw asStoreError(error);
  } finally {
    db.close();
  }
}

/**
 * The bench's baseline (bench/store.ts): a separate file under the same pragmas with one
 * two-column table, and a function that commits two rows in one transaction.
 */
export function openBaseline(file: string): {
  insertTwo(a: string, b: string): void;
  close(): void;
} {
  const db = openConnection(file, BUSY_TIMEOUT_MS);
  for (const p of PRAGMAS) db.pragma(p);
  db.exec('CREATE TABLE IF NOT EXISTS bare (id INTEGER PRIMARY KEY, v TEXT NOT NULL) STRICT');
  const insert = db.prepare('INSERT INTO bare (v) VALUES (?)');
  const two = db.transaction((a: string, b: string) => {
    insert.run(a);
    insert.run(b);
  });
  return { insertTwo: (a, b) => two.immediate(a, b), close: () => db.close() };
}
