// The writes of a change-feed page that need no schema: a snapshot page's staged rows, the
// records quarantined and cleared, and the small sync values (the snapshot's progress, the
// last pull). The page is checked first, on the store's thread (the cache's planSnapshotPage);
// these write what the check planned, on the store's connection or on the snapshot writer's
// thread (snapshot-writer.ts), which loads SQLite and this module alone: no zod, no entities.
import type Database from 'better-sqlite3';
import type { Entity } from '../contract/feed.js';

/** A cache table as staging needs it: its name and lookup columns (entities.ts `tables`). */
export interface TableShape {
  readonly table: string;
  readonly columns: readonly string[];
}
export type TableShapes = Readonly<Record<Entity, TableShape>>;

/**
 * The live table's staging twin (migrations 0013, 0016): the same columns and primary key,
 * no other index (the live table's are built at the swap).
 */
export const stagedName = (table: string): string => `staged_${table}`;

/**
 * Rows per staging INSERT: one statement for this many records costs far less than as many
 * single-row statements (binding and stepping once; docs/sync.md, "Apply speed").
 */
export const STAGE_BATCH = 100;

/** WAL pages between checkpoints while a snapshot stages (16,384 x 4 KiB = 64 MiB). */
const SNAPSHOT_CHECKPOINT_PAGES = 16_384;

/**
 * How a snapshot page commits, on either connection (docs/sync.md, "Apply speed"): with
 * `synchronous = NORMAL` (in WAL a commit does not wait for the disk; the page and its cursor
 * commit together, so a power cut loses at most the last pages) and a checkpoint every 64 MiB
 * of log instead of 4 MiB (the index pages each page rewrites reach the file once per
 * checkpoint; journal_size_limit still truncates the log after each).
 */
export const SNAPSHOT_PAGE_PRAGMAS = {
  synchronous: 'NORMAL',
  wal_autocheckpoint: SNAPSHOT_CHECKPOINT_PAGES,
} as const;

/** One write of a snapshot page's plan, in the page's order. */
export type PageOp =
  /** Rows of one entity, their values flat in column order (id, lookups, JSON, updated_at). */
  | {
      readonly op: 'stage';
      readonly entity: Entity;
      readonly rows: number;
      readonly values: unknown[];
    }
  | { readonly op: 'unstage'; readonly entity: Entity; readonly id: string }
  | {
      readonly op: 'quarantine';
      readonly entity: string;
      readonly id: string | null;
      readonly kind: string;
      /** The record as it may be kept (secrets dropped or keyed), JSON; null when absent. */
      readonly data: string | null;
      readonly error: string;
    };

/** What planning a snapshot page counted: records valid (staged or dropped) and quarantined. */
export interface PlannedPage {
  readonly applied: number;
  readonly quarantined: number;
}

/** A snapshot under way, as sync_state keeps it (read back through sync-state's schema). */
export interface SnapshotProgressValue {
  /** The cursor to continue the snapshot from after a restart. */
  readonly cursor: string | null;
  /** When its first page was requested. */
  readonly startedAt: number;
  readonly staged: number;
}

/** One entity's staging statements. */
function stagedStatements(db: Database.Database, shape: TableShape) {
  const staged = stagedName(shape.table);
  const cols = ['id', ...shape.columns, 'data', 'updated_at'];
  const set = cols
    .slice(1)
    .map((c) => `${c} = ?`)
    .join(', ');
  // placeholders only: `(?, ?, ...)` once per row
  const row = `(${cols.map(() => '?').join(', ')})`;
  const insert = (rows: number) => {
    const values = Array<string>(rows).fill(row).join(', ');
    return db.prepare(
      `INSERT INTO ${staged} (${cols.join(', ')}) VALUES ${values} ON CONFLICT (id) DO NOTHING`,
    );
  };
  return {
    width: cols.length,
    // Insert and update apart, so staging knows how many rows it holds without counting them.
    stage: insert(1),
    stageMany: insert(STAGE_BATCH),
    restage: db.prepare(`UPDATE ${staged} SET ${set} WHERE id = ?`),
    unstage: db.prepare(`DELETE FROM ${staged} WHERE id = ?`),
    clear: db.prepare(`DELETE FROM ${staged}`),
  };
}

type StagedStatements = ReturnType<typeof stagedStatements>;

/** Writes rows already in the staging table again, in order (the last of an id wins). */
function restage(s: StagedStatements, values: readonly unknown[]): void {
  for (let at = 0; at < values.length; at += s.width) {
    const row = values.slice(at, at + s.width);
    s.restage.run(...row.slice(1), row[0]);
  }
}

/** Stages `rows` rows (their values flat, in order); how many were new. */
function stageRows(s: StagedStatements, values: unknown[], rows: number): number {
  let added = 0;
  if (rows === STAGE_BATCH) added = s.stageMany.run(values).changes;
  else
    for (let at = 0; at < values.length; at += s.width)
      added += s.stage.run(values.slice(at, at + s.width)).changes;
  // Some ids were staged already (a resumed page, an id twice): update every row of the
  // batch in order, which leaves each id with its last record, as row-by-row staging did.
  if (added < rows) restage(s, values);
  return added;
}

/**
 * The feed's schema-free writes on one connection. Staging's statements are prepared when
 * first used: a store opened on an older schema (migration tests) has no twins and never stages.
 */
export function feedWrites(db: Database.Database, shapes: TableShapes) {
  const prepared = new Map<Entity, StagedStatements>();
  const staging = (entity: Entity): StagedStatements => {
    let s = prepared.get(entity);
    if (!s) prepared.set(entity, (s = stagedStatements(db, shapes[entity])));
    return s;
  };
  const set = db.prepare(
    'INSERT INTO sync_state (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
  );
  const quarantine = db.prepare(
    'INSERT INTO quarantine (entity, record_id, op, data, error, cursor, received_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const unquarantine = db.prepare('DELETE FROM quarantine WHERE entity = ? AND record_id = ?');
  const anyQuarantined = db.prepare<[], { x: number }>(
    'SELECT EXISTS (SELECT 1 FROM quarantine) AS x',
  );
  const progress = db.prepare<[], { startedAt: unknown; staged: unknown }>(
    "SELECT json_extract(value, '$.startedAt') AS startedAt, json_extract(value, '$.staged') AS staged FROM sync_state WHERE key = 'snapshot'",
  );
  const writes = {
    /** A small sync value, as JSON. */
    setValue(key: string, value: unknown, nowMs: number): void {
      set.run(key, JSON.stringify(value), nowMs);
    },
    quarantine(q: Extract<PageOp, { op: 'quarantine' }>, cursor: string | null, nowMs: number) {
      quarantine.run(q.entity, q.id, q.kind, q.data, q.error, cursor, nowMs);
    },
    unquarantine(entity: string, id: string): void {
      unquarantine.run(entity, id);
    },
    anyQuarantined: (): boolean => anyQuarantined.get()?.x === 1,
    clearStaging(): void {
      for (const e of Object.keys(shapes) as Entity[]) staging(e).clear.run();
    },
    /**
     * Writes a snapshot page's ops in order, as they are planned; the caller holds the
     * transaction. A valid record clears its earlier quarantine (skipped while none is kept).
     * `staged()` is how the number of staged rows changed.
     */
    pageStager(cursor: string | null, nowMs: number) {
      let mayBeQuarantined = writes.anyQuarantined();
      let delta = 0;
      return {
        write(o: PageOp): void {
          if (o.op === 'quarantine') {
            writes.quarantine(o, cursor, nowMs);
            mayBeQuarantined = true;
            return;
          }
          const s = staging(o.entity);
          if (o.op === 'unstage') {
            delta -= s.unstage.run(o.id).changes;
            if (mayBeQuarantined) unquarantine.run(o.entity, o.id);
            return;
          }
          delta += stageRows(s, o.values, o.rows);
          if (mayBeQuarantined)
            for (let at = 0; at < o.values.length; at += s.width)
              unquarantine.run(o.entity, o.values[at]);
        },
        staged: (): number => delta,
      };
    },
    /**
     * Where a snapshot page starts, read inside its transaction: the snapshot under way, or,
     * when none is, a new one from this page (the staging tables emptied of what an abandoned
     * one left). Both connections decide it here, so two pulls never both start one.
     */
    snapshotStart(requestedAt: number): { startedAt: number; staged: number } {
      const row = progress.get();
      if (!row) {
        writes.clearStaging();
        return { startedAt: requestedAt, staged: 0 };
      }
      const { startedAt, staged } = row;
      if (typeof startedAt !== 'number' || typeof staged !== 'number')
        throw new Error('sync_state snapshot: the snapshot progress no longer reads');
      return { startedAt, staged };
    },
    /** Stores a snapshot's progress (sync_state `snapshot`). */
    snapshotProgress(progress: SnapshotProgressValue, nowMs: number): void {
      writes.setValue('snapshot', progress, nowMs);
    },
  };
  return writes;
}

export type FeedWrites = ReturnType<typeof feedWrites>;
