// Sync state: the change-feed cursor, the last pull, a snapshot in progress and the records
// quarantined for failing validation; and the application of one page of changes, which
// writes the records, releases the holds they reflect and stores the cursor in one
// transaction (sync.md, "Pull").
import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { Cache, Change } from './cache.js';
import { tables } from './entities.js';
import { SNAPSHOT_PAGE_PRAGMAS, feedWrites } from './feed-writes.js';
import type { Ledger } from './ledger.js';
import { readStored, readStoredOrThrow, type StoredRead } from './stored-json.js';

export interface PageInput {
  /** Consumed once, in order (the puller passes a generator that parses record by record). */
  readonly changes: Iterable<Change>;
  /** The cursor the server returned with this page. */
  readonly cursor: string | null;
  /**
   * When the request for this page was sent (the store clock's ms). Holds of operations
   * confirmed before it are released by the records the page carries, and all of them by a
   * delta page with `hasMore` false (the feed read to its end).
   */
  readonly requestedAt: number;
  /** A page of a full snapshot: staged, and swapped in with the last page (`hasMore` false). */
  readonly snapshot?: boolean;
  readonly hasMore?: boolean;
}

/** A snapshot page that is not the last, for the snapshot writer (snapshot-writer.ts). */
export type StagedPageInput = Pick<PageInput, 'changes' | 'cursor' | 'requestedAt'>;

/** The store's side of the snapshot writer: pages staged on its thread while the next is read. */
export interface SnapshotStager {
  /** Checks the page here and hands its writes to the thread; counts of what it planned. */
  stage(page: StagedPageInput): { readonly applied: number; readonly quarantined: number };
  /** Waits until at most `pages` staged pages await their commit; throws the thread's failure. */
  drain(pages?: number): Promise<void>;
  close(): Promise<void>;
}

export interface PageResult {
  readonly applied: number;
  readonly quarantined: number;
  /** True when this page swapped a completed snapshot into the cache. */
  readonly swapped: boolean;
}

export interface QuarantinedRecord {
  readonly id: number;
  readonly entity: string;
  readonly recordId: string | null;
  readonly op: string;
  readonly data: unknown;
  readonly error: string;
  readonly cursor: string | null;
  readonly receivedAt: number;
}

const SnapshotProgress = z.strictObject({
  /** The cursor to continue the snapshot from after a restart. */
  cursor: z.string().nullable(),
  /** When its first page was requested. */
  startedAt: z.number(),
  staged: z.int().min(0),
});
export type SnapshotProgress = z.output<typeof SnapshotProgress>;
const Cursor = z.string().nullable();
const LastPullAt = z.number();

export function createSyncState(db: Database.Database, cache: Cache, ledgerOf: () => Ledger) {
  const get = db.prepare<[string], { value: string }>('SELECT value FROM sync_state WHERE key = ?');
  const del = db.prepare('DELETE FROM sync_state WHERE key = ?');
  const feed = feedWrites(db, tables);
  const listQuarantine = db.prepare<[number], Record<string, unknown>>(
    'SELECT id, entity, record_id, op, data, error, cursor, received_at FROM quarantine ORDER BY id DESC LIMIT ?',
  );
  const countQuarantine = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM quarantine');
  const dropQuarantine = db.prepare('DELETE FROM quarantine WHERE id = ?');

  /** A value read through its schema; one that no longer passes throws `invalid-record`. */
  const read = <T>(key: string, schema: z.ZodType<T>): T | null => {
    const r = get.get(key);
    return r ? readStoredOrThrow(schema, r.value, `sync_state ${key}`) : null;
  };
  const write = feed.setValue;

  let rulesTouched = false;

  /**
   * Runs `fn` with a snapshot page's pragmas (feed-writes.ts, SNAPSHOT_PAGE_PRAGMAS), the
   * connection's own given back after it, also when it fails. A later FULL commit (a sale)
   * flushes the log with the snapshot's pages in it.
   */
  const unsynced = <T>(fn: () => T): T => {
    const names = Object.keys(SNAPSHOT_PAGE_PRAGMAS) as (keyof typeof SNAPSHOT_PAGE_PRAGMAS)[];
    const was = names.map((n) => [n, db.pragma(n, { simple: true }) as number] as const);
    for (const n of names) db.pragma(`${n} = ${SNAPSHOT_PAGE_PRAGMAS[n]}`);
    try {
      return fn();
    } finally {
      for (const [n, value] of was) db.pragma(`${n} = ${value}`);
    }
  };

  /** A delta page: each record written to the live cache, the holds it reflects released. */
  const applyDeltas = (page: PageInput, nowMs: number): PageResult => {
    let applied = 0;
    let quarantined = 0;
    // A valid record clears its earlier quarantine; with none kept, skip that delete per record.
    let mayBeQuarantined = feed.anyQuarantined();
    for (const change of page.changes) {
      const checked = cache.check(change);
      if (!checked.ok) {
        feed.quarantine(cache.quarantineOf(change, checked.error), page.cursor, nowMs);
        quarantined += 1;
        mayBeQuarantined = true;
        continue;
      }
      cache.apply(checked, nowMs);
      if (checked.entity === 'rule') rulesTouched = true;
      if (mayBeQuarantined) feed.unquarantine(checked.entity, checked.id);
      ledgerOf().releaseReflected(
        checked.entity,
        checked.id,
        checked.op === 'upsert' ? checked.record : null,
        page.requestedAt,
      );
      applied += 1;
    }
    write('cursor', page.cursor, nowMs);
    // The feed read to its end: every change the server made before this page was asked
    // for is in the cache now, on this page or an earlier one. A sale confirmed before
    // then is shown by its records even when they came in a page asked for earlier (a
    // pull in flight while the sale was recorded), so its holds go.
    if (page.hasMore === false) ledgerOf().releaseAllReflected(page.requestedAt);
    write('last_pull_at', nowMs, nowMs);
    return { applied, quarantined, swapped: false };
  };

  /**
   * A snapshot page: staged with the snapshot's progress, or with the last page (`hasMore`
   * false) swapped in and the cursor stored.
   */
  const applySnapshotPage = (page: PageInput, nowMs: number): PageResult => {
    const progress = feed.snapshotStart(page.requestedAt);
    const stager = feed.pageStager(page.cursor, nowMs);
    const planned = cache.planSnapshotPage(page.changes, nowMs, stager.write);
    const staged = progress.staged + stager.staged();
    const swapped = page.hasMore === false;
    if (swapped) {
      cache.swapSnapshot();
      rulesTouched = true;
      ledgerOf().releaseAllReflected(progress.startedAt);
      del.run('snapshot');
      write('cursor', page.cursor, nowMs);
    } else {
      feed.snapshotProgress({ cursor: page.cursor, startedAt: progress.startedAt, staged }, nowMs);
    }
    write('last_pull_at', nowMs, nowMs);
    return { ...planned, swapped };
  };

  const deltaPage = db.transaction(applyDeltas);
  const snapshotPage = db.transaction(applySnapshotPage);

  return {
    /**
     * Applies one page in one IMMEDIATE transaction: valid records written (or staged),
     * invalid ones quarantined, holds released, cursor stored. `onRulesChanged` runs after
     * the commit when rules moved, so the in-memory rules reload once per page.
     */
    applyPage(page: PageInput, nowMs: number, onRulesChanged?: () => void): PageResult {
      rulesTouched = false;
      let result: PageResult;
      if (page.snapshot) {
        result = unsynced(() => snapshotPage.immediate(page, nowMs));
      } else result = deltaPage.immediate(page, nowMs);
      if (rulesTouched) onRulesChanged?.();
      return result;
    },
    /** The live cursor (null: no snapshot has completed yet). */
    cursor(): string | null {
      return read('cursor', Cursor);
    },
    lastPullAt(): number | null {
      return read('last_pull_at', LastPullAt);
    },
    /** A snapshot in progress, to continue after a restart. */
    snapshot(): SnapshotProgress | null {
      return read('snapshot', SnapshotProgress);
    },
    /** Abandons a snapshot in progress (the server said its cursor expired). */
    abandonSnapshot(): void {
      db.transaction(() => {
        feed.clearStaging();
        del.run('snapshot');
      }).immediate();
    },
    /** Forgets the cursor so the next pull starts a full snapshot (410 cursor-expired). */
    resetCursor(nowMs: number): void {
      write('cursor', null, nowMs);
    },
    quarantined(limit = 100): QuarantinedRecord[] {
      return listQuarantine.all(limit).map((r) => ({
        id: r.id as number,
        entity: r.entity as string,
        recordId: (r.record_id as string | null) ?? null,
        op: r.op as string,
        data: r.data === null ? null : (JSON.parse(r.data as string) as unknown),
        error: r.error as string,
        cursor: (r.cursor as string | null) ?? null,
        receivedAt: r.received_at as number,
      }));
    },
    quarantineCount(): number {
      return countQuarantine.get()?.n ?? 0;
    },
    dismissQuarantined(id: number): boolean {
      return dropQuarantine.run(id).changes === 1;
    },
    /**
     * Other small sync values (JSON), e.g. the last server contact, read through the caller's
     * schema: null when none is kept, else the value or why it no longer reads.
     */
    getValue<T>(key: string, schema: z.ZodType<T>): StoredRead<T> | null {
      const r = get.get(key);
      return r ? readStored(schema, r.value, key) : null;
    },
    setValue(key: string, value: unknown, nowMs: number): void {
      write(key, value, nowMs);
    },
  };
}

export type SyncState = ReturnType<typeof createSyncState>;
