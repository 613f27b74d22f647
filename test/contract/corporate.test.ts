import { describe, expect, it } from 'vitest';
import { defineCorporate, looseCorporate, strictCorporate } from '../../src/contract/corporate.js';
import { problemsOf } from '../../src/contract/problems.js';
import { strictShared } from '../../src/contract/shared.js';
import { strictObject } from '../../src/contract/wire.js';

const BUSINESS = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a80';

function problemPaths(result: { error?: Parameters<typeof problemsOf>[0] }) {
  return result.error ? problemsOf(result.error).map((p) => p.path) : [];
}

describe('unknown fields on the corporate surface', () => {
  it('the strict variant refuses an unknown field, naming it', () => {
    const result = strictCorporate.Business.safeParse({ id: BUSINESS, colour: 'red' });
    expect(problemPaths(result)).toEqual(['colour']);
  });

  it('the strict variant names an unknown field inside AccessObject', () => {
    const result = strictCorporate.Business.safeParse({ access: { granted: true, level: 3 } });
    expect(problemPaths(result)).toEqual(['access.level']);
  });

  it('the loose variant keeps an unknown field', () => {
    expect(looseCorporate.Business.parse({ id: BUSINESS, colour: 'red' })).toMatchObject({
      colour: 'red',
    });
  });

  it('defineCorporate with a strict factory builds the strict variant', () => {
    const corporate = defineCorporate(strictObject, strictShared);
    expect(corporate.DashboardRefuelItem.safeParse({ consumption_odometer_x: 1 }).success).toBe(
      false,
    );
  });
});

describe('corporate Business', () => {
  it('parses a list of businesses with their access scopes', () => {
    const list = strictCorporate.BusinessesList.parse([
      {
        id: BUSINESS,
        title: 'Fuel & Shop',
        country: 'DE',
        active: 1,
        access: { granted: true, scopes: ['payments', 'security'] },
        loyalties: [{ id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a81', title: 'Fuel club' }],
      },
    ]);
    expect(list[0]?.access?.scopes).toEqual(['payments', 'security']);
  });

  it('refuses an access scope of another surface', () => {
    const result = strictCorporate.AccessObject.safeParse({ scopes: ['billing'] });
    expect(problemPaths(result)).toEqual(['scopes[0]']);
  });

  it('refuses an active flag that is not 0/1', () => {
    expect(problemPaths(strictCorporate.Business.safeParse({ active: true }))).toEqual(['active']);
  });
});

describe('CorporateSpecialAccountRefillObject', () => {
  it('requires amount', () => {
    const result = strictCorporate.CorporateSpecialAccountRefillObject.safeParse({ comment: 'x' });
    expect(problemPaths(result)).toEqual(['amount']);
  });

  it('accepts check services', () => {
    const parsed = strictCorporate.CorporateSpecialAccountRefillObject.parse({
      amount: 500,
      amount_decimal_digits: 2,
      check_services: [{ code: 'fee', amount: 1.5 }],
    });
    expect(parsed.check_services?.[0]?.code).toBe('fee');
  });
});

describe('DashboardAccountState', () => {
  it('accepts null available values (unlimited)', () => {
    const parsed = strictCorporate.DashboardAccountState.parse({
      id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a82',
      type: 'money',
      currency: 'EUR',
      day_limit: 0,
      day_limit_available: null,
      month_limit: 1000,
      month_limit_used: 250,
      month_limit_available: 750,
      available_from: null,
    });
    expect(parsed.day_limit_available).toBeNull();
  });

  it('a turnover item by staff carries the account identity and the staff fields', () => {
    const parsed = strictCorporate.DashboardAccountTurnoverByStaffItem.parse({
      business_id: BUSINESS,
      title: 'Fleet fuel',
      amount: 312.4,
      user_name: 'Driver One',
      corporate_staff_position_title: 'Driver',
    });
    expect(parsed.amount).toBe(312.4);
  });

  it('the account turnover item has no plain amount', () => {
    const result = strictCorporate.DashboardAccountTurnoverItem.safeParse({ amount: 1 });
    expect(problemPaths(result)).toEqual(['amount']);
  });
});

describe('CorporateUserProfile', () => {
  it('parses contacts and notification settings', () => {
    const parsed = strictCorporate.CorporateUserProfile.parse({
      name: 'Fleet Co',
      password: true,
      contacts: [{ contact_person: 'Ann', phones: ['+15551230002'] }],
      notification_settings: {
        transaction_notification: 1,
        transaction_notification_emails: ['fleet@example.com'],
      },
    });
    expect(parsed.contacts?.[0]?.phones).toEqual(['+15551230002']);
  });
});
