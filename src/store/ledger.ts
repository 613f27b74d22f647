// The ledger: what this terminal did (processed checks, cancellations, bonus operations,
// payments, special-account movements, coupons, odometer readings) and what it spent that the
// cached figures do not show yet (`pending`), so that available = cached - pending (sync.md).
// An operation, its effects and its outbox row commit in one transaction, or not at all.
import type Database from 'better-sqlite3';
import { StoredCheck } from '../contract/stored.js';
import { add, dec, gt, toFixed, ZERO, type Dec } from '../money/index.js';
import { asStoreError, storeError } from './errors.js';
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

const amountText = (a: Amount): string => toFixed(dec(a));
/** A coupon mark's amount when our cancel reopened it (a redeem hold's is null). */
const REOPENED = '-1';
const isPositive = (a: Amount | undefined): a is Amount => a !== undefined && dec(a).units > 0n;

export function createLedger(db: Database.Database, outbox: Outbox) {
  const find = db.prepare<[string], { seq: number }>(
    'SELECT seq FROM ledger_operation WHERE id = ?',
  );
  const nextSeq = db.prepare<[], { seq: number }>(
    'SELECT coalesce(max(seq), 0) + 1 AS seq FROM ledger_operation',
  );
  const insertOp = db.prepare(
    'INSERT INTO ledger_operation (id, seq, kind, subtype, customer_id, local_date, sync_status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertCheck = db.prepare(
    `INSERT INTO ledger_check (operation_id, transaction_type, original_transaction_id, pos_id, amount_to_pay, currency, check_json)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertCancellation = db.prepare(
    'INSERT INTO ledger_cancellation (operation_id, transaction_id, comment) VALUES (?, ?, ?)',
  );
  const markCancelled = db.prepare(
    'UPDATE ledger_check SET cancelled_by = ? WHERE operation_id = ? AND cancelled_by IS NULL',
  );
  const insertBonus = db.prepare(
    'INSERT INTO ledger_bonus_op (operation_id, idx, customer_id, kind, amount) VALUES (?, ?, ?, ?, ?)',
  );
  const insertPayment = db.prepare(
    'INSERT INTO ledger_payment (operation_id, idx, payment_type, payment_id, amount, currency) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertAccount = db.prepare(
    'INSERT INTO ledger_account_op (operation_id, idx, account_id, access_id, direction, amount, currency) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const insertCoupon = db.prepare(
    'INSERT OR IGNORE INTO ledger_coupon (operation_id, code, action) VALUES (?, ?, ?)',
  );
  const insertOdometer = db.prepare(
    'INSERT INTO ledger_odometer (operation_id, vehicle_id, value, unit) VALUES (?, ?, ?, ?)',
  );
  const insertPending = db.prepare(
    `INSERT INTO pending (operation_id, kind, customer_id, account_id, access_id, coupon_code, amount, quantity, visits, local_date, confirmed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const getCouponSeq = db.prepare<[], { value: string }>(
    "SELECT value FROM sync_state WHERE key = 'next_coupon_seq'",
  );
  const setCouponSeq = db.prepare(
    "INSERT INTO sync_state (key, value, updated_at) VALUES ('next_coupon_seq', ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
  );

  const setStatus = db.prepare('UPDATE ledger_operation SET sync_status = ? WHERE id = ?');
  const confirmPending = db.prepare(
    'UPDATE pending SET confirmed_at = ? WHERE operation_id = ? AND confirmed_at IS NULL',
  );
  const dropPending = db.prepare('DELETE FROM pending WHERE operation_id = ?');
  const releaseBy = {
    customer: db.prepare(
      'DELETE FROM pending WHERE customer_id = ? AND kind = ? AND confirmed_at IS NOT NULL AND confirmed_at < ?',
    ),
    // A hold paid through a corporate access goes with the access's record only: it carries
    // the driver's usage and the account's, which the fleet account's record does not.
    account: db.prepare(
      "DELETE FROM pending WHERE account_id = ? AND access_id IS NULL AND kind = 'account' AND confirmed_at IS NOT NULL AND confirmed_at < ?",
    ),
    access: db.prepare(
      "DELETE FROM pending WHERE access_id = ? AND kind = 'account' AND confirmed_at IS NOT NULL AND confirmed_at < ?",
    ),
    coupon: db.prepare(
      "DELETE FROM pending WHERE coupon_code = ? AND kind = 'coupon' AND confirmed_at IS NOT NULL AND confirmed_at < ?",
    ),
    all: db.prepare('DELETE FROM pending WHERE confirmed_at IS NOT NULL AND confirmed_at < ?'),
  };

  const statusOf = db.prepare<[string], Record<string, unknown>>(
    `SELECT o.id, o.seq, o.kind, o.subtype, o.customer_id, o.local_date, o.sync_status, o.created_at, x.status AS outbox_status
       FROM ledger_operation o LEFT JOIN outbox x ON x.transaction_id = o.id WHERE o.id = ?`,
  );
  // Operations of a customer or a vehicle still owed to the central service (queued or sending).
  const unsentOfCustomer = db.prepare<[string], { one: number }>(
    `SELECT 1 AS one FROM outbox x JOIN ledger_operation o ON o.id = x.transaction_id
      WHERE x.status IN ('queued', 'sending') AND o.customer_id = ? LIMIT 1`,
  );
  const unsentOfVehicle = db.prepare<[string], { one: number }>(
    `SELECT 1 AS one FROM outbox x JOIN ledger_odometer d ON d.operation_id = x.transaction_id
      WHERE x.status IN ('queued', 'sending') AND d.vehicle_id = ? LIMIT 1`,
  );
  // A void: a cancellation of a transaction this till never recorded (its fate was unknown).
  const voidOf = db.prepare<[string], { operation_id: string; comment: string | null }>(
    `SELECT c.operation_id, c.comment FROM ledger_cancellation c
      WHERE c.transaction_id = ? AND NOT EXISTS (SELECT 1 FROM ledger_check k WHERE k.operation_id = c.transaction_id)`,
  );
  const setCheckJson = db.prepare('UPDATE ledger_check SET check_json = ? WHERE operation_id = ?');
  const renameEmitted = db.prepare(
    "UPDATE ledger_coupon SET code = ? WHERE operation_id = ? AND code = ? AND action = 'emit'",
  );
  const checkJson = db.prepare<[string], { check_json: string; cancelled_by: string | null }>(
    'SELECT check_json, cancelled_by FROM ledger_check WHERE operation_id = ?',
  );
  const pendingOfCustomer = db.prepare<
    [string],
    {
      kind: string;
      amount: string | null;
      quantity: string | null;
      visits: number | null;
      local_date: string;
    }
  >(
    "SELECT kind, amount, quantity, visits, local_date FROM pending WHERE customer_id = ? AND kind IN ('bonuses', 'stats')",
  );
  const pendingOfAccount = db.prepare<[string], { amount: string }>(
    "SELECT amount FROM pending WHERE account_id = ? AND kind = 'account'",
  );
  const pendingOfAccess = db.prepare<[string], { amount: string }>(
    "SELECT amount FROM pending WHERE access_id = ? AND kind = 'account'",
  );
  // The latest of this till's coupon marks the cache does not show yet: a redeem hold (amount
  // null) or a reopen by our own cancel (amount '-1', one use given back).
  const latestCouponMark = db.prepare<[string], { amount: string | null }>(
    "SELECT amount FROM pending WHERE coupon_code = ? AND kind = 'coupon' ORDER BY id DESC LIMIT 1",
  );
  const lastOdometer = db.prepare<[string, string], { value: string }>(
    'SELECT value FROM ledger_odometer WHERE vehicle_id = ? AND unit = ?',
  );
  const offline = db.prepare<
    [],
    { kind: string; customer_id: string | null; amount: string; local_date: string }
  >(
    `SELECT p.kind, p.customer_id, p.amount, p.local_date FROM pending p JOIN ledger_operation o ON o.id = p.operation_id
      WHERE o.subtype = 'offline' AND o.sync_status = 'unconfirmed' AND p.kind IN ('bonuses', 'account')`,
  );

  const effects = {
    bonuses: db.prepare<[string], { kind: string; customer_id: string; amount: string }>(
      'SELECT kind, customer_id, amount FROM ledger_bonus_op WHERE operation_id = ? ORDER BY idx',
    ),
    payments: db.prepare<
      [string],
      { payment_type: string; payment_id: string | null; amount: string; currency: string | null }
    >(
      'SELECT payment_type, payment_id, amount, currency FROM ledger_payment WHERE operation_id = ? ORDER BY idx',
    ),
    accounts: db.prepare<
      [string],
      { account_id: string; access_id: string | null; direction: string; amount: string }
    >(
      'SELECT account_id, access_id, direction, amount FROM ledger_account_op WHERE operation_id = ? ORDER BY idx',
    ),
    coupons: db.prepare<[string], { code: string; action: string }>(
      'SELECT code, action FROM ledger_coupon WHERE operation_id = ? ORDER BY code, action',
    ),
    odometer: db.prepare<[string], { vehicle_id: string; value: string; unit: string }>(
      'SELECT vehicle_id, value, unit FROM ledger_odometer WHERE operation_id = ?',
    ),
    pending: db.prepare<
      [string],
      { kind: string; amount: string | null; confirmed_at: number | null }
    >('SELECT kind, amount, confirmed_at FROM pending WHERE operation_id = ? ORDER BY id'),
  };
  const listOps = db.prepare<[number, number], { id: string }>(
    'SELECT id FROM ledger_operation WHERE seq > ? ORDER BY seq LIMIT ?',
  );
  const countOps = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM ledger_operation');

  // Each query names operations that break an invariant of the ledger (docs/store.md).
  const invariants: ReadonlyArray<readonly [string, Database.Statement<[], { id: string }>]> = [
    [
      'operation without its outbox row',
      db.prepare(
        'SELECT o.id FROM ledger_operation o WHERE NOT EXISTS (SELECT 1 FROM outbox x WHERE x.transaction_id = o.id)',
      ),
    ],
    [
      'check operation without its check',
      db.prepare(
        "SELECT o.id FROM ledger_operation o WHERE o.kind = 'check' AND NOT EXISTS (SELECT 1 FROM ledger_check c WHERE c.operation_id = o.id)",
      ),
    ],
    [
      'cancellation without its record',
      db.prepare(
        "SELECT o.id FROM ledger_operation o WHERE o.kind = 'cancellation' AND NOT EXISTS (SELECT 1 FROM ledger_cancellation c WHERE c.operation_id = o.id)",
      ),
    ],
    [
      'outbox seq differs from the operation',
      db.prepare(
        'SELECT o.id FROM ledger_operation o JOIN outbox x ON x.transaction_id = o.id WHERE x.seq <> o.seq',
      ),
    ],
    [
      'done row of an unconfirmed operation',
      db.prepare(
        "SELECT o.id FROM ledger_operation o JOIN outbox x ON x.transaction_id = o.id WHERE x.status = 'done' AND o.sync_status <> 'confirmed'",
      ),
    ],
    [
      'rejected row of a non-rejected operation',
      db.prepare(
        "SELECT o.id FROM ledger_operation o JOIN outbox x ON x.transaction_id = o.id WHERE x.status = 'rejected' AND o.sync_status <> 'rejected'",
      ),
    ],
    [
      'hold of a rejected operation',
      db.prepare(
        "SELECT DISTINCT o.id FROM pending p JOIN ledger_operation o ON o.id = p.operation_id WHERE o.sync_status = 'rejected'",
      ),
    ],
    [
      'unconfirmed hold marked confirmed',
      db.prepare(
        "SELECT DISTINCT o.id FROM pending p JOIN ledger_operation o ON o.id = p.operation_id WHERE o.sync_status = 'unconfirmed' AND p.confirmed_at IS NOT NULL",
      ),
    ],
  ];

  const record = db.transaction((op: OperationInput, nowMs: number): RecordResult => {
    const existing = find.get(op.id);
    if (existing) return { status: 'exists', seq: existing.seq };
    const seq = nextSeq.get()?.seq ?? 1;
    const confirmed = op.outbox.status === 'done';
    const customerId = op.customerId ?? null;
    insertOp.run(
      op.id,
      seq,
      op.kind,
      op.subtype,
      customerId,
      op.localDate,
      confirmed ? 'confirmed' : 'unconfirmed',
      nowMs,
    );
    const confirmedAt = confirmed ? nowMs : null;
    const pending = (
      kind: PendingKind,
      f: {
        customer?: string | null;
        account?: string | null;
        access?: string | null;
        coupon?: string | null;
        amount?: string | null;
        quantity?: string | null;
        visits?: number | null;
      },
    ) =>
      insertPending.run(
        op.id,
        kind,
        f.customer ?? null,
        f.account ?? null,
        f.access ?? null,
        f.coupon ?? null,
        f.amount ?? null,
        f.quantity ?? null,
        f.visits ?? null,
        op.localDate,
        confirmedAt,
      );

    if (op.kind === 'check') {
      if (!op.check)
        throw storeError('invalid-record', `operation ${op.id}: a check operation needs its check`);
      const c = op.check;
      insertCheck.run(
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
      insertCancellation.run(op.id, op.cancellation.transactionId, op.cancellation.comment ?? null);
      markCancelled.run(op.id, op.cancellation.transactionId);
    }
    const b = op.bonuses;
    if (b) {
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
        insertBonus.run(op.id, idx++, customerId, kind, text);
        // Spending is held against the balance at once; credits count only once confirmed.
        if (kind === 'redeem' || kind === 'write-off')
          pending('bonuses', { customer: customerId, amount: text });
      }
    }
    (op.payments ?? []).forEach((p, i) =>
      insertPayment.run(op.id, i, p.type, p.id ?? null, amountText(p.amount), p.currency ?? null),
    );
    (op.accounts ?? []).forEach((a, i) => {
      const amount = amountText(a.amount);
      insertAccount.run(
        op.id,
        i,
        a.accountId,
        a.accessId ?? null,
        a.direction,
        amount,
        a.currency ?? null,
      );
      if (a.direction === 'debit')
        pending('account', {
          customer: customerId,
          account: a.accountId,
          access: a.accessId,
          amount,
        });
    });
    for (const c of op.coupons ?? []) {
      insertCoupon.run(op.id, c.code, c.action);
      if (c.action === 'redeem') pending('coupon', { customer: customerId, coupon: c.code });
      // Our cancel gave the use back: open here until a pull brings the record showing it.
      if (c.action === 'reopen')
        pending('coupon', { customer: customerId, coupon: c.code, amount: REOPENED });
    }
    if (op.odometer)
      insertOdometer.run(
        op.id,
        op.odometer.vehicleId,
        amountText(op.odometer.value),
        op.odometer.unit,
      );
    if (op.stats && customerId) {
      pending('stats', {
        customer: customerId,
        amount: amountText(op.stats.amount),
        quantity: amountText(op.stats.quantity),
        visits: op.stats.visits,
      });
    }
    if (op.couponSeqUsed !== undefined) {
      if (op.couponSeqUsed >= nextCouponSeq())
        setCouponSeq.run(String(op.couponSeqUsed + 1), nowMs);
    }
    outbox.enqueue(op.id, seq, op.outbox, nowMs);
    return { status: 'committed', seq };
  });

  function readCheck(
    transactionId: string,
  ): { document: StoredRead<StoredCheck>; cancelledBy: string | null } | null {
    const r = checkJson.get(transactionId);
    return r
      ? { document: readStored(StoredCheck, r.check_json, 'check'), cancelledBy: r.cancelled_by }
      : null;
  }

  function nextCouponSeq(): number {
    return Number(getCouponSeq.get()?.value ?? '1');
  }

  function sumOf(rows: ReadonlyArray<{ amount: string | null }>): Dec {
    let total = ZERO;
    for (const r of rows) if (r.amount !== null) total = add(total, dec(r.amount));
    return total;
  }

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
    status(id: string): OperationStatus | null {
      const r = statusOf.get(id);
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
    },
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
    /** The stored check, or why it no longer reads, instead of throwing. */
    readCheck,
    /** Whether this terminal recorded a check under the id (nothing is read). */
    hasCheck(transactionId: string): boolean {
      return checkJson.get(transactionId) !== undefined;
    },
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
      db.transaction(() => {
        setCheckJson.run(JSON.stringify(document), transactionId);
        for (const [from, to] of renames) renameEmitted.run(to, transactionId, from);
      })();
    },
    /**
     * Whether this customer or vehicle has operations the central service has not received
     * yet: a sale for them sent online now would overtake those (sync.md, "Order").
     */
    hasUnsent(customerId: string | null, vehicleId: string | null): boolean {
      return (
        (customerId !== null && unsentOfCustomer.get(customerId) !== undefined) ||
        (vehicleId !== null && unsentOfVehicle.get(vehicleId) !== undefined)
      );
    },
    /**
     * The void of a transaction this till never recorded (an online attempt whose outcome was
     * unknown): its id is spent, a sale is made again under a new one. Null when not voided.
     */
    voidOf(transactionId: string): { voidId: string; comment: string | null } | null {
      const r = voidOf.get(transactionId);
      return r ? { voidId: r.operation_id, comment: r.comment } : null;
    },
    /** The holds against one customer's cached figures and against the given accounts or accesses. */
    pendingFor(
      customerId: string | null,
      accountIds: readonly string[] = [],
      accessIds: readonly string[] = [],
    ): PendingFigures {
      let bonuses = ZERO;
      const stats: Array<{ localDate: string; amount: Dec; quantity: Dec; visits: number }> = [];
      if (customerId) {
        for (const r of pendingOfCustomer.all(customerId)) {
          if (r.kind === 'bonuses' && r.amount !== null) bonuses = add(bonuses, dec(r.amount));
          else if (r.kind === 'stats') {
            stats.push({
              localDate: r.local_date,
              amount: dec(r.amount ?? '0'),
              quantity: dec(r.quantity ?? '0'),
              visits: r.visits ?? 0,
            });
          }
        }
      }
      const accounts = new Map<string, Dec>();
      for (const id of accountIds) {
        const s = sumOf(pendingOfAccount.all(id));
        if (s.units !== 0n) accounts.set(id, s);
      }
      for (const id of accessIds) {
        const s = sumOf(pendingOfAccess.all(id));
        if (s.units !== 0n) accounts.set(id, s);
      }
      return { bonuses, accounts, stats };
    },
    /** True while a redemption of this code made here is not yet reflected in the cache. */
    couponHeld(code: string): boolean {
      return ledger.couponMark(code) === 'redeemed';
    },
    /**
     * What this till last did to a coupon that the cache may not show yet: `redeemed` (a sale
     * spent it), `reopened` (our own cancel gave it back), or null (the cache's status stands).
     */
    couponMark(code: string): 'redeemed' | 'reopened' | null {
      const r = latestCouponMark.get(code);
      if (!r) return null;
      return r.amount === REOPENED ? 'reopened' : 'redeemed';
    },
    /** The highest odometer reading taken here for a vehicle in a unit, or null. */
    lastOdometer(vehicleId: string, unit: string): Dec | null {
      let best: Dec | null = null;
      for (const r of lastOdometer.all(vehicleId, unit)) {
        const v = dec(r.value);
        if (!best || gt(v, best)) best = v;
      }
      return best;
    },
    /**
     * Offline spending the server has not confirmed (stand-in limits, sync.md): bonuses and
     * account money, for the terminal in total and for one customer on one local date
     * (`any-day`: on every date, when the wall clock cannot be trusted to tell days apart).
     */
    offlineSpending(
      customerId?: string | null,
      localDate?: string | 'any-day',
    ): { terminal: { bonuses: Dec; money: Dec }; customerDay: { bonuses: Dec; money: Dec } } {
      const terminal = { bonuses: ZERO, money: ZERO };
      const customerDay = { bonuses: ZERO, money: ZERO };
      for (const r of offline.all()) {
        const key = r.kind === 'bonuses' ? 'bonuses' : 'money';
        const v = dec(r.amount);
        terminal[key] = add(terminal[key], v);
        if (
          customerId &&
          r.customer_id === customerId &&
          (localDate === 'any-day' || r.local_date === localDate)
        )
          customerDay[key] = add(customerDay[key], v);
      }
      return { terminal, customerDay };
    },
    /** Breaches of the ledger's invariants (empty when whole): what `db check` reports. */
    verify(limit = 20): Array<{ problem: string; ids: string[] }> {
      const out: Array<{ problem: string; ids: string[] }> = [];
      for (const [problem, stmt] of invariants) {
        const ids: string[] = [];
        for (const r of stmt.iterate()) {
          ids.push(r.id);
          if (ids.length >= limit) break;
        }
        if (ids.length > 0) out.push({ problem, ids });
      }
      return out;
    },
    /** Every effect recorded for one operation (tests, audits, `sale-status`). */
    effectsOf(id: string): OperationEffects {
      return {
        bonuses: effects.bonuses.all(id),
        payments: effects.payments.all(id),
        accounts: effects.accounts.all(id),
        coupons: effects.coupons.all(id),
        odometer: effects.odometer.all(id),
        pending: effects.pending.all(id),
      };
    },
    /** Operations in sequence order (for exports and checks). */
    operations(afterSeq = 0, limit = 1000): OperationStatus[] {
      return listOps
        .all(afterSeq, limit)
        .map((r) => ledger.status(r.id))
        .filter((s): s is OperationStatus => s !== null);
    },
    count(): number {
      return countOps.get()?.n ?? 0;
    },
    /** The next provisional coupon number (engine.md 16: terminal.next_coupon_seq). */
    nextCouponSeq,
    /** Internal (outbox done): the server applied the operation; holds wait for a pull. */
    confirm(id: string, nowMs: number): void {
      setStatus.run('confirmed', id);
      confirmPending.run(nowMs, id);
    },
    /** Internal (outbox rejected): the server refused it, so its holds go (server figures stand). */
    reject(id: string): void {
      setStatus.run('rejected', id);
      dropPending.run(id);
    },
    /**
     * Internal (pull): a record fetched after `requestedAt` reflects every operation confirmed
     * before it, so those holds go. Runs inside the page's transaction.
     */
    releaseReflected(
      entity: string,
      id: string,
      record: Record<string, unknown> | null,
      requestedAt: number,
    ): void {
      switch (entity) {
        case 'customer':
          releaseBy.customer.run(id, 'bonuses', requestedAt);
          break;
        case 'bonus_lot':
          if (typeof record?.customer_id === 'string')
            releaseBy.customer.run(record.customer_id, 'bonuses', requestedAt);
          break;
        case 'customer_stats':
          if (typeof record?.customer_id === 'string')
            releaseBy.customer.run(record.customer_id, 'stats', requestedAt);
          break;
        case 'special_account':
          releaseBy.account.run(id, requestedAt);
          break;
        case 'corporate_access':
          releaseBy.access.run(id, requestedAt);
          break;
        case 'coupon':
          if (typeof record?.code === 'string') releaseBy.coupon.run(record.code, requestedAt);
          break;
      }
    },
    /**
     * Internal (snapshot swap, or the last page of a pull): a full snapshot reflects everything
     * confirmed before it began; a feed read to its end, everything confirmed before its last
     * page was asked for.
     */
    releaseAllReflected(requestedAt: number): void {
      releaseBy.all.run(requestedAt);
    },
  };
  outbox.wire({ confirm: ledger.confirm, reject: ledger.reject });
  return ledger;
}

export type Ledger = ReturnType<typeof createLedger>;
