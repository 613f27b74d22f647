// The records of the change feed (sync.md, "Entities in changes"): for each entity, the
// schema a record must pass before the terminal caches it. Built from the contract's
// inbound (loose) schemas, so fields the service adds later are kept; what the contract
// leaves open is ours and marked so. A record that fails its schema is quarantined by the
// puller, never allowed to block the page.
import { z } from 'zod';
import type { Entity } from '../contract/feed.js';
import { looseBusiness } from '../contract/business.js';
import { looseCustomer } from '../contract/customer.js';
import {
  CustomerAccessType,
  AllTypeCustomerType,
  CouponTypeExtended,
  OdometerUnitType,
} from '../contract/enums.js';
import { looseShared } from '../contract/shared.js';
import { date, num } from '../contract/wire.js';

// The entity list is the contract's (one list, src/contract/feed.ts); these are the stricter
// contract checks the puller plugs into the store.

const id = z.string().min(1);

/** Usage of a limit as of a local date (ours): day and month restart with the calendar. */
const Used = z.looseObject({ day: num, month: num, overall: num });

/** Period totals of a customer (engine-fixture.md `customer.stats`). */
const PeriodStats = z.looseObject({ amount: num, quantity: num, visits: num });

export const entitySchemas = {
  // ours: the loyalty settings of engine.md 2.
  loyalty: z.looseObject({
    id,
    business_id: id.optional(),
    title: z.string().optional(),
    currency: z.string().regex(/^[A-Z]{3}$/),
    bonus_payment_max_percent: num.min(0).max(100).optional(),
    bonus_rate: num.positive().optional(),
    count_bonuses_redeemed_amount: z.union([z.literal(0), z.literal(1)]).optional(),
  }),
  rule: looseShared.CheckImplementedRule.extend({
    id,
    // a rule's coupon batch code and action live on the rule record (engine.md 7)
  }),
  pos: looseShared.CheckPos.extend({ id }),
  // ours: the customer as the engine context needs it (engine-fixture.md), plus the
  // identifiers a lookup matches.
  customer: z.looseObject({
    id,
    type: AllTypeCustomerType,
    access_type: CustomerAccessType,
    name: z.string().optional(),
    phone: z.string().optional(),
    email: z.string().optional(),
    external_id: z.string().optional(),
    qr_code: z.string().optional(),
    card_category_id: z.string().nullable().optional(),
    corporate_customer_id: z.string().nullable().optional(),
    corporate_customer_category_id: z.string().nullable().optional(),
    bonuses: z.looseObject({ regular: num }),
  }),
  card: looseCustomer.CardRecord.extend({ id, code: z.string().min(1), customer_id: id }),
  // ours: a promotional bonus lot (engine.md 8, 16).
  bonus_lot: z.looseObject({ id, customer_id: id, amount: num, starting: date, expire: date }),
  special_account: looseCustomer.AccountsRec.extend({
    id,
    customer_id: id,
    active: z.union([z.literal(0), z.literal(1)]).optional(),
    pin_hash: z.string().optional(),
    used: Used.optional(),
    used_as_of: date.optional(),
  }),
  corporate_access: looseCustomer.CorporateCustomerSpecialAccountAccess.extend({
    id,
    customer_id: id,
    pin_hash: z.string().optional(),
    used: z
      .looseObject({
        account: z.looseObject({ day: num, month: num }),
        user: Used,
      })
      .optional(),
    used_as_of: date.optional(),
  }),
  vehicle: looseShared.CheckCorporateVehicle.extend({
    id,
    corporate_customer_id: id.optional(),
    last_odometer: z.looseObject({ value: num, unit: OdometerUnitType }).nullable().optional(),
  }),
  coupon: looseShared.CheckCoupon.extend({
    id,
    customer_id: id.nullable().optional(),
    type: CouponTypeExtended.optional(),
  }),
  coupon_batch: looseShared.CheckCouponBatch.extend({ id, code: z.string().min(1) }),
  additional_service: looseShared.AdditionalService.extend({ id }),
  additional_cost: looseBusiness.AdditionalCost.extend({ id }),
  // The feed carries `auth_code_hash`, never a clear code (interfaces.md, Secrets).
  staff: looseShared.BusinessStaff.extend({ id, auth_code_hash: z.string().optional() }),
  business_settings: looseBusiness.BusinessSettings.extend({
    id,
    business_id: id.optional(),
    currency: z.string().optional(),
    role_based_model: z.looseObject({ active: z.boolean() }).optional(),
  }),
  // ours: the server's period totals, counted on `as_of` (a local date).
  customer_stats: z.looseObject({
    id,
    customer_id: id,
    as_of: date.optional(),
    periods: z.record(z.string(), PeriodStats),
  }),
} as const satisfies Record<Entity, z.ZodType>;

export type EntityRecord<E extends Entity> = z.infer<(typeof entitySchemas)[E]>;
