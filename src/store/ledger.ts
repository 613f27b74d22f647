// The ledger: what this terminal did (processed checks, cancellations, bonus operations,
// payments, special-account movements, coupons, odometer readings) and what it spent that the
// cached figures do not show yet (`pending`), so that available = cached - pending (sync.md).
// An operation, its effects and its outbox row commit in one transaction, or not at all.
// Here: the ledger's types, its reads and the ledger value; the recording of an operation is in
// ledger-record.ts, the holds in ledger-holds.ts, the invariants `db check` runs in
// ledger-invariants.ts.
import type Database from 'better-sqlite3';
import { StoredCheck } from '../contract/stored.js';
import { dec, gt, type Dec } from '../money/index.js';
import { asStoreError, storeError } from './errors.js';
import { holdMethods, holdStatements } from './ledger-holds.js';
import { breaches, invariantStatements } from './ledger-invariants.js';
import { nextCouponSeq, recordOperation, recordStatements } from './ledger-record.js';
import type { Outbox, OutboxEntry } from './outbox.js';
import { readStored, type StoredRead } from './stored-json.js';

export type Amount = number | string;

export type OperationKind = 'check' | 'cancellation' | 'bonus-operation' | 'bank-card-payment';
export type SyncStatus = 'unconfirmed' | 'confirmed' | 'rejected';

/** One operation of this terminal with its effects, as the terminal hands it over. */
export interface OperationInput {
  /** The UUIDv7 made before anything was sent: the Idempotency-Key. */
  readonly id: string;
  readonly kind: OperationKind;
  readonly subtype: 'online' | 'offline';
  readonly customerId?: string | null;
  /** The operation's local date (POS time zone), `YYYY-MM-DD`: the day its stats belong to. */
  readonly localDate: string;
  /** kind `check`: the processed check as it is stored (a refund starts from it). */
  readonly check?: {
    readonly transactionType: string;
    readonly originalTransactionId?: string | null;
    readonly posId?: string | null;
    readonly amountToPay: Amount;
    readonly currency?: string | null;
    readonly document: unknown;
  };
  /** kind `cancellation`: the check it cancels (each check once). */
  readonly cancellation?: { readonly transactionId: string; readonly comment?: string | null };
  /** Bonus movements of the customer, in bonuses. */
  readonly bonuses?: {
    readonly redeemed?: Amount;
    readonly added?: Amount;
    readonly returned?: Amount;
    readonly writtenOff?: Amount;
  };
  readonly payments?: ReadonlyArray<{
    readonly type: string;
    readonly id?: string | null;
    readonly amount: Amount;
    readonly currency?: string | null;
  }>;
  readonly accounts?: ReadonlyArray<{
    readonly accountId: string;
    readonly accessId?: string | null;
    readonly direction: 'debit' | 'credit';
    readonly amount: Amount;
    readonly currency?: string | null;
  }>;
  readonly coupons?: ReadonlyArray<{
    readonly code: string;
    readonly action: 'redeem' | 'emit' | 'reopen' | 'cancel';
  }>;
  readonly odometer?: {
    readonly vehicleId: string;
    readonly value: Amount;
    readonly unit: string;
  } | null;
  /** This operation's contribution to the customer's period stats (engine.md 5). */
  readonly stats?: {
    readonly amount: Amount;
    readonly quantity: Amount;
    readonly visits: number;
  } | null;
  /** Provisional coupon numbers this operation used (engine.md 16): the counter moves past them. */
  readonly couponSeqUsed?: number;
  readonly outbox: OutboxEntry;
}

export type RecordResult =
  | { readonly status: 'committed'; readonly seq: number }
  /** The id was recorded before (a retry after a crash or a double tap): nothing written. */
  | { readonly status: 'exists'; readonly seq: number };

export interface OperationStatus {
  readonly id: string;
  readonly seq: number;
  readonly kind: OperationKind;
  readonly subtype: 'online' | 'offline';
  readonly customerId: string | null;
  readonly localDate: string;
  readonly syncStatus: SyncStatus;
  readonly createdAt: number;
  readonly outboxStatus: string | null;
}

/** What this terminal holds against the cached figures of one customer (all exact). */
export interface PendingFigures {
  readonly bonuses: Dec;
  /** By special account id, and by corporate access id for accesses. */
  readonly accounts: ReadonlyMap<string, Dec>;
  readonly stats: ReadonlyArray<{
    readonly localDate: string;
    readonly amount: Dec;
    readonly quantity: Dec;
    readonly visits: number;
  }>;
}

/** The rows one operation wrote, as stored. */
export interface OperationEffects {
  readonly bonuses: ReadonlyArray<{ kind: string; customer_id: string; amount: string }>;
  readonly payments: ReadonlyArray<{
    payment_type: string;
    payment_id: string | null;
    amount: string;
    currency: string | null;
  }>;
  readonly accounts: ReadonlyArray<{
    account_id: string;
    access_id: string | null;
    direction: string;
    amount: string;
  }>;
  readonly coupons: ReadonlyArray<{ code: string; action: string }>;
  readonly odometer: ReadonlyArray<{ vehicle_id: string; value: string; unit: string }>;
  readonly pending: ReadonlyArray<{
    kind: string;
    amount: string | null;
    confirmed_at: number | null;
  }>;
}

export type PendingKind = 'bonuses' | 'account' | 'stats' | 'coupon';

/** The statements of what was recorded: operations, their checks, effects and sync status. */
function ledgerStatements(db: Database.Database) {
  return {
    setStatus: db.prepare('UPDATE ledger_operation SET sync_status = ? WHERE id = ?'),
    statusOf: db.prepare<[string], Record<string, unknown>>(
      `SELECT o.id, o.seq, o.kind, o.subtype, o.customer_id, o.local_date, o.sync_status, o.created_at, x.status AS outbox_status
       FROM ledger_operation o LEFT JOIN outbox x ON x.transaction_id = o.id WHERE o.id = ?`,
    ),
    // Operations of a customer or a vehicle still owed to the central service (queued or sending).
    unsentOfCustomer: db.prepare<[string], { one: number }>(
      `SELECT 1 AS one FROM outbox x JOIN ledger_operation o ON o.id = x.transaction_id
      WHERE x.status IN ('queued', 'sending') AND o.customer_id = ? LIMIT 1`,
    ),
    unsentOfVehicle: db.prepare<[string], { one: number }>(
      `SELECT 1 AS one FROM outbox x JOIN ledger_odometer d ON d.operation_id = x.transaction_id
      WHERE x.status IN ('queued', 'sending') AND d.vehicle_id = ? LIMIT 1`,
    ),
    // A void: a cancellation of a transaction this till never recorded (its fate was unknown).
    voidOf: db.prepare<[string], { operation_id: string; comment: string | null }>(
      `SELECT c.operation_id, c.comment FROM ledger_cancellation c
      WHERE c.transaction_id = ? AND NOT EXISTS (SELECT 1 FROM ledger_check k WHERE k.operation_id = c.transaction_id)`,
    ),
    setCheckJson: db.prepare('UPDATE ledger_check SET check_json = ? WHERE operation_id = ?'),
    renameEmitted: db.prepare(
      "UPDATE ledger_coupon SET code = ? WHERE operation_id = ? AND code = ? AND action = 'emit'",
    ),
    checkJson: db.prepare<[string], { check_json: string; cancelled_by: string | null }>(
      'SELECT check_json, cancelled_by FROM ledger_check WHERE operation_id = ?',
    ),
    lastOdometer: db.prepare<[string, string], { value: string }>(
      'SELECT value FROM ledger_odometer WHERE vehicle_id = ? AND unit = ?',
    ),
    effects: effectStatements(db),
    listOps: db.prepare<[number, number], { id: string }>(
      'SELECT id FROM ledger_operation WHERE seq > ? ORDER BY seq LIMIT ?',
    ),
    countOps: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM ledger_operation'),
  };
}

type LedgerStatements = ReturnType<typeof ledgerStatements>;

/** One operation's rows per effect, as stored. */
function effectStatements(db: Database.Database) {
  return {
    bonuses: db.prepare<[string], OperationEffects['bonuses'][number]>(
      'SELECT kind, customer_id, amount FROM ledger_bonus_op WHERE operation_id = ? ORDER BY idx',
    ),
    payments: db.prepare<[string], OperationEffects['payments'][number]>(
      'SELECT payment_type, payment_id, amount, currency FROM ledger_payment WHERE operation_id = ? ORDER BY idx',
    ),
    accounts: db.prepare<[string], OperationEffects['accounts'][number]>(
      'SELECT account_id, access_id, direction, amount FROM ledger_account_op WHERE operation_id = ? ORDER BY idx',
    ),
    coupons: db.prepare<[string], OperationEffects['coupons'][number]>(
      'SELECT code, action FROM ledger_coupon WHERE operation_id = ? ORDER BY code, action',
    ),
    odometer: db.prepare<[string], OperationEffects['odometer'][number]>(
      'SELECT vehicle_id, value, unit FROM ledger_odometer WHERE operation_id = ?',
    ),
    pending: db.prepare<[string], OperationEffects['pending'][number]>(
      'SELECT kind, amount, confirmed_at FROM pending WHERE operation_id = ? ORDER BY id',
    ),
  };
}

function statusOf(s: LedgerStatements, id: string): OperationStatus | null {
  const r = s.statusOf.get(id);
  if (!r) return null;
  return {
    id: r.id as string,
    seq: r.seq as number,
    kind: r.kind as OperationKind,
    subtype: r.subtype as 'online' | 'offline',
    customerId: (r.customer_id as string | null) ?? null,
    localDate: r.local_date as string,
    syncStatus: r.sync_status as SyncStatus,
    createdAt: r.created_at as number,
    outboxStatus: (r.outbox_status as string | null) ?? null,
  };
}

function lastOdometer(s: LedgerStatements, vehicleId: string, unit: string): Dec | null {
  let best: Dec | null = null;
  for (const r of s.lastOdometer.all(vehicleId, unit)) {
    const v = dec(r.value);
    if (!best || gt(v, best)) best = v;
  }
  return best;
}

/** The ledger's reads of recorded operations: status, effects, order, what is still unsent. */
function operationReads(s: LedgerStatements) {
  const status = (id: string): OperationStatus | null => statusOf(s, id);
  return {
    status,
    /**
     * Whether this customer or vehicle has operations the central service has not received
     * yet: a sale for them sent online now would overtake those (sync.md, "Order").
     */
    hasUnsent: (customerId: string | null, vehicleId: string | null): boolean =>
      (customerId !== null && s.unsentOfCustomer.get(customerId) !== undefined) ||
      (vehicleId !== null && s.unsentOfVehicle.get(vehicleId) !== undefined),
    /**
     * The void of a transaction this till never recorded (an online attempt whose outcome was
     * unknown): its id is spent, a sale is made again under a new one. Null when not voided.
     */
    voidOf(transactionId: string): { voidId: string; comment: string | null } | null {
      const r = s.voidOf.get(transactionId);
      return r ? { voidId: r.operation_id, comment: r.comment } : null;
    },
    /** The highest odometer reading taken here for a vehicle in a unit, or null. */
    lastOdometer: (vehicleId: string, unit: string): Dec | null => lastOdometer(s, vehicleId, unit),
    /** Every effect recorded for one operation (tests, audits, `sale-status`). */
    effectsOf(id: string): OperationEffects {
      const e = s.effects;
      return {
        bonuses: e.bonuses.all(id),
        payments: e.payments.all(id),
        accounts: e.accounts.all(id),
        coupons: e.coupons.all(id),
        odometer: e.odometer.all(id),
        pending: e.pending.all(id),
      };
    },
    /** Operations in sequence order (for exports and checks). */
    operations: (afterSeq = 0, limit = 1000): OperationStatus[] =>
      s.listOps
        .all(afterSeq, limit)
        .map((r) => status(r.id))
        .filter((x): x is OperationStatus => x !== null),
    count: (): number => s.countOps.get()?.n ?? 0,
  };
}

/** The ledger's reads and rewrites of stored checks (a refund starts from one). */
function storedChecks(db: Database.Database, s: LedgerStatements) {
  /** The stored check, or why it no longer reads, instead of throwing. */
  function readCheck(
    transactionId: string,
  ): { document: StoredRead<StoredCheck>; cancelledBy: string | null } | null {
    const r = s.checkJson.get(transactionId);
    return r
      ? { document: readStored(StoredCheck, r.check_json, 'check'), cancelledBy: r.cancelled_by }
      : null;
  }
  const confirmEmitted = db.transaction(
    (
      transactionId: string,
      document: StoredCheck,
      renames: ReadonlyArray<readonly [string, string]>,
    ) => {
      s.setCheckJson.run(JSON.stringify(document), transactionId);
      for (const [from, to] of renames) s.renameEmitted.run(to, transactionId, from);
    },
  );
  return {
    /**
     * The processed check as stored, and who cancelled it (null when not cancelled). A check
     * that no longer passes its schema throws `invalid-record`.
     */
    storedCheck(
      transactionId: string,
    ): { document: StoredCheck; cancelledBy: string | null } | null {
      const r = readCheck(transactionId);
      if (r && !r.document.ok)
        throw storeError('invalid-record', `ledger_check ${transactionId}: ${r.document.problem}`);
      return r && r.document.ok ? { document: r.document.value, cancelledBy: r.cancelledBy } : null;
    },
    readCheck,
    /** Whether this terminal recorded a check under the id (nothing is read). */
    hasCheck: (transactionId: string): boolean => s.checkJson.get(transactionId) !== undefined,
    /**
     * The central service confirmed a queued sale's emitted coupons (engine.md 9: a provisional
     * code until then): the stored check takes the confirmed ones, and the ledger's emit
     * records their codes. `renames` pairs each provisional code with its confirmed one.
     */
    confirmEmitted(
      transactionId: string,
      document: StoredCheck,
      renames: ReadonlyArray<readonly [string, string]>,
    ): void {
      confirmEmitted(transactionId, document, renames);
    },
  };
}

export function createLedger(db: Database.Database, outbox: Outbox) {
  const s = ledgerStatements(db);
  const written = recordStatements(db);
  const holds = holdStatements(db);
  const invariants = invariantStatements(db);
  const record = db.transaction((op: OperationInput, nowMs: number): RecordResult =>
    recordOperation(written, holds, outbox, op, nowMs),
  );

  const ledger = {
    /**
     * Records an operation, its effects, its pending holds and its outbox row in one
     * IMMEDIATE transaction. Idempotent by id: a second call with the same id writes nothing.
     */
    record(op: OperationInput, nowMs: number): RecordResult {
      try {
        return record.immediate(op, nowMs);
      } catch (error) {
        throw asStoreError(error);
      }
    },
    ...operationReads(s),
    ...storedChecks(db, s),
    ...holdMethods(holds),
    /** Breaches of the ledger's invariants (empty when whole): what `db check` reports. */
    verify: (limit = 20): Array<{ problem: string; ids: string[] }> => breaches(invariants, limit),
    /** The next provisional coupon number (engine.md 16: terminal.next_coupon_seq). */
    nextCouponSeq: (): number => nextCouponSeq(written),
    /** Internal (outbox done): the server applied the operation; holds wait for a pull. */
    confirm(id: string, nowMs: number): void {
      s.setStatus.run('confirmed', id);
      holds.confirm.run(nowMs, id);
    },
    /** Internal (outbox rejected): the server refused it, so its holds go (server figures stand). */
    reject(id: string): void {
      s.setStatus.run('rejected', id);
      holds.drop.run(id);
    },
  };
  outbox.wire({ confirm: ledger.confirm, reject: ledger.reject });
  return ledger;
}

export type Ledger = ReturnType<typeof createLedger>;
