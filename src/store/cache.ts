// The cache of the platform's data: upserts and deletes of change-feed records, the staging
// of a full snapshot, and the lookups a till makes (customer by card, phone, e-mail, external
// id or QR; vehicle by QR, tag or AVI id; coupon by code). Every statement is prepared once.
import type Database from 'better-sqlite3';
import type { z } from 'zod';
import { pick } from '../contract/wire.js';
import {
  engineShapes,
  ENTITIES,
  Entity,
  normaliseEmail,
  normalisePhone,
  recordSchemas,
  tables,
  withoutClearSecrets,
  type RecordOf,
} from './entities.js';
import { storeError } from './errors.js';
import { readStoredOrThrow } from './stored-json.js';

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

type Row = { id: string; data: string };

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
  const secretEntities = new Set<string>(SECRET_ENTITIES);

  const upserts = new Map<Entity, Database.Statement>();
  const deletes = new Map<Entity, Database.Statement>();
  const gets = new Map<Entity, Database.Statement<[string], Row>>();
  for (const e of ENTITIES) {
    const { table, columns } = tables[e];
    const cols = ['id', ...columns, 'data', 'updated_at'];
    const set = cols
      .slice(1)
      .map((c) => `${c} = excluded.${c}`)
      .join(', ');
    upserts.set(
      e,
      db.prepare(
        `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')}) ON CONFLICT (id) DO UPDATE SET ${set}`,
      ),
    );
    deletes.set(e, db.prepare(`DELETE FROM ${table} WHERE id = ?`));
    gets.set(e, db.prepare<[string], Row>(`SELECT id, data FROM ${table} WHERE id = ?`));
  }
  const deleteRulePos = db.prepare('DELETE FROM rule_pos WHERE rule_id = ?');
  const insertRulePos = db.prepare(
    'INSERT OR IGNORE INTO rule_pos (pos_id, rule_id) VALUES (?, ?)',
  );
  // Insert and update apart, so staging knows how many rows it holds without counting them.
  const stageRow = db.prepare(
    'INSERT INTO snapshot_staging (entity, id, data) VALUES (?, ?, ?) ON CONFLICT (entity, id) DO NOTHING',
  );
  const restageRow = db.prepare('UPDATE snapshot_staging SET data = ? WHERE entity = ? AND id = ?');
  const unstageRow = db.prepare('DELETE FROM snapshot_staging WHERE entity = ? AND id = ?');
  // Keyset pages: better-sqlite3 cannot write while a statement of its connection iterates.
  // Small ones: a page's rows stay alive while they are written, and what survives the young
  // generation's scavenges makes V8 grow it (the snapshot's peak RSS, docs/sync.md).
  const stagedRows = db.prepare<[string, string], { entity: string; id: string; data: string }>(
    'SELECT entity, id, data FROM snapshot_staging WHERE (entity, id) > (?, ?) ORDER BY entity, id LIMIT 100',
  );
  const clearStaging = db.prepare('DELETE FROM snapshot_staging');
  const clearTable = new Map(
    ENTITIES.map((e) => [e, db.prepare(`DELETE FROM ${tables[e].table}`)] as const),
  );

  const byCard = db.prepare<[string], Row>(
    'SELECT c.data FROM card k JOIN customer c ON c.id = k.customer_id WHERE k.code = ? LIMIT 1',
  );
  const byPhone = db.prepare<[string], Row>(
    'SELECT id, data FROM customer WHERE phone = ? LIMIT 1',
  );
  const byEmail = db.prepare<[string], Row>(
    'SELECT id, data FROM customer WHERE email = ? LIMIT 1',
  );
  const byExternalId = db.prepare<[string], Row>(
    'SELECT id, data FROM customer WHERE external_id = ? LIMIT 1',
  );
  const byQr = db.prepare<[string], Row>('SELECT id, data FROM customer WHERE qr_code = ? LIMIT 1');
  const vehicleByQr = db.prepare<[string], Row>(
    'SELECT id, data FROM vehicle WHERE qr_code = ? LIMIT 1',
  );
  const vehicleByTag = db.prepare<[string], Row>(
    'SELECT id, data FROM vehicle WHERE tag = ? LIMIT 1',
  );
  const vehicleByAvi = db.prepare<[string], Row>(
    'SELECT id, data FROM vehicle WHERE avi_id = ? LIMIT 1',
  );
  const couponsByCode = db.prepare<[string], Row>('SELECT id, data FROM coupon WHERE code = ?');
  const couponBatchByCode = db.prepare<[string], Row>(
    'SELECT id, data FROM coupon_batch WHERE code = ? LIMIT 1',
  );
  const cardsOf = db.prepare<[string], Row>('SELECT id, data FROM card WHERE customer_id = ?');
  const lotsOf = db.prepare<[string], Row>('SELECT id, data FROM bonus_lot WHERE customer_id = ?');
  const accountsOf = db.prepare<[string], Row>(
    'SELECT id, data FROM special_account WHERE customer_id = ?',
  );
  const accessesOf = db.prepare<[string], Row>(
    'SELECT id, data FROM corporate_access WHERE customer_id = ?',
  );
  const vehiclesOf = db.prepare<[string], Row>(
    'SELECT id, data FROM vehicle WHERE customer_id = ?',
  );
  const couponsOf = db.prepare<[string], Row>('SELECT id, data FROM coupon WHERE customer_id = ?');
  const statsOf = db.prepare<[string], Row>(
    'SELECT id, data FROM customer_stats WHERE customer_id = ? LIMIT 1',
  );
  const costsOf = db.prepare<[string], Row>(
    'SELECT id, data FROM additional_cost WHERE loyalty_id = ? OR loyalty_id IS NULL',
  );
  const allOf = new Map(
    ENTITIES.map(
      (e) => [e, db.prepare<[], Row>(`SELECT id, data FROM ${tables[e].table}`)] as const,
    ),
  );
  const countOf = new Map(
    ENTITIES.map(
      (e) =>
        [e, db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${tables[e].table}`)] as const,
    ),
  );

  // Read back through the store's own schema of the entity (the one `check` wrote it by): a
  // record that no longer passes throws `invalid-record`, naming its table and id.
  const readRecord = <E extends Entity>(entity: E, row: Row): RecordOf<E> =>
    // The entity's own schema, so its output is RecordOf<E> (TypeScript cannot follow the index).
    readStoredOrThrow(
      recordSchemas[entity] as unknown as z.ZodType<RecordOf<E>>,
      row.data,
      `${tables[entity].table} ${row.id}`,
    );
  const parse = <E extends Entity>(entity: E, row: Row | undefined): RecordOf<E> | null =>
    row ? readRecord(entity, row) : null;
  const parseAll = <E extends Entity>(entity: E, rows: Row[]): RecordOf<E>[] =>
    rows.map((r) => readRecord(entity, r));

  /** Validates one change: the entity is known, the record passes the store's schema (and the caller's). */
  function check(change: Change): CheckedChange {
    const entity = Entity.safeParse(change.entity);
    if (!entity.success) return { ok: false, error: `unknown entity "${String(change.entity)}"` };
    if (typeof change.id !== 'string' || change.id.length === 0)
      return { ok: false, error: 'id: missing' };
    if (change.op === 'delete')
      return { ok: true, entity: entity.data, op: 'delete', id: change.id };
    if (change.op !== 'upsert')
      return { ok: false, error: `op: "${String(change.op)}" is neither upsert nor delete` };
    const own = recordSchemas[entity.data].safeParse(change.data);
    if (!own.success) return { ok: false, error: issuesText(own.error) };
    const more = extra[entity.data]?.safeParse(change.data);
    if (more && !more.success) return { ok: false, error: issuesText(more.error) };
    let record = withoutClearSecrets(own.data as Record<string, unknown>);
    if (secretEntities.has(entity.data)) record = keyHashes(record, wrapHash);
    const shape = engineShapes[entity.data];
    if (shape) {
      const engine = shape.schema.safeParse(pick(record, shape.keys));
      if (!engine.success) return { ok: false, error: issuesText(engine.error) };
      record = { ...record, ...(engine.data as Record<string, unknown>) };
    }
    const inner = record.id;
    if (typeof inner === 'string' && inner !== change.id) {
      return {
        ok: false,
        error: `id: the record's id ${inner} differs from the change's ${change.id}`,
      };
    }
    return { ok: true, entity: entity.data, op: 'upsert', id: change.id, record };
  }

  function write<E extends Entity>(
    entity: E,
    id: string,
    record: RecordOf<E>,
    nowMs: number,
    /** The record's JSON when the caller has it already (the snapshot swap). */
    json?: string,
  ): void {
    const def = tables[entity];
    upserts.get(entity)?.run(id, ...def.values(record), json ?? JSON.stringify(record), nowMs);
    if (entity === 'rule') {
      deleteRulePos.run(id);
      for (const p of (record as RecordOf<'rule'>).pos ?? []) insertRulePos.run(p.id, id);
      options.onRulesChanged();
    }
  }

  function remove(entity: Entity, id: string): void {
    deletes.get(entity)?.run(id);
    if (entity === 'rule') options.onRulesChanged();
  }

  /**
   * Writes a checked change (to the snapshot staging area when `staging`). Returns how the
   * number of staged rows changed (+1 a new one, -1 one dropped, 0 otherwise).
   */
  function apply(
    change: Extract<CheckedChange, { ok: true }>,
    nowMs: number,
    staging = false,
  ): number {
    if (staging) {
      if (change.op === 'delete') return -unstageRow.run(change.entity, change.id).changes;
      const json = JSON.stringify(change.record);
      if (stageRow.run(change.entity, change.id, json).changes === 1) return 1;
      restageRow.run(json, change.entity, change.id);
      return 0;
    }
    if (change.op === 'upsert')
      write(change.entity, change.id, change.record as RecordOf<typeof change.entity>, nowMs);
    else remove(change.entity, change.id);
    return 0;
  }

  /** Replaces every cache table by the staged snapshot; the caller holds the transaction. */
  function swapSnapshot(nowMs: number): number {
    for (const e of ENTITIES) clearTable.get(e)?.run();
    let n = 0;
    let after: [string, string] = ['', ''];
    for (;;) {
      const rows = stagedRows.all(...after);
      for (const row of rows) {
        const entity = Entity.safeParse(row.entity);
        if (!entity.success)
          throw storeError(
            'invalid-record',
            `snapshot_staging ${row.entity} ${row.id}: no such entity`,
          );
        write(entity.data, row.id, readRecord(entity.data, row), nowMs, row.data);
      }
      n += rows.length;
      const last = rows[rows.length - 1];
      if (!last) break;
      after = [last.entity, last.id];
    }
    clearStaging.run();
    options.onRulesChanged();
    return n;
  }

  function customerById(id: string): CachedCustomer | null {
    return parse('customer', gets.get('customer')?.get(id));
  }

  /** The customer an identifier names, and the vehicle when it named one. */
  function identify(id: string, idType: IdType): Identified {
    const none: Identified = { customer: null, vehicle: null };
    const viaVehicle = (row: Row | undefined): Identified => {
      const vehicle = parse('vehicle', row);
      if (!vehicle) return none;
      return { vehicle, customer: vehicle.customer_id ? customerById(vehicle.customer_id) : null };
    };
    switch (idType) {
      case 'card':
        return { customer: parse('customer', byCard.get(id)), vehicle: null };
      case 'phone': {
        const p = normalisePhone(id);
        return { customer: p ? parse('customer', byPhone.get(p)) : null, vehicle: null };
      }
      case 'email': {
        const e = normaliseEmail(id);
        return { customer: e ? parse('customer', byEmail.get(e)) : null, vehicle: null };
      }
      case 'external-id':
        return { customer: parse('customer', byExternalId.get(id)), vehicle: null };
      case 'qr':
        // A customer's QR, or a card's code printed as QR.
        return {
          customer: parse('customer', byQr.get(id)) ?? parse('customer', byCard.get(id)),
          vehicle: null,
        };
      case 'vehicle':
        return viaVehicle(vehicleByQr.get(id) ?? vehicleByTag.get(id));
      case 'avi':
        return viaVehicle(vehicleByAvi.get(id));
    }
  }

  const lookups: Record<string, Database.Statement> = {
    customerByCard: byCard,
    customerByPhone: byPhone,
    customerByEmail: byEmail,
    customerByExternalId: byExternalId,
    customerByQr: byQr,
    vehicleByQr,
    vehicleByTag,
    vehicleByAvi,
    couponsByCode,
    couponBatchByCode,
    cardsOf,
    bonusLotsOf: lotsOf,
    specialAccountsOf: accountsOf,
    corporateAccessesOf: accessesOf,
    vehiclesOf,
    couponsOf,
    statsOf,
  };

  return {
    check,
    apply,
    /** Raw feed data as it may be kept (quarantine): clear secrets dropped, hashes keyed. */
    protect(data: unknown): unknown {
      const plain =
        data && typeof data === 'object' && !Array.isArray(data)
          ? withoutClearSecrets(data as Record<string, unknown>)
          : data;
      return keyHashes(plain, wrapHash);
    },
    /** EXPLAIN QUERY PLAN of every lookup (migration tests check that indexes serve them). */
    queryPlans(): Record<string, string> {
      const out: Record<string, string> = {};
      for (const [name, stmt] of Object.entries(lookups)) {
        const rows = db
          .prepare<[string], { detail: string }>(`EXPLAIN QUERY PLAN ${stmt.source}`)
          .all('x');
        out[name] = rows.map((r) => r.detail).join('\n');
      }
      return out;
    },
    swapSnapshot,
    clearStaging: () => void clearStaging.run(),
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
    get<E extends Entity>(entity: E, id: string): RecordOf<E> | null {
      return parse(entity, gets.get(entity)?.get(id));
    },
    all<E extends Entity>(entity: E): RecordOf<E>[] {
      return parseAll(entity, allOf.get(entity)?.all() ?? []);
    },
    count(entity: Entity): number {
      return countOf.get(entity)?.get()?.n ?? 0;
    },
    identify,
    customerById,
    customerByCard: (code: string) => parse('customer', byCard.get(code)),
    customerByPhone: (phone: string) => identify(phone, 'phone').customer,
    customerByEmail: (email: string) => identify(email, 'email').customer,
    customerByExternalId: (id: string) => parse('customer', byExternalId.get(id)),
    customerByQr: (qr: string) => parse('customer', byQr.get(qr)),
    vehicleByQr: (qr: string) => parse('vehicle', vehicleByQr.get(qr)),
    vehicleByTag: (tag: string) => parse('vehicle', vehicleByTag.get(tag)),
    vehicleByAvi: (avi: string) => parse('vehicle', vehicleByAvi.get(avi)),
    /** Coupon codes are unique per business; a cross-business code may match several. */
    couponsByCode: (code: string) => parseAll('coupon', couponsByCode.all(code)),
    couponBatchByCode: (code: string) => parse('coupon_batch', couponBatchByCode.get(code)),
    cardsOf: (customerId: string) => parseAll('card', cardsOf.all(customerId)),
    bonusLotsOf: (customerId: string) => parseAll('bonus_lot', lotsOf.all(customerId)),
    specialAccountsOf: (customerId: string) =>
      parseAll('special_account', accountsOf.all(customerId)),
    corporateAccessesOf: (customerId: string) =>
      parseAll('corporate_access', accessesOf.all(customerId)),
    vehiclesOf: (customerId: string) => parseAll('vehicle', vehiclesOf.all(customerId)),
    couponsOf: (customerId: string) => parseAll('coupon', couponsOf.all(customerId)),
    statsOf: (customerId: string) => parse('customer_stats', statsOf.get(customerId)),
    additionalCostsOf: (loyaltyId: string) => parseAll('additional_cost', costsOf.all(loyaltyId)),
    /** The PIN hash of a special account or corporate access, for the caller to verify a PIN. */
    pinHashOf(accountOrAccessId: string): string | null {
      const a = parse('special_account', gets.get('special_account')?.get(accountOrAccessId));
      if (a) return a.pin_hash ?? null;
      const c = parse('corporate_access', gets.get('corporate_access')?.get(accountOrAccessId));
      return c?.pin_hash ?? null;
    },
  };
}

export type Cache = ReturnType<typeof createCache>;
