import { describe, expect, it } from 'vitest';
import { dec } from '../../src/money/index.js';
import { unitShare } from '../../src/engine/refund.js';
import { checkOf, customer, fixture, item, percent, rule, run } from './helpers.js';

function processed(over: Parameters<typeof fixture>[0] = {}) {
  return checkOf({
    ...fixture({
      loyalty: { id: 'l1', currency: 'EUR', bonus_payment_max_percent: 50 },
      rules: [
        rule('d'),
        rule('b', { action_type: 'bonuses', charge_type: 'regular-bonuses', value: percent(5) }),
      ],
      ...over,
    }),
    mode: 'process',
  });
}

const refund = (
  original: ReturnType<typeof processed>,
  over: Parameters<typeof fixture>[0] = {},
  lines?: { index: number; quantity: number }[],
) =>
  run({
    ...fixture(over),
    check: undefined,
    mode: 'refund',
    original,
    ...(lines ? { refund_lines: lines } : {}),
  } as Parameters<typeof run>[0]);

describe('refunds', () => {
  it('splits a value between refunded and kept units, refunded first on a tie', () => {
    expect(unitShare(100n, dec(3), dec(1), 3)).toBe(33n);
    expect(unitShare(100n, dec(3), dec(2), 3)).toBe(67n);
    expect(unitShare(1n, dec(2), dec(1), 3)).toBe(1n);
  });

  it('returns everything on a cancel', () => {
    const original = processed();
    expect(refund(original)).toMatchObject({
      check: {
        transaction_type: 'refund',
        transaction_cancelled: 1,
        amount: original.amount,
        discount_amount: original.discount_amount,
        amount_to_pay: original.amount_to_pay,
        bonuses_added_amount: original.bonuses_added_amount,
      },
      owed: { bonuses: 0 },
    });
  });

  it("ignores today's rules", () => {
    const original = processed();
    const out = refund(original, { rules: [rule('x', { value: percent(90) })] });
    expect(out).toMatchObject({ check: { discount_amount: original.discount_amount } });
  });

  it('records as owed what a write-off takes beyond the balance', () => {
    const original = processed();
    const out = refund(original, {
      customer: customer({ bonuses: { regular: 0.1, promotional: [] } }),
    });
    expect(out).toMatchObject({ owed: { bonuses: 0.35 } }); // 0.45 written off, 0.10 there
  });

  it('keeps bonuses spent from a lot that has expired since', () => {
    const original = processed({
      customer: customer({
        bonuses: { regular: 0, promotional: [{ id: 'lot', amount: 2, expire: '2026-11-30' }] },
      }),
      check: { bonuses_redeemed_amount: 2, check_items: [item('C1', 2, 2.5)] },
    });
    const out = refund(original, { now: '2026-12-05T10:00:00Z' });
    expect(out).toMatchObject({ check: { bonuses_redeemed_amount: 0 } });
  });

  it('weighs the exact parts of the lots-spent record: lots expired since stay expired', () => {
    const original = processed({
      customer: customer({
        bonuses: {
          regular: 10,
          promotional: [
            { id: 'a', amount: 0.4, expire: '2026-11-28' },
            { id: 'b', amount: 0.4, expire: '2026-11-30' },
          ],
        },
      }),
      check: {
        bonuses_decimal_digits: 0,
        bonuses_redeemed_amount: 1,
        check_items: [item('C1', 2, 2.5)],
      },
    });
    expect(original.external_additional_info?.bonuses_spent).toMatchObject([
      { id: 'a', amount: 0.4 },
      { id: 'b', amount: 0.4 },
      { source: 'regular', amount: 0.2 },
    ]);
    // 0.8 of the 1 came from lots expired by then: 0.2 returned rounds to 0 at 0 digits.
    const out = refund(original, { now: '2026-12-05T10:00:00Z' });
    expect(out).toMatchObject({ check: { bonuses_redeemed_amount: 0 } });
  });

  it('reopens redeemed coupons still valid and cancels emitted coupons still open on a cancel', () => {
    const original = {
      ...processed(),
      redeemed_coupons: [
        {
          code: 'R1',
          valid: true,
          applicable: true,
          status: 'redeemed' as const,
          expire_date: '2026-12-31',
        },
      ],
      emitted_coupons: [{ code: 'E1', status: 'open' as const }],
    };
    expect(refund(original)).toMatchObject({
      check: {
        redeemed_coupons: [{ code: 'R1', status: 'open' }],
        emitted_coupons: [{ code: 'E1', status: 'cancelled' }],
      },
    });
  });

  it('cancels on a cancel an emitted coupon that has no code yet (engine.md 17.14)', () => {
    const original = {
      ...processed(),
      emitted_coupons: [
        { code: null, status: 'open' as const, processing_status: 'pending' as const },
      ],
    };
    expect(refund(original)).toMatchObject({
      check: { emitted_coupons: [{ code: null, status: 'cancelled' }] },
    });
  });

  it('refuses a refund line the original does not have', () => {
    expect(refund(processed(), {}, [{ index: 5, quantity: 1 }])).toMatchObject({
      error: { code: 'invalid-input', path: 'refund_lines[0].index' },
    });
  });

  it('refuses to cancel a stored check whose amount is not the sum of its lines', () => {
    const stored = processed();
    const original = { ...stored, amount: stored.amount! + 7.5 };
    expect(refund(original)).toMatchObject({
      error: { code: 'invalid-input', path: 'original.amount' },
    });
  });

  it('refuses to cancel a stored check whose discount is not the sum of its lines', () => {
    const stored = processed();
    const original = { ...stored, discount_amount: stored.discount_amount! + 1 };
    expect(refund(original)).toMatchObject({
      error: { code: 'invalid-input', path: 'original.discount_amount' },
    });
  });

  it('refuses a refund of a stored line whose discount exceeds its amount', () => {
    const stored = processed();
    const lines = stored.check_items!.map((l, i) => (i === 0 ? { ...l, amount: 0 } : l));
    const original = { ...stored, check_items: lines };
    expect(refund(original, {}, [{ index: 0, quantity: 1 }])).toMatchObject({
      error: { code: 'invalid-input', path: 'original.check_items[0].discount_amount' },
    });
  });

  it('adds up two complementary partial refunds to the line', () => {
    const original = processed({ check: { check_items: [item('C1', 3, 2.5)] } });
    const a = refund(original, {}, [{ index: 0, quantity: 1 }]);
    const b = refund(original, {}, [{ index: 0, quantity: 2 }]);
    if ('error' in a || 'error' in b) throw new Error('refund failed');
    expect(Math.round((a.check.discount_amount! + b.check.discount_amount!) * 100)).toBe(
      Math.round(original.discount_amount! * 100),
    );
    expect(Math.round((a.check.bonuses_added_amount! + b.check.bonuses_added_amount!) * 100)).toBe(
      Math.round(original.bonuses_added_amount! * 100),
    );
  });
});
