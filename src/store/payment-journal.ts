// The payment journal of bank-card operations: a row is written `inprocess` before the card
// terminal is asked, and settled when it answers. After a crash, what is still `inprocess` is
// exactly what a restart must reconcile with the card terminal (payment-recover).
import type Database from 'better-sqlite3';
import { dec, toFixed } from '../money/index.js';
import { storeError } from './errors.js';

export const PAYMENT_STATUSES = [
  'inprocess',
  'success',
  'fail',
  'canceled',
  'error',
  'authorized',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export type PaymentOperationType = 'purchase' | 'authorize' | 'completion' | 'refund' | 'cancel';

export interface PaymentStart {
  /** The terminal's own id of this bank-card operation. */
  readonly id: string;
  /** The sale it pays, when known (the sale commits after the card is paid). */
  readonly transactionId?: string | null;
  readonly operationType: PaymentOperationType;
  readonly system?: string | null;
  readonly amount: number | string;
  readonly currency: string;
  readonly request?: unknown;
}

export interface PaymentEntry {
  readonly id: string;
  readonly transactionId: string | null;
  readonly operationType: PaymentOperationType;
  readonly system: string | null;
  /** Exact decimal text. */
  readonly amount: string;
  readonly currency: string;
  readonly status: PaymentStatus;
  readonly request: unknown;
  readonly response: unknown;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** The columns of a payment_journal row (0002) that both views of the journal read. */
export interface PaymentJournalRow {
  id: string;
  transaction_id: string | null;
  operation_type: PaymentOperationType;
  system: string | null;
  amount: string;
  currency: string;
  status: PaymentStatus;
  created_at: number;
  updated_at: number;
}

interface Raw extends PaymentJournalRow {
  request: string | null;
  response: string | null;
}

const json = (t: string | null): unknown => (t === null ? null : (JSON.parse(t) as unknown));
const decode = (r: Raw): PaymentEntry => ({
  id: r.id,
  transactionId: r.transaction_id,
  operationType: r.operation_type,
  system: r.system,
  amount: r.amount,
  currency: r.currency,
  status: r.status,
  request: json(r.request),
  response: json(r.response),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function createPaymentJournal(db: Database.Database) {
  const insert = db.prepare(
    `INSERT INTO payment_journal (id, transaction_id, operation_type, system, amount, currency, status, request, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'inprocess', ?, ?, ?)`,
  );
  const settle = db.prepare(
    'UPDATE payment_journal SET status = ?, response = ?, updated_at = ?, transaction_id = coalesce(?, transaction_id) WHERE id = ?',
  );
  const attach = db.prepare(
    'UPDATE payment_journal SET transaction_id = ?, updated_at = ? WHERE id = ?',
  );
  const byId = db.prepare<[string], Raw>('SELECT * FROM payment_journal WHERE id = ?');
  const byTransaction = db.prepare<[string], Raw>(
    'SELECT * FROM payment_journal WHERE transaction_id = ? ORDER BY created_at',
  );
  const inProcess = db.prepare<[], Raw>(
    "SELECT * FROM payment_journal WHERE status = 'inprocess' ORDER BY created_at",
  );

  return {
    /** Writes the operation `inprocess` (durably) before the device is asked. */
    begin(p: PaymentStart, nowMs: number): void {
      insert.run(
        p.id,
        p.transactionId ?? null,
        p.operationType,
        p.system ?? null,
        toFixed(dec(p.amount)),
        p.currency,
        p.request === undefined ? null : JSON.stringify(p.request),
        nowMs,
        nowMs,
      );
    },
    /** Records the device's outcome; `inprocess` is not an outcome. */
    settle(
      id: string,
      status: Exclude<PaymentStatus, 'inprocess'>,
      response: unknown,
      nowMs: number,
      transactionId?: string,
    ): void {
      const r = settle.run(
        status,
        JSON.stringify(response ?? null),
        nowMs,
        transactionId ?? null,
        id,
      );
      if (r.changes === 0)
        throw storeError('invalid-record', `payment ${id} is not in the journal`);
    },
    /** Links a paid operation to the sale once the sale has its id recorded. */
    attach(id: string, transactionId: string, nowMs: number): void {
      attach.run(transactionId, nowMs, id);
    },
    get(id: string): PaymentEntry | null {
      const r = byId.get(id);
      return r ? decode(r) : null;
    },
    forTransaction(transactionId: string): PaymentEntry[] {
      return byTransaction.all(transactionId).map(decode);
    },
    /** What a restart must reconcile with the card terminal, oldest first. */
    inProcess(): PaymentEntry[] {
      return inProcess.all().map(decode);
    },
  };
}

export type PaymentJournal = ReturnType<typeof createPaymentJournal>;
