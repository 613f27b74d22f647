// Every enumeration of data-contract.md ("Enumerations (values exact)"), plus the ones the
// contract leaves "not shown" and engine.md decides ("ours"). Each is a plain z.enum with a
// type of the same name, so `CouponStatus` is both the schema and its string union.
// Values are copied from the spec text; test/contract/enums.test.ts pins them by hand.
import { z } from 'zod';

// ---- data-contract.md, Enumerations ----

/** AccessScope on the corporate surface (and AccessObject.scopes). */
export const CorporateAccessScope = z.enum(['administration', 'payments', 'security']);
export type CorporateAccessScope = z.infer<typeof CorporateAccessScope>;

/** AccessScope on the business surface. */
export const BusinessAccessScope = z.enum(['administration']);
export type BusinessAccessScope = z.infer<typeof BusinessAccessScope>;

/** BusinessAuthToken `access_scopes` items. */
export const BusinessAuthTokenAccessScope = z.enum(['administration', 'payments', 'security']);
export type BusinessAuthTokenAccessScope = z.infer<typeof BusinessAuthTokenAccessScope>;

export const AdditionalServiceType = z.enum(['delivery', 'commission', 'tip']);
export type AdditionalServiceType = z.infer<typeof AdditionalServiceType>;

/** Also the type of AdditionalServiceCostValue `type`. */
export const AdditionalServiceCostType = z.enum(['amount', 'percentage', 'multiplier']);
export type AdditionalServiceCostType = z.infer<typeof AdditionalServiceCostType>;

export const BankCardExternalPaymentOperationType = z.enum([
  'purchase',
  'authorize',
  'completion',
  'refund',
  'cancel',
]);
export type BankCardExternalPaymentOperationType = z.infer<
  typeof BankCardExternalPaymentOperationType
>;

export const BankCardExternalPaymentStatus = z.enum([
  'inprocess',
  'success',
  'fail',
  'canceled',
  'error',
  'authorized',
]);
export type BankCardExternalPaymentStatus = z.infer<typeof BankCardExternalPaymentStatus>;

export const BankCardExternalPaymentUnitOperationStatus = z.enum(['inprocess', 'success', 'fail']);
export type BankCardExternalPaymentUnitOperationStatus = z.infer<
  typeof BankCardExternalPaymentUnitOperationStatus
>;

export const BankCardExternalPaymentUnitOperationType = z.enum([
  'connect',
  'card-transactions',
  'mag-reader',
  'mag-reader-result',
  'welcome-screen',
]);
export type BankCardExternalPaymentUnitOperationType = z.infer<
  typeof BankCardExternalPaymentUnitOperationType
>;

/** Provider names are omitted by the contract's naming rule. */
export const BankCardExternalPaymentSystemType = z.enum(['provider_1', 'provider_2']);
export type BankCardExternalPaymentSystemType = z.infer<typeof BankCardExternalPaymentSystemType>;

export const CustomerPaymentSystemType = z.enum([
  'provider_1',
  'provider_2',
  'provider_3',
  'provider_4',
  'provider_5',
  'provider_6',
  'provider_7',
  'provider_8',
  'provider_9',
]);
export type CustomerPaymentSystemType = z.infer<typeof CustomerPaymentSystemType>;

export const BenefitsChargeTypeBase = z.enum([
  'regular-bonuses',
  'promotional-bonuses',
  'special-account',
]);
export type BenefitsChargeTypeBase = z.infer<typeof BenefitsChargeTypeBase>;

export const BenefitsChargeTypeBaseNone = z.enum([
  'none',
  'regular-bonuses',
  'promotional-bonuses',
  'special-account',
]);
export type BenefitsChargeTypeBaseNone = z.infer<typeof BenefitsChargeTypeBaseNone>;

export const BenefitsChargeTypeExtended = z.enum([
  'none',
  'regular-bonuses',
  'promotional-bonuses',
  'special-account',
  'coupon',
]);
export type BenefitsChargeTypeExtended = z.infer<typeof BenefitsChargeTypeExtended>;

export const BenefitsPriceType = z.enum(['bonuses', 'special-account']);
export type BenefitsPriceType = z.infer<typeof BenefitsPriceType>;

export const BenefitsTopUpReferenceObjectType = z.enum(['loyalty-rule', 'external-system']);
export type BenefitsTopUpReferenceObjectType = z.infer<typeof BenefitsTopUpReferenceObjectType>;

export const BonusAccountOperationType = z.enum([
  'bonus-add',
  'bonus-write-offs',
  'bonus-adjustment',
]);
export type BonusAccountOperationType = z.infer<typeof BonusAccountOperationType>;

export const CheckItemEnterMode = z.enum(['without-limits', 'presets-only', 'manually-only']);
export type CheckItemEnterMode = z.infer<typeof CheckItemEnterMode>;

export const CheckItemQuantityRecalculateType = z.enum([
  'adjust-by-amount',
  'recalculate-by-amount',
]);
export type CheckItemQuantityRecalculateType = z.infer<typeof CheckItemQuantityRecalculateType>;

export const CouponStatus = z.enum(['open', 'redeemed', 'cancelled']);
export type CouponStatus = z.infer<typeof CouponStatus>;

export const CouponProcessingStatus = z.enum(['pending', 'processed', 'error']);
export type CouponProcessingStatus = z.infer<typeof CouponProcessingStatus>;

export const CouponType = z.enum(['check-modifier', 'certificate', 'external']);
export type CouponType = z.infer<typeof CouponType>;

export const CouponTypeExtended = z.enum([
  'check-modifier',
  'certificate',
  'external',
  'cross-business',
]);
export type CouponTypeExtended = z.infer<typeof CouponTypeExtended>;

export const CouponExternalCodeVisibilityType = z.enum(['always-open', 'on-redeem']);
export type CouponExternalCodeVisibilityType = z.infer<typeof CouponExternalCodeVisibilityType>;

export const CouponBatchLinkType = z.enum(['base', 'white-label-app']);
export type CouponBatchLinkType = z.infer<typeof CouponBatchLinkType>;

export const CustomerAccessType = z.enum([
  'full-bonuses-access',
  'add-bonuses-only',
  'waiting-for-confirmation',
  'in-black-list',
]);
export type CustomerAccessType = z.infer<typeof CustomerAccessType>;

export const CustomerFeedbackPrintOnCheck = z.enum(['none', 'qr-code', 'url', 'all']);
export type CustomerFeedbackPrintOnCheck = z.infer<typeof CustomerFeedbackPrintOnCheck>;

/** Channel names are omitted by the contract's naming rule. */
export const ChatbotChannels = z.enum([
  'channel_1',
  'channel_2',
  'channel_3',
  'channel_4',
  'channel_5',
]);
export type ChatbotChannels = z.infer<typeof ChatbotChannels>;

/**
 * Rule `automatic` (an integer on the wire): 0 manual, 1 automatic, 2 coupon, 3 display,
 * 4 corporate manual, 5 corporate automatic.
 */
export const RuleAutomatic = z.union([
  z.literal(0),
  z.literal(1),
  z.literal(2),
  z.literal(3),
  z.literal(4),
  z.literal(5),
]);
export type RuleAutomatic = z.infer<typeof RuleAutomatic>;

/** AllTypeCustomer `type`. */
export const AllTypeCustomerType = z.enum(['customer', 'corporate-customer']);
export type AllTypeCustomerType = z.infer<typeof AllTypeCustomerType>;

/** AdditionalCost `type` (also the type of a PriceMargins entry). */
export const AdditionalCostType = z.enum(['amount', 'percentage']);
export type AdditionalCostType = z.infer<typeof AdditionalCostType>;

/** CardCategory `type` (readonly). */
export const CardCategoryType = z.enum(['base', 'custom']);
export type CardCategoryType = z.infer<typeof CardCategoryType>;

/** CardRecord `scope`. */
export const CardRecordScope = z.enum(['all', 'business', 'loyalty']);
export type CardRecordScope = z.infer<typeof CardRecordScope>;

/** BonusPointsTransferFundsRequest `recipient_id_type`. */
export const RecipientIdType = z.enum(['phone', 'email', 'external-id', 'qr']);
export type RecipientIdType = z.infer<typeof RecipientIdType>;

/** BusinessAuthToken `access`. */
export const BusinessAuthTokenAccess = z.enum(['owner', 'admin', 'business-staff']);
export type BusinessAuthTokenAccess = z.infer<typeof BusinessAuthTokenAccess>;

/** BusinessStarter `business_type` (default regular). */
export const BusinessStarterBusinessType = z.enum(['regular', 'customers-feedback']);
export type BusinessStarterBusinessType = z.infer<typeof BusinessStarterBusinessType>;

/** BusinessStarter `rate_type` (default none). */
export const BusinessStarterRateType = z.enum(['none', 'bonus', 'discount']);
export type BusinessStarterRateType = z.infer<typeof BusinessStarterRateType>;

/** Business `notify_balance_less_than_type`. */
export const NotifyBalanceLessThanType = z.enum(['automatic', 'manual']);
export type NotifyBalanceLessThanType = z.infer<typeof NotifyBalanceLessThanType>;

/** BusinessLegalInfo `legal_ownership_type`. */
export const LegalOwnershipType = z.enum(['natural-person', 'legal-entity']);
export type LegalOwnershipType = z.infer<typeof LegalOwnershipType>;

/** BusinessSettings `customer_additional_card_scope`. */
export const CustomerAdditionalCardScope = z.enum(['business', 'loyalty']);
export type CustomerAdditionalCardScope = z.infer<typeof CustomerAdditionalCardScope>;

/** BusinessSettings `platform_consent_request_required` and `platform_welcome_message_required`. */
export const PlatformMessageRequired = z.enum(['never', 'always', 'business']);
export type PlatformMessageRequired = z.infer<typeof PlatformMessageRequired>;

export const BusinessExternalDataAccessScope = z.enum(['transaction']);
export type BusinessExternalDataAccessScope = z.infer<typeof BusinessExternalDataAccessScope>;

/** BusinessAutoPayParams `system`; provider names omitted by the naming rule. */
export const BusinessAutoPaySystem = z.enum([
  'provider_1',
  'provider_2',
  'provider_3',
  'provider_4',
  'provider_5',
  'provider_6',
  'provider_7',
]);
export type BusinessAutoPaySystem = z.infer<typeof BusinessAutoPaySystem>;

/** BusinessBillingDetails `type` (32 values). */
export const BusinessBillingDetailsType = z.enum([
  'refill',
  'refill-cancel',
  'discount',
  'business-bonuses-redeemed',
  'additional-service',
  'account',
  'min-day-delta',
  'pos',
  'terminals',
  'redeem-discount',
  'amount-to-pay',
  'transaction',
  'new-customer',
  'sms',
  'push',
  'email',
  'messenger',
  'special-account-redeem',
  'ulg-push',
  'ulg-sms',
  'exchange-coupon-fee',
  'exchange-coupon-fee-payout',
  'exchange-coupon-fee-receipt',
  'platform-chatbot',
  'feedback-source',
  'external-system-message',
  'refill-credit',
  'walletpass-update',
  'walletpass-message',
  'external-verification-service-phone',
  'refill-credit-cancel',
  'customer-benefits-update-notification',
]);
export type BusinessBillingDetailsType = z.infer<typeof BusinessBillingDetailsType>;

/** Corporate user `status` (int32): 1 active, 0 suspended. */
export const CorporateUserStatus = z.union([z.literal(0), z.literal(1)]);
export type CorporateUserStatus = z.infer<typeof CorporateUserStatus>;

// ---- "not shown" in the contract, decided by engine.md (ours) ----

/** engine.md 14. `vehicle` is a vehicle QR code or tag. */
export const IdType = z.enum(['phone', 'card', 'qr', 'email', 'external-id', 'vehicle', 'avi']);
export type IdType = z.infer<typeof IdType>;

/** engine.md 14. */
export const TransactionType = z.enum([
  'sale',
  'refund',
  'preauthorization',
  'completion',
  'bonuses-add',
  'bonuses-write-off',
  'refill',
]);
export type TransactionType = z.infer<typeof TransactionType>;

/** engine.md 14. `offline`: the terminal stood in while the central service was unreachable. */
export const TransactionSubType = z.enum(['online', 'offline']);
export type TransactionSubType = z.infer<typeof TransactionSubType>;

/** engine.md 14. */
export const ExternalCheckIdScope = z.enum(['business', 'pos', 'terminal']);
export type ExternalCheckIdScope = z.infer<typeof ExternalCheckIdScope>;

/** engine.md 14. `money` has a currency; `quantity` counts litres or units. */
export const SpecialAccountType = z.enum(['money', 'quantity']);
export type SpecialAccountType = z.infer<typeof SpecialAccountType>;

/** engine.md 14. `limited`: up to `credit_limit`. */
export const SpecialAccountCreditType = z.enum(['none', 'limited', 'unlimited']);
export type SpecialAccountCreditType = z.infer<typeof SpecialAccountCreditType>;

/** engine.md 14. */
export const PromotionalBonusesExpireType = z.enum(['none', 'days', 'months', 'date']);
export type PromotionalBonusesExpireType = z.infer<typeof PromotionalBonusesExpireType>;

/** engine.md 14: the Base variant lacks `none`. */
export const PromotionalBonusesExpireTypeBase = z.enum(['days', 'months', 'date']);
export type PromotionalBonusesExpireTypeBase = z.infer<typeof PromotionalBonusesExpireTypeBase>;

/** engine.md 14. */
export const PromotionalBonusesStartingType = z.enum(['immediately', 'days', 'date']);
export type PromotionalBonusesStartingType = z.infer<typeof PromotionalBonusesStartingType>;

/** engine.md 14. */
export const PosType = z.enum(['shop', 'fuel-station', 'cafe', 'online-store', 'other']);
export type PosType = z.infer<typeof PosType>;

/** engine.md 14. */
export const UserGender = z.enum(['male', 'female', 'unspecified']);
export type UserGender = z.infer<typeof UserGender>;

/** engine.md 10. */
export const TransactionPaymentType = z.enum([
  'cash',
  'bank-card',
  'special-account',
  'corporate-special-account',
]);
export type TransactionPaymentType = z.infer<typeof TransactionPaymentType>;

/** Whether a payment type pays from an account (a special one, or a fleet's through an access). */
export function isAccountType(
  type: string | null | undefined,
): type is 'special-account' | 'corporate-special-account' {
  return type === 'special-account' || type === 'corporate-special-account';
}

/** engine.md 10: whether a PIN, odometer or vehicle id must accompany a payment. */
export const DataRequiredType = z.enum(['none', 'optional', 'required']);
export type DataRequiredType = z.infer<typeof DataRequiredType>;

/** engine.md 10. `h` is engine hours. */
export const OdometerUnitType = z.enum(['km', 'mi', 'h']);
export type OdometerUnitType = z.infer<typeof OdometerUnitType>;

/** engine.md 4. */
export const LoyaltyRuleScope = z.enum(['retail', 'corporate']);
export type LoyaltyRuleScope = z.infer<typeof LoyaltyRuleScope>;

/** engine.md 7, listed in the order the groups act. */
export const LoyaltyRuleActionType = z.enum([
  'discount',
  'bonus-payment-limit',
  'bonuses',
  'coupon',
]);
export type LoyaltyRuleActionType = z.infer<typeof LoyaltyRuleActionType>;

/** engine.md 5. */
export const LoyaltyRuleDependsType = z.enum([
  'none',
  'amount',
  'quantity',
  'period-amount',
  'period-quantity',
  'period-visits',
]);
export type LoyaltyRuleDependsType = z.infer<typeof LoyaltyRuleDependsType>;

/** engine.md 5: calendar periods in the local time zone (`week` from Monday). */
export const LoyaltyRuleDependsCalcPeriod = z.enum([
  'day',
  'week',
  'month',
  'quarter',
  'year',
  'all-time',
]);
export type LoyaltyRuleDependsCalcPeriod = z.infer<typeof LoyaltyRuleDependsCalcPeriod>;

/** engine.md 4.6. `new`: identified with no earlier purchase. */
export const LoyaltyRuleApplicableForCustomer = z.enum(['all', 'identified', 'new']);
export type LoyaltyRuleApplicableForCustomer = z.infer<typeof LoyaltyRuleApplicableForCustomer>;

/** engine.md 4.7. */
export const LoyaltyRuleApplicableForSale = z.enum(['all', 'terminal', 'online-store']);
export type LoyaltyRuleApplicableForSale = z.infer<typeof LoyaltyRuleApplicableForSale>;

/** engine.md 6: ThresholdsValues `type`. */
export const ThresholdsValuesType = z.enum(['percentage', 'amount', 'amount-per-unit', 'price']);
export type ThresholdsValuesType = z.infer<typeof ThresholdsValuesType>;

/** engine.md 11: PriceTaxes entry `type` (VAT included in the price, sales tax on top). */
export const PriceTaxType = z.enum(['vat', 'sales']);
export type PriceTaxType = z.infer<typeof PriceTaxType>;

/** engine.md 10 and 16: SpecialAccountCharge `direction` (payment = debit, cashback = credit). */
export const SpecialAccountChargeDirection = z.enum(['debit', 'credit']);
export type SpecialAccountChargeDirection = z.infer<typeof SpecialAccountChargeDirection>;

/**
 * engine.md 16: RuleImplementationData `reason` when a rule is not applied; engine.md 17.9
 * adds `no-line` (no line can take the rule) and `lines-taken` (earlier rules of its group
 * took every matching line).
 */
export const RuleNotAppliedReason = z.enum([
  'threshold',
  'items-limit-min',
  'bonuses-redeemed',
  'account-payment',
  'display',
  'no-line',
  'lines-taken',
]);
export type RuleNotAppliedReason = z.infer<typeof RuleNotAppliedReason>;

/**
 * engine.md 16: the `error` values our engine puts on a CheckCoupon. The contract types
 * CheckCoupon `error` as a free string, so the schema keeps a string; this is for producers.
 */
export const CouponErrorCode = z.enum([
  'not-found',
  'not-open',
  'expired',
  'other-business',
  'not-at-terminal',
  'not-applicable',
  'customer-blocked',
]);
export type CouponErrorCode = z.infer<typeof CouponErrorCode>;
