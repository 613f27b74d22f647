import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { looseCustomer, strictCustomer } from '../../src/contract/customer.js';
import { problemsOf } from '../../src/contract/problems.js';

function example(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./examples/${name}`, import.meta.url), 'utf8'));
}

function problemPaths(result: { error?: Parameters<typeof problemsOf>[0] }) {
  return result.error ? problemsOf(result.error).map((p) => p.path) : [];
}

/** Every limit group filled: the account has day and month limits, the user all three. */
const limits = {
  account_available_amount: null,
  account_day_limit: 0,
  account_day_limit_used: 12,
  account_day_limit_available: null,
  account_month_limit: 1000,
  account_month_limit_used: 250,
  account_month_limit_available: 750,
  account_available_from: null,
  account_available_until: '2026-12-31T23:59:59Z',
  user_day_limit: 100,
  user_day_limit_used: 40,
  user_day_limit_available: 60,
  user_month_limit: 0,
  user_month_limit_used: 40,
  user_month_limit_available: null,
  user_overall_limit: 5000,
  user_overall_limit_used: 40,
  user_overall_limit_available: 4960,
  user_available_from: '2025-01-01T00:00:00+01:00',
  user_available_until: null,
};

describe('unknown fields on the customer surface', () => {
  it('the strict variant refuses an unknown field, naming it', () => {
    const result = strictCustomer.AccountsRec.safeParse({ title: 'Fuel wallet', pin: '1234' });
    expect(problemPaths(result)).toEqual(['pin']);
  });

  it('the strict variant names an unknown field deep in a corporate access', () => {
    const result = strictCustomer.CorporateCustomerSpecialAccountAccess.safeParse({
      corporate_customer_special_account: { corporate_customer: { corporate_user: { age: 40 } } },
    });
    expect(problemPaths(result)).toEqual([
      'corporate_customer_special_account.corporate_customer.corporate_user.age',
    ]);
  });

  it('the loose variant keeps an unknown field', () => {
    expect(looseCustomer.AccountsRec.parse({ title: 'Fuel wallet', colour: 'red' })).toMatchObject({
      colour: 'red',
    });
  });
});

describe('CorporateAccountAccessLimits', () => {
  it('parses every limit group with null available values', () => {
    const parsed = strictCustomer.CorporateAccountAccessLimits.parse(limits);
    expect(parsed.user_month_limit_available).toBeNull();
    expect(parsed.user_overall_limit_available).toBe(4960);
  });

  it('requires each limit group, naming the missing field', () => {
    const { user_overall_limit: _dropped, ...rest } = limits;
    const result = strictCustomer.CorporateAccountAccessLimits.safeParse(rest);
    expect(problemPaths(result)).toEqual(['user_overall_limit']);
  });

  it('allows account_available_amount to be absent', () => {
    const { account_available_amount: _dropped, ...rest } = limits;
    expect(strictCustomer.CorporateAccountAccessLimits.safeParse(rest).success).toBe(true);
  });

  it('refuses a negative limit', () => {
    const result = strictCustomer.CorporateAccountAccessLimits.safeParse({
      ...limits,
      account_day_limit: -1,
    });
    expect(problemPaths(result)).toEqual(['account_day_limit']);
  });
});

describe('corporate access', () => {
  it('parses an access with its account, customer and limits', () => {
    const parsed = strictCustomer.CorporateCustomerSpecialAccountAccess.parse({
      id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a90',
      available_amount: null,
      corporate_customer_special_account: {
        id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a91',
        active: 1,
        corporate_customer: {
          id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a92',
          suspended: 0,
          corporate_user: { name: 'Fleet Co', email: 'fleet@example.com', status: 1 },
        },
        special_account: { title: 'Fleet fuel', type: 'quantity', available_amount: null },
      },
      goods_items: ['DIESEL'],
      limits,
      odometer: 'required',
      vehicle_id: 'optional',
      security_code: 1,
    });
    expect(parsed.limits?.user_day_limit_available).toBe(60);
  });

  it('refuses a corporate user status other than 0/1', () => {
    const result = strictCustomer.CorporateCustomerInfo.safeParse({
      corporate_user: { status: 2 },
    });
    expect(problemPaths(result)).toEqual(['corporate_user.status']);
  });
});

describe('Coupon (customer view)', () => {
  it('the valid example parses with its certificate fields', () => {
    const parsed = strictCustomer.Coupon.parse(example('coupon.valid.json'));
    expect(parsed.charge_type).toBe('special-account');
    expect(parsed.batch?.public_title).toBe('Gift certificates');
  });

  it('the broken example is refused, naming every bad field', () => {
    const result = strictCustomer.Coupon.safeParse(example('coupon.broken.json'));
    expect(problemPaths(result).sort()).toEqual([
      'batch.colour',
      'charge_amount',
      'charge_type',
      'object_id',
      'redeem_at_terminal',
      'status',
    ]);
  });

  it('accepts a cross-business coupon type', () => {
    expect(strictCustomer.Coupon.safeParse({ code: 'X-1', type: 'cross-business' }).success).toBe(
      true,
    );
  });
});

describe('request bodies', () => {
  it('BonusPointsTransferFundsRequest requires currency, amount and recipient_id', () => {
    const result = strictCustomer.BonusPointsTransferFundsRequest.safeParse({
      recipient_id_type: 'phone',
    });
    expect(problemPaths(result).sort()).toEqual(['amount', 'currency', 'recipient_id']);
  });

  it('ChatbotTokenData requires token and channel', () => {
    const result = strictCustomer.ChatbotTokenData.safeParse({ expire: '2026-01-01' });
    expect(problemPaths(result).sort()).toEqual(['channel', 'token']);
  });
});

describe('cards and referral codes', () => {
  it('parses cards grouped by loyalty', () => {
    const parsed = strictCustomer.CustomerCardsGroupedByLoyalty.parse({
      loyalties: [
        { loyalty_title: 'Fuel club', cards: [{ code: '5350290149345177', scope: 'all' }] },
      ],
    });
    expect(parsed.loyalties?.[0]?.cards?.[0]?.code).toBe('5350290149345177');
  });

  it('parses a referral code with its loyalty and referrer', () => {
    const parsed = strictCustomer.ClientReferralProgramCodeInfo.parse({
      code: 'FRIEND10',
      loyalty: { title: 'Fuel club' },
      referrer_user: { name: 'Ann' },
    });
    expect(parsed.referrer_user?.name).toBe('Ann');
  });

  it('refuses a beacon major outside 16 bits', () => {
    expect(problemPaths(strictCustomer.Beacon.safeParse({ major: 70_000 }))).toEqual(['major']);
  });
});
