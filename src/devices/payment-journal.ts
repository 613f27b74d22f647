// The payment journal as a port: what the payment flow needs from the store. The store's card
// journal (src/store/card-journal.ts) is adapted to it by the terminal (card-payments.ts).
import { z } from 'zod';
import {
  BankCardExternalPaymentOperationType,
  BankCardExternalPaymentStatus,
} from '../contract/enums.js';

/** How far an operation got on the line; recovery reads it after a crash. */
const JournalPhase = z.enum([
  'created', // written, nothing sent yet
  'sent', // command on the line
  'accepted', // the unit acknowledged the command
  'authorised', // the unit reported the outcome (receipt known)
  'completed', // the unit handed control back
  'resolving', // recovery sent its own command (reversal) and awaits the answer
  'resolved',
]);
export type JournalPhase = z.infer<typeof JournalPhase>;

export const JournalEntrySchema = z.strictObject({
  id: z.string().min(1),
  /** The device name in the configuration (`payment`). */
  unit: z.string().min(1),
  protocol: z.enum(['zvt', 'concert']),
  operation: BankCardExternalPaymentOperationType,
  amount_cents: z.int().min(0),
  currency: z.string().regex(/^[A-Z]{3}$/),
  status: BankCardExternalPaymentStatus,
  phase: JournalPhase,
  /** The sale this payment belongs to (transaction_id), when known. */
  transaction_id: z.string().nullable(),
  /** For completion and cancel: the receipt of the operation they act on. */
  original_receipt: z.int().nullable(),
  /** The unit's last receipt number before this operation: recovery tells old from new. */
  baseline_receipt: z.int().nullable(),
  receipt_no: z.int().nullable(),
  trace_no: z.int().nullable(),
  pan_masked: z.string().nullable(),
  result_code: z.string().nullable(),
  note: z.string().nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

export type NewJournalEntry = Omit<JournalEntry, 'status' | 'phase' | 'created_at' | 'updated_at'>;

export type JournalPatch = Partial<
  Pick<
    JournalEntry,
    'status' | 'phase' | 'receipt_no' | 'trace_no' | 'pan_masked' | 'result_code' | 'note'
  >
>;

type MaybePromise<T> = T | Promise<T>;

export interface PaymentJournal {
  /** Writes the operation as `inprocess` / `created`; called before the first byte is sent. */
  create(entry: NewJournalEntry): MaybePromise<JournalEntry>;
  update(id: string, patch: JournalPatch): MaybePromise<JournalEntry>;
  /** Entries still `inprocess`, oldest first. */
  listUnresolved(unit?: string): MaybePromise<JournalEntry[]>;
  /** The newest receipt number the journal holds for `unit`, or null. */
  lastReceipt(unit: string): MaybePromise<number | null>;
}
