// The "Shared resources" of data-contract.md (all three surfaces) and the small types the
// contract marks "not shown", which engine.md defines or which we give a minimal shape.
// The Check and its parts live in check.ts; defineShared returns both, so callers see one
// set of shared definitions built with one object factory (wire.ts explains strict/loose).
//
// Required vs optional: the contract rarely says "required". A field is required only when
// the contract says so or when the record means nothing without it (noted at the field);
// everything else is optional, since both our UI and the central service send partial
// records. Nullable only where the contract or engine.md says null is a value.
import { z } from 'zod';
import {
  AdditionalCostType,
  AdditionalServiceCostType,
  AdditionalServiceType,
  BenefitsTopUpReferenceObjectType,
  CouponBatchLinkType,
  PriceTaxType,
  PromotionalBonusesExpireType,
  RuleNotAppliedReason,
  SpecialAccountChargeDirection,
  ThresholdsValuesType,
  TransactionPaymentType,
} from './enums.js';
import { defineCheck } from './check.js';
import {
  code,
  currency,
  date,
  dateTime,
  decimalDigits,
  flag,
  FreeFormObject,
  looseObject,
  num,
  paginated,
  shortText,
  strictObject,
  answerNumbers,
  text,
  tillNumbers,
  title,
  uuid,
  type NumberRules,
  type ObjectFactory,
} from './wire.js';

/** How ids are checked: `uuid` at the terminal's boundaries; a fixture may pass any string. */
export type IdSchema = z.ZodType<string, string>;

/** A free-form JSON object (`external_additional_info`, BillingInfo `address`), bounded (wire.ts). */
export { FreeFormObject };

/** Limits table: BonusAdded and CheckCoupon `object_id` carry up to 36 characters. */
export const objectId = z.string().max(36, { error: 'at most 36 characters' });

// long: the contract's schemas of one section, one after another as data-contract.md lists
// them; built once per object factory (strict and loose), so they cannot be split apart.
/** The referenced and shared definitions that the Check builds on. */
export function defineSharedBase(
  o: ObjectFactory,
  id: IdSchema = uuid,
  n: NumberRules = tillNumbers,
) {
  const { money } = n;
  // ---- "not shown" in the contract ----

  // StringValuesList (rule item filters): an empty list means no restriction.
  const StringValuesList = z.array(z.string());
  // GoodsCodes: the goods codes payable from an account; empty = all goods.
  const GoodsCodes = z.array(z.string());
  // WeekDaysList (engine.md 4): ISO weekday numbers, Monday = 1; empty = every day.
  const WeekDaysList = z.array(
    z
      .int({ error: 'a weekday is an integer 1..7' })
      .min(1, { error: 'a weekday is 1..7 (Monday = 1)' })
      .max(7, {
        error: 'a weekday is 1..7 (Monday = 1)',
      }),
  );
  // minimal shape: the contract does not show it (a list of phone numbers).
  const PhoneNumbersList = z.array(z.string());
  // PosEmbeddedList (engine.md 4.5): `{ id, title }`; empty = every POS.
  const PosEmbeddedList = z.array(o({ id, title: z.string().optional() }));
  // minimal shape: the contract does not show it (terminals a staff member may use).
  const TerminalsList = z.array(o({ id, title: z.string().optional() }));
  // minimal shape: the contract does not show it.
  const ImageObjectsList = z.array(
    o({ id: id.optional(), url: z.string(), title: z.string().optional() }),
  );
  // minimal shape: the contract does not show it.
  const LoyaltyCategoriesList = z.array(o({ id: id.optional(), title: z.string().optional() }));
  // minimal shape: the contract does not show it.
  const LoyaltyLinks = z.array(
    o({ type: z.string().optional(), title: z.string().optional(), url: z.string() }),
  );

  // ThresholdsValues (engine.md 6): tiers sorted by `from`; the last with from <= base wins.
  const Threshold = o({ from: num, value: num });
  const ThresholdsValues = o({ type: ThresholdsValuesType, thresholds: z.array(Threshold) }).refine(
    (v) => v.thresholds.every((t, i, all) => i === 0 || all[i - 1]!.from <= t.from),
    { error: 'thresholds must be sorted by `from`, ascending', path: ['thresholds'] },
  );

  // RuleImplementationData (engine.md 16): amount is money discounted or bonuses credited;
  // lines are check_items indexes; missing is what a display rule lacks to its next tier.
  const RuleImplementationData = o({
    applied: z.boolean(), // required: the one thing this record says
    reason: RuleNotAppliedReason.nullable().optional(),
    amount: num.optional(),
    lines: z.array(z.int().min(0)).optional(),
    missing: num.nullable().optional(),
  });

  // SpecialAccountCharge (engine.md 10, 16): debit for a payment, credit for cashback.
  // `special_account_id` is a string, like CheckSpecialAccount `id` (it may name a corporate
  // access). Id, amount and direction are required: a charge without them is meaningless.
  const SpecialAccountCharge = o({
    special_account_id: shortText,
    amount: money,
    currency: currency.optional(), // absent for quantity accounts
    decimal_digits: decimalDigits.optional(),
    direction: SpecialAccountChargeDirection,
  });

  // minimal shape: the contract does not show Payment (engine.md 10 names its type and id).
  const Payment = o({
    type: TransactionPaymentType,
    amount: money,
    payment_id: shortText.optional(),
    currency: currency.optional(),
    decimal_digits: decimalDigits.optional(),
  });

  // PriceTaxes (engine.md 11): VAT is included in the price, sales tax is added on top.
  const PriceTax = o({
    code,
    title: title.optional(),
    type: PriceTaxType,
    rate: num.min(0, { error: 'a tax rate is >= 0' }),
    exempt: z.boolean().optional(),
  });
  const PriceTaxes = z.array(PriceTax);

  // minimal shape: the contract does not show PriceMargins (AdditionalCost's type and value).
  const PriceMargin = o({
    code,
    title: title.optional(),
    type: AdditionalCostType,
    value: num,
  });
  const PriceMargins = z.array(PriceMargin);

  // minimal shape: the contract does not show it (a form the user is asked to fill in).
  const UserExternalForm = o({
    id: id.optional(),
    code: z.string().optional(),
    title: z.string().optional(),
    url: z.string().optional(),
  });

  // minimal shape: the contract does not show it (the job that processed a line).
  const Job = o({ id: z.string().optional(), status: z.string().optional() });

  // GoodsPassThru: opaque data passed through with a line; kept untouched.
  const GoodsPassThru = FreeFormObject;

  // minimal shape: the contract does not show it (what to do with the receipt).
  const TransactionReceiptActions = z.array(
    o({ type: z.string(), text: z.string().optional(), url: z.string().optional() }),
  );

  // ---- Shared resources ----

  // A tier of a service's cost: all three fields are required, a tier means nothing without.
  const AdditionalServiceCostValue = o({
    threshold: num,
    type: AdditionalServiceCostType,
    value: num,
  });

  // One cost row per currency (engine.md 16 picks the row in the check's currency).
  const AdditionalServiceCost = o({
    currency, // required: the row is chosen by it
    decimal_digits: decimalDigits.optional(),
    min_value: num.optional(),
    values: z.array(AdditionalServiceCostValue), // required: the tiers are the cost
  });

  // `id` and `code` required: a service is stored by id and matched to a line by code.
  const AdditionalService = o({
    id,
    code,
    type: AdditionalServiceType.optional(),
    public_title: title.optional(),
    public_description: text.optional(),
    default: flag.optional(),
    sort_order: z.int().optional(),
    cost: z.array(AdditionalServiceCost).optional(),
  });

  // Dates follow the business time-zone settings (default UTC).
  const BonusAdded = o({
    amount: money, // required by the contract
    activity_id: id.optional(), // check only
    expire: date.optional(),
    starting: date.optional(),
    object_id: objectId.optional(),
    object_type: BenefitsTopUpReferenceObjectType.optional(),
  });

  const BillingInfo = o({
    address: FreeFormObject.optional(), // depends on the payment system
    email: title.optional(),
    name: title.optional(),
    phone: shortText.optional(),
  });

  // Readonly inside CheckCouponBatch.
  const CouponBatchLink = o({
    type: CouponBatchLinkType.optional(),
    app_code: z.string().optional(),
    app_id: id.optional(),
    app_title: z.string().optional(),
    coupon_path_qr: z.string().optional(),
    coupon_path_share: z.string().optional(),
  });

  const CouponBatchAlias = o({
    id: id.optional(),
    batch_id: id.optional(),
    user_id: id.optional(),
    code: z.string().optional(),
    active: flag.optional(),
    created: dateTime.optional(),
    emission_per_customer_limit: z.int().min(0).optional(), // 0 = no limit
    emission_quantity_limit: z.int().min(0).optional(), // int64 on the wire; 0 = no limit
    emitted_coupons_quantity: z.int().min(0).optional(), // readonly
    expire_type: PromotionalBonusesExpireType.optional(),
    expire_value: z.int().optional(),
    expire_date: date.optional(),
    // personal-data fields
    user_email: z.string().optional(),
    user_external_id: z.string().optional(),
    user_name: z.string().optional(),
    user_phone: z.string().optional(),
  });

  const CouponBatchAliasesPaginated = paginated(o, CouponBatchAlias);

  // AccountLimits: the contract marks only the overall_* fields optional, so the day and
  // month groups, the window and account_available_amount are required. A limit of 0 is
  // unlimited and its `_available` is then null; a null window end means no time limit.
  const AccountLimits = o({
    account_available_amount: num.nullable(),
    available_from: dateTime.nullable(),
    available_until: dateTime.nullable(),
    day_limit: num.min(0),
    day_limit_used: num,
    day_limit_available: num.nullable(),
    month_limit: num.min(0),
    month_limit_used: num,
    month_limit_available: num.nullable(),
    overall_limit: num.min(0).optional(),
    overall_limit_used: num.optional(),
    overall_limit_available: num.nullable().optional(),
  });

  // BusinessStaff: all optional (`id` is absent when a member is created).
  // auth_code: null clears it (or means none), "" asks the service to generate one, any
  // other string is the user's own code.
  const BusinessStaff = o({
    id: id.optional(),
    name: z.string().optional(),
    comment: z.string().optional(),
    email: z.string().optional(),
    phone: z.string().optional(),
    suspended: flag.optional(),
    terminals: TerminalsList.optional(),
    role_based_model_roles: z.array(z.string()).optional(),
    auth_code: z.string().nullable().optional(),
  });

  const BusinessStaffPaginatedList = paginated(o, BusinessStaff);

  return {
    FreeFormObject,
    objectId,
    StringValuesList,
    GoodsCodes,
    WeekDaysList,
    PhoneNumbersList,
    PosEmbeddedList,
    TerminalsList,
    ImageObjectsList,
    LoyaltyCategoriesList,
    LoyaltyLinks,
    Threshold,
    ThresholdsValues,
    RuleImplementationData,
    SpecialAccountCharge,
    Payment,
    PriceTax,
    PriceTaxes,
    PriceMargin,
    PriceMargins,
    UserExternalForm,
    Job,
    GoodsPassThru,
    TransactionReceiptActions,
    AdditionalServiceCostValue,
    AdditionalServiceCost,
    AdditionalService,
    BonusAdded,
    BillingInfo,
    CouponBatchLink,
    CouponBatchAlias,
    CouponBatchAliasesPaginated,
    AccountLimits,
    BusinessStaff,
    BusinessStaffPaginatedList,
  } as const;
}

export type SharedBase = ReturnType<typeof defineSharedBase>;

/**
 * Every shared resource and the Check family, built with one object factory.
 * `id` defaults to the contract's uuid rule.
 */
export function defineShared(o: ObjectFactory, id: IdSchema = uuid, n: NumberRules = tillNumbers) {
  const base = defineSharedBase(o, id, n);
  const checks = defineCheck(o, base, id, n);
  // The answer's figures are the engine's or the central service's (wire.ts answerNumbers);
  // with exact numbers (fixtures) both are the same.
  const answers =
    n === tillNumbers
      ? defineCheck(o, defineSharedBase(o, id, answerNumbers), id, answerNumbers, checks)
      : checks;
  return { ...base, ...checks, CheckResponse: answers.CheckResponse } as const;
}

export type Shared = ReturnType<typeof defineShared>;

/** Our UI and API: unknown fields are refused, naming them. */
export const strictShared = defineShared(strictObject);
/** What the central service sends: unknown fields are kept. */
export const looseShared = defineShared(looseObject);

type Out<K extends keyof Shared> = z.infer<Shared[K]>;

export type StringValuesList = Out<'StringValuesList'>;
export type GoodsCodes = Out<'GoodsCodes'>;
export type WeekDaysList = Out<'WeekDaysList'>;
export type PhoneNumbersList = Out<'PhoneNumbersList'>;
export type PosEmbeddedList = Out<'PosEmbeddedList'>;
export type TerminalsList = Out<'TerminalsList'>;
export type ImageObjectsList = Out<'ImageObjectsList'>;
export type LoyaltyCategoriesList = Out<'LoyaltyCategoriesList'>;
export type LoyaltyLinks = Out<'LoyaltyLinks'>;
export type Threshold = Out<'Threshold'>;
export type ThresholdsValues = Out<'ThresholdsValues'>;
export type RuleImplementationData = Out<'RuleImplementationData'>;
export type SpecialAccountCharge = Out<'SpecialAccountCharge'>;
export type Payment = Out<'Payment'>;
export type PriceTax = Out<'PriceTax'>;
export type PriceTaxes = Out<'PriceTaxes'>;
export type PriceMargin = Out<'PriceMargin'>;
export type PriceMargins = Out<'PriceMargins'>;
export type UserExternalForm = Out<'UserExternalForm'>;
export type Job = Out<'Job'>;
export type GoodsPassThru = Out<'GoodsPassThru'>;
export type TransactionReceiptActions = Out<'TransactionReceiptActions'>;
export type AdditionalServiceCostValue = Out<'AdditionalServiceCostValue'>;
export type AdditionalServiceCost = Out<'AdditionalServiceCost'>;
export type AdditionalService = Out<'AdditionalService'>;
export type BonusAdded = Out<'BonusAdded'>;
export type BillingInfo = Out<'BillingInfo'>;
export type CouponBatchLink = Out<'CouponBatchLink'>;
export type CouponBatchAlias = Out<'CouponBatchAlias'>;
export type CouponBatchAliasesPaginated = Out<'CouponBatchAliasesPaginated'>;
export type AccountLimits = Out<'AccountLimits'>;
export type BusinessStaff = Out<'BusinessStaff'>;
export type BusinessStaffPaginatedList = Out<'BusinessStaffPaginatedList'>;
export type CheckItemAdditionalInfo = Out<'CheckItemAdditionalInfo'>;
export type CheckTaxExplainDetailingItem = Out<'CheckTaxExplainDetailingItem'>;
export type CheckMarginExplainDetailingItem = Out<'CheckMarginExplainDetailingItem'>;
export type CheckItem = Out<'CheckItem'>;
export type CheckService = Out<'CheckService'>;
export type CheckCouponBatch = Out<'CheckCouponBatch'>;
export type CheckCoupon = Out<'CheckCoupon'>;
export type CheckImplementedRule = Out<'CheckImplementedRule'>;
export type CheckBusiness = Out<'CheckBusiness'>;
export type CheckBusinessStaff = Out<'CheckBusinessStaff'>;
export type CheckLoyalty = Out<'CheckLoyalty'>;
export type CheckPos = Out<'CheckPos'>;
export type CheckCorporateStaffPosition = Out<'CheckCorporateStaffPosition'>;
export type CheckCorporateVehicle = Out<'CheckCorporateVehicle'>;
export type CheckSpecialAccount = Out<'CheckSpecialAccount'>;
export type CheckTank = Out<'CheckTank'>;
export type CheckFeedbackSource = Out<'CheckFeedbackSource'>;
export type CheckCustomerFeedbackSettings = Out<'CheckCustomerFeedbackSettings'>;
export type Check = Out<'Check'>;
export type CheckResponse = Out<'CheckResponse'>;
