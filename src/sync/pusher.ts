// The outbox pusher: sends queued writes oldest first, each under its Idempotency-Key (its
// transaction id), so a write that reached the server before its answer was lost is not
// applied twice. Retries live here with their state in SQLite: exponential backoff with
// jitter, honouring Retry-After. A refusal that will not heal (422, 400, ..., an unsendable
// row, an answer still unreadable after UNREADABLE_ATTEMPTS) keeps the row as rejected with
// its reason: it shows on the attention list and the ledger drops its holds.
//
// Order is per lane across the whole outbox: a pass walks every unsent row in id order, and
// a row is sent only when no earlier row of its lane is still unsent (backed off, or failed
// in this pass). A lane is a customer (or one anonymous transaction); a cancel or refund
// travels in its sale's lane, so it never overtakes the sale. Lanes are independent: one in
// backoff stops no other. Rows go in `write_batch` requests (docs/sync.md, "Drain over a slow
// link"): a lane's rows of a chunk all in one batch, in order, which the server applies in
// order and stops at an item it fails on; batches side by side (up to `concurrency`). A
// central without the batch operation gets one request per row, rows of different lanes side
// by side. A failure of the link (no answer, 5xx, 429, auth) pauses every lane: the pass
// stops, and none starts before the pause ends.
import { MAX_BATCH_ITEMS, NOT_ATTEMPTED } from '../contract/central-api.js';
import type { Store } from '../store/open.js';
import type { OutboxRow } from '../store/outbox.js';
import {
  backoffMs,
  type BatchWrite,
  type CentralClient,
  type Failure,
  type Result,
} from './client.js';
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
  /** Requests in flight at once (writes of different lanes, or batches). */
  concurrency?: number;
  /**
   * Writes per `write_batch` request (docs/sync.md, "Drain over a slow link"); 1: one request
   * per write, as with a central that has no batch operation. Default PUSH_BATCH.
   */
  batch?: number;
  random?: () => number;
  /** A row was refused (422 or a permanent error): the caller refreshes the cache. */
  onRejected?: (row: OutboxRow, reason: unknown) => void;
  /**
   * A row was done: the caller compares the server's answer with what the till recorded. Runs
   * in the transaction that marks the row done (a kill cannot lose it), so it must not throw.
   */
  onDone?: (row: OutboxRow, response: unknown) => void;
}

export interface DrainOptions {
  /**
   * A manual sync (`sync-now`, `loyalty-terminal sync push`): every queued row is due now,
   * whatever its backoff and the link's pause. Lane order still holds.
   */
  readonly now?: boolean;
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
/**
 * Requests in flight at once by default (docs/sync.md, "Drain over a slow link"): batches, or
 * single writes to a central without the batch operation, where throughput is in-flight / RTT
 * (32 gives ~300/s on a 100 ms link). The client's pool needs as many sockets
 * (sync-service.ts passes it).
 */
export const PUSH_IN_FLIGHT = 32;
/** Writes per batch request by default: a page of 200 ready rows goes as 4 batches at once. */
export const PUSH_BATCH = 50;
/** The longest Retry-After honoured; a server asking for more is asked again after this. */
const MAX_RETRY_AFTER_MS = 3_600_000;
/**
 * Attempts answered with a body this terminal cannot read before the row is set aside: the
 * server answers a repeat with its stored first answer, so it will not heal.
 */
const UNREADABLE_ATTEMPTS = 5;

type Outcome =
  | { kind: 'done'; value: unknown }
  | { kind: 'rejected'; reason: unknown }
  | { kind: 'retry'; failure: Failure }
  /**
   * Not sent (or not attempted by the server): an earlier row of its lane failed in the same
   * chunk, or its lane filled its batch. Its lane waits for the next pass.
   */
  | { kind: 'skipped' };

/** A row ready to travel: its operation and body, or why it cannot be sent. */
type Prepared = { ok: true; write: BatchWrite } | { ok: false; outcome: Outcome };

/** A row with its lane. */
interface Laned {
  row: OutboxRow;
  lane: string;
}

/** What one pass knows: lanes that may not move, when the first may, whether it stopped. */
interface Pass {
  /** A manual pass: backoffs do not hold rows back. */
  now: boolean;
  blocked: Set<string>;
  /** The lane of each transaction seen, so a cancel or refund finds its sale's without a read. */
  laneOfTx: Map<string, string>;
  nextDueAt: number | null;
  /** A failure of the link stopped the pass. */
  halted: boolean;
  /** The server answered some row (done or refused): the link works. */
  answered: boolean;
}

/** The customer a row belongs to, for ordering; null rows are independent. */
function partitionKey(payload: unknown): string | null {
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
  return laneWith(row, (id) => {
    const sale = saleRow(id);
    return sale && partitionKey(sale.payload);
  });
}

/** laneKey, with the lane of the sale a cancel or refund follows found by `saleLane`. */
function laneWith(
  row: Pick<OutboxRow, 'id' | 'operation' | 'payload'>,
  saleLane: (transactionId: string) => string | null,
): string {
  const field = FOLLOWS_SALE[row.operation];
  if (field) {
    const body = (row.payload as { body?: Record<string, unknown> } | null)?.body ?? {};
    const saleId = body[field];
    if (typeof saleId === 'string' && saleId.length > 0) return saleLane(saleId) ?? `tx:${saleId}`;
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

/** Failures of the link rather than of the row: every lane waits (no answer, 5xx, 429, auth). */
function linkFailure(f: Failure): boolean {
  return f.kind === 'network' || f.kind === 'timeout' || (f.kind === 'http' && !isPermanent(f));
}

/** The central has no batch operation (an older one), or answers it in a way we cannot read. */
function batchUnknown(f: Failure): boolean {
  return (
    f.kind === 'invalid-response' ||
    (f.kind === 'http' && (f.status === 404 || f.status === 405 || f.status === 501))
  );
}

const retryAfterOf = (f: Failure): number | null =>
  f.kind === 'http' && f.retryAfterMs !== null
    ? Math.min(f.retryAfterMs, MAX_RETRY_AFTER_MS)
    : null;

const refusal = (code: string, message: string) => ({ error: { code, message, path: null } });

export class OutboxPusher {
  private readonly o: PusherOptions;
  private readonly random: () => number;
  /** Until when the link is paused after a failure of the link (nothing is sent before). */
  private pausedUntil: number | null = null;
  /** Passes the link failed in a row: the pause grows with them and ends at the first answer. */
  private linkFailures = 0;
  private draining: Promise<DrainResult> | null = null;
  /**
   * The central answered the batch operation as unknown (404, 405, 501) or unreadably: writes
   * go one request each for the life of this pusher (a restart tries batches again).
   */
  private batchUnsupported = false;

  constructor(o: PusherOptions) {
    this.o = o;
    this.random = o.random ?? Math.random;
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

  private isDue(dueAt: number): boolean {
    return dueAt <= this.o.clock.now() || this.stale(dueAt);
  }

  /**
   * One drain at a time: a second call joins the running one. A manual drain (`now`) waits for
   * the running one and then runs its own pass: joining would answer a pass that skipped the
   * backed-off rows (`sync-now` answered `pushed: 0` with rows queued).
   */
  drain(maxRows = Number.POSITIVE_INFINITY, options: DrainOptions = {}): Promise<DrainResult> {
    if (!options.now) {
      this.draining ??= this.track(this.run(maxRows, false));
      return this.draining;
    }
    const running = this.draining ?? Promise.resolve();
    this.draining = this.track(
      running.then(
        () => this.run(maxRows, true),
        () => this.run(maxRows, true),
      ),
    );
    return this.draining;
  }

  private track(drain: Promise<DrainResult>): Promise<DrainResult> {
    const tracked: Promise<DrainResult> = drain.finally(() => {
      if (this.draining === tracked) this.draining = null;
    });
    return tracked;
  }

  /** When the link's pause ends, or null when nothing holds every lane back. */
  gatedUntil(): number | null {
    if (this.pausedUntil !== null && this.stale(this.pausedUntil)) this.pausedUntil = null;
    return this.pausedUntil !== null && this.pausedUntil > this.o.clock.now()
      ? this.pausedUntil
      : null;
  }

  private async run(maxRows: number, now: boolean): Promise<DrainResult> {
    // A manual pass tries the link now; a failure in it sets the pause again.
    if (now) this.pausedUntil = null;
    const result: DrainResult = {
      sent: 0,
      done: 0,
      rejected: 0,
      retried: 0,
      nextDueAt: null,
      lastFailure: null,
    };
    const pass: Pass = {
      now,
      blocked: new Set(),
      laneOfTx: new Map(),
      nextDueAt: null,
      halted: false,
      answered: false,
    };
    let after = 0;
    while (!pass.halted && result.sent < maxRows && this.gatedUntil() === null) {
      const page = this.o.store.outbox.unsentAfter(after, PAGE);
      if (page.length === 0) break;
      after = page[page.length - 1]!.id;
      await this.sendAll(this.ready(page, pass), pass, result, maxRows);
      if (page.length < PAGE) break;
    }
    // The pause grows with passes the link failed in a row, and ends at the first answer.
    if (pass.answered) this.linkFailures = 0;
    else if (pass.halted) this.linkFailures += 1;
    result.nextDueAt = this.nextDueAt(pass, result.sent >= maxRows);
    return result;
  }

  /** When the next pass has work: the pause's end, a waiting lane's due time, or now. */
  private nextDueAt(pass: Pass, cut: boolean): number | null {
    const { store, clock } = this.o;
    if (store.outbox.nextDueAt() === null) return null; // nothing queued
    const paused = this.gatedUntil();
    if (paused !== null) return paused;
    if (cut) return clock.now();
    const next = pass.nextDueAt ?? store.outbox.nextDueAt();
    return next !== null && this.stale(next) ? clock.now() : next;
  }

  /** The lane of a row; a cancel or refund takes its sale's. */
  private laneOf(row: OutboxRow, pass: Pass): string {
    const lane = laneWith(row, (id) => {
      const known = pass.laneOfTx.get(id);
      if (known !== undefined) return known;
      const sale = this.o.store.outbox.byTransaction(id);
      return sale && partitionKey(sale.payload);
    });
    pass.laneOfTx.set(row.transactionId, lane);
    return lane;
  }

  /** A waiting row blocks its lane for the pass; the lane may move again at `dueAt`. */
  private block(pass: Pass, lane: string, dueAt: number | null): void {
    pass.blocked.add(lane);
    if (dueAt !== null && (pass.nextDueAt === null || dueAt < pass.nextDueAt))
      pass.nextDueAt = dueAt;
  }

  /** The rows of a page that may go now, in id order; the others block their lanes. */
  private ready(page: OutboxRow[], pass: Pass): Laned[] {
    const out: Laned[] = [];
    for (const row of page) {
      const lane = this.laneOf(row, pass);
      if (pass.blocked.has(lane)) continue;
      if (row.status !== 'queued') this.block(pass, lane, null);
      else if (!pass.now && !this.isDue(row.nextAttemptAt))
        this.block(pass, lane, row.nextAttemptAt);
      else out.push({ row, lane });
    }
    return out;
  }

  /** Sends ready rows in chunks, each chunk leaving out lanes an earlier chunk blocked. */
  private async sendAll(ready: Laned[], pass: Pass, result: DrainResult, maxRows: number) {
    const size = this.batching() ? this.batchSize() * this.concurrency() : this.concurrency() * 2;
    let i = 0;
    while (i < ready.length && !pass.halted && result.sent < maxRows) {
      const chunk: Laned[] = [];
      for (; i < ready.length && chunk.length < size && result.sent + chunk.length < maxRows; i++)
        if (!pass.blocked.has(ready[i]!.lane)) chunk.push(ready[i]!);
      if (chunk.length > 0) await this.sendChunk(chunk, pass, result);
    }
  }

  private concurrency(): number {
    return Math.max(1, this.o.concurrency ?? PUSH_IN_FLIGHT);
  }

  private batchSize(): number {
    return Math.min(MAX_BATCH_ITEMS, Math.max(1, this.o.batch ?? PUSH_BATCH));
  }

  private batching(): boolean {
    return this.batchSize() > 1 && !this.batchUnsupported;
  }

  /**
   * One chunk. Its state changes commit together in `store.write(fn)` (two fsyncs per chunk,
   * not per row; an IMMEDIATE transaction takes the write lock up front, so an operator's `db`
   * command makes this wait its busy timeout rather than fail half-way). A crash between the
   * two leaves rows `sending`, queued again at start and sent under the same key.
   */
  private async sendChunk(chunk: Laned[], pass: Pass, result: DrainResult): Promise<void> {
    const { store, clock } = this.o;
    const sending: Laned[] = [];
    store.write(() => {
      for (const c of chunk) if (store.outbox.markSending(c.row.id, clock.now())) sending.push(c);
    });
    result.sent += sending.length;
    const outcomes = this.batching()
      ? await this.sendBatches(sending)
      : await this.sendLanes(sending);
    const rejected: [OutboxRow, unknown][] = [];
    store.write(() => {
      for (const [{ row, lane }, outcome] of outcomes) {
        const r = this.apply(row, lane, outcome, pass, result);
        if (r) rejected.push(r);
      }
    });
    result.sent -= outcomes.filter(([, o]) => o.kind === 'skipped').length;
    for (const [row, reason] of rejected) this.o.onRejected?.(row, reason);
  }

  /** Records one outcome; returns the row and reason when it was refused. */
  private apply(
    row: OutboxRow,
    lane: string,
    outcome: Outcome,
    pass: Pass,
    result: DrainResult,
  ): [OutboxRow, unknown] | null {
    const { store, clock } = this.o;
    if (outcome.kind === 'skipped') {
      store.outbox.unsend(row.id, clock.now());
      // Its lane may not move past it in this pass (later pages hold its later rows).
      this.block(pass, lane, null);
      return null;
    }
    if (outcome.kind !== 'retry') pass.answered = true;
    if (outcome.kind === 'done') {
      // Inside the chunk's write: the answer's reconciliation commits with the row's state.
      if (store.outbox.markDone(row.id, outcome.value, clock.now()))
        this.o.onDone?.(row, outcome.value);
      result.done += 1;
      return null;
    }
    if (outcome.kind === 'rejected') {
      store.outbox.markRejected(row.id, outcome.reason, clock.now());
      result.rejected += 1;
      return [row, outcome.reason];
    }
    const f = outcome.failure;
    result.lastFailure = f;
    result.retried += 1;
    const link = linkFailure(f);
    // A failure of the link backs the row off at least as long as the link is paused.
    const exponent = link ? Math.max(row.attempts, this.linkFailures) : row.attempts;
    const { base_ms, max_ms } = this.o.retry;
    const dueAt = clock.now() + backoffMs(exponent, base_ms, max_ms, this.random, retryAfterOf(f));
    store.outbox.markRetry(row.id, `${f.code}: ${f.message}`, dueAt, clock.now());
    this.block(pass, lane, dueAt);
    if (link) {
      // Every lane waits until the failed rows are due again (the longest of them).
      this.pausedUntil = Math.max(this.pausedUntil ?? 0, dueAt);
      pass.halted = true;
    }
    return null;
  }

  /** Sends a chunk: rows of one lane one after another, different lanes side by side. */
  private async sendLanes(rows: Laned[]): Promise<[Laned, Outcome][]> {
    const lanes = new Map<string, Laned[]>();
    for (const r of rows) lanes.set(r.lane, [...(lanes.get(r.lane) ?? []), r]);
    const out = new Map<number, Outcome>();
    const queue = [...lanes.values()];
    const worker = async () => {
      for (let lane = queue.shift(); lane; lane = queue.shift()) {
        let stopped = false;
        for (const { row } of lane) {
          // A lane stops at its first transient failure: its later rows wait their turn.
          const outcome: Outcome = stopped ? { kind: 'skipped' } : await this.sendOne(row);
          out.set(row.id, outcome);
          if (outcome.kind === 'retry') stopped = true;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency(), queue.length) }, worker));
    return rows.map((r) => [r, out.get(r.row.id)!]);
  }

  private async sendOne(row: OutboxRow): Promise<Outcome> {
    const p = this.prepare(row);
    if (!p.ok) return p.outcome;
    const { name, body, idempotencyKey } = p.write;
    return this.outcomeOf(row, await this.o.client.write(name, body, idempotencyKey));
  }

  /**
   * Sends a chunk as batches (docs/sync.md, "Drain over a slow link"): every row of a lane in
   * the same batch, in id order, which the server applies in order; batches of different
   * lanes side by side. A batch the central cannot take is sent again one write at a time.
   */
  private async sendBatches(rows: Laned[]): Promise<[Laned, Outcome][]> {
    const out = new Map<number, Outcome>();
    const groups = this.groupInBatches(rows, out);
    const queue = [...groups];
    const worker = async () => {
      for (let group = queue.shift(); group; group = queue.shift())
        for (const [{ row }, outcome] of await this.sendBatch(group)) out.set(row.id, outcome);
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency(), queue.length) }, worker));
    return rows.map((r) => [r, out.get(r.row.id)!]);
  }

  /**
   * Batches of up to batchSize() writes, a lane never split: its later rows join its batch (up
   * to MAX_BATCH_ITEMS; past that they are skipped for this pass). Rows that cannot be sent
   * get their outcome in `out` and travel in no batch.
   */
  private groupInBatches(
    rows: Laned[],
    out: Map<number, Outcome>,
  ): { laned: Laned; write: BatchWrite }[][] {
    const groups: { laned: Laned; write: BatchWrite }[][] = [];
    const home = new Map<string, { laned: Laned; write: BatchWrite }[]>();
    for (const laned of rows) {
      const p = this.prepare(laned.row);
      if (!p.ok) {
        out.set(laned.row.id, p.outcome);
        continue;
      }
      let group = home.get(laned.lane);
      if (group && group.length >= MAX_BATCH_ITEMS) {
        out.set(laned.row.id, { kind: 'skipped' });
        continue;
      }
      if (!group) {
        const last = groups.at(-1);
        group = last && last.length < this.batchSize() ? last : [];
        if (group !== last) groups.push(group);
        home.set(laned.lane, group);
      }
      group.push({ laned, write: p.write });
    }
    return groups;
  }

  private async sendBatch(
    group: { laned: Laned; write: BatchWrite }[],
  ): Promise<[Laned, Outcome][]> {
    const r = await this.o.client.writeBatch(group.map((g) => g.write));
    if (r.ok) return group.map((g, i) => [g.laned, this.outcomeOf(g.laned.row, r.value[i]!)]);
    const f = r.failure;
    if (batchUnknown(f)) this.batchUnsupported = true;
    // Refused as a whole (unknown, too large, malformed): each write gets its own answer.
    if (batchUnknown(f) || isPermanent(f)) return this.sendLanes(group.map((g) => g.laned));
    return group.map((g) => [g.laned, { kind: 'retry', failure: f }]);
  }

  /** The operation and body of a row, or its refusal when this version cannot send it. */
  private prepare(row: OutboxRow): Prepared {
    const operation = row.operation as OutboxOperation;
    const name = OUTBOX_OPERATIONS[operation];
    const parsed = OutboxPayloadV1.safeParse(row.payload);
    if (!name || row.unreadable !== undefined || !parsed.success) {
      // Not something this version can send: kept, visible, never dropped.
      const why = row.unreadable ?? 'unknown operation or payload';
      return {
        ok: false,
        outcome: {
          kind: 'rejected',
          reason: refusal('unsendable', `outbox row ${row.id}: ${why}`),
        },
      };
    }
    const body = bodyToSend(operation, parsed.data);
    return { ok: true, write: { name, body, idempotencyKey: row.transactionId } };
  }

  /** What the answer to one write means for its row. */
  private outcomeOf(row: OutboxRow, r: Result<unknown>): Outcome {
    if (r.ok) return { kind: 'done', value: r.value };
    const f = r.failure;
    if (f.kind === 'http' && f.status === NOT_ATTEMPTED) return { kind: 'skipped' };
    if (isPermanent(f)) {
      const h = f as Extract<Failure, { kind: 'http' }>;
      return {
        kind: 'rejected',
        reason: {
          status: h.status,
          error: {
            code: h.code,
            message: h.message,
            path: h.path,
            ...(h.details !== undefined ? { details: h.details } : {}),
          },
        },
      };
    }
    if (f.kind === 'invalid-response' && row.attempts + 1 >= UNREADABLE_ATTEMPTS)
      return {
        kind: 'rejected',
        reason: refusal(
          'invalid-response',
          `the server answered ${UNREADABLE_ATTEMPTS} times with an answer this terminal cannot read (it may have applied the write): ${f.message}`,
        ),
      };
    return { kind: 'retry', failure: f };
  }
}
