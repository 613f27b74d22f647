// What the customer's display shows (docs/terminal.md, "The customer display"): the check's
// lines, the amount to pay, the bonuses spent and earned, and each coupon the sale emitted
// (its code drawn as a QR on the display). The terminal sends it as the event
// `customer-display` after every calculation and every sale, so a second screen follows the
// till live without asking anything of its own.
import { z } from 'zod';
import { num } from './wire.js';

const digits = z.int().min(0).max(3);

export const CustomerDisplayLine = z.strictObject({
  /** The good's title, else its code. */
  title: z.string().min(1),
  quantity: num,
  quantity_digits: digits.optional(),
  /** The line's amount before its discount (as the till and the receipt show it). */
  amount: num,
  discount: num,
});

export const CustomerDisplayCoupon = z.strictObject({
  code: z.string().min(1),
  title: z.string().optional(),
  /** YYYY-MM-DD, when the coupon has one. */
  expire_date: z.string().optional(),
});
export type CustomerDisplayCoupon = z.infer<typeof CustomerDisplayCoupon>;

export const CustomerDisplay = z.strictObject({
  /** `open`: a check being priced; `paid`: a sale just committed, shown until the next check. */
  state: z.enum(['open', 'paid']),
  amount_digits: digits,
  bonus_digits: digits,
  lines: z.array(CustomerDisplayLine),
  to_pay: num,
  bonuses: z.strictObject({ added: num, redeemed: num }),
  /** Paid sales only: the coupons the sale emitted, with a code to scan. */
  coupons: z.array(CustomerDisplayCoupon),
  /** Paid in cash: the change given back. */
  change: num.optional(),
});
export type CustomerDisplay = z.infer<typeof CustomerDisplay>;
