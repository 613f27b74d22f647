// The receipt layout: one ESC/POS encoder of the receipt document (src/contract/receipt.ts):
// the heading (COPY on a reprint, the offline mark), store and POS, terminal, time, cashier,
// lines with each rule's discount and bonuses, services, the discounts by rule, the total,
// taxes by rate, payments with what they name, cash given and change, card slips, bonuses and
// balances, coupons (each emitted one with its barcode, or a QR when its code is too long for
// one), the transaction id, the offline note, the feedback QR or URL; the drawer's pulse first
// when cash was tendered. Amounts arrive formatted (src/money); the printer never computes money.
import {
  ReceiptDocument,
  type ReceiptDocumentInput,
  type ReceiptDocument as Doc,
} from '../../contract/receipt.js';
import { concatBytes } from '../bytes.js';
import * as c from './commands.js';

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

/** Where the layout writes: lines of text at the width, and raw commands between them. */
class Paper {
  readonly out: Uint8Array[] = [c.init()];
  readonly width: number;
  constructor(width: number) {
    this.width = width;
  }
  raw(...bytes: Uint8Array[]): void {
    this.out.push(...bytes);
  }
  /** Free text, wrapped; an indented text keeps its indent on every line. */
  text(s: string): void {
    const indent = /^ */.exec(s)?.[0] ?? '';
    const room = Math.max(1, this.width - indent.length);
    this.out.push(...wrap(s.slice(indent.length), room).map((l) => c.line(indent + l)));
  }
  cols(left: string, right: string): void {
    this.out.push(...columns(left, right, this.width).map(c.line));
  }
  /** A rule's part: with its amount on the right, or its name alone (wrapped, never cut). */
  part(label: string, amount: string | null, sign: '-' | '+'): void {
    if (amount === null) this.text(label);
    else this.cols(label, `${sign}${amount}`);
  }
  rule(): void {
    this.out.push(c.line('-'.repeat(this.width)));
  }
  centered(fn: () => void): void {
    this.raw(c.align('center'));
    fn();
    this.raw(c.align('left'));
  }
}

/** A QR or, when the code is short printable ASCII, a CODE128 barcode a till's scanner reads. */
function symbolOf(code: string): Uint8Array {
  return code.length <= c.BARCODE_MAX && /^[\x20-\x7e]+$/.test(code) ? c.barcode(code) : c.qr(code);
}

function heading(p: Paper, r: Doc): void {
  p.centered(() => {
    if (r.copy) {
      p.raw(c.bold(true), c.size(2, 2));
      p.text('COPY');
      p.raw(c.size(1, 1), c.bold(false));
    }
    if (r.offline) {
      p.raw(c.bold(true));
      p.text('*** OFFLINE ***');
      p.raw(c.bold(false));
    }
    for (const h of r.header) p.text(h);
  });
  if (r.terminal) p.text(`Terminal: ${r.terminal}`);
  if (r.time) p.text(`Date: ${r.time}`);
  if (r.cashier) p.text(`Cashier: ${r.cashier}`);
  if (r.customer) p.text(`Customer: ${r.customer}`);
  p.rule();
}

function lines(p: Paper, r: Doc): void {
  for (const it of r.items) {
    p.text(it.title);
    p.cols(`  ${it.quantity}${it.unit ? ` ${it.unit}` : ''} x ${it.price}`, it.amount);
    for (const d of it.discounts) p.part(`  - ${d.rule}`, d.amount, '-');
    if (it.discount_total) p.cols('  Line discount', `-${it.discount_total}`);
    for (const b of it.bonuses) p.part(`  + ${b.rule}`, b.amount, '+');
    if (it.bonuses_total) p.cols('  Line bonuses', `+${it.bonuses_total}`);
  }
  p.rule();
  for (const s of r.services) p.cols(s.title, s.amount);
  if (r.discounts.length) {
    p.text('Discounts:');
    for (const d of r.discounts) p.part(`  ${d.rule}`, d.amount, '-');
  }
  if (r.discount_total) p.cols('Discounts total', `-${r.discount_total}`);
  // Double height only: the width in columns stays the same.
  p.raw(c.bold(true), c.size(1, 2));
  p.cols('TOTAL', r.total);
  p.raw(c.size(1, 1), c.bold(false));
  for (const t of r.taxes) {
    const rate = t.rate === undefined ? '' : ` ${t.rate}%`;
    const how = t.exempt ? ' exempt' : t.included ? ' incl.' : ' added';
    p.cols(`${t.title}${rate}${how}`, t.amount);
  }
}

function payments(p: Paper, r: Doc): void {
  for (const pay of r.payments) {
    p.cols(pay.title, pay.amount);
    for (const d of pay.details) p.text(`  ${d}`);
  }
  if (r.cash) {
    p.cols('Cash given', r.cash.given);
    p.cols('Change', r.cash.change);
  }
  for (const s of r.card_slips) {
    p.rule();
    p.cols(s.title, s.amount);
    if (s.pan) p.cols('  Card', s.pan);
    if (s.auth_code) p.cols('  Auth. code', s.auth_code);
    if (s.terminal_id) p.cols('  Terminal ID', s.terminal_id);
    if (s.receipt_no) p.cols('  Receipt no.', s.receipt_no);
    if (s.trace_no) p.cols('  Trace no.', s.trace_no);
    p.text(`  ${s.result}`);
  }
}

function loyalty(p: Paper, r: Doc): void {
  const b = r.bonuses;
  if (b?.spent) p.cols('Bonuses spent', b.spent);
  if (b?.earned) p.cols('Bonuses earned', b.earned);
  if (b?.balance) p.cols('Bonus balance', b.balance);
  if (r.balances.length) {
    p.text('Balances after this sale:');
    for (const x of r.balances) p.cols(`  ${x.title}`, x.value);
  }
  if (r.coupons_redeemed.length) {
    p.text('Coupons redeemed:');
    for (const x of r.coupons_redeemed) p.text(`  ${x.code}${x.title ? ` ${x.title}` : ''}`);
  }
  for (const x of r.coupons_emitted) {
    p.rule();
    p.centered(() => {
      p.text(`Your coupon${x.title ? `: ${x.title}` : ''}`);
      p.text(x.code === null ? 'Code to follow' : `Code ${x.code}`);
      if (x.expire) p.text(`Valid until ${x.expire}`);
      if (x.code !== null) p.raw(symbolOf(x.code), c.feed());
    });
  }
}

function closing(p: Paper, r: Doc): void {
  // Kept on one line so the id is read (and searched) whole; a UUID makes it 48 columns, and a
  // narrower printer breaks it itself.
  p.raw(c.line(''), c.line(`Transaction ${r.transaction_id}`));
  if (r.offline) p.text('Stored offline, will be sent.');
  const f = r.feedback;
  if (f && f.print !== 'none') {
    p.centered(() => {
      if (f.message) p.text(f.message);
      if (f.print === 'qr-code' || f.print === 'all') p.raw(c.qr(f.url), c.feed());
      if (f.print === 'url' || f.print === 'all') p.text(f.url);
    });
  }
  for (const x of r.footer) p.text(x);
  p.raw(c.feed(), c.feed(), c.feed(), c.cut());
}

/** Encodes a receipt; every line fits `width` columns but the transaction line (see above). */
export function renderReceipt(input: ReceiptDocumentInput, width = 42): Uint8Array {
  const r = ReceiptDocument.parse(input);
  const p = new Paper(width);
  // The drawer opens as the receipt starts; a copy moves no cash.
  if (r.drawer && !r.copy) p.raw(c.drawerPulse());
  heading(p, r);
  lines(p, r);
  payments(p, r);
  loyalty(p, r);
  closing(p, r);
  return concatBytes(p.out);
}
