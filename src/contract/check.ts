// The Check (a sale document) and its parts, data-contract.md "Shared resources".
// The request and the response share one field set, except: `special_account_pin` is
// request only, and the four response-only fields (`summary_amount` and the three
// `special_account_*_required`) are refused in a strict request. A PIN echoed in a response
// is dropped on parse, never kept.
//
// Every Check field is optional (a calc request is partial, the service fills the rest);
// CheckItem `code` and `quantity`, CheckService `code` and CheckCoupon `code` are required,
// since a line, a service or a coupon cannot be told apart or counted without them.
// Readonly fields are accepted in requests (the service ignores them) and marked so here.
import { z } from 'zod';
import {
  AdditionalServiceType,
  BenefitsPriceType,
  BenefitsChargeTypeBase,
  BenefitsTopUpReferenceObjectType,
  CheckItemEnterMode,
  CheckItemQuantityRecalculateType,
  CouponExternalCodeVisibilityType,
  CouponProcessingStatus,
  CouponStatus,
  CouponType,
  CouponTypeExtended,
  CustomerFeedbackPrintOnCheck,
  DataRequiredType,
  ExternalCheckIdScope,
  IdType,
  LoyaltyRuleActionType,
  LoyaltyRuleApplicableForCustomer,
  LoyaltyRuleApplicableForSale,
  LoyaltyRuleDependsCalcPeriod,
  LoyaltyRuleDependsType,
  LoyaltyRuleScope,
  OdometerUnitType,
  PosType,
  PromotionalBonusesExpireType,
  PromotionalBonusesStartingType,
  RuleAutomatic,
  SpecialAccountType,
  TransactionPaymentType,
  TransactionSubType,
  TransactionType,
} from './enums.js';
import type { IdSchema, SharedBase } from './shared.js';
import {
  currency,
  date,
  dateTime,
  decimalDigits,
  droppedField,
  flag,
  num,
  type ObjectFactory,
} from './wire.js';

/**
 * How many decimal digits a number's shortest decimal form has, exponent forms included
 * (`1.5e-7` has 8). Used for the odometer limit, which is about the decimal the user typed.
 */
export function decimalPlaces(n: number): number {
  const m = /^-?\d+(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(n));
  if (!m) return Number.POSITIVE_INFINITY; // NaN or Infinity: no finite decimal form
  const fraction = m[1]?.length ?? 0;
  const exponent = m[2] === undefined ? 0 : Number(m[2]);
  return Math.max(0, fraction - exponent);
}

/** Limits table: Check `odometer` is >= 0 with at most two decimal digits (engine.md 10). */
export const odometer = z
  .number()
  .finite()
  .min(0, { error: 'must be >= 0' })
  .refine((n) => decimalPlaces(n) <= 2, { error: 'at most two decimal digits' });

/** Limits table: Check `id` (phone, card code or QR code) has at least 3 characters. */
export const checkUserId = z
  .string()
  .min(3, { error: 'the user identifier has at least 3 characters' });

/** Limits table: Check `cardotppassword` has at least 3 characters. */
export const cardOtpPassword = z.string().min(3, { error: 'at least 3 characters' });

/** engine.md 4: a rule's local time, `HH:MM` or `HH:MM:SS`. */
export const localTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, { error: 'a local time, HH:MM or HH:MM:SS' });

/** RFC 3339 `full-time`: a time of day with its offset (`10:00:00Z`, `10:00:00.5+02:00`). */
const offsetTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/);

/**
 * A rule's `time_from` / `time_to`: a local time (engine.md 4), or RFC 3339 as the contract
 * declares it (data-contract.md, Schedule), a time with its offset or a date-time whose time
 * and offset count (its date is ignored). src/engine/schedule.ts reads all three.
 */
export const ruleTime = z.union([localTime, offsetTime, dateTime], {
  error: 'a time of day: HH:MM or HH:MM:SS (local), HH:MM:SS with an offset, or a date-time',
});

/**
 * A rule's `valid_after` / `valid_before`: a local date (inclusive), or a date-time (an
 * instant) as the contract declares it.
 */
export const ruleDate = z.union([date, dateTime], {
  error: 'a date YYYY-MM-DD or a date-time with an offset',
});

/** Every field of `shape` may be null or absent (CheckImplementedRule: "all fields nullable"). */
function nullableFields<S extends Record<string, z.ZodType>>(shape: S) {
  return Object.fromEntries(
    Object.entries(shape).map(([k, v]) => [k, v.nullable().optional()]),
  ) as {
    [K in keyof S]: z.ZodOptional<z.ZodNullable<S[K]>>;
  };
}

export function defineCheck(o: ObjectFactory, s: SharedBase, id: IdSchema) {
  const text = z.string().optional();

  // Tax and margin detailing items; the margin item lacks `exempt`. `source` and `type`
  // (PriceExplainValueSource/Type) are not shown by the contract: kept as strings.
  const detailing = {
    decimal_digits: decimalDigits.optional(),
    include_in_receipt: z.boolean().optional(),
    source: z.string().optional(),
    type: z.string().optional(),
    value: num.optional(),
    value_code: text,
    value_id: id.optional(),
    value_title: text,
  };
  const CheckTaxExplainDetailingItem = o({ ...detailing, exempt: z.boolean().optional() });
  const CheckMarginExplainDetailingItem = o(detailing);

  // All fields but `job` are optional and readonly (the contract says so).
  const CheckItemAdditionalInfo = o({
    job: s.Job,
    loyalty_item_id: text,
    processing_id: text,
    quantity_decimal_digits: decimalDigits.optional(),
    quantity_recalculate_skipped: z.boolean().optional(),
    quantity_recalculate_type: CheckItemQuantityRecalculateType.optional(),
  });

  const CalculatedTaxes = o({
    base: z.array(CheckTaxExplainDetailingItem).optional(),
    sales: z.array(CheckTaxExplainDetailingItem).optional(),
  });
  const CalculatedMargins = o({
    terminal_additional_costs: z.array(CheckMarginExplainDetailingItem).optional(),
  });
  const CheckItem = o({
    // identification
    code: z.string(), // required: rules, goods lists and services match lines by code
    category: text,
    title: text,
    unit: text,
    loyalty_item_id: text, // readonly
    // quantity and price; `amount`, when given, is authoritative (engine.md 1)
    quantity: num, // required: a line without a quantity cannot be priced
    price: num.optional(),
    amount: num.optional(),
    discount_amount: num.optional(),
    bonuses_added: num.optional(),
    weighing: flag.optional(),
    whole_number: flag.optional(),
    // by the authorised payment transaction, and by job
    authorized_amount: num.optional(),
    authorized_quantity: num.optional(),
    processed_amount: num.optional(),
    processed_quantity: num.optional(),
    // calculated by rules; null when the quantity is 0 (engine.md 16)
    calculated_price: num.nullable().optional(),
    calculated_discount_amount: num.nullable().optional(),
    calculated_unit_discount_amount: num.nullable().optional(),
    calculated_bonuses_redeemed_amount: num.nullable().optional(),
    calculated_unit_bonuses_redeemed_amount: num.nullable().optional(),
    amount_decimal_digits: decimalDigits.optional(),
    price_decimal_digits: decimalDigits.optional(),
    bonuses_decimal_digits: decimalDigits.optional(),
    quantity_decimal_digits: decimalDigits.optional(), // only when recalculation applies
    special_accounts_decimal_digits: decimalDigits.optional(),
    quantity_recalculate_type: CheckItemQuantityRecalculateType.optional(),
    margins: s.PriceMargins.optional(),
    taxes: s.PriceTaxes.optional(),
    // Same shape as the check's own (docs/engine.md): VAT under `base`, sales taxes under `sales`.
    calculated_margins: CalculatedMargins.optional(), // readonly
    calculated_taxes: CalculatedTaxes.optional(), // readonly
    passthru_data: s.GoodsPassThru.optional(),
    additions: CheckItemAdditionalInfo.optional(),
  });

  const CheckService = o({
    code: z.string(), // required by the contract
    title: text,
    type: AdditionalServiceType.optional(),
    value: num.optional(), // base value, such as a distance
    cost: num.optional(), // per unit of value
    amount: num.optional(),
    decimal_digits: decimalDigits.optional(), // of cost and amount
    additional_service_id: id.optional(), // readonly
    service_item_info: s.AdditionalService.optional(), // readonly
  });

  const CheckCouponBatch = o({
    id: id.optional(),
    business_id: id.optional(),
    loyalty_id: id.optional(),
    // ours: engine-fixture.md gives the batch the code a rule names in `coupon_batch_code`
    code: text,
    type: CouponType.optional(),
    public_title: text,
    public_description: text,
    image: text, // URL
    redeem_at_terminal: flag.optional(),
    share_allowed: flag.optional(),
    auto_redeem_on_add_to_wallet: flag.optional(),
    customers_price_type: BenefitsPriceType.optional(),
    customers_price_amount: num.optional(),
    customers_price_currency: currency.optional(),
    customers_price_special_account_id: id.optional(),
    customers_price_special_account_title: text,
    alias: s.CouponBatchAlias.optional(), // readonly
    links: z.array(s.CouponBatchLink).optional(), // readonly
  });

  const CheckCoupon = o({
    id: id.optional(),
    batch_id: id.optional(),
    loyalty_id: id.optional(),
    code: z.string(), // required: a coupon is presented and looked up by its code
    business_code: text,
    title: text,
    description: text,
    external_code: text,
    image: text, // URL
    expire_date: date.optional(),
    // The contract says CouponType; we accept CouponTypeExtended so that a cross-business
    // coupon (engine.md 9, 16) can come back in `redeemed_coupons` unchanged.
    type: CouponTypeExtended.optional(),
    status: CouponStatus.optional(),
    processing_status: CouponProcessingStatus.optional(), // check by transaction only
    external_code_visibility_type: CouponExternalCodeVisibilityType.optional(),
    redeem_at_terminal: flag.optional(),
    share_allowed: flag.optional(),
    valid: z.boolean().optional(), // redeem in check only
    applicable: z.boolean().optional(), // redeem in check only
    do_not_add_to_wallet: z.boolean().optional(), // check only
    activity_id: id.optional(), // check only
    object_id: s.objectId.optional(), // check only; a string, up to 36 characters
    object_type: BenefitsTopUpReferenceObjectType.optional(), // check only
    error: text, // coupon check implementation error, redeem in check only
    batch: CheckCouponBatch.optional(),
  });

  // A loyalty rule as applied to a check: every field nullable (and absent is fine).
  const CheckImplementedRule = o(
    nullableFields({
      id,
      loyalty_id: id,
      card_category_id: id, // retail scope only
      corporate_customer_category_id: id, // corporate scope only
      special_account_id: z.string(), // a string, not necessarily a uuid
      title: z.string(),
      comment: z.string(),
      scope: LoyaltyRuleScope, // readonly
      active: flag,
      automatic: RuleAutomatic,
      priority: z.int().min(0), // 0 is the greatest
      combine: flag,
      action_type: LoyaltyRuleActionType,
      // for automatic and coupon-automatic rules only; values not shown
      applicable_api_scope: z.string(),
      applicable_for_customer: LoyaltyRuleApplicableForCustomer,
      applicable_for_sale: LoyaltyRuleApplicableForSale,
      charge_type: BenefitsChargeTypeBase,
      depends_type: LoyaltyRuleDependsType,
      depends_calc_period: LoyaltyRuleDependsCalcPeriod,
      depends_calc_period_related_to_current_category: flag,
      apply_when_bonuses_redeemed: flag,
      apply_when_customers_account_payment: flag,
      count_bonuses_redeemed_amount: flag, // null: use the loyalty setting
      item_zero_quantity_as_one_quantity: flag,
      use_alternative_dependencies_by_items: flag,
      only_once_per_check: flag,
      coupon_do_not_add_to_wallet: flag,
      scheduled: flag,
      included_items: s.StringValuesList,
      excluded_items: s.StringValuesList,
      included_item_categories: s.StringValuesList,
      excluded_item_categories: s.StringValuesList,
      depends_included_items: s.StringValuesList,
      depends_excluded_items: s.StringValuesList,
      depends_included_item_categories: s.StringValuesList,
      depends_excluded_item_categories: s.StringValuesList,
      items_limit_min: z.int().min(0), // 0 = no limit
      items_limit_max: z.int().min(0), // 0 = no limit
      coupon_batch_code: z.string(),
      promotional_bonuses_expire_type: PromotionalBonusesExpireType,
      promotional_bonuses_expire_value: z.int().min(0),
      promotional_bonuses_expire_date: date,
      promotional_bonuses_starting_type: PromotionalBonusesStartingType,
      promotional_bonuses_starting_value: z.int().min(0),
      promotional_bonuses_starting_date: date,
      // engine.md 4: local dates and times; or RFC 3339 as the contract declares (ruleTime)
      valid_after: ruleDate,
      valid_before: ruleDate,
      time_from: ruleTime,
      time_to: ruleTime,
      week_days: s.WeekDaysList,
      pos: s.PosEmbeddedList,
      value: s.ThresholdsValues,
      implementation_data: s.RuleImplementationData, // only in check implemented rules
    }),
  );

  const CheckBusiness = o({
    id: id.optional(),
    title: text,
    description: text,
    photos: s.ImageObjectsList.optional(),
  });

  const CheckBusinessStaff = o({ id: id.optional(), name: text });

  const CheckLoyalty = o({
    id: id.optional(),
    active: flag.optional(),
    title: text,
    public_title: text,
    public_description: text,
    legal_info: text,
    privacy_policy_url: text,
    categories: s.LoyaltyCategoriesList.optional(),
    links: s.LoyaltyLinks.optional(),
    photos: s.ImageObjectsList.optional(),
  });

  const CheckPos = o({
    id: id.optional(),
    loyalty_id: id.optional(),
    title: text,
    public_title: text,
    public_description: text,
    type: PosType.optional(),
    country: text,
    addresses: text,
    latitude: num.optional(),
    longitude: num.optional(),
    time_zone: text, // wins over the business zone (engine.md 2)
    active: flag.optional(),
    additional_services_required: flag.optional(),
    check_item_enter_mode: CheckItemEnterMode.optional(),
    maximum_service_distance: z.int().min(0).optional(), // km, 0 = unlimited
    priority: z.int().optional(),
    // PosCatalogPublicationState is not shown: kept as a string
    catalog_publication_state: text,
    catalog_publication_comment: text,
    phones: s.PhoneNumbersList.optional(),
    photos: s.ImageObjectsList.optional(),
    links: s.LoyaltyLinks.optional(),
    categories: s.LoyaltyCategoriesList.optional(),
  });

  const CheckCorporateStaffPosition = o({
    id: id.optional(),
    title: text,
    public_title: text,
    public_description: text,
  });

  const CheckCorporateVehicle = o({
    id: id.optional(),
    vehicle_id: text,
    qr_code: text,
    avi_id: text,
    description: text,
    position_id: id.optional(),
    position: CheckCorporateStaffPosition.optional(), // readonly
  });

  const CheckSpecialAccount = o({
    id: z.string().optional(), // a string, not necessarily a uuid
    title: text,
    currency: currency.optional(),
    type: SpecialAccountType.optional(),
  });

  // code, goods_code, title, volume and the two product volumes are readonly.
  const CheckTank = o({
    tank_id: id.optional(),
    code: text,
    goods_code: text,
    title: text,
    address: text,
    latitude: num.optional(),
    longitude: num.optional(),
    volume: num.optional(),
    physical_dip_amount: num.optional(),
    product_volume_before: num.optional(),
    product_volume_after: num.optional(),
  });

  const CheckFeedbackSource = o({
    id: id.optional(),
    title: text,
    invitation_text: text,
    urls: o({ base_url: text, short_url: text }).optional(),
  });

  const CheckCustomerFeedbackSettings = o({
    active: flag.optional(),
    feedback_source: CheckFeedbackSource.optional(),
    print_feedback_on_check: CustomerFeedbackPrintOnCheck.optional(),
    print_feedback_on_check_message_text: text,
  });

  // The field set common to the request and the response.
  const checkShape = {
    // amounts
    amount: num.optional(),
    amount_to_pay: num.optional(),
    discount_amount: num.optional(),
    services_amount: num.optional(),
    shipping_amount: num.optional(),
    bonuses_added_amount: num.optional(),
    bonuses_redeemed_amount: num.optional(),
    amount_decimal_digits: decimalDigits.optional(),
    bonuses_decimal_digits: decimalDigits.optional(),
    special_accounts_decimal_digits: decimalDigits.optional(),
    // identity and context
    id: checkUserId.optional(),
    id_type: IdType.optional(),
    cardotppassword: cardOtpPassword.optional(),
    customer_id: id.optional(),
    corporate_customer_id: id.optional(),
    corporate_customer_special_account_id: id.optional(),
    business: CheckBusiness.optional(),
    business_staff: CheckBusinessStaff.optional(), // readonly
    pos: CheckPos.optional(),
    loyalty: CheckLoyalty.optional(),
    corporate_vehicle: CheckCorporateVehicle.optional(),
    billing_info: s.BillingInfo.optional(),
    customer_feedback_settings: CheckCustomerFeedbackSettings.optional(),
    avi_id: text,
    vehicle_id: text, // QR code or tag of a vehicle or equipment
    odometer: odometer.optional(),
    odometer_unit: OdometerUnitType.optional(),
    terminal_odometer_measurement_units: OdometerUnitType.optional(),
    // lines and rules
    check_items: z.array(CheckItem).optional(),
    check_services: z.array(CheckService).optional(),
    implemented_rules: z.array(CheckImplementedRule).optional(),
    manual_rules: z.boolean().optional(),
    bonuses_added: z.array(s.BonusAdded).optional(),
    emitted_coupons: z.array(CheckCoupon).optional(),
    redeemed_coupons: z.array(CheckCoupon).optional(),
    special_accounts_charges: z.array(s.SpecialAccountCharge).optional(),
    payments: z.array(s.Payment).optional(),
    tanks: z.array(CheckTank).optional(),
    user_external_forms: o({
      required: z.array(s.UserExternalForm).optional(),
      wanted: z.array(s.UserExternalForm).optional(),
    }).optional(), // readonly
    transaction_receipt_actions: s.TransactionReceiptActions.optional(),
    // taxes and margins, readonly
    calculated_taxes: CalculatedTaxes.optional(),
    calculated_margins: CalculatedMargins.optional(),
    // payment
    payment_id: text, // currency code, special account id or corporate access id
    payment_type: TransactionPaymentType.optional(),
    special_account: CheckSpecialAccount.optional(),
    special_account_required_values_verify: z.boolean().optional(), // process_check only
    // transaction
    transaction_id: id.optional(),
    transaction_type: TransactionType.optional(),
    transaction_subtype: TransactionSubType.optional(), // readonly
    transaction_cancelled: flag.optional(),
    preliminary_transaction_id: id.optional(), // present only if one exists
    preliminary_transaction_type: TransactionType.optional(),
    online_store_order_id: id.optional(),
    route_operation_id: text,
    // external references
    external_check_id: text,
    external_check_id_by_user: flag.optional(), // default 0
    external_check_id_scope: ExternalCheckIdScope.optional(),
    external_additional_info: s.FreeFormObject.optional(),
    comment: text,
    skip_message: z.boolean().optional(), // default false; suppresses notifications
  };

  /** A Check as sent to calc/process: the PIN may ride along, response-only fields may not. */
  const Check = o({
    ...checkShape,
    special_account_pin: z.string().optional(), // request only
  });

  /** A Check as returned: the response-only fields, and any echoed PIN dropped. */
  const CheckResponse = o({
    ...checkShape,
    summary_amount: num.optional(), // amount + shipping_amount + services_amount
    special_account_pin_required: z.boolean().optional(),
    special_account_odometer_required: DataRequiredType.optional(),
    special_account_vehicle_id_required: DataRequiredType.optional(),
    special_account_pin: droppedField,
  });

  return {
    CheckTaxExplainDetailingItem,
    CheckMarginExplainDetailingItem,
    CheckItemAdditionalInfo,
    CheckItem,
    CheckService,
    CheckCouponBatch,
    CheckCoupon,
    CheckImplementedRule,
    CheckBusiness,
    CheckBusinessStaff,
    CheckLoyalty,
    CheckPos,
    CheckCorporateStaffPosition,
    CheckCorporateVehicle,
    CheckSpecialAccount,
    CheckTank,
    CheckFeedbackSource,
    CheckCustomerFeedbackSettings,
    Check,
    CheckResponse,
  } as const;
}
