import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineShared,
  looseShared as loose,
  strictShared as strict,
} from '../../src/contract/shared.js';
import { strictObject } from '../../src/contract/wire.js';
import { exampleUuid, validBusinessStaff } from './examples.js';

/** The issues of a refused parse (fails the test when the value is accepted). */
function issuesOf(schema: z.ZodType, value: unknown) {
  const r = schema.safeParse(value);
  expect(r.success, 'the value should be refused').toBe(false);
  return r.error?.issues ?? [];
}

describe('BonusAdded', () => {
  it('requires amount', () => {
    expect(issuesOf(strict.BonusAdded, {}).map((i) => i.path)).toEqual([['amount']]);
  });

  it('accepts object_id of 36 characters', () => {
    expect(strict.BonusAdded.safeParse({ amount: 1, object_id: 'x'.repeat(36) }).success).toBe(
      true,
    );
  });

  it('refuses object_id of 37 characters, naming the field', () => {
    const issues = issuesOf(strict.BonusAdded, { amount: 1, object_id: 'x'.repeat(37) });
    expect(issues).toMatchObject([{ path: ['object_id'], message: 'at most 36 characters' }]);
  });

  it('checks activity_id as a uuid and the dates as calendar dates', () => {
    const issues = issuesOf(strict.BonusAdded, {
      amount: 1,
      activity_id: 'a1',
      expire: '2026-13-01',
    });
    expect(issues.map((i) => i.path)).toEqual([['activity_id'], ['expire']]);
  });
});

describe('strict and loose variants', () => {
  it('strict refuses an unknown field, naming it', () => {
    const issues = issuesOf(strict.BusinessStaff, { ...validBusinessStaff(), nickname: 'A' });
    expect(issues).toMatchObject([{ code: 'unrecognized_keys', keys: ['nickname'] }]);
  });

  it('loose keeps an unknown field', () => {
    const parsed = loose.BusinessStaff.parse({ ...validBusinessStaff(), nickname: 'A' });
    expect(parsed).toMatchObject({ nickname: 'A' });
  });

  it('strict refuses an unknown field inside a nested object, with its path', () => {
    const staff = { ...validBusinessStaff(), terminals: [{ id: exampleUuid(2), serial: 'S1' }] };
    expect(issuesOf(strict.BusinessStaff, staff)).toMatchObject([
      { code: 'unrecognized_keys', keys: ['serial'], path: ['terminals', 0] },
    ]);
  });

  it('a caller may define the shared resources with another id rule (fixtures)', () => {
    const fixture = defineShared(strictObject, z.string().min(1));
    expect(fixture.BusinessStaff.safeParse({ id: 's1' }).success).toBe(true);
    expect(strict.BusinessStaff.safeParse({ id: 's1' }).success).toBe(false);
  });
});

describe('BusinessStaff', () => {
  it('parses a full record unchanged', () => {
    const staff = validBusinessStaff();
    expect(strict.BusinessStaff.parse(staff)).toEqual(staff);
  });

  it('auth_code takes null (no code), "" (generate one) and a user code', () => {
    for (const auth_code of [null, '', '9911']) {
      expect(strict.BusinessStaff.parse({ auth_code })).toEqual({ auth_code });
    }
  });

  it('suspended is a 0/1 integer flag, not a boolean', () => {
    expect(issuesOf(strict.BusinessStaff, { suspended: true }).map((i) => i.path)).toEqual([
      ['suspended'],
    ]);
  });

  it('BusinessStaffPaginatedList is { data, summary: { total_rows_count } }', () => {
    const page = { data: [validBusinessStaff()], summary: { total_rows_count: 1 } };
    expect(strict.BusinessStaffPaginatedList.parse(page)).toEqual(page);
    expect(
      issuesOf(strict.BusinessStaffPaginatedList, { data: [], summary: {} }).map((i) => i.path),
    ).toEqual([['summary', 'total_rows_count']]);
  });
});

describe('CouponBatchAlias', () => {
  const alias = {
    id: exampleUuid(1),
    batch_id: exampleUuid(2),
    user_id: exampleUuid(3),
    code: 'SUMMER',
    active: 1,
    created: '2026-06-01T08:00:00+02:00',
    emission_per_customer_limit: 0,
    emission_quantity_limit: 0,
    emitted_coupons_quantity: 17,
    expire_type: 'days',
    expire_value: 30,
    user_email: 'u@example.com',
  };

  it('parses and pages as CouponBatchAliasesPaginated', () => {
    const page = { data: [alias], summary: { total_rows_count: 1 } };
    expect(strict.CouponBatchAliasesPaginated.parse(page)).toEqual(page);
  });

  it('refuses a negative emission limit (0 already means no limit)', () => {
    expect(
      issuesOf(strict.CouponBatchAlias, { ...alias, emission_quantity_limit: -1 }).map(
        (i) => i.path,
      ),
    ).toEqual([['emission_quantity_limit']]);
  });

  it('refuses a date-time without an offset', () => {
    expect(
      issuesOf(strict.CouponBatchAlias, { ...alias, created: '2026-06-01 08:00' }).map(
        (i) => i.path,
      ),
    ).toEqual([['created']]);
  });
});

describe('AccountLimits', () => {
  const unlimited = {
    account_available_amount: null,
    available_from: null,
    available_until: null,
    day_limit: 0,
    day_limit_used: 12.5,
    day_limit_available: null,
    month_limit: 500,
    month_limit_used: 100,
    month_limit_available: 400,
  };

  it('takes null for unlimited amounts and an open window; overall_* may be absent', () => {
    expect(strict.AccountLimits.parse(unlimited)).toEqual(unlimited);
  });

  it('takes the optional overall group', () => {
    const withOverall = {
      ...unlimited,
      overall_limit: 0,
      overall_limit_used: 3,
      overall_limit_available: null,
    };
    expect(strict.AccountLimits.parse(withOverall)).toEqual(withOverall);
  });

  it('requires the day and month groups', () => {
    const { day_limit: _d, month_limit_available: _m, ...partial } = unlimited;
    expect(issuesOf(strict.AccountLimits, partial).map((i) => i.path)).toEqual([
      ['day_limit'],
      ['month_limit_available'],
    ]);
  });
});

describe('AdditionalService', () => {
  const service = {
    id: exampleUuid(5),
    code: 'DLV',
    type: 'delivery',
    public_title: 'Delivery',
    default: 1,
    sort_order: 2,
    cost: [
      {
        currency: 'EUR',
        decimal_digits: 2,
        min_value: 1.5,
        values: [
          { threshold: 0, type: 'amount', value: 3 },
          { threshold: 50, type: 'percentage', value: 2 },
          { threshold: 100, type: 'multiplier', value: 0.5 },
        ],
      },
    ],
  };

  it('parses with its cost tiers unchanged', () => {
    expect(strict.AdditionalService.parse(service)).toEqual(service);
  });

  it('refuses a tier type outside AdditionalServiceCostType', () => {
    const bad = structuredClone(service);
    bad.cost[0]!.values[0]!.type = 'fixed';
    expect(issuesOf(strict.AdditionalService, bad).map((i) => i.path)).toEqual([
      ['cost', 0, 'values', 0, 'type'],
    ]);
  });

  it('refuses a currency that is not an ISO code', () => {
    const bad = structuredClone(service);
    bad.cost[0]!.currency = 'eur';
    expect(issuesOf(strict.AdditionalService, bad).map((i) => i.path)).toEqual([
      ['cost', 0, 'currency'],
    ]);
  });
});

describe('BillingInfo', () => {
  it('keeps a free-form address even in the strict variant', () => {
    const info = {
      address: { line1: 'Main 1', any: { nested: true } },
      email: 'a@b.c',
      name: 'N',
      phone: '1',
    };
    expect(strict.BillingInfo.parse(info)).toEqual(info);
  });
});

describe('types the contract does not show', () => {
  it('ThresholdsValues takes tiers sorted by from', () => {
    const v = {
      type: 'amount-per-unit',
      thresholds: [
        { from: 0, value: 0.05 },
        { from: 100, value: 0.08 },
      ],
    };
    expect(strict.ThresholdsValues.parse(v)).toEqual(v);
  });

  it('ThresholdsValues refuses unsorted tiers', () => {
    const v = {
      type: 'percentage',
      thresholds: [
        { from: 10, value: 5 },
        { from: 0, value: 2 },
      ],
    };
    expect(issuesOf(strict.ThresholdsValues, v)).toMatchObject([{ path: ['thresholds'] }]);
  });

  it('WeekDaysList is ISO weekdays 1..7', () => {
    expect(strict.WeekDaysList.parse([1, 7])).toEqual([1, 7]);
    expect(issuesOf(strict.WeekDaysList, [0, 8, 2.5]).map((i) => i.path)).toEqual([[0], [1], [2]]);
  });

  it('SpecialAccountCharge needs an account, an amount and a direction', () => {
    expect(issuesOf(strict.SpecialAccountCharge, {}).map((i) => i.path)).toEqual([
      ['special_account_id'],
      ['amount'],
      ['direction'],
    ]);
    expect(
      issuesOf(strict.SpecialAccountCharge, {
        special_account_id: 'a',
        amount: 1,
        direction: 'in',
      }),
    ).toMatchObject([{ path: ['direction'] }]);
  });

  it('RuleImplementationData requires applied and takes a not-applied reason', () => {
    const data = { applied: false, reason: 'display', amount: 0, lines: [], missing: 2 };
    expect(strict.RuleImplementationData.parse(data)).toEqual(data);
    expect(
      issuesOf(strict.RuleImplementationData, { reason: 'display' }).map((i) => i.path),
    ).toEqual([['applied']]);
  });

  it('PriceTaxes entries are vat or sales with a non-negative rate', () => {
    const taxes = [
      { code: 'VAT7', type: 'vat', rate: 7 },
      { code: 'ST', title: 'Sales tax', type: 'sales', rate: 8.875, exempt: true },
    ];
    expect(strict.PriceTaxes.parse(taxes)).toEqual(taxes);
    expect(
      issuesOf(strict.PriceTaxes, [{ code: 'X', type: 'gst', rate: -1 }]).map((i) => i.path),
    ).toEqual([
      [0, 'type'],
      [0, 'rate'],
    ]);
  });

  it('Payment takes a TransactionPaymentType and an amount', () => {
    expect(strict.Payment.parse({ type: 'bank-card', amount: 12.3 })).toEqual({
      type: 'bank-card',
      amount: 12.3,
    });
    expect(issuesOf(strict.Payment, { type: 'cheque', amount: 1 }).map((i) => i.path)).toEqual([
      ['type'],
    ]);
  });

  it('PosEmbeddedList is a list of { id, title }', () => {
    const pos = [{ id: exampleUuid(9), title: 'Main street' }];
    expect(strict.PosEmbeddedList.parse(pos)).toEqual(pos);
  });
});
