// The till's lookups in the cache (cache.ts): a customer by card, phone, e-mail, external id
// or QR; a vehicle by QR, tag or AVI id; coupons by code; what a customer holds. Every record
// is read back through the store's schema of its entity, never cast.
import type Database from 'better-sqlite3';
import type { z } from 'zod';
import type { Entity } from '../contract/feed.js';
import type { CachedCustomer, Identified, IdType } from './cache.js';
import {
  normaliseEmail,
  normalisePhone,
  recordSchemas,
  tables,
  type RecordOf,
} from './entities.js';
import { readStoredOrThrow } from './stored-json.js';

export type Row = { id: string; data: string };

/**
 * A row read back through the store's own schema of the entity (the one the cache's check
 * wrote it by): a record that no longer passes throws `invalid-record`, naming table and id.
 */
export function readRecord<E extends Entity>(entity: E, row: Row): RecordOf<E> {
  // The entity's own schema, so its output is RecordOf<E> (TypeScript cannot follow the index).
  return readStoredOrThrow(
    recordSchemas[entity] as unknown as z.ZodType<RecordOf<E>>,
    row.data,
    `${tables[entity].table} ${row.id}`,
  );
}

export const parse = <E extends Entity>(entity: E, row: Row | undefined): RecordOf<E> | null =>
  row ? readRecord(entity, row) : null;

export const parseAll = <E extends Entity>(entity: E, rows: Row[]): RecordOf<E>[] =>
  rows.map((r) => readRecord(entity, r));

/** The lookups served by an index (their query plans are checked by a migration test). */
function indexedLookups(db: Database.Database) {
  const one = (sql: string) => db.prepare<[string], Row>(sql);
  return {
    customerByCard: one(
      'SELECT c.id, c.data FROM card k JOIN customer c ON c.id = k.customer_id WHERE k.code = ? LIMIT 1',
    ),
    customerByPhone: one('SELECT id, data FROM customer WHERE phone = ? LIMIT 1'),
    customerByEmail: one('SELECT id, data FROM customer WHERE email = ? LIMIT 1'),
    customerByExternalId: one('SELECT id, data FROM customer WHERE external_id = ? LIMIT 1'),
    customerByQr: one('SELECT id, data FROM customer WHERE qr_code = ? LIMIT 1'),
    vehicleByQr: one('SELECT id, data FROM vehicle WHERE qr_code = ? LIMIT 1'),
    vehicleByTag: one('SELECT id, data FROM vehicle WHERE tag = ? LIMIT 1'),
    vehicleByAvi: one('SELECT id, data FROM vehicle WHERE avi_id = ? LIMIT 1'),
    couponsByCode: one('SELECT id, data FROM coupon WHERE code = ?'),
    couponBatchByCode: one('SELECT id, data FROM coupon_batch WHERE code = ? LIMIT 1'),
    cardsOf: one('SELECT id, data FROM card WHERE customer_id = ?'),
    bonusLotsOf: one('SELECT id, data FROM bonus_lot WHERE customer_id = ?'),
    specialAccountsOf: one('SELECT id, data FROM special_account WHERE customer_id = ?'),
    corporateAccessesOf: one('SELECT id, data FROM corporate_access WHERE customer_id = ?'),
    vehiclesOf: one('SELECT id, data FROM vehicle WHERE customer_id = ?'),
    couponsOf: one('SELECT id, data FROM coupon WHERE customer_id = ?'),
    statsOf: one('SELECT id, data FROM customer_stats WHERE customer_id = ? LIMIT 1'),
  };
}

export function lookupStatements(db: Database.Database) {
  return {
    indexed: indexedLookups(db),
    additionalCostsOf: db.prepare<[string], Row>(
      'SELECT id, data FROM additional_cost WHERE loyalty_id = ? OR loyalty_id IS NULL',
    ),
  };
}

export type LookupStatements = ReturnType<typeof lookupStatements>;

/** EXPLAIN QUERY PLAN of every indexed lookup (migration tests check that indexes serve them). */
export function queryPlans(db: Database.Database, l: LookupStatements): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, stmt] of Object.entries(l.indexed)) {
    const rows = db
      .prepare<[string], { detail: string }>(`EXPLAIN QUERY PLAN ${stmt.source}`)
      .all('x');
    out[name] = rows.map((r) => r.detail).join('\n');
  }
  return out;
}

/** The customer an identifier names, and the vehicle when it named one. */
function identify(
  l: LookupStatements['indexed'],
  customerById: (id: string) => CachedCustomer | null,
  id: string,
  idType: IdType,
): Identified {
  const none: Identified = { customer: null, vehicle: null };
  const viaVehicle = (row: Row | undefined): Identified => {
    const vehicle = parse('vehicle', row);
    if (!vehicle) return none;
    return { vehicle, customer: vehicle.customer_id ? customerById(vehicle.customer_id) : null };
  };
  const customer = (row: Row | undefined | null): Identified => ({
    customer: row ? parse('customer', row) : null,
    vehicle: null,
  });
  switch (idType) {
    case 'card':
      return customer(l.customerByCard.get(id));
    case 'phone': {
      const p = normalisePhone(id);
      return customer(p ? l.customerByPhone.get(p) : null);
    }
    case 'email': {
      const e = normaliseEmail(id);
      return customer(e ? l.customerByEmail.get(e) : null);
    }
    case 'external-id':
      return customer(l.customerByExternalId.get(id));
    case 'qr':
      // A customer's QR, or a card's code printed as QR.
      return {
        customer:
          parse('customer', l.customerByQr.get(id)) ?? parse('customer', l.customerByCard.get(id)),
        vehicle: null,
      };
    case 'vehicle':
      return viaVehicle(l.vehicleByQr.get(id) ?? l.vehicleByTag.get(id));
    case 'avi':
      return viaVehicle(l.vehicleByAvi.get(id));
  }
}

/** The cache's lookup methods; `customerById` reads a customer by id. */
export function lookupMethods(
  l: LookupStatements,
  customerById: (id: string) => CachedCustomer | null,
) {
  const q = l.indexed;
  const identifyAs = (id: string, idType: IdType): Identified =>
    identify(q, customerById, id, idType);
  return {
    identify: identifyAs,
    customerById,
    customerByCard: (code: string) => parse('customer', q.customerByCard.get(code)),
    customerByPhone: (phone: string) => identifyAs(phone, 'phone').customer,
    customerByEmail: (email: string) => identifyAs(email, 'email').customer,
    customerByExternalId: (id: string) => parse('customer', q.customerByExternalId.get(id)),
    customerByQr: (qr: string) => parse('customer', q.customerByQr.get(qr)),
    vehicleByQr: (qr: string) => parse('vehicle', q.vehicleByQr.get(qr)),
    vehicleByTag: (tag: string) => parse('vehicle', q.vehicleByTag.get(tag)),
    vehicleByAvi: (avi: string) => parse('vehicle', q.vehicleByAvi.get(avi)),
    /** Coupon codes are unique per business; a cross-business code may match several. */
    couponsByCode: (code: string) => parseAll('coupon', q.couponsByCode.all(code)),
    couponBatchByCode: (code: string) => parse('coupon_batch', q.couponBatchByCode.get(code)),
    cardsOf: (customerId: string) => parseAll('card', q.cardsOf.all(customerId)),
    bonusLotsOf: (customerId: string) => parseAll('bonus_lot', q.bonusLotsOf.all(customerId)),
    specialAccountsOf: (customerId: string) =>
      parseAll('special_account', q.specialAccountsOf.all(customerId)),
    corporateAccessesOf: (customerId: string) =>
      parseAll('corporate_access', q.corporateAccessesOf.all(customerId)),
    vehiclesOf: (customerId: string) => parseAll('vehicle', q.vehiclesOf.all(customerId)),
    couponsOf: (customerId: string) => parseAll('coupon', q.couponsOf.all(customerId)),
    statsOf: (customerId: string) => parse('customer_stats', q.statsOf.get(customerId)),
    additionalCostsOf: (loyaltyId: string) =>
      parseAll('additional_cost', l.additionalCostsOf.all(loyaltyId)),
  };
}
