// The change-feed entities of sync.md as the store keeps them: for each, the table, the
// fields the store itself relies on (checked with zod; everything else the record carries is
// kept as it came) and the lookup columns derived from them. The full contract check of a
// record is the puller's, or is plugged in through `openStore({ entitySchemas })`.
import { z } from 'zod';
import {
  EngineContext,
  EngineCorporateAccess,
  EngineCoupon,
  EngineCustomer,
  EngineLoyalty,
  EngineRule,
  EngineSpecialAccount,
  PromotionalLot,
} from '../contract/engine.js';
import { STAT_PERIODS } from '../contract/local-time.js';

import type { Entity } from '../contract/feed.js';

const str = z.string().min(1);
const optStr = z.string().nullish();
const optDate = z.iso.date().nullish();
const amount = z.number().finite();

/** Phone numbers compare by digits only: "+49 (30) 123" and "4930123" are one number. */
export function normalisePhone(phone: string | null | undefined): string | null {
  if (phone == null) return null;
  const digits = phone.replace(/\D/g, '');
  return digits.length > 0 ? digits : null;
}

export function normaliseEmail(email: string | null | undefined): string | null {
  if (email == null) return null;
  const e = email.trim().toLowerCase();
  return e.length > 0 ? e : null;
}

const Stats = z.looseObject({ amount: amount, quantity: amount, visits: z.int().min(0) });
export type PeriodStats = z.infer<typeof Stats>;

export const recordSchemas = {
  loyalty: z.looseObject({ id: str }),
  rule: z.looseObject({
    id: str,
    loyalty_id: optStr,
    active: z.int().nullish(),
    automatic: z.int().min(0).max(5).nullish(),
    coupon_batch_code: optStr,
    pos: z.array(z.looseObject({ id: str })).nullish(),
  }),
  pos: z.looseObject({ id: str, loyalty_id: optStr, time_zone: optStr }),
  // The regular bonus balance rides on the customer (`bonuses.regular`); promotional lots are
  // bonus_lot records. Card and corporate categories feed rule matching (engine.md 4.6).
  customer: z.looseObject({
    id: str,
    type: z.enum(['customer', 'corporate-customer']).default('customer'),
    access_type: z.enum([
      'full-bonuses-access',
      'add-bonuses-only',
      'waiting-for-confirmation',
      'in-black-list',
    ]),
    phone: optStr,
    email: optStr,
    external_id: optStr,
    qr_code: optStr,
    card_category_id: optStr,
    corporate_customer_category_id: optStr,
    bonuses: z.looseObject({ regular: amount }).nullish(),
  }),
  card: z.looseObject({ id: str, customer_id: str, code: str }),
  bonus_lot: z.looseObject({
    id: str,
    customer_id: str,
    amount,
    starting: optDate,
    expire: optDate,
  }),
  // AccountsRec plus the owner, `active`, the period usage `used` (with the local date it
  // was counted on, `used_as_of`) and the PIN's salted hash.
  special_account: z.looseObject({
    id: str,
    customer_id: str,
    used: z.looseObject({ day: amount, month: amount, overall: amount }).nullish(),
    used_as_of: optDate,
    pin_hash: optStr,
  }),
  // CorporateCustomerSpecialAccountAccess plus the user (customer) holding it and `used`.
  corporate_access: z.looseObject({
    id: str,
    customer_id: str,
    corporate_customer_special_account: z
      .looseObject({ id: optStr, special_account: z.looseObject({ id: optStr }).nullish() })
      .nullish(),
    used_as_of: optDate,
    pin_hash: optStr,
  }),
  vehicle: z.looseObject({
    id: str,
    customer_id: optStr,
    vehicle_id: optStr,
    qr_code: optStr,
    avi_id: optStr,
    last_odometer: z.looseObject({ value: amount, unit: z.enum(['km', 'mi', 'h']) }).nullish(),
  }),
  coupon: z.looseObject({
    id: str,
    code: str,
    customer_id: optStr,
    status: z.enum(['open', 'redeemed', 'cancelled']).nullish(),
  }),
  coupon_batch: z.looseObject({ id: str, code: optStr }),
  additional_service: z.looseObject({ id: str, code: optStr }),
  additional_cost: z.looseObject({ id: str, loyalty_id: optStr, code: optStr }),
  staff: z.looseObject({
    id: str,
    suspended: z.int().min(0).max(1).nullish(),
    auth_code_hash: optStr,
  }),
  business_settings: z.looseObject({ business_id: optStr, base_time_zone: optStr }),
  // One record per customer: the server's figures per period, counted on `as_of` (a local
  // date); a calendar period that has rolled since counts as zero (docs/store.md).
  customer_stats: z.looseObject({
    customer_id: str,
    as_of: optDate,
    periods: z.partialRecord(z.enum(STAT_PERIODS), Stats).default({}),
  }),
} satisfies Record<Entity, z.ZodType>;

export type RecordOf<E extends Entity> = z.output<(typeof recordSchemas)[E]>;

/** Fields that are secrets in clear and must never reach the disk (interfaces.md, Secrets). */
const CLEAR_SECRETS = ['auth_code', 'special_account_pin', 'pin'] as const;

export function withoutClearSecrets<T extends Record<string, unknown>>(record: T): T {
  if (!CLEAR_SECRETS.some((k) => k in record)) return record;
  const copy: Record<string, unknown> = { ...record };
  for (const k of CLEAR_SECRETS) delete copy[k];
  return copy as T;
}

type Cell = string | number | null;

/** Each entity's table and extra lookup columns (besides id, data, updated_at). */
export interface TableDef<E extends Entity> {
  readonly table: string;
  readonly columns: readonly string[];
  values(record: RecordOf<E>): Cell[];
}

const n = (v: string | null | undefined): string | null => v ?? null;

export const tables: { [E in Entity]: TableDef<E> } = {
  loyalty: { table: 'loyalty', columns: [], values: () => [] },
  rule: {
    table: 'rule',
    columns: ['loyalty_id', 'active', 'automatic', 'all_pos', 'coupon_batch_code'],
    values: (r) => [
      n(r.loyalty_id),
      r.active ?? 1,
      r.automatic ?? 1,
      (r.pos ?? []).length === 0 ? 1 : 0,
      n(r.coupon_batch_code),
    ],
  },
  pos: { table: 'pos', columns: ['loyalty_id'], values: (r) => [n(r.loyalty_id)] },
  customer: {
    table: 'customer',
    columns: ['type', 'access_type', 'phone', 'email', 'external_id', 'qr_code'],
    values: (r) => [
      r.type,
      r.access_type,
      normalisePhone(r.phone),
      normaliseEmail(r.email),
      n(r.external_id),
      n(r.qr_code),
    ],
  },
  card: { table: 'card', columns: ['customer_id', 'code'], values: (r) => [r.customer_id, r.code] },
  bonus_lot: { table: 'bonus_lot', columns: ['customer_id'], values: (r) => [r.customer_id] },
  special_account: {
    table: 'special_account',
    columns: ['customer_id'],
    values: (r) => [r.customer_id],
  },
  corporate_access: {
    table: 'corporate_access',
    columns: ['customer_id', 'special_account_id'],
    values: (r) => [r.customer_id, n(r.corporate_customer_special_account?.special_account?.id)],
  },
  vehicle: {
    table: 'vehicle',
    columns: ['customer_id', 'qr_code', 'tag', 'avi_id'],
    values: (r) => [n(r.customer_id), n(r.qr_code), n(r.vehicle_id), n(r.avi_id)],
  },
  coupon: {
    table: 'coupon',
    columns: ['code', 'customer_id'],
    values: (r) => [r.code, n(r.customer_id)],
  },
  coupon_batch: { table: 'coupon_batch', columns: ['code'], values: (r) => [n(r.code)] },
  additional_service: {
    table: 'additional_service',
    columns: ['code'],
    values: (r) => [n(r.code)],
  },
  additional_cost: {
    table: 'additional_cost',
    columns: ['loyalty_id'],
    values: (r) => [n(r.loyalty_id)],
  },
  staff: { table: 'staff', columns: ['suspended'], values: (r) => [r.suspended ?? 0] },
  business_settings: { table: 'business_settings', columns: [], values: () => [] },
  customer_stats: {
    table: 'customer_stats',
    columns: ['customer_id'],
    values: (r) => [r.customer_id],
  },
};

// ---- the engine's view of the cached records ----

/** The keys of an object schema's shape. */
const keysOf = (schema: { shape: Record<string, unknown> }): readonly string[] =>
  Object.keys(schema.shape);

/** The fields of `record` that `keys` names (drops the store's own: customer_id, pin_hash...). */

/**
 * Entities the engine reads, with the engine contract's schema of that part of its context.
 * A record is checked against it when it arrives (its own fields picked, the store's extra
 * fields set aside), and stored with the schema's defaults filled in; assembling a context
 * then only picks the fields again, without parsing on every sale.
 */
const enginePos = EngineContext.shape.pos.unwrap();
const engineService = EngineContext.shape.additional_services.unwrap().element;
const engineCost = EngineContext.shape.additional_costs.unwrap().element;

export const engineShapes: Partial<Record<Entity, { schema: z.ZodType; keys: readonly string[] }>> =
  {
    customer: { schema: EngineCustomer, keys: keysOf(EngineCustomer) },
    bonus_lot: { schema: PromotionalLot, keys: keysOf(PromotionalLot) },
    special_account: { schema: EngineSpecialAccount, keys: keysOf(EngineSpecialAccount) },
    corporate_access: { schema: EngineCorporateAccess, keys: keysOf(EngineCorporateAccess) },
    coupon: { schema: EngineCoupon, keys: keysOf(EngineCoupon) },
    loyalty: { schema: EngineLoyalty, keys: keysOf(EngineLoyalty) },
    pos: { schema: enginePos, keys: keysOf(enginePos) },
    additional_service: { schema: engineService, keys: keysOf(engineService) },
    additional_cost: { schema: engineCost, keys: keysOf(engineCost) },
  };

export const engineRuleKeys = keysOf(EngineRule);
