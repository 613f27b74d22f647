// Salvage after a restore (recovery.ts): what the damaged file still holds is put back into
// the restored one. Every unsent operation goes back with its effects, holds and outbox row in
// one transaction each, or is kept for the export; the provisional coupon counter moves past
// what the damaged file used; the till's own records the restored file lacks are copied.
//
// Reads of the damaged file are per row and tolerate failures: a damaged page loses the rows
// on it, not the rest.
import Database from 'better-sqlite3';
import { classifyStoreError } from './errors.js';
const UNSENT = new Set(['queued', 'sending']);
/**
 * Tables copied row by row when the restored file lacks a row (bank-card state, answers, the
 * till's own records), in this order. A row is named by its primary key, or by `key` for the
 * failure logs: their ids are rowids a prune reuses, so the same id can be another failure;
 * there every failure the damaged file holds and the restored one lacks is copied (a right PIN
 * or sign-in made after the backup may so bring back older failures: erring towards a lock).
 */
// online_attempt: a sale sent online first and never recorded must still be voided at start
// (sync.md, "Online attempts"); a backup taken before it would otherwise forget it. So must
// coupon_sale_attempt, queued at start (terminal.md, "Coupon sales").
// pin_failure, signin_failure: a restore must not reset a PIN or sign-in lockout.
// shift before cash_prepay: a prepay names its shift.
const COPY_MISSING: ReadonlyArray<{ table: string; key?: readonly string[] }> = [
  { table: 'payment_journal' },
  { table: 'command_result' },
  { table: 'online_attempt' },
  { table: 'coupon_sale_attempt' },
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
/** What was read back from the damaged file, and what could not be. */
export interface Salvage {
  readonly reinserted: string[];
  readonly exportRows: unknown[];
  alreadyPresent: number;
  unreadableRows: number;
  unreadableFile: boolean;
  outboxDamaged: boolean;
  paymentsReinserted: number;
}

/** The damaged file opened for reading, or null when not even its outbox reads. */
function openDamaged(damaged: string): DamagedReader | null {
  let reader: DamagedReader | null = null;
  try {
    reader = new DamagedReader(new Database(damaged, { readonly: true, fileMustExist: true }));
    if (!reader.hasTable('outbox')) throw new Error('no outbox table can be read');
    return reader;
  } catch {
    reader?.close();
    return null;
  }
}

/** An unsent operation that could not be put back, as support replays it from the export. */
function exportRowOf(row: Row, bundle: Bundle, failure: string | null): unknown {
  return {
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
  };
}

/** Puts back one unsent operation with everything it wrote, or exports it. */
function putBackOne(
  reader: DamagedReader,
  writer: RestoredWriter,
  children: readonly Child[],
  row: Row,
  out: Salvage,
): void {
  if (writer.has('ledger_operation', 'id', row.transaction_id)) {
    out.alreadyPresent += 1;
    return;
  }
  const bundle = readBundle(reader, row, children);
  let failure = bundle.readError;
  if (failure === null) {
    try {
      writer.putBundle(bundle);
      out.reinserted.push(String(row.transaction_id));
      return;
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
  }
  out.exportRows.push(exportRowOf(row, bundle, failure));
}

/** Every unsent operation of the damaged file newer than the restored outbox's rows. */
function putBackUnsent(reader: DamagedReader, writer: RestoredWriter, out: Salvage): void {
  const children = childrenOf(writer.db);
  const restoredMax =
    writer.db.prepare<[], { m: number | null }>('SELECT max(id) AS m FROM outbox').get()?.m ?? 0;
  const { ids, failedWalk } = reader.outboxIds(restoredMax + 1);
  out.outboxDamaged = failedWalk;
  for (const id of ids) {
    let row: Row | undefined;
    try {
      row = reader.row('outbox', 'id', id);
    } catch {
      out.unreadableRows += 1;
      continue;
    }
    if (row && UNSENT.has(String(row.status))) putBackOne(reader, writer, children, row, out);
  }
}

/** Puts back what the damaged file still holds: unsent operations, the counter, till records. */
export function salvage(damaged: string, file: string, nowMs: number): Salvage {
  const out: Salvage = {
    reinserted: [],
    exportRows: [],
    alreadyPresent: 0,
    unreadableRows: 0,
    unreadableFile: false,
    outboxDamaged: false,
    paymentsReinserted: 0,
  };
  const reader = openDamaged(damaged);
  if (!reader) return { ...out, unreadableFile: true };
  const writer = new RestoredWriter(new Database(file));
  try {
    writer.db.pragma('foreign_keys = ON');
    putBackUnsent(reader, writer, out);
    try {
      const seq = reader.row('sync_state', 'key', 'next_coupon_seq');
      if (seq) writer.raiseCouponSeq(seq.value, nowMs);
    } catch {
      // Unreadable: the counter of the backup stands; the server renumbers on conflict.
    }
    for (const spec of COPY_MISSING) {
      if (!reader.hasTable(spec.table) || !writer.hasTable(spec.table)) continue;
      out.paymentsReinserted += copyMissing(reader, writer, spec);
    }
  } finally {
    writer.close();
    reader.close();
  }
  return out;
}
