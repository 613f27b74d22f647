import { describe, expect, it } from 'vitest';
import { checkOf, customer, fixture, item, rule, run } from './helpers.js';

const modifier = (over: Record<string, unknown> = {}) => ({
  code: 'CPN1',
  type: 'check-modifier' as const,
  status: 'open' as const,
  expire_date: '2026-12-31',
  redeem_at_terminal: 1 as const,
  batch: { code: 'B10', business_id: 'b1' },
  ...over,
});

const couponRule = rule('cr', { automatic: 2, coupon_batch_code: 'B10' });

const present = (codes: string[], over: Parameters<typeof fixture>[0] = {}) =>
  fixture({
    coupons: [modifier()],
    rules: [couponRule],
    ...over,
    check: { check_items: [item('A', 1, 10)], redeemed_coupons: codes.map((code) => ({ code })) },
  });

describe('coupons', () => {
  it('makes a valid check-modifier coupon turn its rules into candidates', () => {
    const check = checkOf(present(['CPN1']));
    expect(check).toMatchObject({
      discount_amount: 1,
      redeemed_coupons: [{ code: 'CPN1', valid: true, applicable: true }],
    });
  });

  it('leaves coupon rules out without their coupon', () => {
    const check = checkOf(present([]));
    expect(check).toMatchObject({ discount_amount: 0, implemented_rules: [] });
  });

  it('reports an unknown code on the coupon with a warning, and still calculates', () => {
    const out = run(present(['NOPE']));
    expect(out).toMatchObject({
      check: {
        amount: 10,
        redeemed_coupons: [{ code: 'NOPE', valid: false, applicable: false, error: 'not-found' }],
      },
      warnings: [{ code: 'coupon-invalid', path: 'check.redeemed_coupons[0]' }],
    });
  });

  it('checks status before expiry, business and terminal', () => {
    const c = checkOf(
      present(['CPN1'], { coupons: [modifier({ status: 'redeemed', expire_date: '2020-01-01' })] }),
    );
    expect(c.redeemed_coupons).toMatchObject([{ error: 'not-open' }]);
  });

  it('refuses a coupon expired before the local date', () => {
    const c = checkOf(present(['CPN1'], { coupons: [modifier({ expire_date: '2026-11-21' })] }));
    expect(c.redeemed_coupons).toMatchObject([{ valid: false, error: 'expired' }]);
  });

  it('refuses a coupon of another business unless it is cross-business', () => {
    const other = modifier({ batch: { code: 'B10', business_id: 'b2' } });
    expect(checkOf(present(['CPN1'], { coupons: [other] })).redeemed_coupons).toMatchObject([
      { error: 'other-business' },
    ]);
    const cross = { ...other, type: 'cross-business' as const };
    expect(checkOf(present(['CPN1'], { coupons: [cross] })).redeemed_coupons).toMatchObject([
      { valid: true },
    ]);
  });

  it('refuses a coupon not redeemable at a terminal', () => {
    const c = checkOf(present(['CPN1'], { coupons: [modifier({ redeem_at_terminal: 0 })] }));
    expect(c.redeemed_coupons).toMatchObject([{ error: 'not-at-terminal' }]);
  });

  it('answers customer-blocked on the coupon of a black-listed customer', () => {
    const c = checkOf(present(['CPN1'], { customer: customer({ access_type: 'in-black-list' }) }));
    expect(c.redeemed_coupons).toMatchObject([
      { valid: false, applicable: false, error: 'customer-blocked' },
    ]);
  });

  it('counts a code listed twice as one coupon', () => {
    const c = checkOf(present(['CPN1', 'CPN1']));
    expect(c.redeemed_coupons).toHaveLength(1);
    expect(c.discount_amount).toBe(1);
  });

  it('marks a valid modifier whose rules do not apply as not applicable', () => {
    const c = checkOf(present(['CPN1'], { rules: [{ ...couponRule, included_items: ['Z'] }] }));
    expect(c.redeemed_coupons).toMatchObject([
      { valid: true, applicable: false, error: 'not-applicable' },
    ]);
  });

  it('credits a certificate only on processing', () => {
    const cert = modifier({
      code: 'CERT',
      type: 'certificate',
      charge_type: 'regular-bonuses',
      charge_amount: 25,
    });
    const calc = checkOf(present(['CERT'], { coupons: [cert] }));
    expect(calc.bonuses_added_amount).toBe(0);
    const processed = checkOf({ ...present(['CERT'], { coupons: [cert] }), mode: 'process' });
    expect(processed).toMatchObject({
      bonuses_added_amount: 25,
      redeemed_coupons: [{ status: 'redeemed', applicable: true }],
    });
  });

  it('hides an on-redeem external code until processing', () => {
    const ext = modifier({
      code: 'EXT',
      type: 'external',
      external_code: 'SECRET',
      external_code_visibility_type: 'on-redeem',
    });
    expect(
      checkOf(present(['EXT'], { coupons: [ext] })).redeemed_coupons![0]!.external_code,
    ).toBeUndefined();
    expect(
      checkOf({ ...present(['EXT'], { coupons: [ext] }), mode: 'process' }).redeemed_coupons![0]!
        .external_code,
    ).toBe('SECRET');
  });

  it('emits one provisional coupon per coupon rule, numbered from the terminal sequence', () => {
    const c = checkOf(
      fixture({
        terminal: { id: 't1', coupon_prefix: 'T01-', next_coupon_seq: 7 },
        rules: [
          rule('e1', { action_type: 'coupon', coupon_batch_code: 'X', value: null }),
          rule('e2', {
            action_type: 'coupon',
            coupon_batch_code: 'Y',
            coupon_do_not_add_to_wallet: 1,
            value: null,
          }),
        ],
      }),
    );
    expect(c.emitted_coupons).toMatchObject([
      {
        code: 'T01-000007',
        processing_status: 'pending',
        do_not_add_to_wallet: false,
        batch: { code: 'X' },
      },
      { code: 'T01-000008', do_not_add_to_wallet: true, batch: { code: 'Y' } },
    ]);
  });
});
