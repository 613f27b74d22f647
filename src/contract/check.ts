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
  BOUNDS,
  code,
  currency,
  date,
  dateTime,
  decimalDigits,
  decimalPlaces,
  droppedField,
  flag,
  num,
  shortText,
  text as freeText,
  title as titleText,
  type NumberRules,
  type ObjectFactory,
} from './wire.js';

/** Limits table: Check `odometer` is >= 0 with at most two decimal digits (engine.md 10). */
const odometer = num
  .min(0, { error: 'must be >= 0' })
  .refine((n) => decimalPlaces(n) <= 2, { error: 'at most two decimal digits' });

/** Limits table: Check `id` (phone, card code or QR code) has at least 3 characters. */
const checkUserId = titleText.min(3, {
  error: 'the user identifier has at least 3 characters',
});

/** Limits table: Check `cardotppassword` has at least 3 characters. */
const cardOtpPassword = shortText.min(3, { error: 'at least 3 characters' });

/** engine.md 4: a rule's local time, `HH:MM` or `HH:MM:SS`. */
const localTime = z
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
const ruleTime = z.union([localTime, offsetTime, dateTime], {
  error: 'a time of day: HH:MM or HH:MM:SS (local), HH:MM:SS with an offset, or a date-time',
});

/**
 * A rule's `valid_after` / `valid_before`: a local date (inclusive), or a date-time (an
 * instant) as the contract declares it.
 */
const ruleDate = z.union([date, dateTime], {
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

/** What a line comes to, for the bound only: its `amount`, else price x quantity. */
function lineSize(line: {
  amount?: number | undefined;
  price?: number | undefined;
  quantity: number;
}) {
  return Math.abs(line.amount ?? (line.price ?? 0) * line.quantity);
}

/**
 * A check's lines: at most 500, and each line and all of them together within what a till
 * sells (1e9), so no figure the engine derives from them leaves the bounds. A float product
 * is fine here: it decides a bound, never an amount.
 */
export function checkItems<
  T extends z.ZodType<{
    amount?: number | undefined;
    price?: number | undefined;
    quantity: number;
  }>,
>(line: T, linesTotal: number | null) {
  if (linesTotal === null) return z.array(line);
  const limit = linesTotal.toLocaleString('en-US');
  return z
    .array(line)
    .max(BOUNDS.lines, { error: `at most ${BOUNDS.lines} lines` })
    .superRefine((lines, ctx) => {
      let total = 0;
      for (const [i, l] of lines.entries()) {
        const size = lineSize(l);
        total += size;
        // A given amount has its own bound; price x quantity is bounded here.
        if (l.amount === undefined && size > linesTotal)
          ctx.addIssue({
            code: 'custom',
            path: [i, 'price'],
            message: `price x quantity comes to more than ${limit}`,
          });
      }
      if (total > linesTotal)
        ctx.addIssue({ code: 'custom', message: `the lines come to more than ${limit}` });
    });
}

// long: the contract's schemas of one section, one after another as data-contract.md lists
// them; built once per object factory (strict and loose), so they cannot be split apart.
/**
 * The parts of a check that hold no money nor quantity: an answer variant built with other
 * number rules reuses them (`prior`), so both share them (and the API documents share them
 * by reference).
 */
export function defineCheck(
  o: ObjectFactory,
  s: SharedBase,
  id: IdSchema,
  n: NumberRules,
  prior?: Readonly<Record<string, z.ZodType>>,
) {
  const { money, quantity } = n;
  const keep = <T extends z.ZodType>(name: string, make: () => T): T =>
    (prior?.[name] as T | undefined) ?? make();
  // Bounds (wire.ts): codes, titles and free text each have their length and characters.
  const text = freeText.optional();
  const title = titleText.optional();
  const short = shortText.optional();

  // Tax and margin detailing items; the margin item lacks `exempt`. `source` and `type`
  // (PriceExplainValueSource/Type) are not shown by the contract: kept as strings.
  const detailing = {
    decimal_digits: decimalDigits.optional(),
    include_in_receipt: z.boolean().optional(),
    source: z.string().optional(),
    type: z.string().optional(),
    value: money.optional(),
    value_code: short,
    value_id: id.optional(),
    value_title: title,
  };
  const CheckTaxExplainDetailingItem = o({ ...detailing, exempt: z.boolean().optional() });
  const CheckMarginExplainDetailingItem = o(detailing);

  // All fields but `job` are optional and readonly (the contract says so).
  const CheckItemAdditionalInfo = keep('CheckItemAdditionalInfo', () =>
    o({
      job: s.Job,
      loyalty_item_id: short,
      processing_id: short,
      quantity_decimal_digits: decimalDigits.optional(),
      quantity_recalculate_skipped: z.boolean().optional(),
      quantity_recalculate_type: CheckItemQuantityRecalculateType.optional(),
    }),
  );

  const CalculatedTaxes = o({
    base: z.array(CheckTaxExplainDetailingItem).optional(),
    sales: z.array(CheckTaxExplainDetailingItem).optional(),
  });
  const CalculatedMargins = o({
    terminal_additional_costs: z.array(CheckMarginExplainDetailingItem).optional(),
  });
  const CheckItem = o({
    // identification
    code, // required: rules, goods lists and services match lines by code
    category: short,
    title,
    unit: short,
    loyalty_item_id: short, // readonly
    // quantity and price; `amount`, when given, is authoritative (engine.md 1)
    quantity, // required: a line without a quantity cannot be priced
    price: money.optional(),
    amount: money.optional(),
    discount_amount: money.optional(),
    bonuses_added: money.optional(),
    weighing: flag.optional(),
    whole_number: flag.optional(),
    // by the authorised payment transaction, and by job
    authorized_amount: money.optional(),
    authorized_quantity: quantity.optional(),
    processed_amount: money.optional(),
    processed_quantity: quantity.optional(),
    // calculated by rules; null when the quantity is 0 (engine.md 16)
    calculated_price: money.nullable().optional(),
    calculated_discount_amount: money.nullable().optional(),
    calculated_unit_discount_amount: money.nullable().optional(),
    calculated_bonuses_redeemed_amount: money.nullable().optional(),
    calculated_unit_bonuses_redeemed_amount: money.nullable().optional(),
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
    code, // required by the contract
    title,
    type: AdditionalServiceType.optional(),
    value: quantity.optional(), // base value, such as a distance
    cost: money.optional(), // per unit of value
    amount: money.optional(),
    decimal_digits: decimalDigits.optional(), // of cost and amount
    additional_service_id: id.optional(), // readonly
    service_item_info: s.AdditionalService.optional(), // readonly
  });

  const CheckCouponBatch = o({
    id: id.optional(),
    business_id: id.optional(),
    loyalty_id: id.optional(),
    // ours: engine-fixture.md gives the batch the code a rule names in `coupon_batch_code`
    code: short,
    type: CouponType.optional(),
    public_title: title,
    public_description: text,
    image: text, // URL
    redeem_at_terminal: flag.optional(),
    share_allowed: flag.optional(),
    auto_redeem_on_add_to_wallet: flag.optional(),
    customers_price_type: BenefitsPriceType.optional(),
    customers_price_amount: money.optional(),
    customers_price_currency: currency.optional(),
    customers_price_special_account_id: id.optional(),
    customers_price_special_account_title: title,
    alias: s.CouponBatchAlias.optional(), // readonly
    links: z.array(s.CouponBatchLink).optional(), // readonly
  });

  const CheckCoupon = o({
    id: id.optional(),
    batch_id: id.optional(),
    loyalty_id: id.optional(),
    code, // required: a coupon is presented and looked up by its code
    business_code: short,
    title,
    description: text,
    external_code: short,
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

  // An emitted coupon (engine.md 17.14): without a terminal it has no code yet (null, and
  // processing_status pending) until the central service gives it one. Only emitted coupons:
  // a presented coupon is looked up by its code.
  const EmittedCheckCoupon = o({ ...CheckCoupon.shape, code: code.nullable() });

  // A loyalty rule as applied to a check: every field nullable (and absent is fine).
  const CheckImplementedRule = keep('CheckImplementedRule', () =>
    o(
      nullableFields({
        id,
        loyalty_id: id,
        card_category_id: id, // retail scope only
        corporate_customer_category_id: id, // corporate scope only
        special_account_id: shortText, // a string, not necessarily a uuid
        title: titleText,
        comment: freeText,
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
        coupon_batch_code: shortText,
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
    ),
  );

  const CheckBusiness = keep('CheckBusiness', () =>
    o({
      id: id.optional(),
      title,
      description: text,
      photos: s.ImageObjectsList.optional(),
    }),
  );

  const CheckBusinessStaff = keep('CheckBusinessStaff', () =>
    o({ id: id.optional(), name: title }),
  );

  const CheckLoyalty = keep('CheckLoyalty', () =>
    o({
      id: id.optional(),
      active: flag.optional(),
      title,
      public_title: title,
      public_description: text,
      legal_info: text,
      privacy_policy_url: text,
      categories: s.LoyaltyCategoriesList.optional(),
      links: s.LoyaltyLinks.optional(),
      photos: s.ImageObjectsList.optional(),
    }),
  );

  const CheckPos = keep('CheckPos', () =>
    o({
      id: id.optional(),
      loyalty_id: id.optional(),
      title,
      public_title: title,
      public_description: text,
      type: PosType.optional(),
      country: short,
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
    }),
  );

  const CheckCorporateStaffPosition = keep('CheckCorporateStaffPosition', () =>
    o({
      id: id.optional(),
      title,
      public_title: title,
      public_description: text,
    }),
  );

  const CheckCorporateVehicle = keep('CheckCorporateVehicle', () =>
    o({
      id: id.optional(),
      vehicle_id: short,
      qr_code: title, // up to 256 characters, as the scanner reads them
      avi_id: short,
      description: text,
      position_id: id.optional(),
      position: CheckCorporateStaffPosition.optional(), // readonly
    }),
  );

  const CheckSpecialAccount = keep('CheckSpecialAccount', () =>
    o({
      id: short, // a string, not necessarily a uuid
      title,
      currency: currency.optional(),
      type: SpecialAccountType.optional(),
    }),
  );

  // code, goods_code, title, volume and the two product volumes are readonly.
  const CheckTank = keep('CheckTank', () =>
    o({
      tank_id: id.optional(),
      code: short,
      goods_code: short,
      title,
      address: text,
      latitude: num.optional(),
      longitude: num.optional(),
      volume: num.optional(),
      physical_dip_amount: num.optional(),
      product_volume_before: num.optional(),
      product_volume_after: num.optional(),
    }),
  );

  const CheckFeedbackSource = keep('CheckFeedbackSource', () =>
    o({
      id: id.optional(),
      title,
      invitation_text: text,
      urls: o({ base_url: text, short_url: text }).optional(),
    }),
  );

  const CheckCustomerFeedbackSettings = keep('CheckCustomerFeedbackSettings', () =>
    o({
      active: flag.optional(),
      feedback_source: CheckFeedbackSource.optional(),
      print_feedback_on_check: CustomerFeedbackPrintOnCheck.optional(),
      print_feedback_on_check_message_text: text,
    }),
  );

  // The field set common to the request and the response.
  const checkShape = {
    // amounts
    amount: money.optional(),
    amount_to_pay: money.optional(),
    discount_amount: money.optional(),
    services_amount: money.optional(),
    shipping_amount: money.optional(),
    bonuses_added_amount: money.optional(),
    bonuses_redeemed_amount: money.optional(),
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
    avi_id: short,
    vehicle_id: short, // QR code or tag of a vehicle or equipment
    odometer: odometer.optional(),
    odometer_unit: OdometerUnitType.optional(),
    terminal_odometer_measurement_units: OdometerUnitType.optional(),
    // lines and rules
    check_items: checkItems(CheckItem, n.linesTotal).optional(),
    check_services: z
      .array(CheckService)
      .max(BOUNDS.services, { error: `at most ${BOUNDS.services} services` })
      .optional(),
    implemented_rules: z.array(CheckImplementedRule).optional(),
    manual_rules: z.boolean().optional(),
    bonuses_added: z.array(s.BonusAdded).optional(),
    emitted_coupons: z.array(EmittedCheckCoupon).optional(),
    redeemed_coupons: z
      .array(CheckCoupon)
      .max(BOUNDS.coupons, { error: `at most ${BOUNDS.coupons} coupons` })
      .optional(),
    special_accounts_charges: z.array(s.SpecialAccountCharge).optional(),
    payments: z
      .array(s.Payment)
      .max(BOUNDS.payments, { error: `at most ${BOUNDS.payments} payments` })
      .optional(),
    tanks: z
      .array(CheckTank)
      .max(BOUNDS.tanks, { error: `at most ${BOUNDS.tanks} tanks` })
      .optional(),
    user_external_forms: o({
      required: z.array(s.UserExternalForm).optional(),
      wanted: z.array(s.UserExternalForm).optional(),
    }).optional(), // readonly
    transaction_receipt_actions: s.TransactionReceiptActions.optional(),
    // taxes and margins, readonly
    calculated_taxes: CalculatedTaxes.optional(),
    calculated_margins: CalculatedMargins.optional(),
    // payment
    payment_id: short, // currency code, special account id or corporate access id
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
    route_operation_id: short,
    // external references
    external_check_id: short,
    external_check_id_by_user: flag.optional(), // default 0
    external_check_id_scope: ExternalCheckIdScope.optional(),
    external_additional_info: s.FreeFormObject.optional(),
    comment: text,
    skip_message: z.boolean().optional(), // default false; suppresses notifications
  };

  /** A Check as sent to calc/process: the PIN may ride along, response-only fields may not. */
  const Check = o({
    ...checkShape,
    special_account_pin: short, // request only
  });

  /** A Check as returned: the response-only fields, and any echoed PIN dropped. */
  const CheckResponse = o({
    ...checkShape,
    summary_amount: money.optional(), // amount + shipping_amount + services_amount
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
    EmittedCheckCoupon,
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
