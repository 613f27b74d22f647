// The outbox pusher: sends queued writes oldest first, each under its Idempotency-Key (its
// transaction id), so a write that reached the server before its answer was lost is not
// applied twice. Retries live here with their state in SQLite: exponential backoff with
// jitter, honouring Retry-After. A 422 keeps the row as rejected with the server's reason:
// it shows on the attention list and the ledger drops its holds (the server's figures stand).
//
// Order: rows are launched in id order; rows of one customer never overlap, rows of
// different customers may (up to `concurrency`), which is what makes a drain fast on a good
// link without letting a customer's spend overtake the earn before it. A cancel or refund
// travels in its sale's lane, so it never overtakes the sale. The first transient
// failure halts the pass: nothing later is launched until that row is due again.
import type { Store } from '../store/open.js';
import type { OutboxRow } from '../store/outbox.js';
import { backoffMs, type CentralClient, type Failure } from './client.js';
import type { SyncClock } from './clock.js';
import {
  bodyToSend,
  OUTBOX_OPERATIONS,
  OutboxPayloadV1,
  type OutboxOperation,
} from './outbox-payload.js';

export interface PusherOptions {
  store: Store;
  client: CentralClient;
  clock: SyncClock;
  retry: { base_ms: number; max_ms: number };
  /** Writes in flight at once (different customers only). */
  concurrency?: number;
  random?: () => number;
  /** A row was refused (422 or a permanent error): the caller refreshes the cache. */
  onRejected?: (row: OutboxRow, reason: unknown) => void;
  /**
   * A row was done: the caller compares the server's answer with what the till recorded. Runs
   * in the transaction that marks the row done (a kill cannot lose it), so it must not throw.
   */
  onDone?: (row: OutboxRow, response: unknown) => void;
}

export interface DrainResult {
  sent: number;
  done: number;
  rejected: number;
  retried: number;
  /** When the next attempt is due (null: nothing queued). */
  nextDueAt: number | null;
  lastFailure: Failure | null;
}

const PAGE = 200;
/** The longest Retry-After honoured; a server asking for more is asked again after this. */
const MAX_RETRY_AFTER_MS = 3_600_000;

type Outcome =
  | { kind: 'done'; value: unknown }
  | { kind: 'rejected'; reason: unknown }
  | { kind: 'retry'; failure: Failure };

/** The customer a row belongs to, for ordering; null rows are independent. */
export function partitionKey(payload: unknown): string | null {
  const body = (payload as { body?: Record<string, unknown> } | null)?.body ?? {};
  for (const k of ['customer_id', 'corporate_customer_id', 'id'] as const) {
    const v = body[k];
    if (typeof v === 'string' && v.length > 0) return v;
  }
  const users = body.users;
  if (Array.isArray(users) && typeof users[0] === 'string') return users[0];
  const tx = body.transaction_id;
  return typeof tx === 'string' && tx.length > 0 ? `tx:${tx}` : null;
}

/** Operations that act on an earlier sale, with the body field naming it. */
const FOLLOWS_SALE: Readonly<Record<string, string>> = {
  cancel_check: 'transaction_id',
  refund_check: 'original_transaction_id',
};

/**
 * The lane a row is sent in. A cancel or refund goes in its sale's lane (the sale's customer,
 * or the sale's own id), so it can never overtake the sale it undoes while that is queued.
 */
export function laneKey(
  row: Pick<OutboxRow, 'id' | 'operation' | 'payload'>,
  saleRow: (transactionId: string) => Pick<OutboxRow, 'payload'> | null,
): string {
  const field = FOLLOWS_SALE[row.operation];
  if (field) {
    const body = (row.payload as { body?: Record<string, unknown> } | null)?.body ?? {};
    const saleId = body[field];
    if (typeof saleId === 'string' && saleId.length > 0) {
      const sale = saleRow(saleId);
      return (sale && partitionKey(sale.payload)) ?? `tx:${saleId}`;
    }
  }
  return partitionKey(row.payload) ?? `row:${row.id}`;
}

/** Permanent refusals: sending the same payload again cannot succeed. */
function isPermanent(f: Failure): boolean {
  return (
    f.kind === 'http' &&
    (f.status === 422 ||
      f.status === 409 ||
      f.status === 400 ||
      f.status === 404 ||
      f.status === 413)
  );
}

export class OutboxPusher {
  private readonly o: PusherOptions;
  private readonly random: () => number;
  /** The row a failure halted on: nothing is sent before it is due (kept in order). */
  private gate: { id: number; dueAt: number } | null = null;
  private draining: Promise<DrainResult> | null = null;

  constructor(o: PusherOptions) {
    this.o = o;
    this.random = o.random ?? Math.random;
    // After a restart, the oldest unsent row may be waiting on its backoff: honour it (one
    // index probe, not every unsent payload read and decoded).
    const first = o.store.outbox.oldestUnsent();
    if (first && first.nextAttemptAt > o.clock.now() && !this.stale(first.nextAttemptAt))
      this.gate = { id: first.id, dueAt: first.nextAttemptAt };
  }

  /** The longest wait this pusher ever sets (backoff or Retry-After). */
  private longestWaitMs(): number {
    return Math.max(this.o.retry.max_ms, MAX_RETRY_AFTER_MS);
  }

  /**
   * A due time further off than the longest wait was not set by a backoff measured on this
   * clock: the row was made, or retried, while the wall clock ran ahead. It is due now, or
   * sales made while the clock was days ahead would wait days after it is put right.
   */
  private stale(dueAt: number): boolean {
    return dueAt > this.o.clock.now() + this.longestWaitMs();
  }

  /** One drain at a time: a second call joins the running one. */
  drain(maxRows = Number.POSITIVE_INFINITY): Promise<DrainResult> {
    this.draining ??= this.run(maxRows).finally(() => {
      this.draining = null;
    });
    return this.draining;
  }

  /** When the gate opens, or null when nothing holds the queue back. */
  gatedUntil(): number | null {
    return this.gate?.dueAt ?? null;
  }

  private async run(maxRows: number): Promise<DrainResult> {
    const { store, clock } = this.o;
    const result: DrainResult = {
      sent: 0,
      done: 0,
      rejected: 0,
      retried: 0,
      nextDueAt: null,
      lastFailure: null,
    };
    const concurrency = Math.max(1, this.o.concurrency ?? 8);
    // State changes of a chunk commit together: two commits per chunk instead of two per row
    // (each commit is an fsync). An IMMEDIATE transaction takes the write lock up front, so an
    // operator's `db` command holding it makes this wait its busy timeout instead of failing a
    // read-to-write upgrade half-way. A crash between the two leaves rows `sending`, which go
    // back to `queued` at start and are sent again under the same key: the server answers the
    // first result.
    const together = (fn: () => void) => store.write(fn);
    let halted = false;

    while (!halted && result.sent < maxRows) {
      const now = clock.now();
      if (this.gate && this.stale(this.gate.dueAt)) this.gate = null;
      if (this.gate && now < this.gate.dueAt) break;
      const rows = store.outbox.due(
        now,
        Math.min(PAGE, maxRows - result.sent),
        now + this.longestWaitMs(),
      );
      if (rows.length === 0) break;
      if (this.gate && rows[0]!.id > this.gate.id) this.gate = null; // the halted row is no longer queued
      for (let i = 0; i < rows.length && !halted; i += concurrency * 2) {
        const chunk = rows.slice(i, i + concurrency * 2);
        const sending: OutboxRow[] = [];
        together(() => {
          for (const row of chunk)
            if (store.outbox.markSending(row.id, clock.now())) sending.push(row);
        });
        result.sent += sending.length;
        const outcomes = await this.sendChunk(sending, concurrency);
        const rejected: [OutboxRow, unknown][] = [];
        together(() => {
          for (const [row, outcome] of outcomes) {
            if (outcome.kind === 'done') {
              if (store.outbox.markDone(row.id, outcome.value, clock.now()))
                this.o.onDone?.(row, outcome.value);
              if (this.gate?.id === row.id) this.gate = null;
              result.done += 1;
            } else if (outcome.kind === 'rejected') {
              store.outbox.markRejected(row.id, outcome.reason, clock.now());
              if (this.gate?.id === row.id) this.gate = null;
              rejected.push([row, outcome.reason]);
              result.rejected += 1;
            } else {
              result.lastFailure = outcome.failure;
              const asked = outcome.failure.kind === 'http' ? outcome.failure.retryAfterMs : null;
              const retryAfter = asked === null ? null : Math.min(asked, MAX_RETRY_AFTER_MS);
              const dueAt =
                clock.now() +
                backoffMs(
                  row.attempts,
                  this.o.retry.base_ms,
                  this.o.retry.max_ms,
                  this.random,
                  retryAfter,
                );
              store.outbox.markRetry(
                row.id,
                `${outcome.failure.code}: ${outcome.failure.message}`,
                dueAt,
                clock.now(),
              );
              if (!this.gate || row.id <= this.gate.id) this.gate = { id: row.id, dueAt };
              result.retried += 1;
              halted = true;
            }
          }
        });
        for (const [row, reason] of rejected) this.o.onRejected?.(row, reason);
      }
      if (rows.length < PAGE) break;
    }
    const next = this.gate?.dueAt ?? store.outbox.nextDueAt();
    result.nextDueAt = next !== null && this.stale(next) ? clock.now() : next;
    return result;
  }

  /** Sends a chunk: rows of one customer one after another, different customers side by side. */
  private async sendChunk(rows: OutboxRow[], concurrency: number): Promise<[OutboxRow, Outcome][]> {
    const lanes = new Map<string, OutboxRow[]>();
    for (const row of rows) {
      const key = laneKey(row, (id) => this.o.store.outbox.byTransaction(id));
      lanes.set(key, [...(lanes.get(key) ?? []), row]);
    }
    const out = new Map<number, Outcome>();
    const queue = [...lanes.values()];
    const worker = async () => {
      for (let lane = queue.shift(); lane; lane = queue.shift()) {
        for (const row of lane) {
          const outcome = await this.sendOne(row);
          out.set(row.id, outcome);
          // A lane stops at its first transient failure: its later rows wait their turn.
          if (outcome.kind === 'retry') {
            for (const later of lane.slice(lane.indexOf(row) + 1)) out.set(later.id, outcome);
            break;
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
    return rows.map((row) => [row, out.get(row.id)!]);
  }

  private async sendOne(row: OutboxRow): Promise<Outcome> {
    const operation = row.operation as OutboxOperation;
    const name = OUTBOX_OPERATIONS[operation];
    const parsed = OutboxPayloadV1.safeParse(row.payload);
    if (!name || !parsed.success) {
      // Not something this version can send: kept, visible, never dropped.
      return {
        kind: 'rejected',
        reason: {
          error: {
            code: 'unsendable',
            message: `outbox row ${row.id}: unknown operation or payload`,
            path: null,
          },
        },
      };
    }
    const r = await this.o.client.write(
      name,
      bodyToSend(operation, parsed.data),
      row.transactionId,
    );
    if (r.ok) return { kind: 'done', value: r.value };
    if (isPermanent(r.failure)) {
      const f = r.failure as Extract<Failure, { kind: 'http' }>;
      return {
        kind: 'rejected',
        reason: {
          status: f.status,
          error: {
            code: f.code,
            message: f.message,
            path: f.path,
            ...(f.details !== undefined ? { details: f.details } : {}),
          },
        },
      };
    }
    return { kind: 'retry', failure: r.failure };
  }
}
