// Recovery from a corrupt database at start (docs/reliability.md): the damaged file is moved
// aside, never deleted or written; the newest backup that passes its checks is restored with
// SQLite's backup API; then every unsent operation still readable in the damaged file is put
// back (operation, effects, holds and outbox row in one transaction each), or, when it cannot
// be, exported to DIR/export/unsent-STAMP.jsonl for support to replay. The report says what
// happened in words the cashier can be shown, and is also kept beside the quarantined file.
//
// Reads of the damaged file are per row and tolerate failures: a damaged page loses the rows
// on it, not the rest.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { stampOf } from './backup.js';
import { classifyStoreError } from './errors.js';
import { inspectSchema, type Migration } from './migrate.js';
import { openStore, resolveMigrations, type OpenStoreOptions, type Store } from './open.js';

export interface RecoveryReport {
  /** Why the file was set aside (the open's failure). */
  readonly reason: string;
  /** DIR/quarantine/STAMP/: the damaged file with its -wal and -shm, untouched. */
  readonly quarantineDir: string;
  /** The backup restored, or null when none was usable (the store starts empty). */
  readonly restoredFrom: string | null;
  /** Backups looked at and passed over, with why. */
  readonly rejectedBackups: ReadonlyArray<{ file: string; reason: string }>;
  /** Unsent operations read from the damaged file and put back (transaction ids). */
  readonly reinserted: readonly string[];
  /** Unsent operations the restored backup already held. */
  readonly alreadyPresent: number;
  /** Unsent operations read but not put back: written to `exportFile`. */
  readonly exported: number;
  readonly exportFile: string | null;
  /** Outbox rows of the damaged file that could not be read at all. */
  readonly unreadableRows: number;
  /** True when the damaged file could not be read at all (its unsent rows are unknown). */
  readonly unreadableFile: boolean;
  /**
   * True when the damaged file's outbox could not be walked whole: rows on its damaged pages
   * are not even known by id, so unsent operations newer than the backup may be missing.
   */
  readonly outboxDamaged: boolean;
  /** Bank-card journal rows put back (an `inprocess` operation must still be reconciled). */
  readonly paymentsReinserted: number;
  /** The ledger's own check after recovery (empty when whole). */
  readonly ledgerProblems: ReadonlyArray<{ problem: string; ids: string[] }>;
  /** What to tell the cashier. */
  readonly message: string;
}

export interface RecoveryOptions extends OpenStoreOptions {
  /** Where damaged files go (default DIR/quarantine/). */
  readonly quarantineDir?: string;
  /** Where unsent operations that cannot be put back are written (default DIR/export/). */
  readonly exportDir?: string;
  /**
   * Also run `PRAGMA quick_check` before opening, so damage the open itself would not notice
   * (a broken page of a table) is caught at start. Costs a read of the whole file.
   */
  readonly verifyAtStart?: boolean;
  /**
   * Ids for the attention item a recovery puts on the list (noteRecovery). Noted before the
   * report is written, so a kill in between resumes the recovery and notes it again.
   */
  readonly attentionId?: () => string;
}

export interface OpenedWithRecovery {
  readonly store: Store;
  /** Null when the file opened normally. */
  readonly recovery: RecoveryReport | null;
}

const SIDE_FILES = ['-wal', '-shm', '-journal'] as const;
const UNSENT = new Set(['queued', 'sending']);
/**
 * Tables copied row by row when the restored file lacks a row (bank-card state, answers, the
 * till's own records), in this order. A row is named by its primary key, or by `key` for the
 * failure logs: their ids are rowids a prune reuses, so the same id can be another failure;
 * there every failure the damaged file holds and the restored one lacks is copied (a right PIN
 * or sign-in made after the backup may so bring back older failures: erring towards a lock).
 */
// online_attempt: a sale sent online first and never recorded must still be voided at start
// (sync.md, "Online attempts"); a backup taken before it would otherwise forget it.
// pin_failure, signin_failure: a restore must not reset a PIN or sign-in lockout.
// shift before cash_prepay: a prepay names its shift.
const COPY_MISSING: ReadonlyArray<{ table: string; key?: readonly string[] }> = [
  { table: 'payment_journal' },
  { table: 'command_result' },
  { table: 'online_attempt' },
  { table: 'cash_tender' },
  { table: 'shift' },
  { table: 'cash_prepay' },
  { table: 'pin_failure', key: ['target', 'at'] },
  { table: 'signin_failure', key: ['at'] },
];
/** A shift's columns its close sets (0003). */
const SHIFT_CLOSE = ['closed_at', 'closed_by', 'closed_by_name', 'counted_cash', 'last_seq'];
/** Ids probed past the last readable one when the outbox's own index cannot be walked. */
const PROBE_SPAN = 10_000;
/** The rowid's name in a walk of the damaged file (no table of ours has such a column). */
const ROWID = '__recovery_rowid';

type Row = Record<string, unknown>;

/** A quoted SQL identifier: names here come from the schema, never from a sale's data. */
const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;

class CorruptAtStart extends Error {}

function quickCheck(file: string): string | null {
  if (!existsSync(file) || statSync(file).size === 0) return null;
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const rows = db.pragma('quick_check(1)') as Array<{ quick_check: string }>;
    return rows[0]?.quick_check === 'ok' ? null : (rows[0]?.quick_check ?? 'quick_check failed');
  } catch (error) {
    return classifyStoreError(error).code === 'corrupt' ? classifyStoreError(error).message : null;
  } finally {
    db?.close();
  }
}

/**
 * Opens the store; when the file is corrupt, quarantines it, restores the newest usable backup,
 * puts back the unsent operations it can read, and says so in `recovery`. Any other failure
 * (busy, full, a newer schema, ...) is thrown as openStore throws it: those are not damage.
 */
export async function openStoreWithRecovery(options: RecoveryOptions): Promise<OpenedWithRecovery> {
  const cut = unfinishedRecovery(options);
  if (cut !== null) return recover(options, null, cut);
  try {
    if (options.verifyAtStart) {
      const problem = quickCheck(options.file);
      if (problem !== null) throw new CorruptAtStart(problem);
    }
    return { store: await openStore(options), recovery: null };
  } catch (error) {
    const reason =
      error instanceof CorruptAtStart
        ? `quick_check: ${error.message}`
        : classifyStoreError(error).code === 'corrupt'
          ? classifyStoreError(error).message
          : null;
    if (reason === null) throw error;
    return recover(options, reason);
  }
}

/** The attention item's kind for a recovery at start (src/contract/commands.ts, AttentionKind). */
const RECOVERY_ATTENTION_KIND = 'store-recovered';

/**
 * Puts a recovery on the attention list, once (its quarantine directory is its reference): the
 * cashier's screen shows the list's count and the report's message until a manager resolves it.
 */
function noteRecovery(store: Store, r: RecoveryReport, id: string, nowMs: number): void {
  store.attention.note(
    {
      id,
      kind: RECOVERY_ATTENTION_KIND,
      ref: `recovery:${r.quarantineDir}`,
      message: r.message,
      details: {
        reason: r.reason,
        quarantine_dir: r.quarantineDir,
        restored_from: r.restoredFrom,
        rejected_backups: r.rejectedBackups.length,
        reinserted: r.reinserted.length,
        already_present: r.alreadyPresent,
        exported: r.exported,
        export_file: r.exportFile,
        unreadable_rows: r.unreadableRows,
        unreadable_file: r.unreadableFile,
        outbox_damaged: r.outboxDamaged,
        payments_reinserted: r.paymentsReinserted,
        ledger_problems: r.ledgerProblems.length,
      },
    },
    nowMs,
  );
}

/** What a recovery writes first into its quarantine directory, so a resumed one knows why. */
const PROGRESS = 'progress.json';
/** What a recovery writes to PROGRESS before it moves anything: why it started. */
const Progress = z.object({ reason: z.string() });
const REPORT = 'recovery.json';

/**
 * A recovery a kill cut short: a quarantine directory holding a damaged file but no report.
 * The next start resumes it, before anything opens the store: otherwise the till would start
 * on an empty file (the damaged one already moved) or a half-filled one, and say nothing.
 */
function unfinishedRecovery(options: RecoveryOptions): string | null {
  const root = options.quarantineDir ?? join(dirname(options.file), 'quarantine');
  if (!existsSync(root)) return null;
  for (const stamp of readdirSync(root).sort().reverse()) {
    const dir = join(root, stamp);
    if (existsSync(join(dir, basename(options.file))) && !existsSync(join(dir, REPORT))) return dir;
  }
  return null;
}

/**
 * Resuming: side files of the damaged file the kill left behind join it; a restored copy the
 * kill left half-filled (derived from a backup and the damaged file, never served) is removed,
 * to be restored and filled again from the start.
 */
function prepareResume(file: string, damaged: string): void {
  if (existsSync(file)) {
    for (const suffix of ['', ...SIDE_FILES]) rmSync(file + suffix, { force: true });
    return;
  }
  for (const suffix of SIDE_FILES)
    if (existsSync(file + suffix) && !existsSync(damaged + suffix))
      renameSync(file + suffix, damaged + suffix);
}

function savedReason(dir: string): string {
  try {
    const saved = Progress.safeParse(JSON.parse(readFileSync(join(dir, PROGRESS), 'utf8')));
    if (saved.success) return `${saved.data.reason} (resumed after a stop)`;
  } catch {
    // The kill came before the reason was written.
  }
  return 'a recovery was cut short by a stop, and resumed';
}

/** Moves the file and its side files to a new quarantine directory; returns the new path. */
function quarantine(file: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const moved = join(dir, basename(file));
  renameSync(file, moved);
  for (const suffix of SIDE_FILES)
    if (existsSync(file + suffix)) renameSync(file + suffix, moved + suffix);
  return moved;
}

interface Candidate {
  readonly file: string;
  readonly mtimeMs: number;
}

function backupCandidates(dir: string): Candidate[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sqlite'))
    .map((f) => ({ file: join(dir, f), mtimeMs: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs || b.file.localeCompare(a.file));
}

/** Why a backup cannot be restored, or null when it can (whole, and a schema this app opens). */
function backupProblem(file: string, migrations: readonly Migration[]): string | null {
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const integrity = (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map(
      (r) => r.integrity_check,
    );
    if (integrity.length !== 1 || integrity[0] !== 'ok')
      return `integrity_check: ${integrity.slice(0, 3).join('; ')}`;
    const schema = inspectSchema(db, migrations);
    if (schema.problem) return schema.problem.message;
    if (schema.empty) return 'an empty database';
    return null;
  } catch (error) {
    return classifyStoreError(error).message;
  } finally {
    db?.close();
  }
}

/** Copies `from` to `to` with the backup API (a temp name, then renamed). */
async function restoreCopy(from: string, to: string): Promise<void> {
  const temp = `${to}.restoring`;
  rmSync(temp, { force: true });
  const src = new Database(from, { readonly: true, fileMustExist: true });
  try {
    await src.backup(temp);
  } finally {
    src.close();
  }
  renameSync(temp, to);
}

/** One table that references ledger_operation, and the column that does. */
interface Child {
  readonly table: string;
  readonly column: string;
}

function tableColumns(
  db: Database.Database,
  table: string,
): Map<string, { pk: boolean; type: string }> {
  const rows = db.pragma(`table_info(${q(table)})`) as Array<{
    name: string;
    type: string;
    pk: number;
  }>;
  return new Map(rows.map((r) => [r.name, { pk: r.pk > 0, type: r.type.toUpperCase() }]));
}

/** The INTEGER PRIMARY KEY alias of a table (a rowid the restored file assigns anew), if any. */
function rowidAlias(cols: Map<string, { pk: boolean; type: string }>): string | null {
  const pks = [...cols].filter(([, c]) => c.pk);
  return pks.length === 1 && pks[0]?.[1].type === 'INTEGER' ? (pks[0]?.[0] ?? null) : null;
}

function childrenOf(db: Database.Database): Child[] {
  const tables = db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all()
    .map((r) => r.name);
  const out: Child[] = [];
  for (const table of tables) {
    const fks = db.pragma(`foreign_key_list(${q(table)})`) as Array<{
      table: string;
      from: string;
    }>;
    for (const fk of fks) if (fk.table === 'ledger_operation') out.push({ table, column: fk.from });
  }
  // The outbox row last: it is what makes the operation due.
  return out.sort((a, b) => Number(a.table === 'outbox') - Number(b.table === 'outbox'));
}

/** Reads from the damaged file; every read may fail on its own. */
class DamagedReader {
  readonly db: Database.Database;
  private readonly cache = new Map<string, Database.Statement>();
  constructor(db: Database.Database) {
    this.db = db;
  }

  private stmt(sql: string): Database.Statement {
    let s = this.cache.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.cache.set(sql, s);
    }
    return s;
  }

  hasTable(name: string): boolean {
    try {
      return (
        this.stmt("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !==
        undefined
      );
    } catch {
      return false;
    }
  }

  /** Outbox ids: walked in order while the table's pages read, then probed one by one. */
  outboxIds(probeFrom: number): { ids: number[]; failedWalk: boolean } {
    const ids: number[] = [];
    let failedWalk = false;
    try {
      for (const r of this.stmt('SELECT id FROM outbox ORDER BY id').iterate() as Iterable<{
        id: number;
      }>)
        ids.push(r.id);
      return { ids, failedWalk };
    } catch {
      failedWalk = true;
    }
    // The walk is in id order: everything up to the last id it gave is known.
    const start = (ids[ids.length - 1] ?? 0) + 1;
    const end = Math.max(probeFrom, start) + PROBE_SPAN;
    const one = this.stmt('SELECT id FROM outbox WHERE id = ?');
    for (let id = start; id <= end; id++) {
      try {
        if (one.get(id) !== undefined) ids.push(id);
      } catch {
        // A damaged page: the id is unknown; counted when its row is read.
      }
    }
    return { ids, failedWalk };
  }

  row(table: string, column: string, value: unknown): Row | undefined {
    return this.stmt(`SELECT * FROM ${q(table)} WHERE ${q(column)} = ?`).get(value) as
      Row | undefined;
  }

  rows(table: string, column: string, value: unknown): Row[] {
    return this.stmt(`SELECT * FROM ${q(table)} WHERE ${q(column)} = ?`).all(value) as Row[];
  }

  /**
   * Every row of a table that reads, in rowid order. When a damaged page stops the walk, it
   * goes on from the next rowid that a seek can reach: the rows of that page are lost, not
   * the rest. Gives up after PROBE_SPAN rowids in a row that no seek reaches.
   */
  allRows(table: string): Row[] {
    const out: Row[] = [];
    let from: Database.Statement;
    try {
      from = this.stmt(
        `SELECT rowid AS ${q(ROWID)}, * FROM ${q(table)} WHERE rowid >= ? ORDER BY rowid`,
      );
    } catch {
      // No rowid to walk by (a WITHOUT ROWID table), or a schema that does not read.
      return [];
    }
    let next: number | null = Number.MIN_SAFE_INTEGER;
    let misses = 0;
    while (next !== null && misses <= PROBE_SPAN) {
      const start: number = next;
      let got = false;
      try {
        for (const r of from.iterate(start) as Iterable<Row>) {
          const { [ROWID]: rowid, ...row } = r;
          out.push(row);
          next = Number(rowid) + 1;
          got = true;
        }
        next = null;
      } catch {
        // The first failed seek starts from 1 (rowids are assigned from 1); a seek that gave
        // rows resumes past them; one that gave none tries the next rowid.
        if (!got) next = start === Number.MIN_SAFE_INTEGER ? 1 : start + 1;
        misses = got ? 0 : misses + 1;
      }
    }
    return out;
  }

  close(): void {
    this.db.close();
  }
}

interface Bundle {
  readonly outbox: Row;
  readonly operation: Row | null;
  readonly children: ReadonlyArray<{ table: string; rows: Row[] }>;
  readonly readError: string | null;
}

function readBundle(reader: DamagedReader, outbox: Row, children: readonly Child[]): Bundle {
  const id = outbox.transaction_id;
  try {
    const operation = reader.row('ledger_operation', 'id', id) ?? null;
    if (!operation) return { outbox, operation: null, children: [], readError: 'no operation row' };
    const rows = children
      .filter((c) => c.table !== 'outbox' && reader.hasTable(c.table))
      .map((c) => ({ table: c.table, rows: reader.rows(c.table, c.column, id) }));
    return { outbox, operation, children: rows, readError: null };
  } catch (error) {
    return { outbox, operation: null, children: [], readError: classifyStoreError(error).message };
  }
}

/** Writes into the restored file: one transaction per operation, or nothing of it. */
class RestoredWriter {
  readonly db: Database.Database;
  private readonly columns = new Map<string, Map<string, { pk: boolean; type: string }>>();
  constructor(db: Database.Database) {
    this.db = db;
  }

  private cols(table: string) {
    let c = this.columns.get(table);
    if (!c) {
      c = tableColumns(this.db, table);
      this.columns.set(table, c);
    }
    return c;
  }

  insert(table: string, row: Row, orIgnore = false): number {
    const cols = this.cols(table);
    const alias = rowidAlias(cols);
    // The rowid is assigned anew (the restored file may use the old one); the rest is kept.
    const names = Object.keys(row).filter((k) => cols.has(k) && k !== alias);
    const sql = `INSERT ${orIgnore ? 'OR IGNORE ' : ''}INTO ${q(table)} (${names.map(q).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`;
    return this.db.prepare(sql).run(...names.map((n) => row[n])).changes;
  }

  has(table: string, column: string, value: unknown): boolean {
    return (
      this.db.prepare(`SELECT 1 FROM ${q(table)} WHERE ${q(column)} = ?`).get(value) !== undefined
    );
  }

  primaryKey(table: string): string[] {
    return [...this.cols(table)].filter(([, c]) => c.pk).map(([n]) => n);
  }

  hasTable(name: string): boolean {
    return (
      this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !==
      undefined
    );
  }

  hasRow(table: string, row: Row): boolean {
    const pk = this.primaryKey(table);
    if (pk.length === 0) return false;
    const where = pk.map((c) => `${q(c)} = ?`).join(' AND ');
    return (
      this.db.prepare(`SELECT 1 FROM ${q(table)} WHERE ${where}`).get(...pk.map((c) => row[c])) !==
      undefined
    );
  }

  countWhere(table: string, columns: readonly string[], row: Row): number {
    const where = columns.map((c) => `${q(c)} = ?`).join(' AND ');
    return (
      this.db
        .prepare<unknown[], { n: number }>(`SELECT count(*) AS n FROM ${q(table)} WHERE ${where}`)
        .get(...columns.map((c) => row[c]))?.n ?? 0
    );
  }

  /** A shift the backup has open and the damaged file closed is closed as it was. */
  closeShift(row: Row): void {
    if (row.closed_at === null || row.closed_at === undefined) return;
    this.db
      .prepare(
        `UPDATE shift SET closed_at = ?, closed_by = ?, closed_by_name = ?, counted_cash = ?,
           last_seq = ? WHERE id = ? AND closed_at IS NULL`,
      )
      .run(...SHIFT_CLOSE.map((c) => row[c]), row.id);
  }

  putBundle(b: Bundle): void {
    this.db
      .transaction(() => {
        if (!b.operation) throw new Error('no operation');
        this.insert('ledger_operation', b.operation);
        for (const c of b.children) for (const r of c.rows) this.insert(c.table, r);
        this.insert('outbox', { ...b.outbox, status: 'queued' });
        const cancelled = b.children.find((c) => c.table === 'ledger_cancellation')?.rows[0]
          ?.transaction_id;
        // The ledger marks the check a cancellation cancels, in the same transaction.
        if (typeof cancelled === 'string')
          this.db
            .prepare(
              'UPDATE ledger_check SET cancelled_by = ? WHERE operation_id = ? AND cancelled_by IS NULL',
            )
            .run(b.operation.id, cancelled);
        const violations = this.db.pragma('foreign_key_check') as unknown[];
        if (violations.length > 0) throw new Error(`${violations.length} foreign key violations`);
      })
      .immediate();
  }

  /** Moves the provisional coupon counter past what the damaged file had used. */
  raiseCouponSeq(value: unknown, nowMs: number): void {
    const theirs = Number(value);
    if (!Number.isFinite(theirs)) return;
    const mine = this.db
      .prepare<[], { value: string }>("SELECT value FROM sync_state WHERE key = 'next_coupon_seq'")
      .get();
    if (mine && Number(mine.value) >= theirs) return;
    this.db
      .prepare(
        "INSERT INTO sync_state (key, value, updated_at) VALUES ('next_coupon_seq', ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
      )
      .run(String(value), nowMs);
  }

  close(): void {
    this.db.close();
  }
}

function jsonOrText(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/** Copies the rows of one table the restored file lacks; answers how many went in. */
function copyMissing(
  reader: DamagedReader,
  writer: RestoredWriter,
  spec: { table: string; key?: readonly string[] },
): number {
  const { table, key } = spec;
  const seen = new Map<string, number>();
  let copied = 0;
  for (const r of reader.allRows(table)) {
    try {
      if (key) {
        // The n-th damaged row with this key goes in when the restored file has fewer than n.
        const k = JSON.stringify(key.map((c) => r[c]));
        const n = (seen.get(k) ?? 0) + 1;
        seen.set(k, n);
        if (writer.countWhere(table, key, r) >= n) continue;
      } else if (writer.hasRow(table, r)) {
        if (table === 'shift') writer.closeShift(r);
        continue;
      }
      copied += writer.insert(table, r, true);
    } catch {
      // A row that no longer fits is left in the quarantined file for support.
    }
  }
  return table === 'payment_journal' ? copied : 0;
}

function messageOf(r: Omit<RecoveryReport, 'message'>): string {
  const parts = [
    r.restoredFrom
      ? `The terminal's database was damaged; it was set aside and the backup ${basename(r.restoredFrom)} was restored.`
      : "The terminal's database was damaged and no usable backup was found; it was set aside and the terminal starts with an empty database (the data is downloaded again).",
  ];
  if (r.unreadableFile)
    parts.push('The damaged file could not be read: sales not yet sent from it may be missing.');
  if (r.reinserted.length > 0)
    parts.push(`${r.reinserted.length} unsent operation(s) were recovered and will be sent.`);
  if (r.exported > 0)
    parts.push(
      `${r.exported} unsent operation(s) could not be put back and were exported to ${r.exportFile}.`,
    );
  if (r.unreadableRows > 0) parts.push(`${r.unreadableRows} queued row(s) could not be read.`);
  if (r.outboxDamaged && !r.unreadableFile)
    parts.push(
      'Part of the list of unsent operations could not be read: sales made after the backup may be missing.',
    );
  parts.push(`Call support: the damaged file is kept in ${r.quarantineDir}.`);
  return parts.join(' ');
}

/** Recovers; with `resumeDir`, finishes a recovery a kill cut short (its reason is saved). */
async function recover(
  options: RecoveryOptions,
  why: string | null,
  resumeDir?: string,
): Promise<OpenedWithRecovery> {
  const { file, clock } = options;
  const dataDir = dirname(file);
  const stamp = stampOf(clock.now());
  const quarantineDir =
    resumeDir ?? join(options.quarantineDir ?? join(dataDir, 'quarantine'), stamp);
  const backupsDir = options.backupsDir ?? join(dataDir, 'backups');
  const migrations = resolveMigrations(options);
  let damaged: string;
  let reason: string;
  if (resumeDir) {
    damaged = join(resumeDir, basename(file));
    prepareResume(file, damaged);
    reason = why ?? savedReason(resumeDir);
  } else {
    damaged = quarantine(file, quarantineDir);
    reason = why ?? 'damaged';
    writeFileSync(join(quarantineDir, PROGRESS), JSON.stringify({ reason }) + '\n', {
      mode: 0o600,
    });
  }

  const rejectedBackups: Array<{ file: string; reason: string }> = [];
  let restoredFrom: string | null = null;
  for (const c of backupCandidates(backupsDir)) {
    const problem = backupProblem(c.file, migrations);
    if (problem === null) {
      await restoreCopy(c.file, file);
      restoredFrom = c.file;
      break;
    }
    rejectedBackups.push({ file: c.file, reason: problem });
  }

  // Bring the restored copy (or a new file) to this app's schema before anything goes in.
  (await openStore({ ...options, dailyBackup: false })).close();

  const reinserted: string[] = [];
  const exportRows: unknown[] = [];
  let alreadyPresent = 0;
  let unreadableRows = 0;
  let unreadableFile = false;
  let outboxDamaged = false;
  let paymentsReinserted = 0;

  let reader: DamagedReader | null = null;
  try {
    reader = new DamagedReader(new Database(damaged, { readonly: true, fileMustExist: true }));
    if (!reader.hasTable('outbox')) throw new Error('no outbox table can be read');
  } catch {
    reader?.close();
    reader = null;
    unreadableFile = true;
  }

  if (reader) {
    const writer = new RestoredWriter(new Database(file));
    try {
      writer.db.pragma('foreign_keys = ON');
      const children = childrenOf(writer.db);
      const restoredMax =
        writer.db.prepare<[], { m: number | null }>('SELECT max(id) AS m FROM outbox').get()?.m ??
        0;
      const { ids, failedWalk } = reader.outboxIds(restoredMax + 1);
      outboxDamaged = failedWalk;
      for (const id of ids) {
        let row: Row | undefined;
        try {
          row = reader.row('outbox', 'id', id);
        } catch {
          unreadableRows += 1;
          continue;
        }
        if (!row || !UNSENT.has(String(row.status))) continue;
        if (writer.has('ledger_operation', 'id', row.transaction_id)) {
          alreadyPresent += 1;
          continue;
        }
        const bundle = readBundle(reader, row, children);
        let failure = bundle.readError;
        if (failure === null) {
          try {
            writer.putBundle(bundle);
            reinserted.push(String(row.transaction_id));
            continue;
          } catch (error) {
            failure = error instanceof Error ? error.message : String(error);
          }
        }
        exportRows.push({
          transaction_id: row.transaction_id,
          seq: row.seq,
          operation: row.operation,
          payload_version: row.payload_version,
          payload: jsonOrText(row.payload),
          status: row.status,
          created_at: row.created_at,
          why_not_restored: failure,
          ledger: bundle.operation
            ? {
                operation: bundle.operation,
                ...Object.fromEntries(bundle.children.map((c) => [c.table, c.rows])),
              }
            : null,
        });
      }
      try {
        const seq = reader.row('sync_state', 'key', 'next_coupon_seq');
        if (seq) writer.raiseCouponSeq(seq.value, clock.now());
      } catch {
        // Unreadable: the counter of the backup stands; the server renumbers on conflict.
      }
      for (const spec of COPY_MISSING) {
        if (!reader.hasTable(spec.table) || !writer.hasTable(spec.table)) continue;
        paymentsReinserted += copyMissing(reader, writer, spec);
      }
    } finally {
      writer.close();
      reader.close();
    }
  }

  let exportFile: string | null = null;
  if (exportRows.length > 0) {
    const dir = options.exportDir ?? join(dataDir, 'export');
    mkdirSync(dir, { recursive: true });
    exportFile = join(dir, `unsent-${stamp}.jsonl`);
    writeFileSync(exportFile, exportRows.map((r) => JSON.stringify(r)).join('\n') + '\n', {
      mode: 0o600,
    });
  }

  const store = await openStore(options);
  const check = store.check();
  const partial = {
    reason,
    quarantineDir,
    restoredFrom,
    rejectedBackups,
    reinserted,
    alreadyPresent,
    exported: exportRows.length,
    exportFile,
    unreadableRows,
    unreadableFile,
    outboxDamaged,
    paymentsReinserted,
    ledgerProblems: check.ledger,
  };
  const report: RecoveryReport = { ...partial, message: messageOf(partial) };
  if (options.attentionId) noteRecovery(store, report, options.attentionId(), clock.now());
  writeFileSync(join(quarantineDir, REPORT), JSON.stringify(report, null, 2) + '\n', {
    mode: 0o600,
  });
  return { store, recovery: report };
}
