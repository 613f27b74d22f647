// The cache of the platform's data: upserts and deletes of change-feed records, the staging
// of a full snapshot, and the lookups a till makes (customer by card, phone, e-mail, external
// id or QR; vehicle by QR, tag or AVI id; coupon by code: cache-lookups.ts). Every statement
// is prepared once.
import type Database from 'better-sqlite3';
import type { z } from 'zod';
import { ENTITIES, type Entity } from '../contract/feed.js';
import { pick } from '../contract/wire.js';
import {
  engineShapes,
  recordSchemas,
  tables,
  withoutClearSecrets,
  type RecordOf,
} from './entities.js';
import {
  lookupMethods,
  lookupStatements,
  parse,
  parseAll,
  queryPlans,
  type Row,
} from './cache-lookups.js';
import { STAGE_BATCH, stagedName, type PageOp, type PlannedPage } from './feed-writes.js';

/** One entry of `GET /v1/terminal/changes` (sync.md). */
export interface Change {
  readonly entity: string;
  readonly op: 'upsert' | 'delete';
  readonly id: string;
  readonly data?: unknown;
}

/** A change checked against its entity's schema: ready to write, or the reason it is not. */
export type CheckedChange =
  | {
      readonly ok: true;
      readonly entity: Entity;
      readonly op: 'upsert';
      readonly id: string;
      readonly record: Record<string, unknown>;
    }
  | { readonly ok: true; readonly entity: Entity; readonly op: 'delete'; readonly id: string }
  | { readonly ok: false; readonly error: string };

/** Extra schemas a caller may add per entity (the contract's, stricter than the store's own). */
export type EntitySchemas = Partial<Record<Entity, z.ZodType>>;

/** The id types of a till's identify step (engine.md 14, IdType). */
export type IdType = 'phone' | 'card' | 'qr' | 'email' | 'external-id' | 'vehicle' | 'avi';

export type CachedCustomer = RecordOf<'customer'>;
export type CachedVehicle = RecordOf<'vehicle'>;

export interface Identified {
  readonly customer: CachedCustomer | null;
  /** Set when the identifier named a vehicle (vehicle QR or tag, AVI id). */
  readonly vehicle: CachedVehicle | null;
}

function issuesText(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(record)'}: ${i.message}`)
    .join('; ');
}

/** Fields holding a hash of a secret a person types (interfaces.md, Secrets). */
const HASH_FIELDS = new Set(['auth_code_hash', 'pin_hash']);
/** The entities that carry them. */
export const SECRET_ENTITIES = ['staff', 'special_account', 'corporate_access'] as const;

/**
 * `value` with every hash field, at any depth, in its stored form (keyed with the terminal's
 * secret, docs/store.md); the same object when nothing changed.
 */
export function keyHashes<T>(value: T, wrap: (hash: string) => string): T {
  if (Array.isArray(value)) {
    const out = value.map((v: unknown) => keyHashes(v, wrap));
    return (out.some((v, i) => v !== value[i]) ? out : value) as T;
  }
  if (value === null || typeof value !== 'object') return value;
  let copy: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(value)) {
    const next = HASH_FIELDS.has(k) && typeof v === 'string' ? wrap(v) : keyHashes(v, wrap);
    if (next === v) continue;
    copy ??= { ...(value as Record<string, unknown>) };
    copy[k] = next;
  }
  return (copy ?? value) as T;
}

/** Each entity's statements: upsert, delete, read by id, read all, count. */
function entityStatements(db: Database.Database) {
  const upsert = new Map<Entity, Database.Statement>();
  const remove = new Map<Entity, Database.Statement>();
  const get = new Map<Entity, Database.Statement<[string], Row>>();
  const all = new Map<Entity, Database.Statement<[], Row>>();
  const count = new Map<Entity, Database.Statement<[], { n: number }>>();
  for (const e of ENTITIES) {
    const { table, columns } = tables[e];
    const cols = ['id', ...columns, 'data', 'updated_at'];
    const set = cols
      .slice(1)
      .map((c) => `${c} = excluded.${c}`)
      .join(', ');
    upsert.set(
      e,
      db.prepare(
        `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')}) ON CONFLICT (id) DO UPDATE SET ${set}`,
      ),
    );
    remove.set(e, db.prepare(`DELETE FROM ${table} WHERE id = ?`));
    get.set(e, db.prepare<[string], Row>(`SELECT id, data FROM ${table} WHERE id = ?`));
    all.set(e, db.prepare<[], Row>(`SELECT id, data FROM ${table}`));
    count.set(e, db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`));
  }
  return { upsert, remove, get, all, count };
}

/** The live table's staging twin (feed-writes.ts). */
export const stagedTable = (entity: Entity): string => stagedName(tables[entity].table);

/** The statements of the rule-by-POS index. */
function rulePosStatements(db: Database.Database) {
  return {
    deleteRulePos: db.prepare('DELETE FROM rule_pos WHERE rule_id = ?'),
    insertRulePos: db.prepare('INSERT OR IGNORE INTO rule_pos (pos_id, rule_id) VALUES (?, ?)'),
    // The swap's rule-by-POS rows, from the rules' stored JSON (checked when staged).
    rulePosOfAll: () =>
      db
        .prepare(
          "INSERT OR IGNORE INTO rule_pos (pos_id, rule_id) SELECT json_extract(p.value, '$.id'), r.id FROM rule r, json_each(r.data, '$.pos') p",
        )
        .run(),
  };
}

/** What the writes of the cache share. */
interface Writer {
  readonly entities: ReturnType<typeof entityStatements>;
  readonly rulePos: ReturnType<typeof rulePosStatements>;
  readonly onRulesChanged: () => void;
}

const secretEntities = new Set<string>(SECRET_ENTITIES);

/** The record as the cache keeps it: clear secrets dropped, hashes keyed, engine fields checked. */
function storedForm(
  entity: Entity,
  data: Record<string, unknown>,
  wrapHash: (hash: string) => string,
): { ok: true; record: Record<string, unknown> } | { ok: false; error: string } {
  let record = withoutClearSecrets(data);
  if (secretEntities.has(entity)) record = keyHashes(record, wrapHash);
  const shape = engineShapes[entity];
  if (shape) {
    const engine = shape.schema.safeParse(pick(record, shape.keys));
    if (!engine.success) return { ok: false, error: issuesText(engine.error) };
    record = { ...record, ...(engine.data as Record<string, unknown>) };
  }
  return { ok: true, record };
}

/** The entities by name (a set lookup, where a zod enum parse per record cost more). */
const entityNames: ReadonlySet<string> = new Set<string>(ENTITIES);

/** Validates one change: the entity is known, the record passes the store's schema (and the caller's). */
function checkChange(
  change: Change,
  extra: EntitySchemas,
  wrapHash: (hash: string) => string,
): CheckedChange {
  if (!entityNames.has(change.entity))
    return { ok: false, error: `unknown entity "${String(change.entity)}"` };
  const entity = change.entity as Entity;
  if (typeof change.id !== 'string' || change.id.length === 0)
    return { ok: false, error: 'id: missing' };
  if (change.op === 'delete') return { ok: true, entity, op: 'delete', id: change.id };
  if (change.op !== 'upsert')
    return { ok: false, error: `op: "${String(change.op)}" is neither upsert nor delete` };
  const own = recordSchemas[entity].safeParse(change.data);
  if (!own.success) return { ok: false, error: issuesText(own.error) };
  const more = extra[entity]?.safeParse(change.data);
  if (more && !more.success) return { ok: false, error: issuesText(more.error) };
  const stored = storedForm(entity, own.data as Record<string, unknown>, wrapHash);
  if (!stored.ok) return stored;
  const inner = stored.record.id;
  if (typeof inner === 'string' && inner !== change.id) {
    return {
      ok: false,
      error: `id: the record's id ${inner} differs from the change's ${change.id}`,
    };
  }
  return { ok: true, entity, op: 'upsert', id: change.id, record: stored.record };
}

function write<E extends Entity>(
  w: Writer,
  entity: E,
  id: string,
  record: RecordOf<E>,
  nowMs: number,
): void {
  const def = tables[entity];
  w.entities.upsert.get(entity)?.run(id, ...def.values(record), JSON.stringify(record), nowMs);
  if (entity === 'rule') {
    w.rulePos.deleteRulePos.run(id);
    for (const p of (record as RecordOf<'rule'>).pos ?? []) w.rulePos.insertRulePos.run(p.id, id);
    w.onRulesChanged();
  }
}

function remove(w: Writer, entity: Entity, id: string): void {
  w.entities.remove.get(entity)?.run(id);
  if (entity === 'rule') w.onRulesChanged();
}

/** Appends a staged row's values in column order: id, lookup columns, JSON, updated_at. */
function pushStagedRow(
  values: unknown[],
  change: Extract<CheckedChange, { op: 'upsert' }>,
  nowMs: number,
): void {
  values.push(change.id);
  for (const cell of columnsOf(change.entity, change.record)) values.push(cell);
  values.push(JSON.stringify(change.record), nowMs);
}

/** The quarantine entry of a change that failed its check: the record as it may be kept. */
function quarantineOp(
  change: Change,
  error: string,
  protect: (data: unknown) => unknown,
): Extract<PageOp, { op: 'quarantine' }> {
  const data = (change as { data?: unknown }).data;
  return {
    op: 'quarantine',
    entity: String(change.entity),
    id: typeof change.id === 'string' ? change.id : null,
    kind: String(change.op),
    data: data === undefined ? null : JSON.stringify(protect(data)),
    error,
  };
}

/**
 * Checks a snapshot page's records and plans its writes (feed-writes.ts), handing each op to
 * `emit` as soon as it is whole: upserts gathered per entity, STAGE_BATCH rows to a `stage`
 * op. A delete first closes its entity's batch and a quarantine every batch, so the writes keep
 * the page's order (the last record of an id wins, a record quarantined after a valid one of
 * its id stays quarantined).
 */
function planSnapshotPage(
  changes: Iterable<Change>,
  check: (change: Change) => CheckedChange,
  protect: (data: unknown) => unknown,
  nowMs: number,
  emit: (op: PageOp) => void,
): PlannedPage {
  const pending = new Map<Entity, { values: unknown[]; rows: number }>();
  const close = (entity: Entity): void => {
    const p = pending.get(entity);
    if (p) emit({ op: 'stage', entity, rows: p.rows, values: p.values });
    pending.delete(entity);
  };
  let applied = 0;
  let quarantined = 0;
  for (const change of changes) {
    const checked = check(change);
    if (!checked.ok) {
      for (const entity of [...pending.keys()]) close(entity);
      emit(quarantineOp(change, checked.error, protect));
      quarantined += 1;
      continue;
    }
    applied += 1;
    if (checked.op === 'delete') {
      close(checked.entity);
      emit({ op: 'unstage', entity: checked.entity, id: checked.id });
      continue;
    }
    let p = pending.get(checked.entity);
    if (!p) pending.set(checked.entity, (p = { values: [], rows: 0 }));
    pushStagedRow(p.values, checked, nowMs);
    p.rows += 1;
    if (p.rows === STAGE_BATCH) close(checked.entity);
  }
  for (const entity of [...pending.keys()]) close(entity);
  return { applied, quarantined };
}

/** The lookup columns of a checked record (TypeScript cannot follow the entity's index). */
function columnsOf<E extends Entity>(entity: E, record: Record<string, unknown>) {
  return tables[entity].values(record as RecordOf<E>);
}

/**
 * Replaces one cache table by its staged twin, by renaming: each row is written once, when
 * staged (docs/sync.md, "Apply speed", third round). The live table's indexes are created
 * again from their own SQL, so they keep their names and definitions, and an empty twin from
 * the twin's. DDL is transactional in SQLite: the caller's transaction makes the swap of
 * every table one step, and a failure at any table leaves the old cache and the staged rows.
 */
function swapTable(db: Database.Database, schema: SchemaReads, entity: Entity): void {
  const table = tables[entity].table;
  const staged = stagedTable(entity);
  const twin = schema.table.get(staged);
  if (!twin) throw new Error(`snapshot swap: no staging table ${staged}`);
  const indexes = schema.indexes.all(table);
  // Dropping `rule` cascades to rule_pos (its foreign key); the swap rebuilds that.
  db.exec(`DROP TABLE ${table}`);
  db.exec(`ALTER TABLE ${staged} RENAME TO ${table}`);
  // SQL from the schema (the migrations' own text), run as it is: not built from values.
  for (const ix of indexes) db.exec(ix.sql);
  db.exec(twin.sql);
}

/** The schema's SQL of a table and of its indexes (an automatic one has none and follows it). */
function schemaReads(db: Database.Database) {
  return {
    table: db.prepare<[string], { sql: string }>(
      "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?",
    ),
    indexes: db.prepare<[string], { sql: string }>(
      "SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name",
    ),
  };
}

type SchemaReads = ReturnType<typeof schemaReads>;

/** Replaces every cache table by the staged snapshot; the caller holds the transaction. */
function swapSnapshot(db: Database.Database, w: Writer): void {
  const schema = schemaReads(db);
  for (const e of ENTITIES) swapTable(db, schema, e);
  w.rulePos.rulePosOfAll();
  w.onRulesChanged();
}

export function createCache(
  db: Database.Database,
  options: {
    entitySchemas?: EntitySchemas;
    onRulesChanged: () => void;
    /** The stored form of a secret's hash (default: as the feed sends it). */
    wrapHash?: (hash: string) => string;
  },
) {
  const extra = options.entitySchemas ?? {};
  const wrapHash = options.wrapHash ?? ((h: string) => h);
  const entities = entityStatements(db);
  const w: Writer = {
    entities,
    rulePos: rulePosStatements(db),
    onRulesChanged: options.onRulesChanged,
  };
  const lookups = lookupStatements(db);
  const check = (change: Change): CheckedChange => checkChange(change, extra, wrapHash);
  // Raw feed data as it may be kept (quarantine): clear secrets dropped, hashes keyed.
  const protect = (data: unknown): unknown => {
    const plain =
      data && typeof data === 'object' && !Array.isArray(data)
        ? withoutClearSecrets(data as Record<string, unknown>)
        : data;
    return keyHashes(plain, wrapHash);
  };
  const byId = <E extends Entity>(entity: E, id: string): RecordOf<E> | null =>
    parse(entity, entities.get.get(entity)?.get(id));
  // The POS records' version (posVersion): bumped by this connection's writes of a POS row
  // (a rolled-back one only costs a reread); PRAGMA data_version moves on another's commit.
  let posWrites = 0;
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  // While the snapshot writer's thread commits pages (staging twins, progress: no live
  // table), the stamp keeps the data_version seen when it started; its end bumps the stamp.
  let heldVersion: number | null = null;

  /** Writes a checked change to the live cache (a delta page, seeding). */
  function apply(change: Extract<CheckedChange, { ok: true }>, nowMs: number): void {
    if (change.entity === 'pos') posWrites += 1;
    if (change.op === 'upsert')
      write(w, change.entity, change.id, change.record as RecordOf<typeof change.entity>, nowMs);
    else remove(w, change.entity, change.id);
  }
  return {
    check,
    apply,
    /** The quarantine entry of a change that failed its check (feed-writes.ts). */
    quarantineOf: (change: Change, error: string) => quarantineOp(change, error, protect),
    /** Checks a snapshot page's records and hands their staging to `emit` (feed-writes.ts). */
    planSnapshotPage: (
      changes: Iterable<Change>,
      nowMs: number,
      emit: (op: PageOp) => void,
    ): PlannedPage => planSnapshotPage(changes, check, protect, nowMs, emit),
    /** EXPLAIN QUERY PLAN of every lookup (migration tests check that indexes serve them). */
    queryPlans: (): Record<string, string> => queryPlans(db, lookups),
    swapSnapshot: (): void => {
      posWrites += 1;
      swapSnapshot(db, w);
    },
    /**
     * A stamp that changes whenever a POS record may have changed (the puller's writes, a
     * snapshot swap, another connection's commit): what reads a POS record once per version
     * keys on it (the till's catalogue, src/terminal/catalog.ts).
     */
    posVersion: (): string => `${posWrites}:${heldVersion ?? dataVersion.get() ?? 0}`,
    /**
     * Holds the POS stamp still while the snapshot writer's thread stages (snapshot-writer.ts;
     * one pull at a time, and the app's lock keeps other writers out); the returned function
     * lets go of it.
     */
    holdPosVersion(): () => void {
      heldVersion = dataVersion.get() ?? 0;
      return () => {
        heldVersion = null;
        posWrites += 1;
      };
    },
    /** Validates and writes one record directly (seeding, tests); throws on an invalid record. */
    put<E extends Entity>(
      entity: E,
      record: z.input<(typeof recordSchemas)[E]> & { id?: string },
      nowMs: number,
      id?: string,
    ): void {
      const key = id ?? record.id;
      if (!key) throw new Error(`${entity}: an id is required`);
      const c = check({ entity, op: 'upsert', id: key, data: record });
      if (!c.ok) throw new Error(`${entity} ${key}: ${c.error}`);
      apply(c, nowMs);
    },
    get: byId,
    all: <E extends Entity>(entity: E): RecordOf<E>[] =>
      parseAll(entity, entities.all.get(entity)?.all() ?? []),
    count: (entity: Entity): number => entities.count.get(entity)?.get()?.n ?? 0,
    ...lookupMethods(lookups, (id) => byId('customer', id)),
    /** The PIN hash of a special account or corporate access, for the caller to verify a PIN. */
    pinHashOf(accountOrAccessId: string): string | null {
      const a = byId('special_account', accountOrAccessId);
      if (a) return a.pin_hash ?? null;
      return byId('corporate_access', accountOrAccessId)?.pin_hash ?? null;
    },
  };
}

export type Cache = ReturnType<typeof createCache>;
