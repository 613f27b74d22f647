// The ledger's pending holds (sync.md): what this terminal spent that the cached figures do
// not show yet, so that available = cached - pending. A hold is written with its operation
// (ledger-record.ts), summed for the engine's context, confirmed when the server applied the
// operation, dropped when it refused it, and released once a pulled record reflects it.
import type Database from 'better-sqlite3';
import { add, dec, ZERO, type Dec } from '../money/index.js';
import type { OperationInput, PendingFigures, PendingKind } from './ledger.js';

/** A coupon mark's amount when our cancel reopened it (a redeem hold's is null). */
export const REOPENED = '-1';

type PendingRow = {
  kind: string;
  amount: string | null;
  quantity: string | null;
  visits: number | null;
  local_date: string;
};

/** The statements that release confirmed holds a pulled record reflects, by what it is. */
function releaseStatements(db: Database.Database) {
  return {
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
}

export function holdStatements(db: Database.Database) {
  return {
    insert: db.prepare(
      `INSERT INTO pending (operation_id, kind, customer_id, account_id, access_id, coupon_code, amount, quantity, visits, local_date, confirmed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    confirm: db.prepare(
      'UPDATE pending SET confirmed_at = ? WHERE operation_id = ? AND confirmed_at IS NULL',
    ),
    drop: db.prepare('DELETE FROM pending WHERE operation_id = ?'),
    releaseBy: releaseStatements(db),
    ofCustomer: db.prepare<[string], PendingRow>(
      "SELECT kind, amount, quantity, visits, local_date FROM pending WHERE customer_id = ? AND kind IN ('bonuses', 'stats')",
    ),
    ofAccount: db.prepare<[string], { amount: string }>(
      "SELECT amount FROM pending WHERE account_id = ? AND kind = 'account'",
    ),
    ofAccess: db.prepare<[string], { amount: string }>(
      "SELECT amount FROM pending WHERE access_id = ? AND kind = 'account'",
    ),
    // The latest of this till's coupon marks the cache does not show yet: a redeem hold
    // (amount null) or a reopen by our own cancel (amount '-1', one use given back).
    latestCouponMark: db.prepare<[string], { amount: string | null }>(
      "SELECT amount FROM pending WHERE coupon_code = ? AND kind = 'coupon' ORDER BY id DESC LIMIT 1",
    ),
    offline: db.prepare<
      [],
      { kind: string; customer_id: string | null; amount: string; local_date: string }
    >(
      `SELECT p.kind, p.customer_id, p.amount, p.local_date FROM pending p JOIN ledger_operation o ON o.id = p.operation_id
      WHERE o.subtype = 'offline' AND o.sync_status = 'unconfirmed' AND p.kind IN ('bonuses', 'account')`,
    ),
  };
}

export type HoldStatements = ReturnType<typeof holdStatements>;

/** What one hold names and holds; absent fields are stored as null. */
export interface HoldFields {
  customer?: string | null;
  account?: string | null;
  access?: string | null;
  coupon?: string | null;
  amount?: string | null;
  quantity?: string | null;
  visits?: number | null;
}

export type HoldWriter = (kind: PendingKind, f: HoldFields) => void;

/** Writes the holds of `op`, confirmed at `confirmedAt` when the server already applied it. */
export function holdWriter(
  s: HoldStatements,
  op: OperationInput,
  confirmedAt: number | null,
): HoldWriter {
  return (kind, f) =>
    void s.insert.run(
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
}

function sumOf(rows: ReadonlyArray<{ amount: string | null }>): Dec {
  let total = ZERO;
  for (const r of rows) if (r.amount !== null) total = add(total, dec(r.amount));
  return total;
}

function customerHolds(s: HoldStatements, customerId: string | null) {
  let bonuses = ZERO;
  const stats: Array<{ localDate: string; amount: Dec; quantity: Dec; visits: number }> = [];
  if (!customerId) return { bonuses, stats };
  for (const r of s.ofCustomer.all(customerId)) {
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
  return { bonuses, stats };
}

function pendingFor(
  s: HoldStatements,
  customerId: string | null,
  accountIds: readonly string[],
  accessIds: readonly string[],
): PendingFigures {
  const { bonuses, stats } = customerHolds(s, customerId);
  const accounts = new Map<string, Dec>();
  for (const id of accountIds) {
    const sum = sumOf(s.ofAccount.all(id));
    if (sum.units !== 0n) accounts.set(id, sum);
  }
  for (const id of accessIds) {
    const sum = sumOf(s.ofAccess.all(id));
    if (sum.units !== 0n) accounts.set(id, sum);
  }
  return { bonuses, accounts, stats };
}

function offlineSpending(
  s: HoldStatements,
  customerId: string | null | undefined,
  localDate: string | 'any-day' | undefined,
): { terminal: { bonuses: Dec; money: Dec }; customerDay: { bonuses: Dec; money: Dec } } {
  const terminal = { bonuses: ZERO, money: ZERO };
  const customerDay = { bonuses: ZERO, money: ZERO };
  for (const r of s.offline.all()) {
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
}

function releaseReflected(
  s: HoldStatements,
  entity: string,
  id: string,
  record: Record<string, unknown> | null,
  requestedAt: number,
): void {
  const by = s.releaseBy;
  switch (entity) {
    case 'customer':
      by.customer.run(id, 'bonuses', requestedAt);
      break;
    case 'bonus_lot':
      if (typeof record?.customer_id === 'string')
        by.customer.run(record.customer_id, 'bonuses', requestedAt);
      break;
    case 'customer_stats':
      if (typeof record?.customer_id === 'string')
        by.customer.run(record.customer_id, 'stats', requestedAt);
      break;
    case 'special_account':
      by.account.run(id, requestedAt);
      break;
    case 'corporate_access':
      by.access.run(id, requestedAt);
      break;
    case 'coupon':
      if (typeof record?.code === 'string') by.coupon.run(record.code, requestedAt);
      break;
  }
}

/** The ledger's methods over holds (ledger.ts spreads them into the ledger). */
export function holdMethods(s: HoldStatements) {
  const couponMark = (code: string): 'redeemed' | 'reopened' | null => {
    const r = s.latestCouponMark.get(code);
    if (!r) return null;
    return r.amount === REOPENED ? 'reopened' : 'redeemed';
  };
  return {
    /** The holds against one customer's cached figures and against the given accounts or accesses. */
    pendingFor: (
      customerId: string | null,
      accountIds: readonly string[] = [],
      accessIds: readonly string[] = [],
    ): PendingFigures => pendingFor(s, customerId, accountIds, accessIds),
    /** True while a redemption of this code made here is not yet reflected in the cache. */
    couponHeld: (code: string): boolean => couponMark(code) === 'redeemed',
    /**
     * What this till last did to a coupon that the cache may not show yet: `redeemed` (a sale
     * spent it), `reopened` (our own cancel gave it back), or null (the cache's status stands).
     */
    couponMark,
    /**
     * Offline spending the server has not confirmed (stand-in limits, sync.md): bonuses and
     * account money, for the terminal in total and for one customer on one local date
     * (`any-day`: on every date, when the wall clock cannot be trusted to tell days apart).
     */
    offlineSpending: (customerId?: string | null, localDate?: string | 'any-day') =>
      offlineSpending(s, customerId, localDate),
    /**
     * Internal (pull): a record fetched after `requestedAt` reflects every operation confirmed
     * before it, so those holds go. Runs inside the page's transaction.
     */
    releaseReflected: (
      entity: string,
      id: string,
      record: Record<string, unknown> | null,
      requestedAt: number,
    ): void => releaseReflected(s, entity, id, record, requestedAt),
    /**
     * Internal (snapshot swap, or the last page of a pull): a full snapshot reflects everything
     * confirmed before it began; a feed read to its end, everything confirmed before its last
     * page was asked for.
     */
    releaseAllReflected: (requestedAt: number): void => void s.releaseBy.all.run(requestedAt),
  };
}
