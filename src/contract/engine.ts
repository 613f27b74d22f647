// The check engine's fixture and context (shared/spec/engine-fixture.md) and its answer.
//
// Everything is derived from the contract's own schemas, built with ids relaxed to non-empty
// strings: the engine never checks id formats (the uuid rule is enforced where payloads
// enter the terminal). Objects are strict, so a typo in a fixture is refused, naming its path.
// Fields absent from a fixture take the defaults of engine.md (16 for rules).
import { z } from 'zod';
import {
  AllTypeCustomerType,
  CustomerAccessType,
  LoyaltyRuleActionType,
  LoyaltyRuleApplicableForCustomer,
  LoyaltyRuleApplicableForSale,
  LoyaltyRuleDependsType,
  LoyaltyRuleScope,
  OdometerUnitType,
  RuleAutomatic,
} from './enums.js';
import { defineBusiness } from './business.js';
import { defineCustomer } from './customer.js';
import { isTimeZone } from './local-time.js';
import { defineShared } from './shared.js';
import { currency, date, dateTime, exactNumbers, flag, num, strictObject } from './wire.js';

/** Fixture ids: any non-empty string (engine-fixture.md). */
const fixtureId = z.string().min(1, { error: 'an id is a non-empty string' });

// The engine computes exactly at any size (int64-routes.test.ts): its fixtures are not held
// to the till's bounds, which the terminal's own boundary applies (docs/contract.md).
const shared = defineShared(strictObject, fixtureId, exactNumbers);
const customerSurface = defineCustomer(strictObject, shared, fixtureId);
const businessSurface = defineBusiness(strictObject, shared, fixtureId);

const timeZone = z
  .string()
  .refine(isTimeZone, { error: 'an IANA time zone such as Europe/Berlin' });

/** A nullable rule field whose absence and null both mean `fallback` (engine.md 16). */
function orDefault<T extends z.ZodType>(schema: T, fallback: z.output<T>) {
  return schema
    .nullable()
    .optional()
    .transform((v): z.output<T> => (v ?? fallback) as z.output<T>);
}

const list = orDefault(shared.StringValuesList, []);
const zeroFlag = orDefault(flag, 0);
const oneFlag = orDefault(flag, 1);
const count = orDefault(z.int().min(0), 0);

// ---- rules ----

/** A loyalty rule: CheckImplementedRule's fields with the defaults of engine.md 16. */
export const EngineRule = shared.CheckImplementedRule.extend({
  id: fixtureId,
  active: oneFlag,
  automatic: orDefault(RuleAutomatic, 1),
  scope: orDefault(LoyaltyRuleScope, 'retail'),
  priority: count,
  combine: oneFlag,
  action_type: LoyaltyRuleActionType,
  applicable_for_customer: orDefault(LoyaltyRuleApplicableForCustomer, 'all'),
  applicable_for_sale: orDefault(LoyaltyRuleApplicableForSale, 'all'),
  depends_type: orDefault(LoyaltyRuleDependsType, 'none'),
  depends_calc_period_related_to_current_category: zeroFlag,
  apply_when_bonuses_redeemed: oneFlag,
  apply_when_customers_account_payment: oneFlag,
  item_zero_quantity_as_one_quantity: zeroFlag,
  use_alternative_dependencies_by_items: zeroFlag,
  only_once_per_check: zeroFlag,
  coupon_do_not_add_to_wallet: zeroFlag,
  scheduled: zeroFlag,
  included_items: list,
  excluded_items: list,
  included_item_categories: list,
  excluded_item_categories: list,
  depends_included_items: list,
  depends_excluded_items: list,
  depends_included_item_categories: list,
  depends_excluded_item_categories: list,
  items_limit_min: count,
  items_limit_max: count,
  week_days: orDefault(shared.WeekDaysList, []),
  pos: orDefault(shared.PosEmbeddedList, []),
}).superRefine((rule, ctx) => {
  // What a rule means depends on its action; these combinations have no meaning.
  const type = rule.value?.type;
  const needsValue = rule.action_type !== 'coupon';
  if (needsValue && !rule.value) {
    ctx.addIssue({
      code: 'custom',
      path: ['value'],
      message: `a ${rule.action_type} rule needs a value`,
    });
  }
  if (rule.action_type === 'bonus-payment-limit' && type && type !== 'percentage') {
    ctx.addIssue({
      code: 'custom',
      path: ['value', 'type'],
      message: 'a bonus-payment-limit value is a percentage',
    });
  }
  if (rule.action_type === 'bonuses' && type === 'price') {
    ctx.addIssue({
      code: 'custom',
      path: ['value', 'type'],
      message: 'a bonuses value is percentage, amount or amount-per-unit',
    });
  }
  if (rule.action_type === 'coupon' && !rule.coupon_batch_code) {
    ctx.addIssue({
      code: 'custom',
      path: ['coupon_batch_code'],
      message: 'a coupon rule names its batch',
    });
  }
  if (rule.automatic === 2 && !rule.coupon_batch_code) {
    ctx.addIssue({
      code: 'custom',
      path: ['coupon_batch_code'],
      message: 'a coupon-triggered rule (automatic 2) names its batch',
    });
  }
  if (
    rule.action_type === 'bonuses' &&
    rule.charge_type === 'special-account' &&
    !rule.special_account_id
  ) {
    ctx.addIssue({
      code: 'custom',
      path: ['special_account_id'],
      message: 'a special-account charge names its account',
    });
  }
});
export type EngineRule = z.output<typeof EngineRule>;
export type EngineRuleInput = z.input<typeof EngineRule>;

/** The rules of one loyalty; ids are unique so the order (priority, then id) is total. */
export const EngineRules = z.array(EngineRule).superRefine((rules, ctx) => {
  const seen = new Set<string>();
  rules.forEach((r, i) => {
    if (seen.has(r.id))
      ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicate rule id ${r.id}` });
    seen.add(r.id);
  });
});

// ---- context ----

export const EngineBusiness = strictObject({
  id: fixtureId,
  currency: currency.optional(),
  base_time_zone: timeZone.default('UTC'),
  title: z.string().optional(),
});

/** Loyalty settings (engine.md 2): ours, the contract does not show them. */
export const EngineLoyalty = strictObject({
  id: fixtureId.optional(),
  title: z.string().optional(),
  currency: currency.optional(),
  bonus_payment_max_percent: num.min(0).max(100).default(100),
  bonus_rate: num.positive({ error: 'bonus_rate is > 0' }).default(1),
  count_bonuses_redeemed_amount: flag.default(1),
});

const StatTotals = strictObject({
  amount: num.default(0),
  quantity: num.default(0),
  visits: z.int().min(0).default(0),
});

/** Totals by period name (engine.md 5). */
export const EngineStats = strictObject({
  day: StatTotals.optional(),
  week: StatTotals.optional(),
  month: StatTotals.optional(),
  quarter: StatTotals.optional(),
  year: StatTotals.optional(),
  'all-time': StatTotals.optional(),
  since_category: StatTotals.optional(),
});
export type EngineStats = z.output<typeof EngineStats>;

/** A promotional lot: active from the start of `starting` to the end of `expire` (local dates). */
export const PromotionalLot = strictObject({
  id: fixtureId.optional(),
  amount: num.min(0),
  starting: date.nullable().optional(),
  expire: date.nullable().optional(),
});
export type PromotionalLot = z.output<typeof PromotionalLot>;

export const EngineCustomer = strictObject({
  id: fixtureId,
  type: AllTypeCustomerType.default('customer'),
  access_type: CustomerAccessType.default('full-bonuses-access'),
  card_category_id: fixtureId.nullable().optional(),
  corporate_customer_category_id: fixtureId.nullable().optional(),
  bonuses: strictObject({
    regular: num.default(0),
    promotional: z.array(PromotionalLot).default([]),
  }).prefault({}),
  stats: EngineStats.prefault({}),
});
export type EngineCustomer = z.output<typeof EngineCustomer>;

const usedPeriods = strictObject({
  day: num.default(0),
  month: num.default(0),
  overall: num.default(0),
});

/** AccountsRec plus `active`, `used` and `pin_verified` (engine.md 16). Limits may be partial. */
export const EngineSpecialAccount = customerSurface.AccountsRec.extend({
  id: fixtureId,
  limits: shared.AccountLimits.partial().optional(),
  active: flag.default(1),
  used: usedPeriods.prefault({}),
  pin_verified: z.boolean().optional(),
});
export type EngineSpecialAccount = z.output<typeof EngineSpecialAccount>;

/** CorporateCustomerSpecialAccountAccess plus what it used; limits may be partial. */
export const EngineCorporateAccess = customerSurface.CorporateCustomerSpecialAccountAccess.extend({
  id: fixtureId,
  // The corporate special account itself takes the fixture's special-account shape.
  corporate_customer_special_account: customerSurface.CorporateCustomerAccountInfo.extend({
    special_account: EngineSpecialAccount.extend({ id: fixtureId.optional() }).optional(),
  }).optional(),
  limits: customerSurface.CorporateAccountAccessLimits.partial().optional(),
  used: strictObject({
    account: strictObject({ day: num.default(0), month: num.default(0) }).prefault({}),
    user: usedPeriods.prefault({}),
  }).prefault({}),
  pin_verified: z.boolean().optional(),
});
export type EngineCorporateAccess = z.output<typeof EngineCorporateAccess>;

/** CheckCoupon records with `batch.code` and the Coupon resource's `charge_*` fields. */
/**
 * A coupon as the engine sees it: the contract's Coupon plus its owner (ours: the customer a
 * personal coupon was issued to; null or absent = anyone's). A coupon owned by someone else
 * is redeemable only when its batch says `share_allowed` = 1.
 */
export const EngineCoupon = customerSurface.Coupon.extend({
  customer_id: fixtureId.nullable().optional(),
});
export type EngineCoupon = z.output<typeof EngineCoupon>;

export const EngineVehicle = strictObject({
  vehicle_id: z.string().min(1),
  last_odometer: strictObject({ value: num, unit: OdometerUnitType }).nullable().optional(),
});

/** What this terminal spent but has not synced (engine-fixture.md). */
const EnginePending = strictObject({
  bonuses_redeemed: num.min(0).default(0),
  accounts: z.record(z.string(), num).default({}),
  stats: EngineStats.prefault({}),
});
export type EnginePending = z.output<typeof EnginePending>;

const EngineTerminal = strictObject({
  id: fixtureId,
  coupon_prefix: z.string().default(''),
  next_coupon_seq: z.int().min(0).default(1),
});

/**
 * The check as a fixture sends it: the contract's Check with relaxed ids. The odometer is
 * any number here, so that a bad reading reaches the engine's `odometer-invalid`.
 */
export const EngineCheck = shared.Check.extend({ odometer: num.optional() });
export type EngineCheck = z.output<typeof EngineCheck>;

/** A processed check as `process` returned it. */
export const EngineProcessedCheck = shared.CheckResponse.extend({ odometer: num.optional() });
export type EngineProcessedCheck = z.output<typeof EngineProcessedCheck>;

export const RefundLine = strictObject({
  index: z.int().min(0),
  quantity: num.positive({ error: 'a refunded quantity is > 0' }),
});

export const EngineMode = z.enum(['calc', 'process', 'refund']);
export type EngineMode = z.infer<typeof EngineMode>;

const contextShape = {
  now: dateTime,
  mode: EngineMode.default('calc'),
  business: EngineBusiness,
  loyalty: EngineLoyalty.prefault({}),
  pos: shared.CheckPos.extend({ time_zone: timeZone.optional() }).optional(),
  customer: EngineCustomer.nullable().default(null),
  special_accounts: z.array(EngineSpecialAccount).default([]),
  corporate_accesses: z.array(EngineCorporateAccess).default([]),
  coupons: z.array(EngineCoupon).default([]),
  additional_services: z.array(shared.AdditionalService).default([]),
  additional_costs: z.array(businessSurface.AdditionalCost).default([]),
  vehicles: z.array(EngineVehicle).default([]),
  pending: EnginePending.prefault({}),
  terminal: EngineTerminal.optional(),
  check: EngineCheck.optional(),
  original: EngineProcessedCheck.optional(),
  refund_lines: z.array(RefundLine).optional(),
};

function modeFits(
  v: { mode: EngineMode; check?: unknown; original?: unknown; refund_lines?: unknown },
  ctx: z.RefinementCtx,
) {
  if (v.mode === 'refund') {
    if (v.original === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['original'],
        message: 'a refund needs the original check',
      });
    if (v.check !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['check'],
        message: 'a refund takes `original`, not `check`',
      });
  } else {
    if (v.check === undefined)
      ctx.addIssue({ code: 'custom', path: ['check'], message: `mode ${v.mode} needs a check` });
    if (v.original !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['original'],
        message: 'only a refund takes `original`',
      });
    if (v.refund_lines !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['refund_lines'],
        message: 'only a refund takes `refund_lines`',
      });
  }
}

/** Everything `calculate` reads besides the rules (which are prepared once, apart). */
export const EngineContext = strictObject(contextShape).superRefine(modeFits);
export type EngineContext = z.output<typeof EngineContext>;

/** One engine-fixture document: the context and its rules. */
export const EngineFixture = strictObject({
  ...contextShape,
  rules: EngineRules.default([]),
}).superRefine(modeFits);
export type EngineFixture = z.output<typeof EngineFixture>;
export type EngineFixtureInput = z.input<typeof EngineFixture>;

// ---- answers ----

export const EngineErrorCode = z.enum([
  'invalid-input',
  'customer-required',
  'customer-blocked',
  'bonus-redeem-not-allowed',
  'insufficient-bonuses',
  'account-not-found',
  'account-inactive',
  'account-outside-window',
  'currency-mismatch',
  'goods-not-payable',
  'pin-required',
  'pin-invalid',
  'odometer-required',
  'odometer-invalid',
  'odometer-decreased',
  'vehicle-id-required',
  'limit-exceeded',
  'insufficient-funds',
]);
export type EngineErrorCode = z.infer<typeof EngineErrorCode>;

export const EngineError = strictObject({
  code: EngineErrorCode,
  message: z.string(),
  path: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type EngineError = z.output<typeof EngineError>;

const EngineWarningCode = z.enum(['bonuses-redeemed-capped', 'coupon-invalid']);
export const EngineWarning = strictObject({
  code: EngineWarningCode,
  message: z.string(),
  path: z.string(),
});
export type EngineWarning = z.output<typeof EngineWarning>;

/** The calculated check: the contract's CheckResponse (relaxed ids, any odometer). */
export const EngineCheckResult = shared.CheckResponse.extend({ odometer: num.optional() });
export type EngineCheckResult = z.output<typeof EngineCheckResult>;

export const EngineResult = z.union([
  strictObject({
    check: EngineCheckResult,
    warnings: z.array(EngineWarning),
    /** Refunds only: bonuses the customer owes when a write-off exceeds the balance. */
    owed: strictObject({ bonuses: num }).optional(),
  }),
  strictObject({ error: EngineError }),
]);
export type EngineResult = z.output<typeof EngineResult>;

export type EngineCheckItem = z.output<typeof shared.CheckItem>;
export type EngineCheckCoupon = z.output<typeof shared.CheckCoupon>;
/** An emitted coupon: its code null until given one (engine.md 17.14). */
export type EngineEmittedCoupon = z.output<typeof shared.EmittedCheckCoupon>;
export type EngineImplementedRule = z.output<typeof shared.CheckImplementedRule>;
export type EngineBonusAdded = z.output<typeof shared.BonusAdded>;
export type EngineSpecialAccountCharge = z.output<typeof shared.SpecialAccountCharge>;
export type EngineCheckService = z.output<typeof shared.CheckService>;
export type EngineTaxItem = z.output<typeof shared.CheckTaxExplainDetailingItem>;
export type EngineMarginItem = z.output<typeof shared.CheckMarginExplainDetailingItem>;
export type EngineAdditionalService = z.output<typeof shared.AdditionalService>;
export type EngineAdditionalCost = z.output<typeof businessSurface.AdditionalCost>;
export type EngineVehicle = z.output<typeof EngineVehicle>;
export type EngineTerminal = z.output<typeof EngineTerminal>;
export type RefundLine = z.output<typeof RefundLine>;

const checkCouponKeys = Object.keys(shared.CheckCoupon.shape) as (keyof EngineCheckCoupon)[];

/** The CheckCoupon fields of a coupon record (the Coupon resource carries more). */
export function pickCheckCoupon(record: EngineCoupon | undefined): Partial<EngineCheckCoupon> {
  const out: Record<string, unknown> = {};
  if (!record) return out;
  for (const key of checkCouponKeys) if (record[key] !== undefined) out[key] = record[key];
  return out as Partial<EngineCheckCoupon>;
}
