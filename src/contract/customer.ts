// The customer client surface (`{base_url}/v1/client`) of data-contract.md: a customer's
// special and bonus accounts, transfers, cards, chatbot tokens, referral codes, corporate
// account access and coupons. Built by one function from an object factory (wire.ts), so a
// strict and a loose variant share one static type.
//
// Required vs optional, as in shared.ts: a field is required only where the contract says so
// (CorporateAccountAccessLimits: see there); the rest are optional. Nullable only where the
// contract says null is a value.
import { z } from 'zod';
import {
  BenefitsChargeTypeBase,
  CardCategoryType,
  CardRecordScope,
  ChatbotChannels,
  CorporateUserStatus,
  CouponTypeExtended,
  DataRequiredType,
  PromotionalBonusesExpireTypeBase,
  RecipientIdType,
  SpecialAccountCreditType,
  SpecialAccountType,
} from './enums.js';
import { looseShared, strictShared, type IdSchema, type Shared } from './shared.js';
import {
  currency,
  date,
  dateTime,
  flag,
  looseObject,
  num,
  strictObject,
  uuid,
  type ObjectFactory,
} from './wire.js';

// long: the contract's schemas of one section, one after another as data-contract.md lists
// them; built once per object factory (strict and loose), so they cannot be split apart.
export function defineCustomer(o: ObjectFactory, shared: Shared, id: IdSchema = uuid) {
  const text = z.string().optional();

  // ---- accounts ----

  /** A customer's special account. */
  const AccountsRec = o({
    // identity
    id: id.optional(),
    account_id: id.optional(),
    title: text,
    type: SpecialAccountType.optional(),
    currency: currency.optional(),
    currency_name: text,
    // amounts
    amount: num.optional(),
    balance: num.optional(),
    available_amount: num.nullable().optional(), // null if unlimited
    unconfirmed_redeem_amount: num.optional(),
    // credit
    credit_limit: num.optional(),
    credit_type: SpecialAccountCreditType.optional(),
    extended: flag.optional(),
    goods_items: shared.GoodsCodes.optional(), // the goods payable from the account
    // extended accounts only
    limits: shared.AccountLimits.optional(),
    odometer: DataRequiredType.optional(),
    security_code: flag.optional(), // 1 = an additional PIN exists
  });

  // Bonus `currency` is the loyalty's bonus unit, not necessarily an ISO code, so it stays text.
  const BonusesRec = o({
    id: id.optional(),
    title: text,
    currency: text,
    currency_name: text,
    bonuses_amount: num.optional(),
    permanent_bonuses_amount: num.optional(),
    temporary_bonuses_amount: num.optional(),
  });

  /** Request body: transfer of funds to a recipient (all three fields required). */
  const BonusPointsTransferFundsRequest = o({
    currency: z.string(), // a bonus unit or ISO code, as BonusesRec
    amount: num,
    recipient_id: z.string(), // phone, e-mail or external id
    recipient_id_type: RecipientIdType.optional(),
  });

  // ---- cards ----

  const CardRecord = o({
    id: id.optional(),
    code: text,
    photo: text, // URL
    scope: CardRecordScope.optional(),
    title: text,
  });

  const CardCategory = o({
    id: id.optional(),
    image: text, // URL
    title: text,
    type: CardCategoryType.optional(), // readonly
  });

  // All double.
  const CardInfo = o({
    bonuses_added_amount: num.optional(),
    bonuses_amount: num.optional(),
    bonuses_redeemed_amount: num.optional(),
    permanent_bonuses_amount: num.optional(),
    saved_amount: num.optional(),
    temporary_bonuses_amount: num.optional(),
  });

  /** A list of card codes. */
  const CustomerCards = z.array(z.string());

  // minimal shape: LoyaltyCustomerCards is not shown (a loyalty and the customer's cards in it).
  const LoyaltyCustomerCards = o({
    loyalty_id: id.optional(),
    loyalty_title: text,
    cards: z.array(CardRecord).optional(),
  });

  const CustomerCardsGroupedByLoyalty = o({
    loyalties: z.array(LoyaltyCustomerCards).optional(),
  });

  // ---- chatbot, application, beacons ----

  /** Request body: a chatbot token. */
  const ChatbotTokenData = o({
    token: z.string(), // required by the contract
    channel: ChatbotChannels, // required by the contract
    expire: date.optional(),
  });

  const ApplicationSettings = o({
    support_news_priority: flag.optional(),
    support_pos_priority: flag.optional(),
  });

  // Major and minor are 16-bit unsigned in the iBeacon format the proximity UUID belongs to.
  const Beacon = o({
    uuid: z.uuid().optional(), // proximity UUID (always a UUID, whatever `id` checks)
    major: z.int().min(0).max(65_535).optional(),
    minor: z.int().min(0).max(65_535).optional(),
  });

  // ---- referral program ----

  // minimal shape: Loyalty is not shown (only what a referral code's answer needs to show).
  const Loyalty = o({
    id: id.optional(),
    title: text,
    public_title: text,
    public_description: text,
  });

  // minimal shape: RefferalProgramReferrerUser (sic) is not shown (who shared the code).
  const RefferalProgramReferrerUser = o({
    id: id.optional(),
    name: text,
  });

  const ClientReferralProgramCodeInfo = o({
    code: text,
    loyalty: Loyalty.optional(),
    referrer_user: RefferalProgramReferrerUser.optional(),
  });

  // ---- corporate access ----

  // The brief and the contract list every limit group, so all are required except the
  // amounts available overall (`account_available_amount`, `user_available_amount`).
  // A limit of 0 is unlimited; its `_available` value is then null. A null window end is
  // no time limit.
  const CorporateAccountAccessLimits = o({
    account_available_amount: num.nullable().optional(), // null if unlimited
    account_day_limit: num.min(0),
    account_day_limit_used: num,
    account_day_limit_available: num.nullable(),
    account_month_limit: num.min(0),
    account_month_limit_used: num,
    account_month_limit_available: num.nullable(),
    account_available_from: dateTime.nullable(),
    account_available_until: dateTime.nullable(),
    user_available_amount: num.nullable().optional(), // null if unlimited
    user_day_limit: num.min(0),
    user_day_limit_used: num,
    user_day_limit_available: num.nullable(),
    user_month_limit: num.min(0),
    user_month_limit_used: num,
    user_month_limit_available: num.nullable(),
    user_overall_limit: num.min(0),
    user_overall_limit_used: num,
    user_overall_limit_available: num.nullable(),
    user_available_from: dateTime.nullable(),
    user_available_until: dateTime.nullable(),
  });

  const CorporateCustomerInfo = o({
    id: id.optional(),
    suspended: flag.optional(),
    corporate_user: o({
      name: text,
      email: text,
      status: CorporateUserStatus.optional(), // 1 active, 0 suspended
    }).optional(),
  });

  const CorporateCustomerAccountInfo = o({
    id: id.optional(),
    active: flag.optional(),
    corporate_customer: CorporateCustomerInfo.optional(),
    special_account: AccountsRec.optional(),
  });

  const CorporateCustomerSpecialAccountAccess = o({
    id: id.optional(),
    available_amount: num.nullable().optional(), // null if unlimited
    corporate_customer_special_account: CorporateCustomerAccountInfo.optional(),
    goods_items: shared.GoodsCodes.optional(),
    limits: CorporateAccountAccessLimits.optional(),
    odometer: DataRequiredType.optional(),
    vehicle_id: DataRequiredType.optional(),
    security_code: flag.optional(), // 1 = an additional PIN exists
  });

  // ---- coupons ----

  // minimal shape: CouponBatch is not shown; CheckCouponBatch is the closest the contract gives.
  const CouponBatch = shared.CheckCouponBatch;

  // The customer view: CheckCoupon's fields (activity_id, applicable, business_code, code...)
  // with its batch as CouponBatch, the emission price group of the batch, and the
  // certificate-refill `charge_*` fields. The contract's definition continues beyond these
  // (not shown); the loose variant keeps the rest. `type` takes CouponTypeExtended
  // (engine.md: coupons may be cross-business).
  const Coupon = o({
    ...shared.CheckCoupon.shape,
    type: CouponTypeExtended.optional(),
    batch: CouponBatch.optional(),
    // emission price (as CheckCouponBatch)
    customers_price_type: shared.CheckCouponBatch.shape.customers_price_type,
    customers_price_amount: shared.CheckCouponBatch.shape.customers_price_amount,
    customers_price_currency: shared.CheckCouponBatch.shape.customers_price_currency,
    customers_price_special_account_id:
      shared.CheckCouponBatch.shape.customers_price_special_account_id,
    customers_price_special_account_title:
      shared.CheckCouponBatch.shape.customers_price_special_account_title,
    // certificate refill
    charge_type: BenefitsChargeTypeBase.optional(),
    charge_amount: num.optional(),
    charge_bonuses_currency: text, // a bonus unit, as BonusesRec `currency`
    charge_special_account_id: z.string().optional(), // a string, like CheckSpecialAccount `id`
    charge_special_account_title: text,
    charge_special_account_currency: currency.optional(),
    charge_promotional_bonuses_expire_type: PromotionalBonusesExpireTypeBase.optional(),
    charge_promotional_bonuses_expire_value: z.int().min(0).optional(),
    charge_promotional_bonuses_expire_date: date.optional(),
  });

  return {
    AccountsRec,
    BonusesRec,
    BonusPointsTransferFundsRequest,
    CardRecord,
    CardCategory,
    CardInfo,
    CustomerCards,
    LoyaltyCustomerCards,
    CustomerCardsGroupedByLoyalty,
    ChatbotTokenData,
    ApplicationSettings,
    Beacon,
    Loyalty,
    RefferalProgramReferrerUser,
    ClientReferralProgramCodeInfo,
    CorporateAccountAccessLimits,
    CorporateCustomerInfo,
    CorporateCustomerAccountInfo,
    CorporateCustomerSpecialAccountAccess,
    CouponBatch,
    Coupon,
  } as const;
}

export type CustomerSurface = ReturnType<typeof defineCustomer>;

/** Our UI and API: unknown fields are refused, naming them. */
export const strictCustomer = defineCustomer(strictObject, strictShared);
/** What the central service sends: unknown fields are kept. */
export const looseCustomer = defineCustomer(looseObject, looseShared);

type Out<K extends keyof CustomerSurface> = z.infer<CustomerSurface[K]>;

export type AccountsRec = Out<'AccountsRec'>;
export type BonusesRec = Out<'BonusesRec'>;
export type BonusPointsTransferFundsRequest = Out<'BonusPointsTransferFundsRequest'>;
export type CardRecord = Out<'CardRecord'>;
export type CardCategory = Out<'CardCategory'>;
export type CardInfo = Out<'CardInfo'>;
export type CustomerCards = Out<'CustomerCards'>;
export type LoyaltyCustomerCards = Out<'LoyaltyCustomerCards'>;
export type CustomerCardsGroupedByLoyalty = Out<'CustomerCardsGroupedByLoyalty'>;
export type ChatbotTokenData = Out<'ChatbotTokenData'>;
export type ApplicationSettings = Out<'ApplicationSettings'>;
export type Beacon = Out<'Beacon'>;
export type Loyalty = Out<'Loyalty'>;
export type RefferalProgramReferrerUser = Out<'RefferalProgramReferrerUser'>;
export type ClientReferralProgramCodeInfo = Out<'ClientReferralProgramCodeInfo'>;
export type CorporateAccountAccessLimits = Out<'CorporateAccountAccessLimits'>;
export type CorporateCustomerInfo = Out<'CorporateCustomerInfo'>;
export type CorporateCustomerAccountInfo = Out<'CorporateCustomerAccountInfo'>;
export type CorporateCustomerSpecialAccountAccess = Out<'CorporateCustomerSpecialAccountAccess'>;
export type CouponBatch = Out<'CouponBatch'>;
export type Coupon = Out<'Coupon'>;
