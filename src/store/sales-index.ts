// The sales this terminal recorded, newest first, for `sales-recent` (docs/terminal.md,
// "Recent sales"): one page of sale rows (refunds and cancellations are not sales; they are
// read beside their sale), with the payments, the masked cards and the refunds of each.
// Filters on amounts, cards and customers are the terminal's (src/money compares amounts),
// so a page scans back by seq until it is full; a till holds few enough sales for that.
import type Database from 'better-sqlite3';
import { StoredCheck } from '../contract/stored.js';
import { readStoredOrThrow } from './stored-json.js';

export interface IndexedSale {
  readonly id: string;
  readonly seq: number;
  readonly createdAt: number;
  readonly customerId: string | null;
  readonly syncStatus: string;
  /** Its outbox row's status (`done` once the central service has it), null without one. */
  readonly outboxStatus: string | null;
  readonly cancelledBy: string | null;
  readonly amountToPay: string;
  readonly document: StoredCheck;
  readonly paymentTypes: readonly string[];
  /** The masked PANs of the card operations under the sale's id. */
  readonly cards: readonly string[];
}

interface Row {
  id: string;
  seq: number;
  created_at: number;
  customer_id: string | null;
  sync_status: string;
  outbox_status: string | null;
  cancelled_by: string | null;
  amount_to_pay: string;
  check_json: string;
}

export function createSalesIndex(db: Database.Database) {
  const page = db.prepare<[number, number, number, number], Row>(
    `SELECT o.id, o.seq, o.created_at, o.customer_id, o.sync_status, b.status AS outbox_status,
            c.cancelled_by,
            c.amount_to_pay, c.check_json
       FROM ledger_operation o JOIN ledger_check c ON c.operation_id = o.id
       LEFT JOIN outbox b ON b.transaction_id = o.id
      WHERE o.kind = 'check' AND c.original_transaction_id IS NULL
        AND c.transaction_type <> 'preauthorization'
        AND o.seq < ? AND o.created_at >= ? AND o.created_at < ?
      ORDER BY o.seq DESC LIMIT ?`,
  );
  const payments = db.prepare<[string], { payment_type: string }>(
    'SELECT payment_type FROM ledger_payment WHERE operation_id = ? ORDER BY idx',
  );
  const cards = db.prepare<[string], { pan_masked: string }>(
    'SELECT pan_masked FROM payment_journal WHERE transaction_id = ? AND pan_masked IS NOT NULL',
  );
  return {
    /**
     * Up to `limit` sales with seq below `beforeSeq`, newest first, recorded in [from, to)
     * (epoch ms). A sale whose stored check no longer passes its schema throws
     * `invalid-record`.
     */
    before(beforeSeq: number, from: number, to: number, limit: number): IndexedSale[] {
      return page.all(beforeSeq, from, to, limit).map((r) => ({
        id: r.id,
        seq: r.seq,
        createdAt: r.created_at,
        customerId: r.customer_id,
        syncStatus: r.sync_status,
        outboxStatus: r.outbox_status,
        cancelledBy: r.cancelled_by,
        amountToPay: r.amount_to_pay,
        document: readStoredOrThrow(StoredCheck, r.check_json, `ledger_check ${r.id}`),
        paymentTypes: [...new Set(payments.all(r.id).map((p) => p.payment_type))],
        cards: cards.all(r.id).map((c) => c.pan_masked),
      }));
    },
  };
}

export type SalesIndex = ReturnType<typeof createSalesIndex>;
