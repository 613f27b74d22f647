// The receipt layout: lines, discounts and bonuses by rule, balances after the sale, the
// transaction id, an offline mark when stood in, and the feedback QR or URL when asked for.
// Amounts arrive formatted (src/money formats them); the printer never computes money.
import { z } from 'zod';
import { CustomerFeedbackPrintOnCheck } from '../../contract/enums.js';
import { concatBytes } from '../bytes.js';
import * as c from './commands.js';

const RuleAmount = z.strictObject({ rule: z.string(), amount: z.string() });

export const ReceiptSchema = z.strictObject({
  header: z.array(z.string()).default([]),
  items: z.array(
    z.strictObject({
      title: z.string(),
      quantity: z.string(),
      price: z.string(),
      amount: z.string(),
      discounts: z.array(RuleAmount).default([]),
      bonuses: z.array(RuleAmount).default([]),
    }),
  ),
  total: z.string(),
  /** Payments: cash, card (masked), bonuses, special account. */
  payments: z.array(z.strictObject({ title: z.string(), amount: z.string() })).default([]),
  discounts_total: z.string().optional(),
  bonuses_added: z.string().optional(),
  balances: z.array(z.strictObject({ title: z.string(), value: z.string() })).default([]),
  transaction_id: z.string(),
  /** The sale was stood in offline and awaits the central service. */
  offline: z.boolean().default(false),
  feedback: z
    .strictObject({
      print: CustomerFeedbackPrintOnCheck,
      url: z.string(),
      message: z.string().optional(),
    })
    .optional(),
  footer: z.array(z.string()).default([]),
});
export type Receipt = z.infer<typeof ReceiptSchema>;

function columns(left: string, right: string, width: number): string {
  const room = Math.max(1, width - right.length - 1);
  const l = left.length > room ? left.slice(0, room) : left;
  return l + ' '.repeat(Math.max(1, width - l.length - right.length)) + right;
}

export function renderReceipt(input: z.input<typeof ReceiptSchema>, width = 42): Uint8Array {
  const r = ReceiptSchema.parse(input);
  const out: Uint8Array[] = [c.init()];
  if (r.offline) {
    out.push(c.align('center'), c.bold(true), c.line('*** OFFLINE ***'), c.bold(false));
  }
  if (r.header.length) {
    out.push(c.align('center'));
    for (const h of r.header) out.push(c.line(h));
  }
  out.push(c.align('left'));
  for (const it of r.items) {
    out.push(c.line(it.title));
    out.push(c.line(columns(`  ${it.quantity} x ${it.price}`, it.amount, width)));
    for (const d of it.discounts) out.push(c.line(columns(`  - ${d.rule}`, `-${d.amount}`, width)));
    for (const b of it.bonuses)
      out.push(c.line(columns(`  + ${b.rule}`, `+${b.amount} pts`, width)));
  }
  out.push(c.line('-'.repeat(width)));
  if (r.discounts_total) out.push(c.line(columns('Discounts', `-${r.discounts_total}`, width)));
  out.push(
    c.bold(true),
    c.size(1, 2),
    c.line(columns('TOTAL', r.total, width)),
    c.size(1, 1),
    c.bold(false),
  );
  for (const p of r.payments) out.push(c.line(columns(p.title, p.amount, width)));
  if (r.bonuses_added) out.push(c.line(columns('Bonuses earned', r.bonuses_added, width)));
  if (r.balances.length) {
    out.push(c.line('Balances after this sale:'));
    for (const b of r.balances) out.push(c.line(columns(`  ${b.title}`, b.value, width)));
  }
  out.push(c.line(''), c.line(`Transaction ${r.transaction_id}`));
  if (r.offline) out.push(c.line('Recorded offline; confirmed later.'));
  if (r.feedback && r.feedback.print !== 'none') {
    out.push(c.align('center'));
    if (r.feedback.message) out.push(c.line(r.feedback.message));
    if (r.feedback.print === 'qr-code' || r.feedback.print === 'all')
      out.push(c.qr(r.feedback.url), c.feed());
    if (r.feedback.print === 'url' || r.feedback.print === 'all') out.push(c.line(r.feedback.url));
    out.push(c.align('left'));
  }
  for (const f of r.footer) out.push(c.line(f));
  out.push(c.feed(), c.feed(), c.feed(), c.cut());
  return concatBytes(out);
}
