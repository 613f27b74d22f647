// The customer display's picture of a check: what the till priced, and after a sale the
// change and the coupons to scan.
import { describe, expect, it } from 'vitest';
import { CustomerDisplay } from '../../src/contract/customer-display.js';
import { displayOfCheck, displayOfSale } from '../../src/terminal/customer-display.js';
import { calcCheck, saleResult } from '../renderer/fixtures.js';

describe('the customer display', () => {
  it("shows each line's title, quantity, amount and discount as the till priced them", () => {
    const shown = displayOfCheck(calcCheck());
    expect(shown.state).toBe('open');
    expect(shown.lines).toEqual([
      { title: 'Coffee', quantity: 2, amount: 20, discount: 2 },
      { title: 'Bun', quantity: 1, amount: 10, discount: 1 },
    ]);
    expect(shown.to_pay).toBe(27);
    expect(shown.bonuses).toEqual({ added: 1.35, redeemed: 0 });
    expect(CustomerDisplay.safeParse(shown).success).toBe(true);
  });

  it('names a line without a title by its code', () => {
    const check = calcCheck({ check_items: [{ code: 'X9', quantity: 1, price: 1, amount: 1 }] });
    expect(displayOfCheck(check).lines[0]?.title).toBe('X9');
  });

  it('shows a paid sale with its change and a code to scan for each emitted coupon', () => {
    const sale = saleResult({
      check: calcCheck({
        emitted_coupons: [
          { code: 'LT-7QX2', title: 'Free coffee', expire_date: '2026-12-31' },
          { code: null, title: 'Emitted without a code yet' },
        ],
      }),
      cash: { given: 30, change: 3 },
    });
    const shown = displayOfSale(sale);
    expect(shown.state).toBe('paid');
    expect(shown.change).toBe(3);
    expect(shown.coupons).toEqual([
      { code: 'LT-7QX2', title: 'Free coffee', expire_date: '2026-12-31' },
    ]);
    expect(CustomerDisplay.safeParse(shown).success).toBe(true);
  });
});
