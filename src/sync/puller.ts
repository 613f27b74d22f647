// The puller: pages of the change feed, each applied with its cursor in one SQLite transaction
// (the store's applyPage), a record that fails validation quarantined and counted, deletes
// applied. A first sync, or a 410 cursor-expired, pages through a full snapshot into staging
// tables that are swapped in with the last page, so the till never sees empty rules. The
// snapshot's cursor is stored with each page, so a pull killed half-way resumes there.
import type { Change } from '../store/cache.js';
import type { Store } from '../store/open.js';
import type { CentralClient, ChangesPageLazy, Failure } from './client.js';
import type { SyncClock } from './clock.js';
import { LazyJsonError } from './lazy-json.js';
import { hashSecret } from './secret-hash.js';

export interface PullProgress {
  /** Records of the snapshot applied so far (or of this delta run). */
  done: number;
  /** Records in the snapshot; null for deltas, whose end is not known in advance. */
  total: number | null;
  phase: 'snapshot' | 'deltas';
}

export interface PullOptions {
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
  return withHashedSecrets({
    entity: String(c.entity ?? ''),
    op: c.op === 'delete' ? 'delete' : c.op === 'upsert' ? 'upsert' : (String(c.op) as 'upsert'),
    id: typeof c.id === 'string' ? c.id : String(c.id ?? ''),
    data: c.data,
  });
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

export class Puller {
  private readonly d: PullerDeps;

  constructor(d: PullerDeps) {
    this.d = d;
  }

  /** Pulls until the feed has nothing more (or `maxPages`). */
  async pull(o: PullOptions = {}): Promise<PullResult> {
    const { store, client, clock } = this.d;
    const limit = o.limit ?? 1_000;
    const maxPages = o.maxPages ?? 100_000;
    let pages = 0;
    let applied = 0;
    let quarantined = 0;
    let snapshotSeen = false;
    let restarted = false;
    let deltaDone = 0;
    let ahead: Ahead | null = null;

    while (pages < maxPages) {
      if (o.signal?.aborted) break;
      const progress = store.sync.snapshot();
      const inSnapshot = progress !== null || store.sync.cursor() === null;
      const cursor = progress ? progress.cursor : store.sync.cursor();
      // The next page was asked for while this one was applied (the server works meanwhile).
      const prefetched: Ahead | null = ahead && ahead.cursor === cursor ? ahead : null;
      ahead = null;
      const requestedAt = prefetched ? prefetched.requestedAt : clock.now();
      const r: Awaited<ChangesCall> = prefetched
        ? await prefetched.result
        : await client.changesLazy(cursor, limit, o.signal ? { signal: o.signal } : {});
      if (!r.ok) {
        if (r.failure.kind === 'http' && r.failure.status === 410 && !restarted) {
          // The server no longer knows the cursor: start a snapshot (once per pull).
          restarted = true;
          store.sync.abandonSnapshot();
          store.sync.resetCursor(clock.now());
          continue;
        }
        return { ok: false, failure: r.failure, pages, applied, quarantined };
      }
      const page: ChangesPageLazy = r.value;
      if (page.has_more && pages + 1 < maxPages && !o.signal?.aborted) {
        ahead = {
          cursor: page.cursor,
          requestedAt: clock.now(),
          result: client.changesLazy(page.cursor, limit, o.signal ? { signal: o.signal } : {}),
        };
      }
      const snapshot = inSnapshot || page.total !== null;
      snapshotSeen ||= snapshot;
      let result;
      try {
        result = store.applyPage({
          changes: changesOf(page.changes),
          cursor: page.cursor,
          requestedAt,
          snapshot,
          hasMore: page.has_more,
        });
      } catch (error) {
        // A record that is not JSON: the body was malformed, the page's transaction rolled back.
        if (!(error instanceof LazyJsonError)) throw error;
        const failure: Failure = {
          kind: 'invalid-response',
          status: r.status,
          code: 'invalid-response',
          message: `changes: ${error.message}`,
          retryable: false,
        };
        return { ok: false, failure, pages, applied, quarantined };
      }
      pages += 1;
      applied += result.applied;
      quarantined += result.quarantined;
      if (snapshot) {
        const staged = store.sync.snapshot()?.staged;
        o.onProgress?.({
          done: page.done ?? staged ?? applied,
          total: page.total,
          phase: 'snapshot',
        });
      } else {
        deltaDone += page.changes.length;
        o.onProgress?.({ done: deltaDone, total: null, phase: 'deltas' });
      }
      // A snapshot's last page swaps it in; the deltas recorded meanwhile follow from its cursor.
      if (!page.has_more && !snapshot)
        return { ok: true, pages, applied, quarantined, snapshot: snapshotSeen, complete: true };
    }
    return { ok: true, pages, applied, quarantined, snapshot: snapshotSeen, complete: false };
  }
}
