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

/**
 * A label and a right-aligned value in `width` columns; the label is cut to make room. A value
 * too wide to share a line gets its own, right-aligned (wrapped if wider still).
 */
function columns(left: string, right: string, width: number): string[] {
  if (right.length + 2 > width) {
    return [...wrap(left, width), ...wrap(right, width).map((r) => r.padStart(width))];
  }
  const room = width - right.length - 1;
  const l = left.length > room ? left.slice(0, room) : left;
  return [l + ' '.repeat(width - l.length - right.length) + right];
}

/** Free text in lines of at most `width` columns: at spaces, else inside a too-long word. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let cur: string | null = null;
  for (let word of text.split(' ')) {
    if (cur !== null && cur.length + 1 + word.length <= width) {
      cur += ` ${word}`;
      continue;
    }
    if (cur !== null) lines.push(cur);
    while (word.length > width) {
      lines.push(word.slice(0, width));
      word = word.slice(width);
    }
    cur = word === '' && lines.length > 0 ? null : word;
  }
  if (cur !== null || lines.length === 0) lines.push(cur ?? '');
  return lines;
}

/** Renders a receipt; every line fits `width` columns but the transaction line (see below). */
export function renderReceipt(input: z.input<typeof ReceiptSchema>, width = 42): Uint8Array {
  const r = ReceiptSchema.parse(input);
  const out: Uint8Array[] = [c.init()];
  const text = (s: string) => out.push(...wrap(s, width).map(c.line));
  const cols = (left: string, right: string) =>
    out.push(...columns(left, right, width).map(c.line));
  if (r.offline) {
    out.push(c.align('center'), c.bold(true));
    text('*** OFFLINE ***');
    out.push(c.bold(false));
  }
  if (r.header.length) {
    out.push(c.align('center'));
    for (const h of r.header) text(h);
  }
  out.push(c.align('left'));
  for (const it of r.items) {
    text(it.title);
    cols(`  ${it.quantity} x ${it.price}`, it.amount);
    for (const d of it.discounts) cols(`  - ${d.rule}`, `-${d.amount}`);
    for (const b of it.bonuses) cols(`  + ${b.rule}`, `+${b.amount} pts`);
  }
  out.push(c.line('-'.repeat(width)));
  if (r.discounts_total) cols('Discounts', `-${r.discounts_total}`);
  // Double height only: the width in columns stays the same.
  out.push(c.bold(true), c.size(1, 2));
  cols('TOTAL', r.total);
  out.push(c.size(1, 1), c.bold(false));
  for (const p of r.payments) cols(p.title, p.amount);
  if (r.bonuses_added) cols('Bonuses earned', r.bonuses_added);
  if (r.balances.length) {
    text('Balances after this sale:');
    for (const b of r.balances) cols(`  ${b.title}`, b.value);
  }
  // Kept on one line so the id is read (and searched) whole; a UUID makes it 48 columns, and a
  // narrower printer breaks it itself.
  out.push(c.line(''), c.line(`Transaction ${r.transaction_id}`));
  if (r.offline) text('Recorded offline; confirmed later.');
  if (r.feedback && r.feedback.print !== 'none') {
    out.push(c.align('center'));
    if (r.feedback.message) text(r.feedback.message);
    if (r.feedback.print === 'qr-code' || r.feedback.print === 'all')
      out.push(c.qr(r.feedback.url), c.feed());
    if (r.feedback.print === 'url' || r.feedback.print === 'all') text(r.feedback.url);
    out.push(c.align('left'));
  }
  for (const f of r.footer) text(f);
  out.push(c.feed(), c.feed(), c.feed(), c.cut());
  return concatBytes(out);
}
