import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  counterNames,
  looseBusiness,
  strictBusiness,
  tariffCounterFamilies,
  type BusinessTariffDetails,
} from '../../src/contract/business.js';
import { problemsOf } from '../../src/contract/problems.js';
import { strictShared } from '../../src/contract/shared.js';

const TERMINAL = '018f0000-0000-7000-8000-000000000001';

function example(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./examples/${name}`, import.meta.url), 'utf8'));
}

function problemPaths(result: { success: boolean; error?: Parameters<typeof problemsOf>[0] }) {
  return result.error ? problemsOf(result.error).map((p) => p.path) : [];
}

describe('BusinessUserProfile limits', () => {
  const cases = [
    ['external_id', 128],
    ['login', 80],
    ['name', 128],
    ['phone', 20],
  ] as const;

  for (const [field, max] of cases) {
    it(`${field} of ${max} characters is accepted`, () => {
      const result = strictBusiness.BusinessUserProfile.safeParse({ [field]: 'x'.repeat(max) });
      expect(result.success).toBe(true);
    });

    it(`${field} of ${max + 1} characters is refused, naming ${field}`, () => {
      const result = strictBusiness.BusinessUserProfile.safeParse({
        [field]: 'x'.repeat(max + 1),
      });
      expect(result.success).toBe(false);
      expect(problemPaths(result)).toEqual([field]);
      expect(result.error?.issues[0]?.message).toContain(field);
    });
  }
});

describe('BusinessStaff', () => {
  it('a paginated staff list parses', () => {
    const list = {
      data: [
        example('business-staff.valid.json'),
        { name: 'New member', auth_code: '' }, // "" asks the service for a code
      ],
      summary: { total_rows_count: 2 },
    };
    const parsed = strictShared.BusinessStaffPaginatedList.parse(list);
    expect(parsed.data).toHaveLength(2);
    expect(parsed.summary.total_rows_count).toBe(2);
  });

  it('the valid example parses as a staff member', () => {
    expect(strictShared.BusinessStaff.safeParse(example('business-staff.valid.json')).success).toBe(
      true,
    );
  });

  it('the broken example is refused, naming every bad field', () => {
    const result = strictShared.BusinessStaff.safeParse(example('business-staff.broken.json'));
    expect(problemPaths(result).sort()).toEqual(['auth_code', 'id', 'pin', 'suspended']);
  });

  it('the staff of a sign-in token is a BusinessStaff', () => {
    const token = strictBusiness.BusinessAuthToken.parse({
      token: 't0k3n',
      access: 'business-staff',
      access_scopes: ['payments'],
      owner: false,
      staff: example('business-staff.valid.json'),
      user: { name: 'Dana Cashier' },
    });
    expect(token.staff?.role_based_model_roles).toEqual(['cashier']);
  });
});

describe('unknown fields on the business surface', () => {
  it('the strict variant refuses an unknown field, naming it', () => {
    const result = strictBusiness.Business.safeParse({ title: 'Fuel & Shop', colour: 'red' });
    expect(result.success).toBe(false);
    expect(problemPaths(result)).toEqual(['colour']);
  });

  it('the strict variant names an unknown field nested in a sub-object', () => {
    const result = strictBusiness.Business.safeParse({ role_based_model: { active: true, x: 1 } });
    expect(problemPaths(result)).toEqual(['role_based_model.x']);
  });

  it('the loose variant keeps an unknown field', () => {
    const parsed = looseBusiness.Business.parse({ title: 'Fuel & Shop', colour: 'red' });
    expect(parsed).toMatchObject({ title: 'Fuel & Shop', colour: 'red' });
  });
});

describe('BonusesOperationObject', () => {
  it('requires terminal_id', () => {
    const result = strictBusiness.BonusesOperationObject.safeParse({ amount: 10 });
    expect(problemPaths(result)).toEqual(['terminal_id']);
  });

  it('parses with terminal_id alone', () => {
    expect(strictBusiness.BonusesOperationObject.parse({ terminal_id: TERMINAL })).toEqual({
      terminal_id: TERMINAL,
    });
  });

  it('refuses a terminal_id that is not a uuid', () => {
    const result = strictBusiness.BonusesOperationObject.safeParse({ terminal_id: 'till-1' });
    expect(problemPaths(result)).toEqual(['terminal_id']);
  });
});

describe('BusinessStarter', () => {
  it('requires title and country', () => {
    const result = strictBusiness.BusinessStarter.safeParse({});
    expect(problemPaths(result).sort()).toEqual(['country', 'title']);
  });

  it('defaults business_type to regular and rate_type to none', () => {
    const parsed = strictBusiness.BusinessStarter.parse({ title: 'Fuel & Shop', country: 'DE' });
    expect(parsed.business_type).toBe('regular');
    expect(parsed.rate_type).toBe('none');
  });
});

describe('IdentityProviderSignIn', () => {
  it('requires client_id and credential, defaulting create and link_by_email', () => {
    const parsed = strictBusiness.IdentityProviderSignIn.parse({ client_id: 'c', credential: 'x' });
    expect(parsed).toEqual({ client_id: 'c', credential: 'x', create: false, link_by_email: true });
  });

  it('accepts a null user and null name parts', () => {
    expect(
      strictBusiness.IdentityProviderSignIn.safeParse({
        client_id: 'c',
        credential: 'x',
        user: { name: { firstName: null, lastName: 'Doe' } },
      }).success,
    ).toBe(true);
    expect(
      strictBusiness.IdentityProviderSignIn.safeParse({
        client_id: 'c',
        credential: 'x',
        user: null,
      }).success,
    ).toBe(true);
  });
});

describe('BusinessTariffDetails', () => {
  it('has count, left and over counters with public titles for every family', () => {
    const shape = strictBusiness.BusinessTariffDetails.shape;
    for (const name of counterNames(tariffCounterFamilies)) {
      expect(shape).toHaveProperty(name);
      expect(shape).toHaveProperty(`${name}_public_title`);
    }
    expect(shape).toHaveProperty('sms_count_over_public_title');
  });

  it('keeps each generated field typed', () => {
    expectTypeOf<BusinessTariffDetails['sms_count_left']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<BusinessTariffDetails['sms_count_left_public_title']>().toEqualTypeOf<
      string | undefined
    >();
    expectTypeOf<BusinessTariffDetails['period_begin_datetime']>().toEqualTypeOf<
      string | undefined
    >();
  });

  it('refuses a counter that is not a number, naming it', () => {
    const result = strictBusiness.BusinessTariffDetails.safeParse({ push_count_over: 'three' });
    expect(problemPaths(result)).toEqual(['push_count_over']);
  });

  it('parses its billing lines', () => {
    const parsed = strictBusiness.BusinessTariffDetails.parse({
      sms_count: 120,
      sms_count_left: 380,
      period_begin_datetime: '2025-01-01T00:00:00Z',
      billing: [
        {
          id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a70',
          amount: -12.5,
          currency: 'EUR',
          processed: '2025-01-31T23:59:59+01:00',
          type: 'customer-benefits-update-notification',
        },
      ],
    });
    expect(parsed.billing?.[0]?.type).toBe('customer-benefits-update-notification');
  });
});

describe('BusinessSettings', () => {
  it('accepts the period flags as booleans or 0/1', () => {
    expect(
      strictBusiness.BusinessSettings.safeParse({
        bonus_period_by_base_time_zone: true,
        coupons_period_by_base_time_zone: 0,
      }).success,
    ).toBe(true);
  });
});
