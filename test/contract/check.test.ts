import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { decimalPlaces } from '../../src/contract/wire.js';
import { looseShared as loose, strictShared as strict } from '../../src/contract/shared.js';
import {
  richCheck,
  richCheckResponse,
  validCheckCoupon,
  validImplementedRule,
} from './examples.js';

function issuesOf(schema: z.ZodType, value: unknown) {
  const r = schema.safeParse(value);
  expect(r.success, 'the value should be refused').toBe(false);
  return r.error?.issues ?? [];
}

const pathsOf = (schema: z.ZodType, value: unknown) => issuesOf(schema, value).map((i) => i.path);

const readExample = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./examples/${name}`, import.meta.url), 'utf8'));

describe('Check limits', () => {
  it('accepts an id of 3 characters', () => {
    expect(strict.Check.safeParse({ id: 'abc' }).success).toBe(true);
  });

  it('refuses an id of 2 characters, naming the field', () => {
    expect(issuesOf(strict.Check, { id: 'ab' })).toMatchObject([
      { path: ['id'], message: 'the user identifier has at least 3 characters' },
    ]);
  });

  it('accepts a cardotppassword of 3 characters', () => {
    expect(strict.Check.safeParse({ cardotppassword: '555' }).success).toBe(true);
  });

  it('refuses a cardotppassword of 2 characters, naming the field', () => {
    expect(issuesOf(strict.Check, { cardotppassword: '55' })).toMatchObject([
      { path: ['cardotppassword'], message: 'at least 3 characters' },
    ]);
  });

  it('accepts an odometer with two decimal digits, and 0', () => {
    for (const odometer of [12.34, 0, 0.01, 120345.67, 1e15]) {
      expect(strict.Check.safeParse({ odometer }).success, String(odometer)).toBe(true);
    }
  });

  it('refuses an odometer with three decimal digits, naming the field', () => {
    expect(issuesOf(strict.Check, { odometer: 12.345 })).toMatchObject([
      { path: ['odometer'], message: 'at most two decimal digits' },
    ]);
  });

  it('refuses a tiny odometer written in exponent form (1e-7 has seven decimals)', () => {
    expect(pathsOf(strict.Check, { odometer: 1e-7 })).toEqual([['odometer']]);
  });

  it('refuses a negative odometer, naming the field', () => {
    expect(issuesOf(strict.Check, { odometer: -0.01 })).toMatchObject([
      { path: ['odometer'], message: 'must be >= 0' },
    ]);
  });

  it('accepts every whole number of hundredths as an odometer', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 12 }), (cents) => {
        expect(strict.Check.safeParse({ odometer: cents / 100 }).success).toBe(true);
      }),
    );
  });

  it('refuses every odometer with a third decimal digit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 9 }),
        fc.integer({ min: 1, max: 9 }),
        (cents, thousandth) => {
          expect(
            strict.Check.safeParse({ odometer: (cents * 10 + thousandth) / 1000 }).success,
          ).toBe(false);
        },
      ),
    );
  });

  it('accepts a coupon object_id of 36 characters inside a check', () => {
    const check = { redeemed_coupons: [{ ...validCheckCoupon(), object_id: 'x'.repeat(36) }] };
    expect(strict.Check.safeParse(check).success).toBe(true);
  });

  it('refuses a coupon object_id of 37 characters, with its path', () => {
    const check = { redeemed_coupons: [{ ...validCheckCoupon(), object_id: 'x'.repeat(37) }] };
    expect(issuesOf(strict.Check, check)).toMatchObject([
      { path: ['redeemed_coupons', 0, 'object_id'], message: 'at most 36 characters' },
    ]);
  });

  it('refuses a bonuses_added object_id of 37 characters, with its path', () => {
    const check = { bonuses_added: [{ amount: 1, object_id: 'x'.repeat(37) }] };
    expect(pathsOf(strict.Check, check)).toEqual([['bonuses_added', 0, 'object_id']]);
  });
});

describe('decimalPlaces', () => {
  it('counts the digits of the shortest decimal form, exponents included', () => {
    expect([12.34, 12.345, 7, 1e-7, 1.5e-7, 1e21, 1.25e21].map(decimalPlaces)).toEqual([
      2, 3, 0, 7, 8, 0, 0,
    ]);
  });

  it('gives no finite count for NaN and infinities', () => {
    expect(decimalPlaces(Number.NaN)).toBe(Number.POSITIVE_INFINITY);
    expect(decimalPlaces(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('a rich Check', () => {
  it('parses as a strict request and round-trips unchanged', () => {
    const input = richCheck();
    expect(strict.Check.parse(JSON.parse(JSON.stringify(input)))).toEqual(input);
  });

  it('parses as a strict response and round-trips unchanged', () => {
    const input = richCheckResponse();
    expect(strict.CheckResponse.parse(JSON.parse(JSON.stringify(input)))).toEqual(input);
  });

  it('survives parse, stringify, parse byte for byte', () => {
    const once = JSON.stringify(strict.Check.parse(richCheck()));
    expect(JSON.stringify(strict.Check.parse(JSON.parse(once)))).toBe(once);
  });

  it('test/contract/examples/check.valid.json is a valid strict Check', () => {
    const json = readExample('check.valid.json');
    expect(strict.Check.parse(json)).toEqual(json);
  });

  it('test/contract/examples/check.broken.json is refused on each seeded violation', () => {
    const issues = issuesOf(strict.Check, readExample('check.broken.json'));
    expect(issues.map((i) => i.path)).toEqual(
      expect.arrayContaining([
        ['id'],
        ['odometer'],
        ['transaction_cancelled'],
        ['redeemed_coupons', 0, 'object_id'],
      ]),
    );
    expect(issues).toContainEqual(
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['summary_amount'] }),
    );
  });
});

describe('unknown fields', () => {
  it('a strict Check refuses an unknown field on a line, naming it with its path', () => {
    const check = richCheck();
    const lines: Record<string, unknown>[] = check.check_items;
    lines[1]!.colour = 'red';
    expect(issuesOf(strict.Check, check)).toMatchObject([
      { code: 'unrecognized_keys', keys: ['colour'], path: ['check_items', 1] },
    ]);
  });

  it('a loose Check keeps unknown fields at the top and on a line', () => {
    const check = { ...richCheck(), central_hint: 'x' };
    const lines: Record<string, unknown>[] = check.check_items;
    lines[0]!.colour = 'red';
    const parsed = loose.Check.parse(check);
    expect(parsed).toMatchObject({ central_hint: 'x', check_items: [{ colour: 'red' }, {}] });
  });

  it('free-form external_additional_info keeps any keys in the strict variant', () => {
    const info = { anything: { goes: [1, 2] } };
    expect(strict.Check.parse({ external_additional_info: info })).toEqual({
      external_additional_info: info,
    });
  });
});

describe('request vs response', () => {
  it('a strict Check request carrying summary_amount is refused, naming it', () => {
    expect(issuesOf(strict.Check, { amount: 1, summary_amount: 1 })).toMatchObject([
      { code: 'unrecognized_keys', keys: ['summary_amount'] },
    ]);
  });

  it('a strict Check request refuses each response-only field', () => {
    const responseOnly = {
      special_account_pin_required: true,
      special_account_odometer_required: 'required',
      special_account_vehicle_id_required: 'none',
    };
    expect(issuesOf(strict.Check, responseOnly)).toMatchObject([
      { code: 'unrecognized_keys', keys: Object.keys(responseOnly) },
    ]);
  });

  it('a Check request may carry special_account_pin', () => {
    expect(strict.Check.parse({ special_account_pin: '0042' })).toEqual({
      special_account_pin: '0042',
    });
  });

  it('a CheckResponse carrying special_account_pin parses and the pin is gone', () => {
    const parsed = strict.CheckResponse.parse({
      ...richCheckResponse(),
      special_account_pin: '975310',
    });
    expect(parsed.special_account_pin).toBeUndefined();
    expect(JSON.stringify(parsed)).not.toContain('special_account_pin"');
    expect(JSON.stringify(parsed)).not.toContain('975310');
  });

  it('a loose CheckResponse drops an echoed pin too', () => {
    const parsed = loose.CheckResponse.parse({ special_account_pin: '1234' });
    expect(JSON.stringify(parsed)).toBe('{}');
  });

  it('CheckResponse takes DataRequiredType for the odometer and vehicle id flags', () => {
    expect(pathsOf(strict.CheckResponse, { special_account_odometer_required: 'yes' })).toEqual([
      ['special_account_odometer_required'],
    ]);
  });
});

describe('Check parts', () => {
  it('a line needs a code and a quantity', () => {
    expect(pathsOf(strict.CheckItem, { title: 'Coffee' })).toEqual([['code'], ['quantity']]);
  });

  it('calculated unit values may be null (quantity 0)', () => {
    const line = {
      code: 'C1',
      quantity: 0,
      calculated_price: null,
      calculated_unit_discount_amount: null,
    };
    expect(strict.CheckItem.parse(line)).toEqual(line);
  });

  it('line additions require a job; the rest is optional', () => {
    expect(pathsOf(strict.CheckItemAdditionalInfo, { processing_id: 'p' })).toEqual([['job']]);
    expect(strict.CheckItemAdditionalInfo.parse({ job: {} })).toEqual({ job: {} });
  });

  it('a service needs a code', () => {
    expect(pathsOf(strict.CheckService, { amount: 2 })).toEqual([['code']]);
  });

  it('a coupon needs a code', () => {
    const { code: _code, ...coupon } = validCheckCoupon();
    expect(pathsOf(strict.CheckCoupon, coupon)).toEqual([['code']]);
  });

  it('an emitted coupon may have a null code (engine.md 17.14), a presented one may not', () => {
    const pending = { ...validCheckCoupon(), code: null, processing_status: 'pending' };
    expect(strict.CheckResponse.safeParse({ emitted_coupons: [pending] }).success).toBe(true);
    expect(pathsOf(strict.CheckResponse, { redeemed_coupons: [pending] })).toEqual([
      ['redeemed_coupons', 0, 'code'],
    ]);
    const { code: _code, ...absent } = pending;
    expect(pathsOf(strict.CheckResponse, { emitted_coupons: [absent] })).toEqual([
      ['emitted_coupons', 0, 'code'],
    ]);
  });

  it('a cross-business coupon comes back in a check unchanged', () => {
    const coupon = { ...validCheckCoupon(), type: 'cross-business' };
    expect(strict.CheckCoupon.parse(coupon)).toEqual(coupon);
  });

  it('an implemented rule accepts null in every field', () => {
    const allNull = Object.fromEntries(
      Object.keys(strict.CheckImplementedRule.shape).map((k) => [k, null]),
    );
    expect(strict.CheckImplementedRule.parse(allNull)).toEqual(allNull);
  });

  it('an implemented rule round-trips unchanged', () => {
    const rule = validImplementedRule();
    expect(strict.CheckImplementedRule.parse(rule)).toEqual(rule);
  });

  it('an implemented rule refuses automatic 6, a bad local time and weekday 0', () => {
    const rule = { ...validImplementedRule(), automatic: 6, time_from: '24:00', week_days: [0] };
    expect(pathsOf(strict.CheckImplementedRule, rule)).toEqual([
      ['automatic'],
      ['time_from'],
      ['week_days', 0],
    ]);
  });

  it('CheckImplementedRule.special_account_id and CheckSpecialAccount.id are plain strings', () => {
    expect(strict.CheckImplementedRule.safeParse({ special_account_id: 'acc-1' }).success).toBe(
      true,
    );
    expect(strict.CheckSpecialAccount.safeParse({ id: 'acc-1' }).success).toBe(true);
  });

  it('ids the contract types as uuid are checked as uuid', () => {
    expect(pathsOf(strict.Check, { customer_id: 'c1', transaction_id: 'not-a-uuid' })).toEqual([
      ['customer_id'],
      ['transaction_id'],
    ]);
  });

  it('a tax detailing item takes exempt; a margin item does not', () => {
    expect(strict.CheckTaxExplainDetailingItem.safeParse({ exempt: true }).success).toBe(true);
    expect(issuesOf(strict.CheckMarginExplainDetailingItem, { exempt: true })).toMatchObject([
      { code: 'unrecognized_keys', keys: ['exempt'] },
    ]);
  });

  it('transaction_cancelled is 0 or 1', () => {
    expect(pathsOf(strict.Check, { transaction_cancelled: 2 })).toEqual([
      ['transaction_cancelled'],
    ]);
  });
});
