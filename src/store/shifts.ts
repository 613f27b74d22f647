// Shifts (0003): opened and closed by staff, one open at a time. A shift's operations are the
// ledger's with seq in (first_seq_after, last_seq], so nothing has to be written in a sale's
// transaction to tie it to its shift; `operationsOf` hands the report its raw figures.
//
// The report reads whatever is stored, also figures written before the bounds existed
// (docs/contract.md, "Bounds"): an operation whose figures are not decimals within what a
// till sells is left out of the figures (`unreadable` lists it), and a stored cash figure out
// of bounds reads as not counted, so one bad row can never stop a report or a close.
// Cash at the till (0007): the cash handed over for a sale and its change, and the cash a
// fuel prepay put in the drawer before anything was sold.
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { TransactionPaymentType } from '../contract/enums.js';
import { BOUNDS } from '../contract/wire.js';
import { abs, dec, lte, parseDec, toFixed } from '../money/index.js';
import { asStoreError, storeError } from './errors.js';
import { readStored } from './stored-json.js';

export interface ShiftRecord {
  readonly id: string;
  readonly number: number;
  readonly openedAt: number;
  readonly openedBy: string;
  readonly openedByName: string | null;
  /** Exact decimal text, or null when not counted. */
  readonly openingCash: string | null;
  readonly firstSeqAfter: number;
  readonly closedAt: number | null;
  readonly closedBy: string | null;
  readonly closedByName: string | null;
  readonly countedCash: string | null;
  readonly lastSeq: number | null;
}

/** One ledger operation of a shift, with its check when it has one. */
export interface ShiftOperation {
  readonly id: string;
  readonly seq: number;
  readonly kind: string;
  readonly subtype: 'online' | 'offline';
  readonly syncStatus: string;
  readonly outboxStatus: string | null;
  readonly transactionType: string | null;
  readonly amountToPay: string | null;
  /** What the report reads of the stored check (null: the operation has none). */
  readonly check: ShiftCheck | null;
  readonly cancelledBy: string | null;
  /** For a cancellation: the transaction it cancels. */
  readonly cancels: string | null;
  readonly payments: ReadonlyArray<{ type: string; amount: string }>;
  readonly bonuses: ReadonlyArray<{ kind: string; amount: string }>;
}

interface Raw {
  id: string;
  number: number;
  opened_at: number;
  opened_by: string;
  opened_by_name: string | null;
  opening_cash: string | null;
  first_seq_after: number;
  closed_at: number | null;
  closed_by: string | null;
  closed_by_name: string | null;
  counted_cash: string | null;
  last_seq: number | null;
}

const LIMIT = dec(BOUNDS.amount);

/** A stored figure a report can use: a decimal within what a till sells. */
function boundedFigure(value: unknown): boolean {
  const d =
    typeof value === 'string'
      ? parseDec(value)
      : typeof value === 'number' && Number.isFinite(value)
        ? dec(value)
        : null;
  return d !== null && d.scale <= 40 && lte(abs(d), LIMIT);
}

/** A payment the report can list: a known payment type and a bounded amount. */
const readablePayment = (p: { type?: unknown; amount?: unknown }): boolean =>
  TransactionPaymentType.safeParse(p.type).success && boundedFigure(p.amount);

/**
 * What a shift report reads of a stored check (the ledger's check_json, contract/stored.ts):
 * the payments of a split, and the pump authorisation a completion booked against.
 */
const ShiftCheck = z.looseObject({
  payments: z
    .array(
      z.looseObject({
        type: TransactionPaymentType,
        amount: z.union([z.number(), z.string()]).refine(boundedFigure, 'out of bounds'),
      }),
    )
    .optional(),
  // Not a reason to leave the check out: a completion without it took no prepaid cash.
  preliminary_transaction_id: z.string().optional().catch(undefined),
});
export type ShiftCheck = z.output<typeof ShiftCheck>;

/** An operation as read, and whether its stored check read through ShiftCheck. */
interface ReadOperation {
  readonly op: ShiftOperation;
  readonly checkRead: boolean;
}

const cashOf = (v: string | null): string | null => (v !== null && boundedFigure(v) ? v : null);

const decode = (r: Raw): ShiftRecord => ({
  id: r.id,
  number: r.number,
  openedAt: r.opened_at,
  openedBy: r.opened_by,
  openedByName: r.opened_by_name,
  openingCash: cashOf(r.opening_cash),
  firstSeqAfter: r.first_seq_after,
  closedAt: r.closed_at,
  closedBy: r.closed_by,
  closedByName: r.closed_by_name,
  countedCash: cashOf(r.counted_cash),
  lastSeq: r.last_seq,
});

/** Why an operation's figures cannot be reported, or null when they can. */
function unreadable({ op, checkRead }: ReadOperation): string | null {
  if (op.amountToPay !== null && !boundedFigure(op.amountToPay)) return 'amount_to_pay';
  if (op.payments.some((p) => !readablePayment(p))) return 'payments';
  if (op.bonuses.some((b) => !boundedFigure(b.amount))) return 'bonuses';
  if (!checkRead) return 'check';
  return null;
}

const money = (v: number | string | undefined | null): string | null =>
  v === undefined || v === null ? null : toFixed(dec(v));

export function createShifts(db: Database.Database) {
  const open = db.prepare<[], Raw>('SELECT * FROM shift WHERE closed_at IS NULL');
  const byId = db.prepare<[string], Raw>('SELECT * FROM shift WHERE id = ?');
  const last = db.prepare<[], Raw>('SELECT * FROM shift ORDER BY number DESC LIMIT 1');
  const maxSeq = db.prepare<[], { seq: number }>(
    'SELECT coalesce(max(seq), 0) AS seq FROM ledger_operation',
  );
  const nextNumber = db.prepare<[], { n: number }>(
    'SELECT coalesce(max(number), 0) + 1 AS n FROM shift',
  );
  const insert = db.prepare(
    `INSERT INTO shift (id, number, opened_at, opened_by, opened_by_name, opening_cash, first_seq_after)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const close = db.prepare(
    `UPDATE shift SET closed_at = ?, closed_by = ?, closed_by_name = ?, counted_cash = ?, last_seq = ?
      WHERE id = ? AND closed_at IS NULL`,
  );
  const ops = db.prepare<
    [number, number],
    {
      id: string;
      seq: number;
      kind: string;
      subtype: 'online' | 'offline';
      sync_status: string;
      outbox_status: string | null;
      transaction_type: string | null;
      amount_to_pay: string | null;
      check_json: string | null;
      cancelled_by: string | null;
      cancels: string | null;
    }
  >(
    `SELECT o.id, o.seq, o.kind, o.subtype, o.sync_status, x.status AS outbox_status,
            c.transaction_type, c.amount_to_pay, c.check_json, c.cancelled_by, k.transaction_id AS cancels
       FROM ledger_operation o
       LEFT JOIN outbox x ON x.transaction_id = o.id
       LEFT JOIN ledger_check c ON c.operation_id = o.id
       LEFT JOIN ledger_cancellation k ON k.operation_id = o.id
      WHERE o.seq > ? AND o.seq <= ? ORDER BY o.seq`,
  );
  const payments = db.prepare<
    [number, number],
    { operation_id: string; payment_type: string; amount: string }
  >(
    `SELECT p.operation_id, p.payment_type, p.amount FROM ledger_payment p
       JOIN ledger_operation o ON o.id = p.operation_id WHERE o.seq > ? AND o.seq <= ? ORDER BY o.seq, p.idx`,
  );
  const bonuses = db.prepare<
    [number, number],
    { operation_id: string; kind: string; amount: string }
  >(
    `SELECT b.operation_id, b.kind, b.amount FROM ledger_bonus_op b
       JOIN ledger_operation o ON o.id = b.operation_id WHERE o.seq > ? AND o.seq <= ? ORDER BY o.seq, b.idx`,
  );

  const putTender = db.prepare(
    'INSERT OR REPLACE INTO cash_tender (transaction_id, given, change) VALUES (?, ?, ?)',
  );
  const getTender = db.prepare<[string], { given: string; change: string }>(
    'SELECT given, change FROM cash_tender WHERE transaction_id = ?',
  );
  const dropTender = db.prepare('DELETE FROM cash_tender WHERE transaction_id = ?');
  const putPrepay = db.prepare(
    'INSERT OR IGNORE INTO cash_prepay (authorisation_id, shift_id, amount, taken_at) VALUES (?, ?, ?, ?)',
  );
  const prepaysIn = db.prepare<[string], { authorisation_id: string; amount: string }>(
    'SELECT authorisation_id, amount FROM cash_prepay WHERE shift_id = ? ORDER BY taken_at',
  );
  const prepayOf = db.prepare<[string], { amount: string }>(
    'SELECT amount FROM cash_prepay WHERE authorisation_id = ?',
  );

  const openTx = db.transaction(
    (
      s: { id: string; staffId: string; staffName: string | null; openingCash?: number | null },
      nowMs: number,
    ): ShiftRecord => {
      if (open.get()) throw storeError('constraint', 'a shift is already open');
      const number = nextNumber.get()?.n ?? 1;
      insert.run(
        s.id,
        number,
        nowMs,
        s.staffId,
        s.staffName,
        money(s.openingCash),
        maxSeq.get()?.seq ?? 0,
      );
      return decode(byId.get(s.id)!);
    },
  );

  const closeTx = db.transaction(
    (
      s: { id: string; staffId: string; staffName: string | null; countedCash?: number | null },
      nowMs: number,
    ): ShiftRecord => {
      const r = close.run(
        nowMs,
        s.staffId,
        s.staffName,
        money(s.countedCash),
        maxSeq.get()?.seq ?? 0,
        s.id,
      );
      if (r.changes === 0) throw storeError('constraint', `shift ${s.id} is not open`);
      return decode(byId.get(s.id)!);
    },
  );

  return {
    /** The open shift, or null. */
    current(): ShiftRecord | null {
      const r = open.get();
      return r ? decode(r) : null;
    },
    get(id: string): ShiftRecord | null {
      const r = byId.get(id);
      return r ? decode(r) : null;
    },
    last(): ShiftRecord | null {
      const r = last.get();
      return r ? decode(r) : null;
    },
    /** Opens a shift; refuses (`constraint`) while another is open. */
    open(
      s: { id: string; staffId: string; staffName: string | null; openingCash?: number | null },
      nowMs: number,
    ): ShiftRecord {
      try {
        return openTx.immediate(s, nowMs);
      } catch (e) {
        throw asStoreError(e);
      }
    },
    /** Closes the open shift `id`, fixing its last operation. */
    close(
      s: { id: string; staffId: string; staffName: string | null; countedCash?: number | null },
      nowMs: number,
    ): ShiftRecord {
      try {
        return closeTx.immediate(s, nowMs);
      } catch (e) {
        throw asStoreError(e);
      }
    },
    /**
     * Cash handed over for a sale and the change given back (exact decimal text). Written
     * before the sale is recorded; read only beside the ledger operation of that id.
     */
    putCashTender(transactionId: string, given: string, change: string): void {
      putTender.run(transactionId, toFixed(dec(given)), toFixed(dec(change)));
    },
    cashTenderOf(transactionId: string): { given: string; change: string } | null {
      return getTender.get(transactionId) ?? null;
    },
    /** A refused sale's tender goes. */
    dropCashTender(transactionId: string): void {
      dropTender.run(transactionId);
    },
    /** Cash taken up front for a fuel prepay in the open shift `shiftId` (once per id). */
    takeCashPrepay(authorisationId: string, shiftId: string, amount: string, nowMs: number): void {
      putPrepay.run(authorisationId, shiftId, toFixed(dec(amount)), nowMs);
    },
    /** The cash prepays a shift took. */
    cashPrepaysOf(shiftId: string): Array<{ authorisationId: string; amount: string }> {
      return prepaysIn
        .all(shiftId)
        .map((r) => ({ authorisationId: r.authorisation_id, amount: r.amount }));
    },
    /** The cash taken for authorisation `id`, or null (not a cash prepay). */
    cashPrepayOf(authorisationId: string): string | null {
      return prepayOf.get(authorisationId)?.amount ?? null;
    },
    /**
     * The ledger operations of a shift with their payments and bonus movements; operations
     * whose figures cannot be reported are left out (see `unreadableOf`).
     */
    operationsOf(shift: ShiftRecord): ShiftOperation[] {
      return allOf(shift)
        .filter((r) => unreadable(r) === null)
        .map((r) => r.op);
    },
    /** The operations `operationsOf` leaves out, each with the figure that is out of bounds. */
    unreadableOf(shift: ShiftRecord): Array<{ id: string; field: string }> {
      return allOf(shift).flatMap((r) => {
        const field = unreadable(r);
        return field === null ? [] : [{ id: r.op.id, field }];
      });
    },
  };

  function allOf(shift: ShiftRecord): ReadOperation[] {
    const upTo = shift.lastSeq ?? Number.MAX_SAFE_INTEGER;
    const from = shift.firstSeqAfter;
    return db
      .transaction(() => {
        const pay = new Map<string, { type: string; amount: string }[]>();
        for (const p of payments.all(from, upTo)) {
          const list = pay.get(p.operation_id) ?? [];
          list.push({ type: p.payment_type, amount: p.amount });
          pay.set(p.operation_id, list);
        }
        const bon = new Map<string, { kind: string; amount: string }[]>();
        for (const b of bonuses.all(from, upTo)) {
          const list = bon.get(b.operation_id) ?? [];
          list.push({ kind: b.kind, amount: b.amount });
          bon.set(b.operation_id, list);
        }
        return ops.all(from, upTo).map((o): ReadOperation => {
          const check = o.check_json === null ? null : readStored(ShiftCheck, o.check_json);
          const op: ShiftOperation = {
            id: o.id,
            seq: o.seq,
            kind: o.kind,
            subtype: o.subtype,
            syncStatus: o.sync_status,
            outboxStatus: o.outbox_status,
            transactionType: o.transaction_type,
            amountToPay: o.amount_to_pay,
            check: check?.ok ? check.value : null,
            cancelledBy: o.cancelled_by,
            cancels: o.cancels,
            payments: pay.get(o.id) ?? [],
            bonuses: bon.get(o.id) ?? [],
          };
          return { op, checkRead: check === null || check.ok };
        });
      })
      .deferred();
  }
}

export type Shifts = ReturnType<typeof createShifts>;
