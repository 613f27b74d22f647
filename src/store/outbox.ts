// The outbox: writes owed to the central service, in SQLite so retries survive restarts
// (sync.md). Rows go queued -> sending -> done | rejected, oldest first; nothing is deleted and
// a payload is never rewritten. A row is created only by the ledger, in the transaction of the
// operation it reports (ledger-record.ts); this module moves rows through their states.
import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { OutboxState } from '../contract/commands.js';
import { storeError } from './errors.js';
import { readStored, type StoredRead } from './stored-json.js';

/** queued -> sending -> done | rejected: the contract's OutboxState (one list). */
export type OutboxStatus = OutboxState;

interface OutboxRowRaw {
  id: number;
  transaction_id: string;
  seq: number;
  operation: string;
  payload: string;
  payload_version: number;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  response: string | null;
  created_at: number;
  updated_at: number;
  resolved_at: number | null;
  resolved_by: string | null;
}

export interface OutboxRow {
  readonly id: number;
  readonly transactionId: string;
  readonly seq: number;
  /** What to call: `process_check`, `cancel_check`, `bonuses_add`, ... */
  readonly operation: string;
  /** The versioned JSON payload, parsed (and validated again when a schema is given). */
  readonly payload: unknown;
  readonly payloadVersion: number;
  readonly status: OutboxStatus;
  readonly attempts: number;
  readonly nextAttemptAt: number;
  readonly lastError: string | null;
  /** The server's answer (done) or refusal (rejected). */
  readonly response: unknown;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly resolvedAt: number | null;
  readonly resolvedBy: string | null;
  /**
   * Set by the reads that must not stop on one bad row (the pusher's, the attention list's):
   * why the stored payload no longer reads. `payload` is then null; the row cannot be sent.
   */
  readonly unreadable?: string;
}

/** The oldest row not yet delivered (queued or sending), without its payload. */
export interface OldestUnsent {
  readonly id: number;
  readonly transactionId: string;
  readonly operation: string;
  readonly attempts: number;
  /** When the operation was recorded: how long the server has been waiting for it. */
  readonly createdAt: number;
  /** When it may be sent again (a backoff survives a restart here). */
  readonly nextAttemptAt: number;
}

/** What the ledger passes to enqueue a row inside its transaction. */
export interface OutboxEntry {
  readonly operation: string;
  readonly payload: unknown;
  readonly version: number;
  /** `done` when the server already applied it online (the row stays as the record). */
  readonly status?: 'queued' | 'done';
  readonly response?: unknown;
}

/** Hooks into the ledger so a state change and its ledger effect commit together. */
export interface OutboxLedgerHooks {
  confirm(transactionId: string, nowMs: number): void;
  reject(transactionId: string): void;
}

/** Validates a stored payload by its version when it is read back (shared/style.md 5). */
export type PayloadSchemas = (operation: string, version: number) => z.ZodType | undefined;

const COLUMNS =
  'id, transaction_id, seq, operation, payload, payload_version, status, attempts, next_attempt_at, last_error, response, created_at, updated_at, resolved_at, resolved_by';

const json = (text: string | null): unknown =>
  text === null ? null : (JSON.parse(text) as unknown);

function outboxStatements(db: Database.Database) {
  return {
    insert: db.prepare(
      `INSERT INTO outbox (transaction_id, seq, operation, payload, payload_version, status, next_attempt_at, response, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    due: db.prepare<[number, number, number], OutboxRowRaw>(
      `SELECT ${COLUMNS} FROM outbox WHERE status = 'queued' AND (next_attempt_at <= ? OR next_attempt_at > ?) ORDER BY id LIMIT ?`,
    ),
    oldestQueued: db.prepare<[], { next_attempt_at: number }>(
      "SELECT min(next_attempt_at) AS next_attempt_at FROM outbox WHERE status = 'queued'",
    ),
    byId: db.prepare<[number], OutboxRowRaw>(`SELECT ${COLUMNS} FROM outbox WHERE id = ?`),
    byTransaction: db.prepare<[string], OutboxRowRaw>(
      `SELECT ${COLUMNS} FROM outbox WHERE transaction_id = ?`,
    ),
    ...transitionStatements(db),
    // Served by the partial index outbox_unsent (0004): the pusher walks every unsent row in order.
    unsentAfter: db.prepare<[number, number], OutboxRowRaw>(
      `SELECT ${COLUMNS} FROM outbox WHERE status IN ('queued', 'sending') AND id > ? ORDER BY id LIMIT ?`,
    ),
    attention: db.prepare<[], OutboxRowRaw>(
      `SELECT ${COLUMNS} FROM outbox WHERE status = 'rejected' AND resolved_at IS NULL ORDER BY id`,
    ),
    depth: db.prepare<[], { queued: number; sending: number; rejected: number }>(
      `SELECT coalesce(sum(status = 'queued'), 0) AS queued, coalesce(sum(status = 'sending'), 0) AS sending,
            coalesce(sum(status = 'rejected' AND resolved_at IS NULL), 0) AS rejected
       FROM outbox WHERE status <> 'done'`,
    ),
    unsent: db.prepare<[], OutboxRowRaw>(
      `SELECT ${COLUMNS} FROM outbox WHERE status IN ('queued', 'sending') ORDER BY id`,
    ),
    // Served by the partial index outbox_unsent (0004); the WHERE must match its predicate.
    oldestUnsent: db.prepare<
      [],
      Pick<
        OutboxRowRaw,
        'id' | 'transaction_id' | 'operation' | 'attempts' | 'created_at' | 'next_attempt_at'
      >
    >(
      `SELECT id, transaction_id, operation, attempts, created_at, next_attempt_at
       FROM outbox WHERE status IN ('queued', 'sending') ORDER BY id LIMIT 1`,
    ),
  };
}

/** The statements that move a row from one state to the next. */
function transitionStatements(db: Database.Database) {
  return {
    toSending: db.prepare(
      "UPDATE outbox SET status = 'sending', attempts = attempts + 1, updated_at = ? WHERE id = ? AND status = 'queued'",
    ),
    toDone: db.prepare(
      "UPDATE outbox SET status = 'done', response = ?, last_error = NULL, updated_at = ? WHERE id = ? AND status IN ('queued', 'sending')",
    ),
    toRetry: db.prepare(
      "UPDATE outbox SET status = 'queued', next_attempt_at = ?, last_error = ?, updated_at = ? WHERE id = ? AND status IN ('queued', 'sending')",
    ),
    toRejected: db.prepare(
      "UPDATE outbox SET status = 'rejected', response = ?, last_error = ?, updated_at = ? WHERE id = ? AND status IN ('queued', 'sending')",
    ),
    toUnsent: db.prepare(
      "UPDATE outbox SET status = 'queued', attempts = max(attempts - 1, 0), updated_at = ? WHERE id = ? AND status = 'sending'",
    ),
    resetSending: db.prepare(
      "UPDATE outbox SET status = 'queued', updated_at = ? WHERE status = 'sending'",
    ),
    resolve: db.prepare(
      "UPDATE outbox SET resolved_at = ?, resolved_by = ? WHERE id = ? AND status = 'rejected' AND resolved_at IS NULL",
    ),
  };
}

type OutboxStatements = ReturnType<typeof outboxStatements>;

/** The payload read back through its schema (any JSON without one), or why it no longer reads. */
function readPayload(raw: OutboxRowRaw, schemas: PayloadSchemas | undefined): StoredRead<unknown> {
  const schema = schemas?.(raw.operation, raw.payload_version) ?? z.unknown();
  return readStored(schema, raw.payload, 'payload');
}

/** A row; a payload that no longer reads throws, or with `lenient` marks the row unreadable. */
function decode(
  raw: OutboxRowRaw,
  schemas: PayloadSchemas | undefined,
  lenient: boolean,
): OutboxRow {
  const read = readPayload(raw, schemas);
  if (!read.ok && !lenient)
    throw storeError(
      'invalid-record',
      `outbox row ${raw.id} (${raw.operation} v${raw.payload_version}): ${read.problem}`,
    );
  const payload = read.ok ? read.value : null;
  return {
    ...(read.ok ? {} : { unreadable: read.problem }),
    id: raw.id,
    transactionId: raw.transaction_id,
    seq: raw.seq,
    operation: raw.operation,
    payload,
    payloadVersion: raw.payload_version,
    status: raw.status,
    attempts: raw.attempts,
    nextAttemptAt: raw.next_attempt_at,
    lastError: raw.last_error,
    response: json(raw.response),
    createdAt: raw.created_at,
    updatedAt: raw.updated_at,
    resolvedAt: raw.resolved_at,
    resolvedBy: raw.resolved_by,
  };
}

/** The outbox's reads: rows due, unsent or listed for staff, and its depth. */
function outboxReads(
  db: Database.Database,
  s: OutboxStatements,
  read: (raw: OutboxRowRaw, lenient?: boolean) => OutboxRow,
) {
  return {
    /**
     * Queued rows due at `nowMs`, oldest first. A row due after `beyondMs` is due too: no
     * backoff waits that long, so its time was set by a wall clock that has since gone back.
     */
    due: (nowMs: number, limit = 50, beyondMs = Number.MAX_SAFE_INTEGER): OutboxRow[] =>
      s.due.all(nowMs, beyondMs, limit).map((r) => read(r)),
    /** When the earliest queued row becomes due (null: nothing queued). */
    nextDueAt: (): number | null => s.oldestQueued.get()?.next_attempt_at ?? null,
    get(id: number): OutboxRow | null {
      const r = s.byId.get(id);
      return r ? read(r, true) : null;
    },
    /** The row of a transaction (lenient: its state is wanted even when its payload is bad). */
    byTransaction(transactionId: string): OutboxRow | null {
      const r = s.byTransaction.get(transactionId);
      return r ? read(r, true) : null;
    },
    /**
     * Unsent rows after `afterId`, oldest first, a row whose payload no longer reads marked
     * `unreadable` instead of throwing: one bad row must not stop the outbox.
     */
    unsentAfter: (afterId: number, limit: number): OutboxRow[] =>
      s.unsentAfter.all(afterId, limit).map((r) => read(r, true)),
    /** Rejected rows nobody has resolved yet: the attention list. */
    attention: (): OutboxRow[] => s.attention.all().map((r) => read(r, true)),
    depth: (): { queued: number; sending: number; rejected: number } =>
      s.depth.get() ?? { queued: 0, sending: 0, rejected: 0 },
    /** Every row not yet done (for an export before sign-out or reset). */
    unsent: (): OutboxRow[] => s.unsent.all().map((r) => read(r)),
    /** The oldest row not yet delivered, or null; one index probe, no payload decoded. */
    oldestUnsent(): OldestUnsent | null {
      const r = s.oldestUnsent.get();
      return r
        ? {
            id: r.id,
            transactionId: r.transaction_id,
            operation: r.operation,
            attempts: r.attempts,
            createdAt: r.created_at,
            nextAttemptAt: r.next_attempt_at,
          }
        : null;
    },
    /** EXPLAIN QUERY PLAN of oldestUnsent (a test checks that the index serves it). */
    oldestUnsentPlan: (): string =>
      db
        .prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${s.oldestUnsent.source}`)
        .all()
        .map((r) => r.detail)
        .join('\n'),
  };
}

/** done and rejected: the row's state and its ledger effect in one transaction. */
function resolutions(db: Database.Database, s: OutboxStatements, ledger: () => OutboxLedgerHooks) {
  return {
    markDone: db.transaction((id: number, response: unknown, nowMs: number): boolean => {
      const row = s.byId.get(id);
      if (!row || s.toDone.run(JSON.stringify(response ?? null), nowMs, id).changes === 0)
        return false;
      ledger().confirm(row.transaction_id, nowMs);
      return true;
    }),
    markRejected: db.transaction((id: number, reason: unknown, nowMs: number): boolean => {
      const row = s.byId.get(id);
      const text =
        typeof reason === 'object' && reason !== null ? JSON.stringify(reason) : String(reason);
      if (!row || s.toRejected.run(JSON.stringify(reason ?? null), text, nowMs, id).changes === 0)
        return false;
      ledger().reject(row.transaction_id);
      return true;
    }),
  };
}

/** The outbox's moves of a row through its states (the pusher's, the ledger's, staff's). */
function outboxMoves(s: OutboxStatements, resolved: ReturnType<typeof resolutions>) {
  return {
    /** Internal: called by the ledger inside the operation's transaction. */
    enqueue(transactionId: string, seq: number, entry: OutboxEntry, nowMs: number): void {
      s.insert.run(
        transactionId,
        seq,
        entry.operation,
        JSON.stringify(entry.payload),
        entry.version,
        entry.status ?? 'queued',
        nowMs,
        entry.response === undefined ? null : JSON.stringify(entry.response),
        nowMs,
        nowMs,
      );
    },
    /** sending -> queued with the attempt uncounted: it was never made (its lane stopped). */
    unsend: (id: number, nowMs: number): boolean => s.toUnsent.run(nowMs, id).changes === 1,
    /** queued -> sending, counting the attempt; false when the row was not queued. */
    markSending: (id: number, nowMs: number): boolean => s.toSending.run(nowMs, id).changes === 1,
    /** -> done with the server's answer; the operation's pending effects become confirmed. */
    markDone: (id: number, response: unknown, nowMs: number): boolean =>
      resolved.markDone(id, response, nowMs),
    /** -> queued again at `nextAttemptAt` with the error (backoff is the caller's). */
    markRetry: (id: number, error: string, nextAttemptAt: number, nowMs: number): boolean =>
      s.toRetry.run(nextAttemptAt, error, nowMs, id).changes === 1,
    /** -> rejected (a 422): kept, listed for staff, and the local ledger drops what it held. */
    markRejected: (id: number, reason: unknown, nowMs: number): boolean =>
      resolved.markRejected(id, reason, nowMs),
    /** At start: a row left `sending` by a crash goes back to `queued` (sync.md). */
    resetSending: (nowMs: number): number => s.resetSending.run(nowMs).changes,
    resolve: (id: number, by: string, nowMs: number): boolean =>
      s.resolve.run(nowMs, by, id).changes === 1,
  };
}

export function createOutbox(db: Database.Database, options: { payloadSchemas?: PayloadSchemas }) {
  const s = outboxStatements(db);
  const read = (raw: OutboxRowRaw, lenient = false): OutboxRow =>
    decode(raw, options.payloadSchemas, lenient);
  let hooks: OutboxLedgerHooks | null = null;
  const ledger = (): OutboxLedgerHooks => {
    if (!hooks) throw new Error('outbox: ledger hooks not wired');
    return hooks;
  };
  return {
    /** Internal: wires the ledger's confirm/reject into done/rejected. */
    wire(h: OutboxLedgerHooks): void {
      hooks = h;
    },
    ...outboxMoves(s, resolutions(db, s, ledger)),
    ...outboxReads(db, s, read),
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
