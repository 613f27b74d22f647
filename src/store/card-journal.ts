// The payment flow's view of the payment journal (0002 + 0003): a bank-card operation is
// written `inprocess` at phase `created` before its first byte, and each answer of the unit
// moves its phase and records receipt, trace, masked card number and result code while the
// status stays `inprocess`, until the final status. Recovery lists what is still `inprocess`
// per unit and reads the newest receipt a unit gave (the baseline of the next operation).
import type Database from 'better-sqlite3';
import type {
  BankCardExternalPaymentOperationType as PaymentOperationType,
  BankCardExternalPaymentStatus as PaymentStatus,
} from '../contract/enums.js';
import { fromMinor, toFixed } from '../money/index.js';
import { asStoreError, storeError } from './errors.js';

export interface CardOperation {
  readonly id: string;
  /** The payment unit's name in the configuration (`payment`). */
  readonly system: string;
  readonly protocol: string;
  readonly operationType: PaymentOperationType;
  readonly amountCents: number;
  readonly currency: string;
  readonly status: PaymentStatus;
  readonly phase: string;
  readonly transactionId: string | null;
  readonly originalReceipt: number | null;
  readonly baselineReceipt: number | null;
  readonly receiptNo: number | null;
  readonly traceNo: number | null;
  /** First 6 and last 4 digits only; the clear PAN never reaches the store. */
  readonly panMasked: string | null;
  readonly resultCode: string | null;
  readonly note: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type NewCardOperation = Omit<CardOperation, 'status' | 'phase' | 'createdAt' | 'updatedAt'>;

export type CardProgress = Partial<
  Pick<
    CardOperation,
    'status' | 'phase' | 'receiptNo' | 'traceNo' | 'panMasked' | 'resultCode' | 'note'
  >
>;

/** The columns of a payment_journal row (0002). */
interface PaymentJournalRow {
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

/** A row with the columns 0003 added for the payment flow. */
interface Raw extends PaymentJournalRow {
  protocol: string | null;
  phase: string | null;
  amount_cents: number | null;
  original_receipt: number | null;
  baseline_receipt: number | null;
  receipt_no: number | null;
  trace_no: number | null;
  pan_masked: string | null;
  result_code: string | null;
  note: string | null;
}

const decode = (r: Raw): CardOperation => ({
  id: r.id,
  system: r.system ?? '',
  protocol: r.protocol ?? '',
  operationType: r.operation_type,
  amountCents: r.amount_cents ?? Math.round(Number(r.amount) * 100),
  currency: r.currency,
  status: r.status,
  phase: r.phase ?? (r.status === 'inprocess' ? 'created' : 'completed'),
  transactionId: r.transaction_id,
  originalReceipt: r.original_receipt,
  baselineReceipt: r.baseline_receipt,
  receiptNo: r.receipt_no,
  traceNo: r.trace_no,
  panMasked: r.pan_masked,
  resultCode: r.result_code,
  note: r.note,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** A masked number keeps at most the first 6 and last 4 digits (devices.md). */
function checkMasked(pan: string | null | undefined): void {
  if (pan && (pan.match(/\d/g) ?? []).length > 10)
    throw storeError('invalid-record', 'a card number must be stored masked');
}

const COLUMNS = `id, transaction_id, operation_type, system, amount, currency, status, created_at, updated_at,
  protocol, phase, amount_cents, original_receipt, baseline_receipt, receipt_no, trace_no, pan_masked, result_code, note`;

function journalStatements(db: Database.Database) {
  const rows = <P extends unknown[]>(sql: string) => db.prepare<P, Raw>(sql);
  return {
    insert: db.prepare(
      `INSERT INTO payment_journal (id, transaction_id, operation_type, system, amount, currency, status, created_at, updated_at,
       protocol, phase, amount_cents, original_receipt, baseline_receipt, receipt_no, trace_no, pan_masked, result_code, note)
     VALUES (?, ?, ?, ?, ?, ?, 'inprocess', ?, ?, ?, 'created', ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    byId: rows<[string]>(`SELECT ${COLUMNS} FROM payment_journal WHERE id = ?`),
    unresolvedAll: rows<[]>(
      `SELECT ${COLUMNS} FROM payment_journal WHERE status = 'inprocess' ORDER BY created_at, id`,
    ),
    unresolvedOf: rows<[string]>(
      `SELECT ${COLUMNS} FROM payment_journal WHERE status = 'inprocess' AND system = ? ORDER BY created_at, id`,
    ),
    lastReceipt: db.prepare<[string], { receipt_no: number }>(
      `SELECT receipt_no FROM payment_journal WHERE system = ? AND receipt_no IS NOT NULL
      ORDER BY updated_at DESC, rowid DESC LIMIT 1`,
    ),
    forTransaction: rows<[string]>(
      `SELECT ${COLUMNS} FROM payment_journal WHERE transaction_id = ? ORDER BY created_at, id`,
    ),
    attach: db.prepare(
      'UPDATE payment_journal SET transaction_id = ?, updated_at = ? WHERE id = ?',
    ),
    // Receipt numbers wrap (ZVT at 9999): the newest approved operation with the number.
    approvedByReceipt: rows<[string, number]>(
      `SELECT ${COLUMNS} FROM payment_journal
      WHERE system = ? AND receipt_no = ? AND status IN ('success', 'authorized')
      ORDER BY created_at DESC, rowid DESC LIMIT 1`,
    ),
    // Approved operations the ledger holds no record of their own for (a scan of the journal,
    // run once at start).
    unreported: rows<[string]>(
      `SELECT ${COLUMNS} FROM payment_journal p
      WHERE p.status IN ('success', 'authorized') AND p.system = ?
        AND NOT EXISTS (SELECT 1 FROM ledger_operation o WHERE o.id = p.id)
      ORDER BY p.created_at, p.id`,
    ),
    ...receiptStatements(db),
  };
}

/** How operations of one unit relate through receipt numbers (cancels, completions). */
function receiptStatements(db: Database.Database) {
  return {
    reversalOf: db.prepare<[string], Raw>(
      `SELECT ${COLUMNS} FROM payment_journal WHERE id = (
       SELECT c.id FROM payment_journal c JOIN payment_journal p ON p.id = ?
        WHERE c.operation_type = 'cancel' AND c.status = 'success' AND c.system = p.system
          AND c.original_receipt = p.receipt_no AND c.created_at >= p.created_at AND c.id <> p.id
        ORDER BY c.created_at, c.id LIMIT 1)`,
    ),
    // The approved operation a cancel reversed: the newest with its receipt made before it.
    targetOf: db.prepare<[string], Raw>(
      `SELECT ${COLUMNS} FROM payment_journal WHERE id = (
       SELECT p.id FROM payment_journal p JOIN payment_journal c ON c.id = ?
        WHERE p.system = c.system AND p.receipt_no = c.original_receipt AND p.id <> c.id
          AND p.created_at <= c.created_at AND p.status IN ('success', 'authorized')
        ORDER BY p.created_at DESC, p.rowid DESC LIMIT 1)`,
    ),
    // Pre-authorisations approved and not reversed (a successful cancel of their receipt after
    // them): the pump reservations the unit still holds, unless a completion booked them.
    openAuthorisations: db.prepare<[string], Raw>(
      `SELECT ${COLUMNS} FROM payment_journal p
      WHERE p.system = ? AND p.operation_type = 'authorize' AND p.status = 'authorized'
        AND NOT EXISTS (SELECT 1 FROM payment_journal c
          WHERE c.system = p.system AND c.operation_type = 'cancel' AND c.status = 'success'
            AND c.original_receipt = p.receipt_no AND c.created_at >= p.created_at)
      ORDER BY p.created_at, p.id`,
    ),
    // Approved operations acting on a receipt (completions of a pre-authorisation), from a time on.
    actingOn: db.prepare<[string, string, number, number], Raw>(
      `SELECT ${COLUMNS} FROM payment_journal
      WHERE system = ? AND operation_type = ? AND original_receipt = ? AND created_at >= ?
        AND status IN ('success', 'authorized')
      ORDER BY created_at, id`,
    ),
  };
}

type JournalStatements = ReturnType<typeof journalStatements>;

function create(s: JournalStatements, op: NewCardOperation, nowMs: number): CardOperation {
  checkMasked(op.panMasked);
  try {
    s.insert.run(
      op.id,
      op.transactionId,
      op.operationType,
      op.system,
      toFixed(fromMinor(op.amountCents, 2)),
      op.currency,
      nowMs,
      nowMs,
      op.protocol,
      op.amountCents,
      op.originalReceipt,
      op.baselineReceipt,
      op.receiptNo,
      op.traceNo,
      op.panMasked,
      op.resultCode,
      op.note,
    );
  } catch (e) {
    throw asStoreError(e);
  }
  return decode(s.byId.get(op.id)!);
}

/** The column of each field a progress may set: a fixed table, never the caller's names. */
const PROGRESS_COLUMNS = {
  status: 'status',
  phase: 'phase',
  receiptNo: 'receipt_no',
  traceNo: 'trace_no',
  panMasked: 'pan_masked',
  resultCode: 'result_code',
  note: 'note',
} as const;

function progress(
  db: Database.Database,
  s: JournalStatements,
  updates: Map<string, Database.Statement>,
  id: string,
  patch: CardProgress,
  nowMs: number,
): CardOperation {
  checkMasked(patch.panMasked);
  const sets: string[] = ['updated_at = ?'];
  const values: unknown[] = [nowMs];
  for (const [key, col] of Object.entries(PROGRESS_COLUMNS) as [keyof CardProgress, string][]) {
    if (patch[key] === undefined) continue;
    sets.push(`${col} = ?`);
    values.push(patch[key]);
  }
  // One statement per set of columns, prepared once.
  const sql = `UPDATE payment_journal SET ${sets.join(', ')} WHERE id = ?`;
  let stmt = updates.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    updates.set(sql, stmt);
  }
  const r = stmt.run(...values, id);
  if (r.changes === 0) throw storeError('invalid-record', `payment ${id} is not in the journal`);
  return decode(s.byId.get(id)!);
}

const one = (r: Raw | undefined): CardOperation | null => (r ? decode(r) : null);

/** The journal's reads of how operations relate through receipt numbers. */
function receiptReads(s: JournalStatements) {
  return {
    /** The successful cancel that reversed an operation (by its receipt, after it), or null. */
    reversalOf: (id: string): CardOperation | null => one(s.reversalOf.get(id)),
    /** The newest approved operation of a unit with this receipt number, or null. */
    approvedByReceipt: (system: string, receiptNo: number): CardOperation | null =>
      one(s.approvedByReceipt.get(system, receiptNo)),
    /** The approved operation a cancel reversed (by its receipt, before it), or null. */
    targetOf: (cancelId: string): CardOperation | null => one(s.targetOf.get(cancelId)),
    /** Pre-authorisations of a unit neither reversed nor failed, oldest first. */
    openAuthorisations: (system: string): CardOperation[] =>
      s.openAuthorisations.all(system).map(decode),
    /** Approved operations of a kind acting on a receipt, made at or after `sinceMs`. */
    actingOn: (
      system: string,
      operationType: PaymentOperationType,
      receiptNo: number,
      sinceMs: number,
    ): CardOperation[] => s.actingOn.all(system, operationType, receiptNo, sinceMs).map(decode),
  };
}

export function createCardJournal(db: Database.Database) {
  const s = journalStatements(db);
  const updates = new Map<string, Database.Statement>();
  return {
    /** Writes the operation `inprocess` at phase `created`, durably, before the unit is asked. */
    create: (op: NewCardOperation, nowMs: number): CardOperation => create(s, op, nowMs),
    /** Moves an operation on: only the given fields change; the status stays unless given. */
    progress: (id: string, patch: CardProgress, nowMs: number): CardOperation =>
      progress(db, s, updates, id, patch, nowMs),
    get: (id: string): CardOperation | null => one(s.byId.get(id)),
    /** Operations still `inprocess` (of one unit when given), oldest first. */
    listUnresolved: (system?: string): CardOperation[] =>
      (system === undefined ? s.unresolvedAll.all() : s.unresolvedOf.all(system)).map(decode),
    /** The newest receipt number a unit gave, or null. */
    lastReceipt: (system: string): number | null => s.lastReceipt.get(system)?.receipt_no ?? null,
    forTransaction: (transactionId: string): CardOperation[] =>
      s.forTransaction.all(transactionId).map(decode),
    /** Approved operations of a unit not yet reported as their own ledger operation, oldest first. */
    unreported: (system: string): CardOperation[] => s.unreported.all(system).map(decode),
    ...receiptReads(s),
    /** Links a paid operation to its sale. */
    attach(id: string, transactionId: string, nowMs: number): void {
      s.attach.run(transactionId, nowMs, id);
    },
  };
}

export type CardJournal = ReturnType<typeof createCardJournal>;
