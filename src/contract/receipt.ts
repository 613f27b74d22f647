// The customer's receipt as one typed document (`ReceiptDocument`), built from a sale by
// src/terminal/receipt.ts, kept with the sale (`receipt` beside the commands' answers) and
// encoded to ESC/POS by src/devices/escpos/receipt.ts; and the preview of what was printed
// (`ReceiptPreview`), decoded back from those very bytes (src/devices/escpos/decode.ts), which
// the sale's answer and `receipt-reprint` carry to the screen. Every amount arrives formatted
// (src/money): the printer and the screen never compute money.
import { z } from 'zod';
import { CustomerFeedbackPrintOnCheck } from './enums.js';

/** A rule's part of a line or of the check: its name and amount (formatted, without sign). */
const RuleAmount = z.strictObject({
  rule: z.string(),
  /** null: the rule acted on the line with others, and the line shows their total. */
  amount: z.string().nullable(),
});

const Line = z.strictObject({
  title: z.string(),
  quantity: z.string(),
  unit: z.string().optional(),
  price: z.string(),
  amount: z.string(),
  discounts: z.array(RuleAmount).default([]),
  /** The line's discount, when more than one rule gave it. */
  discount_total: z.string().optional(),
  bonuses: z.array(RuleAmount).default([]),
  /** The line's bonuses, when more than one rule gave them. */
  bonuses_total: z.string().optional(),
});

const Tax = z.strictObject({
  title: z.string(),
  /** The rate in percent as text ("19", "7.5"); absent when the line did not say. */
  rate: z.string().optional(),
  /** VAT is included in the price; a sales tax is added on top. */
  included: z.boolean(),
  amount: z.string(),
  exempt: z.boolean().default(false),
});

const Payment = z.strictObject({
  title: z.string(),
  amount: z.string(),
  /** What the payment names: the account, the vehicle, the odometer. */
  details: z.array(z.string()).default([]),
});

/** A bank card's slip: what the payment unit reported, the PAN masked. */
const CardSlip = z.strictObject({
  title: z.string(),
  amount: z.string(),
  pan: z.string().optional(),
  auth_code: z.string().optional(),
  terminal_id: z.string().optional(),
  receipt_no: z.string().optional(),
  trace_no: z.string().optional(),
  result: z.string(),
});

const EmittedCoupon = z.strictObject({
  /** null: emitted offline, its code follows from the central service. */
  code: z.string().nullable(),
  title: z.string().optional(),
  expire: z.string().optional(),
});

export const ReceiptDocument = z.strictObject({
  /** A reprint: the heading says COPY and the drawer stays shut. */
  copy: z.boolean().default(false),
  /** The store (business) and POS, with their addresses. */
  header: z.array(z.string()).default([]),
  terminal: z.string().optional(),
  /** Date and time in the POS's zone, with the zone. */
  time: z.string().optional(),
  cashier: z.string().optional(),
  customer: z.string().optional(),
  items: z.array(Line),
  services: z.array(z.strictObject({ title: z.string(), amount: z.string() })).default([]),
  /** The check's discounts, rule by rule. */
  discounts: z.array(RuleAmount).default([]),
  discount_total: z.string().optional(),
  total: z.string(),
  taxes: z.array(Tax).default([]),
  payments: z.array(Payment).default([]),
  card_slips: z.array(CardSlip).default([]),
  cash: z.strictObject({ given: z.string(), change: z.string() }).optional(),
  bonuses: z
    .strictObject({
      earned: z.string().optional(),
      spent: z.string().optional(),
      balance: z.string().optional(),
    })
    .optional(),
  /** The customer's accounts after the sale. */
  balances: z.array(z.strictObject({ title: z.string(), value: z.string() })).default([]),
  coupons_redeemed: z
    .array(z.strictObject({ code: z.string(), title: z.string().optional() }))
    .default([]),
  coupons_emitted: z.array(EmittedCoupon).default([]),
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
  /** Open the cash drawer (ESC p) as the receipt prints: cash was tendered. */
  drawer: z.boolean().default(false),
});
export type ReceiptDocument = z.output<typeof ReceiptDocument>;
export type ReceiptDocumentInput = z.input<typeof ReceiptDocument>;

/** One row of the decoded printout: a text line as printed, or a marker of a non-text command. */
export const PreviewRow = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('text'),
    text: z.string(),
    align: z.enum(['left', 'center', 'right']),
    bold: z.boolean(),
    /** Printed at more than the normal width or height. */
    large: z.boolean(),
  }),
  z.strictObject({ kind: z.literal('qr'), data: z.string() }),
  z.strictObject({ kind: z.literal('barcode'), symbology: z.string(), data: z.string() }),
  z.strictObject({ kind: z.literal('cut') }),
  /** The cash drawer's pulse (ESC p), on pin 2 or 5. */
  z.strictObject({ kind: z.literal('drawer'), pin: z.union([z.literal(2), z.literal(5)]) }),
]);
export type PreviewRow = z.infer<typeof PreviewRow>;

/** What the printer was sent, decoded: the screen draws the receipt from this. */
export const ReceiptPreview = z.strictObject({
  /** The printer's line width in columns. */
  width: z.int().positive(),
  rows: z.array(PreviewRow),
});
export type ReceiptPreview = z.infer<typeof ReceiptPreview>;
