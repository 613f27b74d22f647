// The puller: pages of the change feed, each applied with its cursor in one SQLite transaction
// (the store's applyPage; a snapshot's pages before the last on the snapshot writer's thread,
// src/store/snapshot-writer.ts), a record that fails validation quarantined and counted,
// deletes applied. One pull runs at a time. A first sync, or a 410 cursor-expired, pages through a full snapshot into staging
// tables that are swapped in with the last page, so the till never sees empty rules. The
// snapshot's cursor is stored with each page, so a pull killed half-way resumes there.
import type { Change } from '../store/cache.js';
import type { Store } from '../store/open.js';
import type { SnapshotStager } from '../store/sync-state.js';
import type { CentralClient, ChangesPageLazy, Failure } from './client.js';
import type { SyncClock } from './clock.js';
import { LazyJsonError } from './lazy-json.js';
import { hashSecret } from '../secret-hash/index.js';

export interface PullProgress {
  /** Records of the snapshot applied so far (or of this delta run). */
  done: number;
  /** Records in the snapshot; null for deltas, whose end is not known in advance. */
  total: number | null;
  phase: 'snapshot' | 'deltas';
}

/**
 * Records per page asked for (the server allows up to 10,000). A snapshot of 1,000,000 records
 * in pages of 2,000 went through fastest and with the least memory on the 2-core bench
 * machine: 1,000 per page cost more requests, 5,000 more memory (docs/sync.md, "Apply speed",
 * fourth round).
 */
export const PAGE_LIMIT = 2_000;

export interface PullOptions {
  /** Records per page (default PAGE_LIMIT). */
  limit?: number;
  /** At most this many pages in one pull (a bound on one run; the next pull continues). */
  maxPages?: number;
  onProgress?: (p: PullProgress) => void;
  signal?: AbortSignal;
}

export type PullResult =
  | {
      ok: true;
      pages: number;
      applied: number;
      quarantined: number;
      snapshot: boolean;
      complete: boolean;
    }
  | { ok: false; failure: Failure; pages: number; applied: number; quarantined: number };

export interface PullerDeps {
  store: Store;
  client: CentralClient;
  clock: SyncClock;
}

/** A clear staff auth code never reaches the disk: it is hashed first (interfaces.md, Secrets). */
function withHashedSecrets(change: Change): Change {
  const data = change.data as Record<string, unknown> | null | undefined;
  if (change.entity !== 'staff' || !data || typeof data.auth_code !== 'string') return change;
  const { auth_code: code, ...rest } = data;
  return {
    ...change,
    data: code === '' ? rest : { ...rest, auth_code_hash: hashSecret(code as string) },
  };
}

function asChange(raw: unknown): Change {
  // The store checks each change (entity, op, id, data) and quarantines what fails; here it
  // only needs the shape of an object.
  const c = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  // Already a change's shape (every record of a well-formed page): used as it is, no copy.
  if (
    typeof c.entity === 'string' &&
    (c.op === 'upsert' || c.op === 'delete') &&
    typeof c.id === 'string'
  )
    return withHashedSecrets(c as unknown as Change);
  return withHashedSecrets({
    entity: String(c.entity ?? ''),
    op: c.op === 'delete' ? 'delete' : c.op === 'upsert' ? 'upsert' : (String(c.op) as 'upsert'),
    id: typeof c.id === 'string' ? c.id : String(c.id ?? ''),
    data: c.data,
  });
}

/**
 * Two turns of the event loop: enough for a request just made to be written to its socket.
 * The client reaches undici only after a few awaits (microtasks), and undici writes to a
 * reused keep-alive socket from a setImmediate (its idle-socket check); the apply of a page
 * is synchronous, so without these turns the next page was asked for only after the current
 * one was applied and the server never worked while the till did (docs/sync.md, "Apply
 * speed", third round). Pinned by test/sync/puller.test.ts ("asks for the next page...").
 */
async function onTheWire(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise<void>((r) => setImmediate(r));
}

/** The page's records as changes, one at a time: the page is never parsed whole (lazy-json.ts). */
function* changesOf(records: Iterable<unknown>): Generator<Change> {
  for (const raw of records) yield asChange(raw);
}

type ChangesCall = ReturnType<CentralClient['changesLazy']>;
interface Ahead {
  cursor: string;
  requestedAt: number;
  result: ChangesCall;
}

/** What one pull has done so far. */
interface PullRun {
  pages: number;
  applied: number;
  quarantined: number;
  snapshotSeen: boolean;
  /** A 410 restarts the snapshot once per pull, not in a loop. */
  restarted: boolean;
  deltaDone: number;
  ahead: Ahead | null;
  /**
   * The snapshot writer while pages are staged on its thread (null: it could not start, pages
   * are staged on the store's connection; undefined: none opened), and the last page staged.
   */
  stager: SnapshotStager | null | undefined;
  stagedCursor: string | null;
}

export class Puller {
  private readonly d: PullerDeps;
  /** The pull under way: a second one waits for it (two at once would both stage a snapshot). */
  private running: Promise<unknown> = Promise.resolve();

  constructor(d: PullerDeps) {
    this.d = d;
  }

  /**
   * Pulls until the feed has nothing more (or `maxPages`). A pull asked for while one runs
   * (the timer's, "sync now", a rejection's) starts when that one ends, from where it ended.
   */
  pull(o: PullOptions = {}): Promise<PullResult> {
    const turn = this.running.then(() => this.pullOnce(o));
    this.running = turn.catch(() => undefined);
    return turn;
  }

  private async pullOnce(o: PullOptions): Promise<PullResult> {
    const limit = o.limit ?? PAGE_LIMIT;
    const maxPages = o.maxPages ?? 100_000;
    const run: PullRun = {
      pages: 0,
      applied: 0,
      quarantined: 0,
      snapshotSeen: false,
      restarted: false,
      deltaDone: 0,
      ahead: null,
      stager: undefined,
      stagedCursor: null,
    };
    try {
      while (run.pages < maxPages) {
        if (o.signal?.aborted) break;
        const { inSnapshot, cursor } = this.position(run);
        const { requestedAt, r } = await this.fetchPage(run, cursor, limit, o.signal);
        if (!r.ok) {
          await this.settle(run);
          if (this.restartOnExpiredCursor(run, r.failure)) continue;
          return failed(run, r.failure);
        }
        const page: ChangesPageLazy = r.value;
        if (page.has_more && run.pages + 1 < maxPages && !o.signal?.aborted) {
          run.ahead = this.askAhead(page.cursor, limit, o.signal);
          // Let the request reach the socket before the page's apply holds the thread.
          await onTheWire();
        }
        const snapshot = inSnapshot || page.total !== null;
        run.snapshotSeen ||= snapshot;
        const at = { requestedAt, snapshot, status: r.status };
        // A snapshot's pages before the last are staged on the writer's thread; the last one,
        // with the swap, once they have all committed.
        let failure: Failure | null;
        if (snapshot && page.has_more) failure = await this.stagePage(run, page, at);
        else {
          await this.settle(run);
          failure = this.applyPage(run, page, at);
        }
        if (failure) {
          await this.settle(run);
          return failed(run, failure);
        }
        this.report(run, page, snapshot, o.onProgress);
        // A snapshot's last page swaps it in; the deltas recorded meanwhile follow from its cursor.
        if (!page.has_more && !snapshot) return finished(run, true);
      }
      await this.settle(run);
      return finished(run, false);
    } finally {
      // Reached with a stager only when something threw: its uncommitted page is rolled back.
      await run.stager?.close();
    }
  }

  /**
   * Stages a snapshot page that is not the last: checked here, written on the snapshot
   * writer's thread (src/store/snapshot-writer.ts) while the next page is read and checked.
   */
  private async stagePage(
    run: PullRun,
    page: ChangesPageLazy,
    at: { requestedAt: number; snapshot: boolean; status: number },
  ): Promise<Failure | null> {
    if (run.stager === undefined) run.stager = await this.d.store.openSnapshotStager();
    // The thread could not start (a build without its file, say): this pull stages here.
    if (run.stager === null) return this.applyPage(run, page, at);
    let planned;
    try {
      planned = run.stager.stage({
        changes: changesOf(page.changes),
        cursor: page.cursor,
        requestedAt: at.requestedAt,
      });
    } catch (error) {
      return unreadable(error, at.status);
    }
    run.stagedCursor = page.cursor;
    run.pages += 1;
    run.applied += planned.applied;
    run.quarantined += planned.quarantined;
    // At most three pages wait for their commit (two while the next one is checked): memory
    // stays bounded when the writer is the slower.
    await run.stager.drain(2);
    return null;
  }

  /** Every staged page committed (the thread's failure thrown), the writer stopped. */
  private async settle(run: PullRun): Promise<void> {
    const stager = run.stager;
    if (!stager) {
      run.stager = undefined;
      return;
    }
    // A failure thrown here leaves the stager to the pull's `finally`, which closes it.
    await stager.drain();
    run.stager = undefined;
    run.stagedCursor = null;
    await stager.close();
  }

  /**
   * Where the feed resumes: a snapshot under way (or none yet taken), else the delta cursor.
   * While pages are staged the store's cursor lags behind the last one staged.
   */
  private position(run: PullRun): { inSnapshot: boolean; cursor: string | null } {
    if (run.stager) return { inSnapshot: true, cursor: run.stagedCursor };
    const { store } = this.d;
    const progress = store.sync.snapshot();
    const inSnapshot = progress !== null || store.sync.cursor() === null;
    return { inSnapshot, cursor: progress ? progress.cursor : store.sync.cursor() };
  }

  /** The page at `cursor`, and when it was asked for. */
  private async fetchPage(
    run: PullRun,
    cursor: string | null,
    limit: number,
    signal: AbortSignal | undefined,
  ): Promise<{ requestedAt: number; r: Awaited<ChangesCall> }> {
    // The next page was asked for while this one was applied (the server works meanwhile).
    const prefetched: Ahead | null = run.ahead && run.ahead.cursor === cursor ? run.ahead : null;
    run.ahead = null;
    const requestedAt = prefetched ? prefetched.requestedAt : this.d.clock.now();
    const r: Awaited<ChangesCall> = prefetched
      ? await prefetched.result
      : await this.d.client.changesLazy(cursor, limit, signal ? { signal } : {});
    return { requestedAt, r };
  }

  private askAhead(cursor: string, limit: number, signal: AbortSignal | undefined): Ahead {
    return {
      cursor,
      requestedAt: this.d.clock.now(),
      result: this.d.client.changesLazy(cursor, limit, signal ? { signal } : {}),
    };
  }

  /** The server no longer knows the cursor: start a snapshot (once per pull). */
  private restartOnExpiredCursor(run: PullRun, failure: Failure): boolean {
    if (failure.kind !== 'http' || failure.status !== 410 || run.restarted) return false;
    run.restarted = true;
    this.d.store.sync.abandonSnapshot();
    this.d.store.sync.resetCursor(this.d.clock.now());
    return true;
  }

  /** Applies the page with its cursor in one transaction; a failure when it could not be read. */
  private applyPage(
    run: PullRun,
    page: ChangesPageLazy,
    at: { requestedAt: number; snapshot: boolean; status: number },
  ): Failure | null {
    let result;
    try {
      result = this.d.store.applyPage({
        changes: changesOf(page.changes),
        cursor: page.cursor,
        requestedAt: at.requestedAt,
        snapshot: at.snapshot,
        hasMore: page.has_more,
      });
    } catch (error) {
      return unreadable(error, at.status);
    }
    run.pages += 1;
    run.applied += result.applied;
    run.quarantined += result.quarantined;
    return null;
  }

  private report(
    run: PullRun,
    page: ChangesPageLazy,
    snapshot: boolean,
    onProgress: PullOptions['onProgress'],
  ): void {
    if (snapshot) {
      const staged = this.d.store.sync.snapshot()?.staged;
      onProgress?.({
        done: page.done ?? staged ?? run.applied,
        total: page.total,
        phase: 'snapshot',
      });
    } else {
      run.deltaDone += page.changes.length;
      onProgress?.({ done: run.deltaDone, total: null, phase: 'deltas' });
    }
  }
}

/**
 * A record that is not JSON: the body was malformed, the page's transaction rolled back (any
 * other error is rethrown).
 */
function unreadable(error: unknown, status: number): Failure {
  if (!(error instanceof LazyJsonError)) throw error;
  return {
    kind: 'invalid-response',
    status,
    code: 'invalid-response',
    message: `changes: ${error.message}`,
    retryable: false,
  };
}

function failed(run: PullRun, failure: Failure): PullResult {
  return {
    ok: false,
    failure,
    pages: run.pages,
    applied: run.applied,
    quarantined: run.quarantined,
  };
}

function finished(run: PullRun, complete: boolean): PullResult {
  return {
    ok: true,
    pages: run.pages,
    applied: run.applied,
    quarantined: run.quarantined,
    snapshot: run.snapshotSeen,
    complete,
  };
}
