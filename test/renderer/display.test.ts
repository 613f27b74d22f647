// The customer display's page is a pure function of the terminal's `customer-display` event.
import { describe, expect, it } from 'vitest';
import { numberStyle, translator } from '../../renderer/i18n.js';
import type { CustomerDisplay } from '../../renderer/types.js';
import { displayPage } from '../../renderer/views/display.js';
import { byTestId, elements, textOf, tree } from './tree.js';

const open: CustomerDisplay = {
  state: 'open',
  amount_digits: 2,
  bonus_digits: 2,
  lines: [{ title: 'Coffee', quantity: 2, amount: 5, discount: 0.5 }],
  to_pay: 4.5,
  bonuses: { added: 0.09, redeemed: 0 },
  coupons: [],
};
const render = (shown: CustomerDisplay | null, lang: 'en' | 'de' = 'en') =>
  tree(displayPage(shown, translator(lang), numberStyle(lang)));

describe('the customer display page', () => {
  it('welcomes the customer before any check', () => {
    const page = render(null);
    expect(byTestId(page, 'display')?.attrs['data-state']).toBe('idle');
    expect(textOf(page)).toContain('Welcome');
  });

  it('shows the lines and the amount to pay, in the language chosen', () => {
    const page = render(open, 'de');
    expect(textOf(byTestId(page, 'display-line-0')!)).toContain('Coffee');
    expect(textOf(byTestId(page, 'display-to-pay')!)).toBe('4,50');
    expect(textOf(byTestId(page, 'display-bonuses-earned')!)).toBe('0,09');
  });

  it('thanks the customer after a sale and draws each emitted coupon as a QR of its code', () => {
    const page = render({
      ...open,
      state: 'paid',
      change: 0.5,
      coupons: [{ code: 'LT-7QX2', title: 'Free coffee', expire_date: '2026-12-31' }],
    });
    expect(textOf(byTestId(page, 'display-change')!)).toBe('Your change: 0.50');
    const qr = byTestId(page, 'display-coupon-0-qr')!;
    expect(qr.tag).toBe('svg');
    expect(qr.attrs['data-text']).toBe('LT-7QX2');
    expect(elements(qr).some((e) => e.tag === 'path' && String(e.attrs.d).length > 100)).toBe(true);
  });
});
