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

/** An operation row of a shift, with its check and what it cancels. */
interface OpRow {
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

function shiftStatements(db: Database.Database) {
  return {
    open: db.prepare<[], Raw>('SELECT * FROM shift WHERE closed_at IS NULL'),
    byId: db.prepare<[string], Raw>('SELECT * FROM shift WHERE id = ?'),
    last: db.prepare<[], Raw>('SELECT * FROM shift ORDER BY number DESC LIMIT 1'),
    maxSeq: db.prepare<[], { seq: number }>(
      'SELECT coalesce(max(seq), 0) AS seq FROM ledger_operation',
    ),
    nextNumber: db.prepare<[], { n: number }>(
      'SELECT coalesce(max(number), 0) + 1 AS n FROM shift',
    ),
    insert: db.prepare(
      `INSERT INTO shift (id, number, opened_at, opened_by, opened_by_name, opening_cash, first_seq_after)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    close: db.prepare(
      `UPDATE shift SET closed_at = ?, closed_by = ?, closed_by_name = ?, counted_cash = ?, last_seq = ?
      WHERE id = ? AND closed_at IS NULL`,
    ),
    ...operationStatements(db),
  };
}

/** A shift's ledger operations, payments and bonus movements, by seq range. */
function operationStatements(db: Database.Database) {
  return {
    ops: db.prepare<[number, number], OpRow>(
      `SELECT o.id, o.seq, o.kind, o.subtype, o.sync_status, x.status AS outbox_status,
            c.transaction_type, c.amount_to_pay, c.check_json, c.cancelled_by, k.transaction_id AS cancels
       FROM ledger_operation o
       LEFT JOIN outbox x ON x.transaction_id = o.id
       LEFT JOIN ledger_check c ON c.operation_id = o.id
       LEFT JOIN ledger_cancellation k ON k.operation_id = o.id
      WHERE o.seq > ? AND o.seq <= ? ORDER BY o.seq`,
    ),
    payments: db.prepare<
      [number, number],
      { operation_id: string; payment_type: string; amount: string }
    >(
      `SELECT p.operation_id, p.payment_type, p.amount FROM ledger_payment p
       JOIN ledger_operation o ON o.id = p.operation_id WHERE o.seq > ? AND o.seq <= ? ORDER BY o.seq, p.idx`,
    ),
    bonuses: db.prepare<[number, number], { operation_id: string; kind: string; amount: string }>(
      `SELECT b.operation_id, b.kind, b.amount FROM ledger_bonus_op b
       JOIN ledger_operation o ON o.id = b.operation_id WHERE o.seq > ? AND o.seq <= ? ORDER BY o.seq, b.idx`,
    ),
  };
}

type ShiftStatements = ReturnType<typeof shiftStatements>;

/** Cash at the till (0007): tenders of sales and fuel prepays. */
function cashStatements(db: Database.Database) {
  return {
    putTender: db.prepare(
      'INSERT OR REPLACE INTO cash_tender (transaction_id, given, change) VALUES (?, ?, ?)',
    ),
    getTender: db.prepare<[string], { given: string; change: string }>(
      'SELECT given, change FROM cash_tender WHERE transaction_id = ?',
    ),
    dropTender: db.prepare('DELETE FROM cash_tender WHERE transaction_id = ?'),
    putPrepay: db.prepare(
      'INSERT OR IGNORE INTO cash_prepay (authorisation_id, shift_id, amount, taken_at) VALUES (?, ?, ?, ?)',
    ),
    prepaysIn: db.prepare<[string], { authorisation_id: string; amount: string }>(
      'SELECT authorisation_id, amount FROM cash_prepay WHERE shift_id = ? ORDER BY taken_at',
    ),
    prepayOf: db.prepare<[string], { amount: string }>(
      'SELECT amount FROM cash_prepay WHERE authorisation_id = ?',
    ),
  };
}

type OpenShift = {
  id: string;
  staffId: string;
  staffName: string | null;
  openingCash?: number | null;
};
type CloseShift = {
  id: string;
  staffId: string;
  staffName: string | null;
  countedCash?: number | null;
};

function openShift(s: ShiftStatements, o: OpenShift, nowMs: number): ShiftRecord {
  if (s.open.get()) throw storeError('constraint', 'a shift is already open');
  const number = s.nextNumber.get()?.n ?? 1;
  s.insert.run(
    o.id,
    number,
    nowMs,
    o.staffId,
    o.staffName,
    money(o.openingCash),
    s.maxSeq.get()?.seq ?? 0,
  );
  return decode(s.byId.get(o.id)!);
}

function closeShift(s: ShiftStatements, c: CloseShift, nowMs: number): ShiftRecord {
  const r = s.close.run(
    nowMs,
    c.staffId,
    c.staffName,
    money(c.countedCash),
    s.maxSeq.get()?.seq ?? 0,
    c.id,
  );
  if (r.changes === 0) throw storeError('constraint', `shift ${c.id} is not open`);
  return decode(s.byId.get(c.id)!);
}

/** Rows grouped by their operation id, in the order read. */
function byOperation<R extends { operation_id: string }, T>(
  rows: readonly R[],
  item: (r: R) => T,
): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const list = out.get(r.operation_id) ?? [];
    list.push(item(r));
    out.set(r.operation_id, list);
  }
  return out;
}

/** Every operation of a shift as read, in one read transaction. */
function readOperations(db: Database.Database, s: ShiftStatements, shift: ShiftRecord) {
  const upTo = shift.lastSeq ?? Number.MAX_SAFE_INTEGER;
  const from = shift.firstSeqAfter;
  return db
    .transaction(() => {
      const pay = byOperation(s.payments.all(from, upTo), (p) => ({
        type: p.payment_type,
        amount: p.amount,
      }));
      const bon = byOperation(s.bonuses.all(from, upTo), (b) => ({
        kind: b.kind,
        amount: b.amount,
      }));
      return s.ops.all(from, upTo).map((o): ReadOperation => {
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

/** The shifts' methods over cash at the till. */
function cashMethods(c: ReturnType<typeof cashStatements>) {
  return {
    /**
     * Cash handed over for a sale and the change given back (exact decimal text). Written
     * before the sale is recorded; read only beside the ledger operation of that id.
     */
    putCashTender(transactionId: string, given: string, change: string): void {
      c.putTender.run(transactionId, toFixed(dec(given)), toFixed(dec(change)));
    },
    cashTenderOf: (transactionId: string): { given: string; change: string } | null =>
      c.getTender.get(transactionId) ?? null,
    /** A refused sale's tender goes. */
    dropCashTender(transactionId: string): void {
      c.dropTender.run(transactionId);
    },
    /** Cash taken up front for a fuel prepay in the open shift `shiftId` (once per id). */
    takeCashPrepay(authorisationId: string, shiftId: string, amount: string, nowMs: number): void {
      c.putPrepay.run(authorisationId, shiftId, toFixed(dec(amount)), nowMs);
    },
    /** The cash prepays a shift took. */
    cashPrepaysOf: (shiftId: string): Array<{ authorisationId: string; amount: string }> =>
      c.prepaysIn
        .all(shiftId)
        .map((r) => ({ authorisationId: r.authorisation_id, amount: r.amount })),
    /** The cash taken for authorisation `id`, or null (not a cash prepay). */
    cashPrepayOf: (authorisationId: string): string | null =>
      c.prepayOf.get(authorisationId)?.amount ?? null,
  };
}

export function createShifts(db: Database.Database) {
  const s = shiftStatements(db);
  const openTx = db.transaction((o: OpenShift, nowMs: number) => openShift(s, o, nowMs));
  const closeTx = db.transaction((c: CloseShift, nowMs: number) => closeShift(s, c, nowMs));
  const read = (r: Raw | undefined): ShiftRecord | null => (r ? decode(r) : null);
  return {
    /** The open shift, or null. */
    current: (): ShiftRecord | null => read(s.open.get()),
    get: (id: string): ShiftRecord | null => read(s.byId.get(id)),
    last: (): ShiftRecord | null => read(s.last.get()),
    /** Opens a shift; refuses (`constraint`) while another is open. */
    open(o: OpenShift, nowMs: number): ShiftRecord {
      try {
        return openTx.immediate(o, nowMs);
      } catch (e) {
        throw asStoreError(e);
      }
    },
    /** Closes the open shift `id`, fixing its last operation. */
    close(c: CloseShift, nowMs: number): ShiftRecord {
      try {
        return closeTx.immediate(c, nowMs);
      } catch (e) {
        throw asStoreError(e);
      }
    },
    ...cashMethods(cashStatements(db)),
    /**
     * The ledger operations of a shift with their payments and bonus movements; operations
     * whose figures cannot be reported are left out (see `unreadableOf`).
     */
    operationsOf: (shift: ShiftRecord): ShiftOperation[] =>
      readOperations(db, s, shift)
        .filter((r) => unreadable(r) === null)
        .map((r) => r.op),
    /** The operations `operationsOf` leaves out, each with the figure that is out of bounds. */
    unreadableOf: (shift: ShiftRecord): Array<{ id: string; field: string }> =>
      readOperations(db, s, shift).flatMap((r) => {
        const field = unreadable(r);
        return field === null ? [] : [{ id: r.op.id, field }];
      }),
  };
}

export type Shifts = ReturnType<typeof createShifts>;
