// The business surface (`{base_url}/v1`) of data-contract.md: the business itself, its
// settings, legal and billing data, tariff details, API keys, additional costs, bonus
// operations by terminal, user profiles and the sign-in token. Built by one function from an
// object factory (wire.ts), so a strict and a loose variant share one static type.
//
// Required vs optional, as in shared.ts: a field is required only where the contract says so
// (or, noted at the field, where the record means nothing without it); the rest are
// optional. Nullable only where the contract says null is a value. Stated defaults are noted;
// they are filled in only on the creation requests BusinessStarter and IdentityProviderSignIn,
// whose defaults decide what the service does.
import { z } from 'zod';
import {
  AdditionalCostType,
  AllTypeCustomerType,
  BusinessAuthTokenAccess,
  BusinessAuthTokenAccessScope,
  BusinessAutoPaySystem,
  BusinessBillingDetailsType,
  BusinessExternalDataAccessScope,
  BusinessStarterBusinessType,
  BusinessStarterRateType,
  CustomerAdditionalCardScope,
  LegalOwnershipType,
  NotifyBalanceLessThanType,
  PlatformMessageRequired,
  UserGender,
} from './enums.js';
import { looseShared, strictShared, type IdSchema, type Shared } from './shared.js';
import {
  currency,
  date,
  dateTime,
  decimalDigits,
  flag,
  looseObject,
  num,
  strictObject,
  uuid,
  type ObjectFactory,
} from './wire.js';

// ---- BusinessTariffDetails field families ----

/** Families with `<x>_count`, `<x>_count_left` (left in plan) and `<x>_count_over` (over plan). */
export const tariffCounterFamilies = [
  'customer_benefits_update_notifications',
  'email',
  'evs_phone_requests',
  'external_system_messages',
  'platform_chatbot',
  'new_customer',
  'walletpass_messages',
  'walletpass_updates',
  'push',
  'sms',
  'transactions',
  'messenger',
] as const;

/** Counters without left/over. */
const tariffPlainCounters = [
  'feedback_sources_count',
  'pos_count',
  'terminals_count',
  'ulg_push_count',
  'ulg_sms_count',
] as const;

/** `period_*` money amounts (floats). */
const tariffPeriodAmounts = [
  // balance
  'period_begin_balance_amount',
  'period_end_balance_amount',
  // subscription and service fees
  'period_account_payment_amount',
  'period_active_feedback_sources_payment_amount',
  'period_active_pos_payment_amount',
  'period_active_terminals_payment_amount',
  'period_additional_services_amount',
  'period_ordered_and_provided_services_amount',
  'period_min_day_delta_amount',
  'period_recommended_advance_payment_amount',
  // loyalty-related fees
  'period_amount_to_pay_payment_amount',
  'period_business_bonuses_redeemed_amount',
  'period_discount_amount',
  'period_redeemed_discount_payment_amount',
  'period_special_account_redeem_payment_amount',
  'period_transactions_payment_amount',
  'period_new_customers_payment_amount',
  'period_customer_benefits_update_notifications_payment_amount',
  // message fees
  'period_email_payment_amount',
  'period_sms_payment_amount',
  'period_push_payment_amount',
  'period_messenger_payment_amount',
  'period_platform_chatbot_payment_amount',
  'period_walletpass_messages_payment_amount',
  'period_walletpass_updates_payment_amount',
  'period_ulg_push_amount',
  'period_ulg_sms_amount',
  'period_evs_phone_requests_payment_amount',
  // exchange-coupon fees
  'period_ex_coupon_redeem_fee_payment_amount',
  'period_ex_coupon_redeem_fee_payouts_amount',
  'period_ex_coupon_redeem_fee_receipts_amount',
  // refills and credits
  'period_refill_payment_amount',
  'period_refill_cancel_amount',
  'period_refill_credit_payment_amount',
  'period_refill_credit_cancel_amount',
  'period_refill_overall_payment_amount',
  'period_refill_overall_cancel_amount',
] as const;

/** The period bounds (date-times). */
const tariffPeriodDateTimes = ['period_begin_datetime', 'period_end_datetime'] as const;

/** Other amounts (floats). */
const tariffOtherAmounts = [
  'business_bonuses_amount',
  'redeem_discount_amount',
  'special_account_redeem_amount',
  'to_pay_amount',
] as const;

type CounterName<F extends string> = `${F}_count` | `${F}_count_left` | `${F}_count_over`;

/** The three counter names of each family, typed. */
export function counterNames<const F extends string>(families: readonly F[]): CounterName<F>[] {
  return families.flatMap((f) => [`${f}_count`, `${f}_count_left`, `${f}_count_over`] as const);
}

/**
 * Each name as an optional `type` field plus its optional `<name>_public_title` string,
 * every key kept in the static type.
 */
function withPublicTitles<const N extends string, T extends z.ZodType>(
  names: readonly N[],
  type: T,
): { [K in N]: z.ZodOptional<T> } & {
  [K in N as `${K}_public_title`]: z.ZodOptional<z.ZodString>;
} {
  const shape: Record<string, z.ZodType> = {};
  for (const name of names) {
    shape[name] = type.optional();
    shape[`${name}_public_title`] = z.string().optional();
  }
  return shape as { [K in N]: z.ZodOptional<T> } & {
    [K in N as `${K}_public_title`]: z.ZodOptional<z.ZodString>;
  };
}

// ---- BusinessUserProfile limits (Limits table) ----

export const BUSINESS_USER_LIMITS = { external_id: 128, login: 80, name: 128, phone: 20 } as const;

function maxChars(field: keyof typeof BUSINESS_USER_LIMITS) {
  const max = BUSINESS_USER_LIMITS[field];
  return z.string().max(max, { error: `${field}: at most ${max} characters` });
}

// long: the contract's schemas of one section, one after another as data-contract.md lists
// them; built once per object factory (strict and loose), so they cannot be split apart.
export function defineBusiness(o: ObjectFactory, shared: Shared, id: IdSchema = uuid) {
  const text = z.string().optional();

  // ---- "not shown" by the contract: minimal shapes ----

  // minimal shape: Tariff is not shown (the business's tariff plan).
  const Tariff = o({ id: id.optional(), code: text, title: text, public_title: text });
  // minimal shape: MultiLanguageObject is not shown (texts keyed by ISO language code).
  const MultiLanguageObject = z.record(z.string(), z.string());
  // minimal shape: EmailRecordsList is not shown (a user's e-mail addresses).
  const EmailRecordsList = z.array(
    o({ email: z.string(), confirmed: z.boolean().optional(), primary: z.boolean().optional() }),
  );
  // minimal shape: UserIDs is not shown (the users a bonus operation applies to).
  const UserIDs = z.array(z.string());
  // minimal shape: UserProfile is not shown (the signed-in user of BusinessAuthToken).
  const UserProfile = o({
    id: id.optional(),
    name: text,
    email: text,
    phone: text,
    language: text,
  });
  // minimal shape: ItemAdditionalCostSummaryData is not shown (an item's share of a cost).
  const ItemAdditionalCostSummaryData = o({
    item_code: text,
    item_title: text,
    amount: num.optional(),
    decimal_digits: decimalDigits.optional(),
  });

  // ---- the business ----

  const BusinessAutoPayParams = o({
    amount: num.optional(),
    balance_edge: num.optional(), // refill when the balance falls below this
    currency: currency.optional(),
    description: text,
    email: text,
    language: text,
    phone: text,
    order_reference: id.optional(),
    system: BusinessAutoPaySystem.optional(),
  });

  /** Request body: creation of a business. */
  const BusinessStarter = o({
    title: z.string(), // required by the contract
    country: z.string(), // required by the contract; ISO country code
    business_type: BusinessStarterBusinessType.default('regular'),
    rate: num.optional(), // percentage
    rate_type: BusinessStarterRateType.default('none'),
    referral_code: text,
    terminal_password: text,
    terminal_phone: text,
    time_zone: text,
  });

  const BusinessStatus = o({
    // integers (the misspellings are the contract's field names)
    block_days_left: z.int().optional(),
    customer_feedback_sources_active_count: z.int().optional(),
    customer_feedback_sources_count: z.int().optional(),
    support_unreaded_messages_count: z.int().optional(),
    support_unreplayed_messages_count: z.int().optional(),
    ureaded_messages_count: z.int().optional(),
    ureplayed_messages_count: z.int().optional(),
    // floats
    account_balance: num.optional(),
    business_bonuses_amount: num.optional(),
    credit_limit: num.optional(),
    tariff_plan_day_price: num.optional(),
    // dates
    block_date: date.optional(),
    tariff_plan_expire_date: date.optional(),
    // flags
    business_allow_export_customers: flag.optional(),
    business_reseller: flag.optional(),
    flag_email_confirmed: flag.optional(),
    flag_insufficient_funds_on_account: flag.optional(),
    flag_tariff_plan_expired: flag.optional(),
    show_sc_in_transations_list: flag.optional(),
    support_news_priority: flag.optional(),
    support_pos_priority: flag.optional(),
    business_code: text,
  });

  /** A business as the business surface shows it (the registry's `business.Business`). */
  const Business = o({
    // identity
    id: id.optional(),
    title: text,
    code: text,
    referral_code: text,
    country: text, // ISO country code
    currency: currency.optional(),
    created: dateTime.optional(),
    active: flag.optional(),
    // balance and flags
    account_balance: num.optional(),
    credit_limit: num.optional(),
    expenses_average_day_amount: num.optional(),
    allow_export_customers: flag.optional(),
    reseller: flag.optional(),
    show_sc_in_transations_list: flag.optional(), // sic
    subscribe_platform_news: flag.optional(),
    support_news_priority: flag.optional(),
    support_pos_priority: flag.optional(),
    suspend_notification_stage: z.int().optional(),
    external_data_access_exists: z.boolean().optional(), // readonly
    // low-balance notifications
    notify_balance_less_than_by_email: flag.optional(),
    notify_balance_less_than_by_push: flag.optional(),
    notify_balance_less_than_by_sms: flag.optional(),
    notify_balance_less_than_type: NotifyBalanceLessThanType.optional(),
    notify_balance_less_than_value: num.optional(),
    notify_balance_less_than_value_wo_credit_limit: z.boolean().optional(),
    auto_pay_params: BusinessAutoPayParams.optional(),
    // readonly; false = every staff member is treated as manager (interfaces.md)
    role_based_model: o({ active: z.boolean().optional() }).optional(),
    status: BusinessStatus.optional(),
    tariff: Tariff.optional(),
    tariff_plan_set: dateTime.optional(),
  });

  // The contract types these three "boolean, default 0": the service may spell them 0/1,
  // so both spellings are accepted rather than quarantining its settings.
  const booleanOrFlag = z.union([z.boolean(), flag]);

  // Writable settings may be sent partially, so stated defaults are not filled in: a filled
  // default would overwrite the stored value.
  const BusinessSettings = o({
    // writable
    base_time_zone: text, // default UTC
    bonus_period_by_base_time_zone: booleanOrFlag.optional(), // default 0
    coupons_period_by_base_time_zone: booleanOrFlag.optional(), // default 0
    tour_cards_period_by_base_time_zone: booleanOrFlag.optional(), // default 0
    consent_request_required: z.boolean().optional(),
    group_wallet_by_business: z.boolean().optional(),
    welcome_message_send: z.boolean().optional(),
    consent_request_message: MultiLanguageObject.optional(),
    welcome_message: MultiLanguageObject.optional(),
    public_title: MultiLanguageObject.optional(),
    public_description: MultiLanguageObject.optional(),
    customer_additional_card_scope: CustomerAdditionalCardScope.optional(),
    photos: shared.ImageObjectsList.optional(),
    // readonly from here; the contract does not type the pattern and platform fields, so
    // texts are strings and the *_mandatory / *_allow fields booleans (ours)
    business_id: id.optional(),
    consent_message_pincode_pattern: text,
    consent_message_platform_message_pattern: text,
    consent_message_required_pattern: text,
    consent_message_required_regex: text,
    consent_request_message_platform_part_mandatory: z.boolean().optional(),
    welcome_message_platform_message_pattern: text,
    welcome_message_required_pattern: text,
    welcome_message_required_regex: text,
    welcome_message_platform_part_mandatory: z.boolean().optional(),
    platform_consent_request_message: text,
    platform_consent_request_message_business_default: text,
    platform_consent_request_required: PlatformMessageRequired.optional(),
    platform_consent_request_send_change_allow: z.boolean().optional(),
    platform_welcome_message: text,
    platform_welcome_message_business_default: text,
    platform_welcome_message_required: PlatformMessageRequired.optional(),
    platform_welcome_message_send_change_allow: z.boolean().optional(),
  });

  const BusinessLegalInfo = o({
    accounting_email: text,
    accounting_phone: text,
    details_for_invoice: text,
    legal_address: text,
    legal_ownership_type: LegalOwnershipType.optional(),
    name_for_invoice: text,
    post_address: text,
    tax_id: text,
  });

  // A secret: never logged. The terminal signs in with it (sync.md).
  const BusinessApiKey = o({
    api_key: text,
    business_id: id.optional(), // readonly
  });

  const BusinessExternalDataAccess = o({
    id: id.optional(),
    loyalty_id: id.optional(),
    title: text,
    api_key: text, // readonly
    scope: z.array(BusinessExternalDataAccessScope).optional(),
  });

  // ---- billing and tariff ----

  // Invoice and legal fields, all optional (the contract says so). Types the contract does
  // not give are strings; `invoice_created` may be a date or a date-time, so it stays text.
  const BusinessBillingOperationDetails = o({
    // accounting and address
    accounting: text,
    accounting_email: text,
    accounting_phone: text,
    legal_address: text,
    post_address: text,
    // amounts and currency
    amount: num.optional(),
    tax_amount: num.optional(),
    tax_currency: currency.optional(),
    tax_id: text,
    tax_rate: num.optional(),
    currency: currency.optional(),
    // business and invoice identity
    business_code: text,
    business_country: text,
    business_country_title: text,
    name_for_invoice: text,
    invoice_number: text,
    invoice_created: text,
    referral_code: text,
    // owner contact
    owner_email: text,
    owner_name: text,
    owner_phone: text,
    // card used
    card_alias: text,
    card_mask: text,
    billing_details: text,
    // processing
    processed: dateTime.optional(),
    processed_formatted: text,
    source: text,
    comment: text,
  });

  // The contract marks info, public_title, source and details optional, so the rest are required.
  const BusinessBillingDetails = o({
    id,
    amount: num,
    currency,
    processed: dateTime,
    type: BusinessBillingDetailsType,
    info: text,
    public_title: text,
    source: text,
    details: BusinessBillingOperationDetails.optional(),
  });

  // Every counter and amount is optional and has a `<name>_public_title` string.
  const BusinessTariffDetails = o({
    ...withPublicTitles(counterNames(tariffCounterFamilies), num),
    ...withPublicTitles(tariffPlainCounters, num),
    ...withPublicTitles(tariffPeriodAmounts, num),
    ...withPublicTitles(tariffPeriodDateTimes, dateTime),
    ...withPublicTitles(tariffOtherAmounts, num),
    billing: z.array(BusinessBillingDetails).optional(),
  });

  // ---- additional costs ----

  const AdditionalCost = o({
    id: id.optional(),
    loyalty_id: id.optional(),
    code: text,
    title: text,
    type: AdditionalCostType.optional(),
    default_value: num.optional(),
    decimal_digits: decimalDigits.optional(),
    include_in_receipt: flag.optional(),
    used: z.boolean().optional(), // readonly: used by terminals
  });

  const AdditionalCostSummaryReport = o({
    additional_cost_id: id.optional(),
    business_id: id.optional(),
    loyalty_id: id.optional(),
    additional_cost_code: text,
    additional_cost_title: text,
    additional_cost_amount: num.optional(),
    additional_cost_decimal_digits: decimalDigits.optional(),
    items: z.array(ItemAdditionalCostSummaryData).optional(),
  });

  // ---- bonus operations by terminal ----

  /** Request body of `bonuses/add` and `bonuses/write_off`. */
  const BonusesOperationObject = o({
    terminal_id: id, // required by the contract
    amount: num.optional(),
    amount_decimal_digits: decimalDigits.optional(),
    bonuses_decimal_digits: decimalDigits.optional(),
    special_accounts_decimal_digits: decimalDigits.optional(),
    comment: text,
    message: text, // notification template
    skip_message: z.boolean().optional(), // default false; suppresses notifications
    loyalty_id: id.optional(),
    expire: date.optional(),
    starting: date.optional(),
    users: UserIDs.optional(),
  });

  // ---- users ----

  /** Request body of a language change. */
  const BusinessUserLanguage = o({
    language: z.string(), // required by the contract; ISO language code
    changed: z.boolean().optional(), // readonly, language-change operation only
  });

  // The contract's definition continues beyond these fields (not shown); the loose variant
  // keeps whatever else the service sends.
  const BusinessUserProfile = o({
    // identity and location
    id: id.optional(),
    avatar: text, // URL
    birth_date: date.optional(),
    country: text,
    language: text,
    gender: UserGender.optional(),
    // contact and account
    emails: EmailRecordsList.optional(),
    external_id: maxChars('external_id').optional(),
    login: maxChars('login').optional(), // the primary e-mail
    name: maxChars('name').optional(),
    password_exist: z.boolean().optional(),
    phone: maxChars('phone').optional(), // the primary phone
  });

  const AllTypeCustomer = o({
    id: id.optional(),
    name: text,
    email: text,
    phone: text,
    external_id: text,
    type: AllTypeCustomerType.optional(),
  });

  // ---- authentication ----

  /** Returned on sign-in. */
  const BusinessAuthToken = o({
    token: z.string(), // required: a sign-in answer without a token means nothing
    access: BusinessAuthTokenAccess.optional(),
    access_scopes: z.array(BusinessAuthTokenAccessScope).optional(),
    owner: z.boolean().optional(), // signed in as owner
    owned_by_trusted_system: z.boolean().optional(), // only for a trusted system's sign-in
    staff: shared.BusinessStaff.optional(),
    user: UserProfile.optional(),
  });

  /** Request body of the identity-provider sign-in. */
  const IdentityProviderSignIn = o({
    client_id: z.string(), // required: the identity provider service identifier
    credential: z.string(), // required: the authorization code
    create: z.boolean().default(false), // create a user if none exists
    link_by_email: z.boolean().default(true), // link the credentials to an account by e-mail
    user: o({
      name: o({
        firstName: z.string().nullable().optional(),
        lastName: z.string().nullable().optional(),
      })
        .nullable()
        .optional(),
    })
      .nullable()
      .optional(),
  });

  return {
    Tariff,
    MultiLanguageObject,
    EmailRecordsList,
    UserIDs,
    UserProfile,
    ItemAdditionalCostSummaryData,
    BusinessAutoPayParams,
    BusinessStarter,
    BusinessStatus,
    Business,
    BusinessSettings,
    BusinessLegalInfo,
    BusinessApiKey,
    BusinessExternalDataAccess,
    BusinessBillingOperationDetails,
    BusinessBillingDetails,
    BusinessTariffDetails,
    AdditionalCost,
    AdditionalCostSummaryReport,
    BonusesOperationObject,
    BusinessUserLanguage,
    BusinessUserProfile,
    AllTypeCustomer,
    BusinessAuthToken,
    IdentityProviderSignIn,
  } as const;
}

export type BusinessSurface = ReturnType<typeof defineBusiness>;

/** Our UI and API: unknown fields are refused, naming them. */
export const strictBusiness = defineBusiness(strictObject, strictShared);
/** What the central service sends: unknown fields are kept. */
export const looseBusiness = defineBusiness(looseObject, looseShared);

type Out<K extends keyof BusinessSurface> = z.infer<BusinessSurface[K]>;

export type Tariff = Out<'Tariff'>;
export type MultiLanguageObject = Out<'MultiLanguageObject'>;
export type EmailRecordsList = Out<'EmailRecordsList'>;
export type UserIDs = Out<'UserIDs'>;
export type UserProfile = Out<'UserProfile'>;
export type ItemAdditionalCostSummaryData = Out<'ItemAdditionalCostSummaryData'>;
export type BusinessAutoPayParams = Out<'BusinessAutoPayParams'>;
export type BusinessStarter = Out<'BusinessStarter'>;
export type BusinessStatus = Out<'BusinessStatus'>;
export type Business = Out<'Business'>;
export type BusinessSettings = Out<'BusinessSettings'>;
export type BusinessLegalInfo = Out<'BusinessLegalInfo'>;
export type BusinessApiKey = Out<'BusinessApiKey'>;
export type BusinessExternalDataAccess = Out<'BusinessExternalDataAccess'>;
export type BusinessBillingOperationDetails = Out<'BusinessBillingOperationDetails'>;
export type BusinessBillingDetails = Out<'BusinessBillingDetails'>;
export type BusinessTariffDetails = Out<'BusinessTariffDetails'>;
export type AdditionalCost = Out<'AdditionalCost'>;
export type AdditionalCostSummaryReport = Out<'AdditionalCostSummaryReport'>;
export type BonusesOperationObject = Out<'BonusesOperationObject'>;
export type BusinessUserLanguage = Out<'BusinessUserLanguage'>;
export type BusinessUserProfile = Out<'BusinessUserProfile'>;
export type AllTypeCustomer = Out<'AllTypeCustomer'>;
export type BusinessAuthToken = Out<'BusinessAuthToken'>;
export type IdentityProviderSignIn = Out<'IdentityProviderSignIn'>;
