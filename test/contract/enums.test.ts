// Every enumeration against a table typed by hand from the spec text (data-contract.md
// "Enumerations (values exact)" and engine.md's "ours" types), never derived from the schemas.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as enums from '../../src/contract/enums.js';

const provider = (n: number) => Array.from({ length: n }, (_, i) => `provider_${i + 1}`);

/** Name in enums.ts -> values exactly as the spec lists them, in the spec's order. */
const fromSpec: Record<string, readonly string[]> = {
  // data-contract.md, Enumerations
  CorporateAccessScope: ['administration', 'payments', 'security'],
  BusinessAccessScope: ['administration'],
  BusinessAuthTokenAccessScope: ['administration', 'payments', 'security'],
  AdditionalServiceType: ['delivery', 'commission', 'tip'],
  AdditionalServiceCostType: ['amount', 'percentage', 'multiplier'],
  BankCardExternalPaymentOperationType: ['purchase', 'authorize', 'completion', 'refund', 'cancel'],
  BankCardExternalPaymentStatus: [
    'inprocess',
    'success',
    'fail',
    'canceled',
    'error',
    'authorized',
  ],
  BankCardExternalPaymentUnitOperationStatus: ['inprocess', 'success', 'fail'],
  BankCardExternalPaymentUnitOperationType: [
    'connect',
    'card-transactions',
    'mag-reader',
    'mag-reader-result',
    'welcome-screen',
  ],
  BankCardExternalPaymentSystemType: ['provider_1', 'provider_2'],
  CustomerPaymentSystemType: [
    'provider_1',
    'provider_2',
    'provider_3',
    'provider_4',
    'provider_5',
    'provider_6',
    'provider_7',
    'provider_8',
    'provider_9',
  ],
  BenefitsChargeTypeBase: ['regular-bonuses', 'promotional-bonuses', 'special-account'],
  BenefitsChargeTypeBaseNone: ['none', 'regular-bonuses', 'promotional-bonuses', 'special-account'],
  BenefitsChargeTypeExtended: [
    'none',
    'regular-bonuses',
    'promotional-bonuses',
    'special-account',
    'coupon',
  ],
  BenefitsPriceType: ['bonuses', 'special-account'],
  BenefitsTopUpReferenceObjectType: ['loyalty-rule', 'external-system'],
  BonusAccountOperationType: ['bonus-add', 'bonus-write-offs', 'bonus-adjustment'],
  CheckItemEnterMode: ['without-limits', 'presets-only', 'manually-only'],
  CheckItemQuantityRecalculateType: ['adjust-by-amount', 'recalculate-by-amount'],
  CouponStatus: ['open', 'redeemed', 'cancelled'],
  CouponProcessingStatus: ['pending', 'processed', 'error'],
  CouponType: ['check-modifier', 'certificate', 'external'],
  CouponTypeExtended: ['check-modifier', 'certificate', 'external', 'cross-business'],
  CouponExternalCodeVisibilityType: ['always-open', 'on-redeem'],
  CouponBatchLinkType: ['base', 'white-label-app'],
  CustomerAccessType: [
    'full-bonuses-access',
    'add-bonuses-only',
    'waiting-for-confirmation',
    'in-black-list',
  ],
  CustomerFeedbackPrintOnCheck: ['none', 'qr-code', 'url', 'all'],
  ChatbotChannels: ['channel_1', 'channel_2', 'channel_3', 'channel_4', 'channel_5'],
  AllTypeCustomerType: ['customer', 'corporate-customer'],
  AdditionalCostType: ['amount', 'percentage'],
  CardCategoryType: ['base', 'custom'],
  CardRecordScope: ['all', 'business', 'loyalty'],
  RecipientIdType: ['phone', 'email', 'external-id', 'qr'],
  BusinessAuthTokenAccess: ['owner', 'admin', 'business-staff'],
  BusinessStarterBusinessType: ['regular', 'customers-feedback'],
  BusinessStarterRateType: ['none', 'bonus', 'discount'],
  NotifyBalanceLessThanType: ['automatic', 'manual'],
  LegalOwnershipType: ['natural-person', 'legal-entity'],
  CustomerAdditionalCardScope: ['business', 'loyalty'],
  PlatformMessageRequired: ['never', 'always', 'business'],
  BusinessExternalDataAccessScope: ['transaction'],
  BusinessAutoPaySystem: [
    'provider_1',
    'provider_2',
    'provider_3',
    'provider_4',
    'provider_5',
    'provider_6',
    'provider_7',
  ],
  BusinessBillingDetailsType: [
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
  ],
  // engine.md 14
  IdType: ['phone', 'card', 'qr', 'email', 'external-id', 'vehicle', 'avi'],
  TransactionType: [
    'sale',
    'refund',
    'preauthorization',
    'completion',
    'bonuses-add',
    'bonuses-write-off',
    'refill',
  ],
  TransactionSubType: ['online', 'offline'],
  ExternalCheckIdScope: ['business', 'pos', 'terminal'],
  SpecialAccountType: ['money', 'quantity'],
  SpecialAccountCreditType: ['none', 'limited', 'unlimited'],
  PromotionalBonusesExpireType: ['none', 'days', 'months', 'date'],
  PromotionalBonusesExpireTypeBase: ['days', 'months', 'date'],
  PromotionalBonusesStartingType: ['immediately', 'days', 'date'],
  PosType: ['shop', 'fuel-station', 'cafe', 'online-store', 'other'],
  UserGender: ['male', 'female', 'unspecified'],
  // engine.md 10
  TransactionPaymentType: ['cash', 'bank-card', 'special-account', 'corporate-special-account'],
  DataRequiredType: ['none', 'optional', 'required'],
  OdometerUnitType: ['km', 'mi', 'h'],
  SpecialAccountChargeDirection: ['debit', 'credit'],
  // engine.md 4, 5, 6, 7, 11
  LoyaltyRuleScope: ['retail', 'corporate'],
  LoyaltyRuleActionType: ['discount', 'bonus-payment-limit', 'bonuses', 'coupon'],
  LoyaltyRuleDependsType: [
    'none',
    'amount',
    'quantity',
    'period-amount',
    'period-quantity',
    'period-visits',
  ],
  LoyaltyRuleDependsCalcPeriod: ['day', 'week', 'month', 'quarter', 'year', 'all-time'],
  LoyaltyRuleApplicableForCustomer: ['all', 'identified', 'new'],
  LoyaltyRuleApplicableForSale: ['all', 'terminal', 'online-store'],
  ThresholdsValuesType: ['percentage', 'amount', 'amount-per-unit', 'price'],
  PriceTaxType: ['vat', 'sales'],
  // engine.md 16, and 17.9's no-line and lines-taken
  RuleNotAppliedReason: [
    'threshold',
    'items-limit-min',
    'bonuses-redeemed',
    'account-payment',
    'display',
    'no-line',
    'lines-taken',
  ],
  CouponErrorCode: [
    'not-found',
    'not-open',
    'expired',
    'other-business',
    'not-at-terminal',
    'not-applicable',
    'customer-blocked',
  ],
};

const zodEnumNames = Object.entries(enums as Record<string, unknown>)
  .filter(([, value]) => value instanceof z.ZodEnum)
  .map(([name]) => name);

describe('enumerations', () => {
  it.each(Object.entries(fromSpec))('%s has exactly the spec values, in order', (name, values) => {
    const schema = (enums as Record<string, unknown>)[name];
    expect(schema, `${name} is exported`).toBeInstanceOf(z.ZodEnum);
    expect((schema as z.ZodEnum).options).toEqual(values);
  });

  it('every z.enum in enums.ts is pinned by the table above', () => {
    expect(zodEnumNames.sort()).toEqual(Object.keys(fromSpec).sort());
  });

  it('BusinessBillingDetailsType has the 32 values the contract counts', () => {
    expect(enums.BusinessBillingDetailsType.options).toHaveLength(32);
  });

  it('provider lists keep their provider_N names', () => {
    expect(enums.BankCardExternalPaymentSystemType.options).toEqual(provider(2));
    expect(enums.CustomerPaymentSystemType.options).toEqual(provider(9));
    expect(enums.BusinessAutoPaySystem.options).toEqual(provider(7));
  });

  it('an enumeration refuses a value outside its list', () => {
    expect(enums.CouponStatus.safeParse('closed').success).toBe(false);
    expect(enums.CouponStatus.safeParse('Open').success).toBe(false);
  });

  it('rule automatic is the integers 0..5 and nothing else', () => {
    for (const v of [0, 1, 2, 3, 4, 5]) expect(enums.RuleAutomatic.safeParse(v).success).toBe(true);
    for (const v of [-1, 6, 1.5, '1', null])
      expect(enums.RuleAutomatic.safeParse(v).success).toBe(false);
  });

  it('corporate user status is 1 active or 0 suspended', () => {
    expect(enums.CorporateUserStatus.safeParse(1).success).toBe(true);
    expect(enums.CorporateUserStatus.safeParse(0).success).toBe(true);
    expect(enums.CorporateUserStatus.safeParse(2).success).toBe(false);
  });
});
