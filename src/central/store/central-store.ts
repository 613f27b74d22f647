// The sandbox central service's SQLite: records and their change feed, the idempotency
// store, processed transactions, account usage, terminals and tokens. The only SQL of the
// sandbox; the service above it speaks in records and rows.
import Database from 'better-sqlite3';
import { CENTRAL_SCHEMA, CENTRAL_SCHEMA_VERSION } from './schema.js';

export interface RecordRow {
  entity: string;
  id: string;
  /** The record as JSON text; null for a tombstone. */
  data: string | null;
  deleted: 0 | 1;
  seq: number;
}

export interface SnapshotRow extends RecordRow {
  rowid: number;
}

export interface IdempotencyRow {
  key: string;
  terminal_id: string;
  operation: string;
  body_hash: string;
  status: number;
  response: string;
  created: string;
}

export interface TransactionRow {
  n: number;
  transaction_id: string;
  terminal_id: string;
  operation: string;
  customer_id: string | null;
  subtype: string | null;
  body: string;
  cancelled: 0 | 1;
  created: string;
}

export interface TerminalRow {
  id: string;
  api_key_hash: string;
  business_id: string;
  pos_id: string;
  loyalty_id: string;
}

export interface TokenRow {
  token: string;
  terminal_id: string;
  staff_id: string | null;
  expires_ms: number;
}

type Statements = ReturnType<typeof prepare>;

function prepare(db: Database.Database) {
  const s = (sql: string) => db.prepare(sql);
  return {
    getRecord: s('SELECT entity, id, data, deleted, seq FROM records WHERE entity = ? AND id = ?'),
    upsert: s(
      `INSERT INTO records (entity, id, data, deleted, seq) VALUES (?, ?, ?, 0, ?)
       ON CONFLICT (entity, id) DO UPDATE SET data = excluded.data, deleted = 0, seq = excluded.seq`,
    ),
    remove: s('UPDATE records SET data = NULL, deleted = 1, seq = ? WHERE entity = ? AND id = ?'),
    byEntity: s('SELECT data FROM records WHERE entity = ? AND deleted = 0 ORDER BY rowid'),
    byField: s(
      `SELECT data FROM records WHERE entity = ? AND deleted = 0
       AND json_extract(data, '$.' || ?) = ? ORDER BY rowid`,
    ),
    snapshot: s(
      `SELECT rowid, entity, id, data, deleted, seq FROM records
       WHERE rowid > ? AND deleted = 0 ORDER BY rowid LIMIT ?`,
    ),
    deltas: s(
      'SELECT entity, id, data, deleted, seq FROM records WHERE seq > ? ORDER BY seq LIMIT ?',
    ),
    countLive: s('SELECT count(*) AS n FROM records WHERE deleted = 0'),
    countAfter: s('SELECT count(*) AS n FROM records WHERE seq > ?'),
    maxSeq: s('SELECT coalesce(max(seq), 0) AS n FROM records'),
    pruneTombstones: s('DELETE FROM records WHERE deleted = 1'),
    getMeta: s('SELECT value FROM meta WHERE key = ?'),
    setMeta: s(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ),
    idemGet: s('SELECT * FROM idempotency WHERE key = ?'),
    idemPut: s(
      `INSERT INTO idempotency (key, terminal_id, operation, body_hash, status, response, created)
       VALUES (@key, @terminal_id, @operation, @body_hash, @status, @response, @created)`,
    ),
    txInsert: s(
      `INSERT INTO transactions (transaction_id, terminal_id, operation, customer_id, subtype, body, created)
       VALUES (@transaction_id, @terminal_id, @operation, @customer_id, @subtype, @body, @created)`,
    ),
    txGet: s('SELECT * FROM transactions WHERE transaction_id = ?'),
    txList: s('SELECT * FROM transactions ORDER BY n'),
    txCancel: s('UPDATE transactions SET cancelled = 1 WHERE transaction_id = ?'),
    usageAdd: s(
      'INSERT INTO account_usage (account_id, local_date, amount, transaction_id) VALUES (?, ?, ?, ?)',
    ),
    usageOf: s('SELECT local_date, amount FROM account_usage WHERE account_id = ?'),
    usageRelease: s('DELETE FROM account_usage WHERE transaction_id = ?'),
    terminalPut: s(
      `INSERT INTO terminals (id, api_key_hash, business_id, pos_id, loyalty_id)
       VALUES (@id, @api_key_hash, @business_id, @pos_id, @loyalty_id)
       ON CONFLICT (id) DO UPDATE SET api_key_hash = excluded.api_key_hash,
         business_id = excluded.business_id, pos_id = excluded.pos_id, loyalty_id = excluded.loyalty_id`,
    ),
    terminalGet: s('SELECT * FROM terminals WHERE id = ?'),
    terminalFirst: s('SELECT * FROM terminals ORDER BY rowid LIMIT 1'),
    tokenPut: s(
      'INSERT INTO tokens (token, terminal_id, staff_id, expires_ms) VALUES (@token, @terminal_id, @staff_id, @expires_ms)',
    ),
    tokenGet: s('SELECT * FROM tokens WHERE token = ?'),
    tokensClear: s('DELETE FROM tokens'),
  };
}

export class CentralStore {
  private readonly db: Database.Database;
  private seq: number;
  private readonly stmt: Statements;

  private constructor(db: Database.Database) {
    this.db = db;
    this.stmt = prepare(db);
    this.seq = (this.stmt.maxSeq.get() as { n: number }).n;
    const horizon = this.meta('horizon');
    if (horizon !== undefined) this.seq = Math.max(this.seq, Number(horizon));
  }

  /** Opens (creating when new) the sandbox database. `:memory:` works for tests. */
  static open(file: string): CentralStore {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    // A sandbox: WAL with NORMAL survives a killed process, which is what its tests need.
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.exec(CENTRAL_SCHEMA);
    const store = new CentralStore(db);
    const version = store.meta('schema_version');
    if (version === undefined) store.setMeta('schema_version', String(CENTRAL_SCHEMA_VERSION));
    else if (Number(version) !== CENTRAL_SCHEMA_VERSION) {
      db.close();
      throw new Error(
        `sandbox database ${file} has schema ${version}, this sandbox ${CENTRAL_SCHEMA_VERSION}`,
      );
    }
    return store;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** Runs `fn` in one SQLite transaction (nested calls join the outer one). */
  tx<T>(fn: () => T): T {
    if (this.db.inTransaction) return fn();
    return this.db.transaction(fn).immediate();
  }

  meta(key: string): string | undefined {
    return (this.stmt.getMeta.get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    this.stmt.setMeta.run(key, value);
  }

  // ---- records and the change feed ----

  getRecord(entity: string, id: string): unknown {
    const row = this.stmt.getRecord.get(entity, id) as RecordRow | undefined;
    if (!row || row.deleted || row.data === null) return undefined;
    return JSON.parse(row.data) as unknown;
  }

  list(entity: string): unknown[] {
    return (this.stmt.byEntity.all(entity) as { data: string }[]).map(
      (r) => JSON.parse(r.data) as unknown,
    );
  }

  /** Records of `entity` whose top-level `field` equals `value`. */
  findBy(entity: string, field: string, value: string): unknown[] {
    return (this.stmt.byField.all(entity, field, value) as { data: string }[]).map(
      (r) => JSON.parse(r.data) as unknown,
    );
  }

  upsert(entity: string, id: string, data: unknown): void {
    this.upsertRaw(entity, id, JSON.stringify(data));
  }

  /** Stores `json` as it is; the sandbox's tests use it to serve a malformed record. */
  upsertRaw(entity: string, id: string, json: string): void {
    this.seq += 1;
    this.stmt.upsert.run(entity, id, json, this.seq);
  }

  remove(entity: string, id: string): boolean {
    const next = this.seq + 1;
    const changed = this.stmt.remove.run(next, entity, id).changes > 0;
    if (changed) this.seq = next;
    return changed;
  }

  currentSeq(): number {
    return this.seq;
  }

  /** Cursors older than this can no longer be served as deltas (410 cursor-expired). */
  horizon(): number {
    return Number(this.meta('horizon') ?? 0);
  }

  /** Drops tombstones; every delta cursor before now expires with them. */
  compact(): void {
    this.tx(() => {
      this.stmt.pruneTombstones.run();
      this.setMeta('horizon', String(this.seq));
    });
  }

  countLive(): number {
    return (this.stmt.countLive.get() as { n: number }).n;
  }

  countAfter(seq: number): number {
    return (this.stmt.countAfter.get(seq) as { n: number }).n;
  }

  snapshotPage(afterRowid: number, limit: number): SnapshotRow[] {
    return this.stmt.snapshot.all(afterRowid, limit) as SnapshotRow[];
  }

  deltaPage(afterSeq: number, limit: number): RecordRow[] {
    return this.stmt.deltas.all(afterSeq, limit) as RecordRow[];
  }

  /** Bulk load for benchmarks and large seeds: one transaction, one statement. */
  bulkUpsert(entity: string, rows: Iterable<{ id: string; data: unknown }>): number {
    let n = 0;
    this.tx(() => {
      for (const row of rows) {
        this.upsert(entity, row.id, row.data);
        n += 1;
      }
    });
    return n;
  }

  // ---- idempotency ----

  idempotency(key: string): IdempotencyRow | undefined {
    return this.stmt.idemGet.get(key) as IdempotencyRow | undefined;
  }

  /** Fails on a reused key (the unique constraint is the guarantee, not this class). */
  putIdempotency(row: IdempotencyRow): void {
    this.stmt.idemPut.run(row);
  }

  // ---- transactions ----

  insertTransaction(row: Omit<TransactionRow, 'n' | 'cancelled'>): void {
    this.stmt.txInsert.run(row);
  }

  transaction(id: string): TransactionRow | undefined {
    return this.stmt.txGet.get(id) as TransactionRow | undefined;
  }

  transactions(): TransactionRow[] {
    return this.stmt.txList.all() as TransactionRow[];
  }

  markCancelled(id: string): void {
    this.stmt.txCancel.run(id);
  }

  addUsage(accountId: string, localDate: string, amount: string, transactionId: string): void {
    this.stmt.usageAdd.run(accountId, localDate, amount, transactionId);
  }

  usage(accountId: string): { local_date: string; amount: string }[] {
    return this.stmt.usageOf.all(accountId) as { local_date: string; amount: string }[];
  }

  releaseUsage(transactionId: string): void {
    this.stmt.usageRelease.run(transactionId);
  }

  // ---- terminals and tokens ----

  putTerminal(row: TerminalRow): void {
    this.stmt.terminalPut.run(row);
  }

  terminal(id: string): TerminalRow | undefined {
    return this.stmt.terminalGet.get(id) as TerminalRow | undefined;
  }

  firstTerminal(): TerminalRow | undefined {
    return this.stmt.terminalFirst.get() as TerminalRow | undefined;
  }

  putToken(row: TokenRow): void {
    this.stmt.tokenPut.run(row);
  }

  token(token: string): TokenRow | undefined {
    return this.stmt.tokenGet.get(token) as TokenRow | undefined;
  }

  /** Every token becomes invalid: the next request of each terminal gets 401. */
  revokeTokens(): void {
    this.stmt.tokensClear.run();
  }
}
