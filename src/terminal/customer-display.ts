// The customer display's picture of a check (src/contract/customer-display.ts), drawn from the
// engine's answer the till just got: what a calculation priced (`open`) or what a sale
// committed (`paid`, with its emitted coupons and the change). Pure: the handlers send it as
// the event `customer-display`.
import type { CommandOutput } from '../contract/commands.js';
import type { CustomerDisplay, CustomerDisplayCoupon } from '../contract/customer-display.js';

type Check = CommandOutput<'check-calc'>['check'];
type Sale = CommandOutput<'sale-process'>;

export function displayOfCheck(check: Check): CustomerDisplay {
  return {
    state: 'open',
    amount_digits: check.amount_decimal_digits ?? 2,
    bonus_digits: check.bonuses_decimal_digits ?? 2,
    lines: (check.check_items ?? []).map((item) => ({
      title: item.title || item.code || '—',
      quantity: item.quantity ?? 0,
      ...(item.quantity_decimal_digits !== undefined
        ? { quantity_digits: item.quantity_decimal_digits }
        : {}),
      amount: item.amount ?? 0,
      discount: item.discount_amount ?? 0,
    })),
    to_pay: check.amount_to_pay ?? 0,
    bonuses: {
      added: check.bonuses_added_amount ?? 0,
      redeemed: check.bonuses_redeemed_amount ?? 0,
    },
    coupons: [],
  };
}

export function displayOfSale(sale: Sale): CustomerDisplay {
  const coupons: CustomerDisplayCoupon[] = [];
  // A coupon emitted without a code yet (engine.md 17.14) has nothing to scan.
  for (const c of sale.check.emitted_coupons ?? []) {
    if (!c.code) continue;
    coupons.push({
      code: c.code,
      ...(c.title ? { title: c.title } : {}),
      ...(c.expire_date ? { expire_date: c.expire_date } : {}),
    });
  }
  return {
    ...displayOfCheck(sale.check),
    state: 'paid',
    coupons,
    ...(sale.cash ? { change: sale.cash.change } : {}),
  };
}
