// The customer's receipt from a processed check: lines with their discounts and bonuses,
// the total, payments (a card masked) with the cash given and the change, bonuses earned and
// the balance after the sale, the
// transaction id and the offline mark. Amounts are formatted exactly (src/money); the
// printer never computes money.
import type { z } from 'zod';
import type { EngineCheckResult } from '../contract/engine.js';
import type { ReceiptSchema } from '../devices/escpos/receipt.js';
import { dec, formatMoney, type Dec } from '../money/index.js';

export interface ReceiptExtras {
  header: string[];
  payments: Array<{ title: string; amount: number }>;
  balances: Array<{ title: string; value: string }>;
  offline: boolean;
  title?: string;
}

const PAYMENT_TITLES: Record<string, string> = {
  cash: 'Cash',
  'bank-card': 'Card',
  'special-account': 'Account',
  'corporate-special-account': 'Fleet account',
};

export function paymentTitle(type: string): string {
  return PAYMENT_TITLES[type] ?? type;
}

/** The cash handed over and the change given back, as the receipt's last payment lines. */
export function cashLines(cash: {
  given: number;
  change: number;
}): Array<{ title: string; amount: number }> {
  return [
    { title: 'Cash given', amount: cash.given },
    { title: 'Change', amount: cash.change },
  ];
}

export function receiptOf(
  check: EngineCheckResult,
  extras: ReceiptExtras,
): z.input<typeof ReceiptSchema> {
  const md = check.amount_decimal_digits ?? 2;
  const bd = check.bonuses_decimal_digits ?? 2;
  const m = (v: number | string | Dec | undefined | null) =>
    formatMoney(typeof v === 'object' && v !== null ? v : dec(v ?? 0), md);
  const items = (check.check_items ?? []).map((it) => ({
    title: it.title ?? it.code,
    quantity: String(it.quantity),
    price: m(it.price ?? 0),
    amount: m(it.amount ?? 0),
    discounts:
      (it.discount_amount ?? 0) > 0 ? [{ rule: 'Discount', amount: m(it.discount_amount) }] : [],
    bonuses:
      (it.bonuses_added ?? 0) > 0
        ? [{ rule: 'Bonuses', amount: formatMoney(dec(it.bonuses_added ?? 0), bd) }]
        : [],
  }));
  return {
    header: extras.title ? [...extras.header, extras.title] : extras.header,
    items,
    total: m(check.amount_to_pay ?? 0),
    payments: extras.payments.map((p) => ({ title: p.title, amount: m(p.amount) })),
    ...((check.discount_amount ?? 0) > 0 ? { discounts_total: m(check.discount_amount) } : {}),
    ...((check.bonuses_added_amount ?? 0) > 0
      ? { bonuses_added: formatMoney(dec(check.bonuses_added_amount ?? 0), bd) }
      : {}),
    balances: extras.balances,
    transaction_id: check.transaction_id ?? '',
    offline: extras.offline,
  };
}
