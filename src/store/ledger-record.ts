// Recording one operation of the ledger (ledger.ts): its row, its effects, its pending holds
// and its outbox row, inside the caller's transaction. The writes keep one fixed order: holds
// are read back newest first (a coupon's latest mark), so the order is part of what is stored.
import type Database from 'better-sqlite3';
import { dec, toFixed } from '../money/index.js';
import { storeError } from './errors.js';
import { holdWriter, REOPENED, type HoldStatements, type HoldWriter } from './ledger-holds.js';
import type { Amount, OperationInput, RecordResult } from './ledger.js';
import type { Outbox } from './outbox.js';

const amountText = (a: Amount): string => toFixed(dec(a));
const isPositive = (a: Amount | undefined): a is Amount => a !== undefined && dec(a).units > 0n;

export function recordStatements(db: Database.Database) {
  return {
    find: db.prepare<[string], { seq: number }>('SELECT seq FROM ledger_operation WHERE id = ?'),
    nextSeq: db.prepare<[], { seq: number }>(
      'SELECT coalesce(max(seq), 0) + 1 AS seq FROM ledger_operation',
    ),
    insertOp: db.prepare(
      'INSERT INTO ledger_operation (id, seq, kind, subtype, customer_id, local_date, sync_status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    insertCheck: db.prepare(
      `INSERT INTO ledger_check (operation_id, transaction_type, original_transaction_id, pos_id, amount_to_pay, currency, check_json)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertCancellation: db.prepare(
      'INSERT INTO ledger_cancellation (operation_id, transaction_id, comment) VALUES (?, ?, ?)',
    ),
    markCancelled: db.prepare(
      'UPDATE ledger_check SET cancelled_by = ? WHERE operation_id = ? AND cancelled_by IS NULL',
    ),
    insertBonus: db.prepare(
      'INSERT INTO ledger_bonus_op (operation_id, idx, customer_id, kind, amount) VALUES (?, ?, ?, ?, ?)',
    ),
    insertPayment: db.prepare(
      'INSERT INTO ledger_payment (operation_id, idx, payment_type, payment_id, amount, currency) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    insertAccount: db.prepare(
      'INSERT INTO ledger_account_op (operation_id, idx, account_id, access_id, direction, amount, currency) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    insertCoupon: db.prepare(
      'INSERT OR IGNORE INTO ledger_coupon (operation_id, code, action) VALUES (?, ?, ?)',
    ),
    insertOdometer: db.prepare(
      'INSERT INTO ledger_odometer (operation_id, vehicle_id, value, unit) VALUES (?, ?, ?, ?)',
    ),
    getCouponSeq: db.prepare<[], { value: string }>(
      "SELECT value FROM sync_state WHERE key = 'next_coupon_seq'",
    ),
    setCouponSeq: db.prepare(
      "INSERT INTO sync_state (key, value, updated_at) VALUES ('next_coupon_seq', ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
    ),
  };
}

export type RecordStatements = ReturnType<typeof recordStatements>;

/** The next provisional coupon number (engine.md 16: terminal.next_coupon_seq). */
export function nextCouponSeq(s: RecordStatements): number {
  return Number(s.getCouponSeq.get()?.value ?? '1');
}

/** What the writers of one operation's effects share. */
interface Recording {
  readonly s: RecordStatements;
  readonly op: OperationInput;
  readonly customerId: string | null;
  readonly hold: HoldWriter;
}

/** The processed check, or the cancellation and the mark on the check it cancels. */
function writeDocument({ s, op }: Recording): void {
  if (op.kind === 'check') {
    if (!op.check)
      throw storeError('invalid-record', `operation ${op.id}: a check operation needs its check`);
    const c = op.check;
    s.insertCheck.run(
      op.id,
      c.transactionType,
      c.originalTransactionId ?? null,
      c.posId ?? null,
      amountText(c.amountToPay),
      c.currency ?? null,
      JSON.stringify(c.document),
    );
  }
  if (op.kind === 'cancellation') {
    if (!op.cancellation)
      throw storeError(
        'invalid-record',
        `operation ${op.id}: a cancellation needs the transaction it cancels`,
      );
    s.insertCancellation.run(op.id, op.cancellation.transactionId, op.cancellation.comment ?? null);
    s.markCancelled.run(op.id, op.cancellation.transactionId);
  }
}

function writeBonuses({ s, op, customerId, hold }: Recording): void {
  const b = op.bonuses;
  if (!b) return;
  if (!customerId)
    throw storeError('invalid-record', `operation ${op.id}: bonus movements need a customer`);
  let idx = 0;
  const moves: Array<['redeem' | 'add' | 'return' | 'write-off', Amount | undefined]> = [
    ['redeem', b.redeemed],
    ['add', b.added],
    ['return', b.returned],
    ['write-off', b.writtenOff],
  ];
  for (const [kind, amount] of moves) {
    if (!isPositive(amount)) continue;
    const text = amountText(amount);
    s.insertBonus.run(op.id, idx++, customerId, kind, text);
    // Spending is held against the balance at once; credits count only once confirmed.
    if (kind === 'redeem' || kind === 'write-off')
      hold('bonuses', { customer: customerId, amount: text });
  }
}

function writePayments({ s, op }: Recording): void {
  (op.payments ?? []).forEach((p, i) =>
    s.insertPayment.run(op.id, i, p.type, p.id ?? null, amountText(p.amount), p.currency ?? null),
  );
}

function writeAccounts({ s, op, customerId, hold }: Recording): void {
  (op.accounts ?? []).forEach((a, i) => {
    const amount = amountText(a.amount);
    s.insertAccount.run(
      op.id,
      i,
      a.accountId,
      a.accessId ?? null,
      a.direction,
      amount,
      a.currency ?? null,
    );
    if (a.direction === 'debit')
      hold('account', { customer: customerId, account: a.accountId, access: a.accessId, amount });
  });
}

function writeCoupons({ s, op, customerId, hold }: Recording): void {
  for (const c of op.coupons ?? []) {
    s.insertCoupon.run(op.id, c.code, c.action);
    if (c.action === 'redeem') hold('coupon', { customer: customerId, coupon: c.code });
    // Our cancel gave the use back: open here until a pull brings the record showing it.
    if (c.action === 'reopen')
      hold('coupon', { customer: customerId, coupon: c.code, amount: REOPENED });
  }
}

/** The odometer reading, and the operation's contribution to the customer's period stats. */
function writeOdometerAndStats({ s, op, customerId, hold }: Recording): void {
  if (op.odometer)
    s.insertOdometer.run(
      op.id,
      op.odometer.vehicleId,
      amountText(op.odometer.value),
      op.odometer.unit,
    );
  if (op.stats && customerId) {
    hold('stats', {
      customer: customerId,
      amount: amountText(op.stats.amount),
      quantity: amountText(op.stats.quantity),
      visits: op.stats.visits,
    });
  }
}

/**
 * The body of the record transaction: the operation with its effects, holds and outbox row.
 * Idempotent by id: an operation recorded before is answered `exists`, nothing written.
 */
export function recordOperation(
  s: RecordStatements,
  holds: HoldStatements,
  outbox: Outbox,
  op: OperationInput,
  nowMs: number,
): RecordResult {
  const existing = s.find.get(op.id);
  if (existing) return { status: 'exists', seq: existing.seq };
  const seq = s.nextSeq.get()?.seq ?? 1;
  const confirmed = op.outbox.status === 'done';
  const customerId = op.customerId ?? null;
  s.insertOp.run(
    op.id,
    seq,
    op.kind,
    op.subtype,
    customerId,
    op.localDate,
    confirmed ? 'confirmed' : 'unconfirmed',
    nowMs,
  );
  const recording: Recording = {
    s,
    op,
    customerId,
    hold: holdWriter(holds, op, confirmed ? nowMs : null),
  };
  writeDocument(recording);
  writeBonuses(recording);
  writePayments(recording);
  writeAccounts(recording);
  writeCoupons(recording);
  writeOdometerAndStats(recording);
  if (op.couponSeqUsed !== undefined && op.couponSeqUsed >= nextCouponSeq(s))
    s.setCouponSeq.run(String(op.couponSeqUsed + 1), nowMs);
  outbox.enqueue(op.id, seq, op.outbox, nowMs);
  return { status: 'committed', seq };
}
