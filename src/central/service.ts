// The sandbox's operations (sync.md, "Operations"), as functions of validated input to an
// answer or an HttpError. Writes run in one SQLite transaction together with their
// idempotency row (server.ts), so a committed effect always has its stored answer.
import { createHash, randomBytes } from 'node:crypto';
import type { EngineFixtureInput, EngineResult } from '../contract/engine.js';
import type { BonusesOperationObject } from '../contract/business.js';
import { localDate } from '../contract/local-time.js';
import { add, dec, gt, lt, neg, sub, toNumber, ZERO } from '../money/index.js';
import type {
  BankCardPayment,
  BonusesOperationResult,
  Change,
  CouponSell,
  CouponSold,
  RefundCheck,
} from '../contract/central-api.js';
import { verifySecret } from '../secret-hash/index.js';
import {
  buildFixture,
  customerRecords,
  lookupCustomer,
  timeZoneOf,
  type Rec,
  type TerminalInfo,
} from './context.js';
import { applyProcessed, applyRefund, reverseEffects, type Effects } from './effects.js';
import { remainderOf, type EarlierRefund } from '../engine/index.js';
import type { EngineCheckResult, EngineProcessedCheck } from '../contract/engine.js';
import { HttpError } from './errors.js';
import { sellCoupon } from './coupon-sales.js';
import type { CentralStore, TransactionRow } from './store/central-store.js';

/** The check engine as the sandbox uses it: one fixture in, one answer out. */
export type RunEngine = (fixture: EngineFixtureInput) => EngineResult;

export interface CentralClock {
  /** Wall-clock milliseconds since the epoch. */
  now(): number;
}

interface ServiceOptions {
  store: CentralStore;
  engine: RunEngine;
  clock: CentralClock;
  tokenTtlMs?: number;
}

export interface Session {
  terminal: TerminalInfo;
  staffId: string | null;
}

const DEFAULT_PAGE = 1_000;
/** Never a real PIN: it only tells the engine a verified PIN was given (offline sales). */
const VERIFIED_OFFLINE = '(verified offline)';
const MAX_PAGE = 10_000;

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

// ---- cursors: `s.SNAPSEQ.ROWID.TOTAL.DONE` while a snapshot pages, `d.SEQ` after ----

type Cursor =
  | { kind: 'snapshot'; snapSeq: number; afterRowid: number; total: number; done: number }
  | { kind: 'delta'; seq: number };

function parseCursor(text: string): Cursor | null {
  const parts = text.split('.');
  const ints = parts.slice(1).map(Number);
  if (!ints.every((x) => Number.isSafeInteger(x) && x >= 0)) return null;
  if (parts[0] === 's' && ints.length === 4) {
    const [snapSeq, afterRowid, total, done] = ints as [number, number, number, number];
    return { kind: 'snapshot', snapSeq, afterRowid, total, done };
  }
  if (parts[0] === 'd' && ints.length === 1) return { kind: 'delta', seq: ints[0]! };
  return null;
}

const toChange = (row: {
  entity: string;
  id: string;
  data: string | null;
  deleted: 0 | 1;
}): Change =>
  row.deleted
    ? { entity: row.entity as Change['entity'], op: 'delete', id: row.id, data: null }
    : // Served as stored: a record the sandbox was told to corrupt stays corrupt on the wire.
      {
        entity: row.entity as Change['entity'],
        op: 'upsert',
        id: row.id,
        data: safeJson(row.data),
      };

function safeJson(text: string | null): Record<string, unknown> | null {
  try {
    return JSON.parse(text ?? 'null') as Record<string, unknown> | null;
  } catch {
    return { malformed: text };
  }
}

export function createService(o: ServiceOptions) {
  const { store, clock } = o;
  const ttl = o.tokenTtlMs ?? 3_600_000;

  function issueToken(terminal: TerminalInfo, staffId: string | null): string {
    const token = randomBytes(24).toString('base64url');
    store.putToken({
      token,
      terminal_id: terminal.id,
      staff_id: staffId,
      expires_ms: clock.now() + ttl,
    });
    return token;
  }

  function terminalInfo(id: string): TerminalInfo {
    const t = store.terminal(id);
    if (!t) throw new HttpError(401, 'unauthorized', 'unknown terminal');
    return { id: t.id, business_id: t.business_id, pos_id: t.pos_id, loyalty_id: t.loyalty_id };
  }

  /** The session of a bearer token, or 401. */
  function authenticate(token: string | null): Session {
    if (!token) throw new HttpError(401, 'unauthorized', 'a bearer token is required');
    const row = store.token(token);
    if (!row || row.expires_ms <= clock.now())
      throw new HttpError(401, 'unauthorized', 'the token is unknown or expired');
    return { terminal: terminalInfo(row.terminal_id), staffId: row.staff_id };
  }

  /** The sandbox controls take the demo terminal's API key itself. */
  function authenticateApiKey(key: string | null): TerminalInfo {
    const first = store.firstTerminal();
    if (!key || !first || first.api_key_hash !== hashApiKey(key)) {
      throw new HttpError(
        401,
        'unauthorized',
        'the sandbox controls need the demo terminal API key',
      );
    }
    return terminalInfo(first.id);
  }

  function signIn(body: { terminal_id: string; api_key: string }) {
    const t = store.terminal(body.terminal_id);
    if (!t || t.api_key_hash !== hashApiKey(body.api_key)) {
      throw new HttpError(401, 'unauthorized', 'unknown terminal or wrong API key');
    }
    const token = issueToken(terminalInfo(t.id), null);
    return {
      token,
      access: 'business-staff' as const,
      access_scopes: ['payments' as const],
      owner: false,
    };
  }

  function staffSignIn(session: Session, body: { auth_code: string }) {
    const staff = (store.list('staff') as Rec[]).find(
      (s) =>
        s.suspended !== 1 &&
        typeof s.auth_code_hash === 'string' &&
        verifySecret(body.auth_code, s.auth_code_hash),
    );
    if (!staff)
      throw new HttpError(
        401,
        'unauthorized',
        'no active staff member has this auth code',
        'auth_code',
      );
    const token = issueToken(session.terminal, staff.id as string);
    const { auth_code_hash: _hash, ...visible } = staff;
    return {
      token,
      access: 'business-staff' as const,
      access_scopes: ['payments' as const],
      owner: false,
      staff: visible,
    };
  }

  function changes(query: { cursor?: string | undefined; limit?: number | undefined }) {
    const limit = Math.min(query.limit ?? DEFAULT_PAGE, MAX_PAGE);
    let cursor: Cursor;
    if (query.cursor === undefined) {
      cursor = {
        kind: 'snapshot',
        snapSeq: store.currentSeq(),
        afterRowid: 0,
        total: store.countLive(),
        done: 0,
      };
    } else {
      const parsed = parseCursor(query.cursor);
      if (
        !parsed ||
        (parsed.kind === 'delta' &&
          (parsed.seq < store.horizon() || parsed.seq > store.currentSeq()))
      ) {
        throw new HttpError(
          410,
          'cursor-expired',
          'the cursor is no longer known; start a snapshot',
          'cursor',
        );
      }
      if (parsed.kind === 'snapshot' && parsed.snapSeq < store.horizon()) {
        throw new HttpError(
          410,
          'cursor-expired',
          'the snapshot is no longer known; start again',
          'cursor',
        );
      }
      cursor = parsed;
    }
    if (cursor.kind === 'snapshot') {
      const rows = store.snapshotPage(cursor.afterRowid, limit);
      const done = cursor.done + rows.length;
      const last = rows.at(-1);
      const hasMore = rows.length === limit;
      // The snapshot's last page says has_more false: the listing is whole and can be swapped
      // in. Records changed while it paged come again as deltas after snapSeq.
      const next =
        hasMore && last
          ? `s.${cursor.snapSeq}.${last.rowid}.${cursor.total}.${done}`
          : `d.${cursor.snapSeq}`;
      return {
        changes: rows.map(toChange),
        cursor: next,
        has_more: hasMore,
        total: cursor.total,
        done: Math.min(done, cursor.total),
      };
    }
    const rows = store.deltaPage(cursor.seq, limit);
    const last = rows.at(-1);
    const seq = last ? last.seq : cursor.seq;
    return {
      changes: rows.map(toChange),
      cursor: `d.${seq}`,
      has_more: store.currentSeq() > seq,
      total: null,
    };
  }

  function lookup(query: { id: string; id_type: string }) {
    const customer = lookupCustomer(store, query.id, query.id_type);
    if (!customer) throw new HttpError(404, 'not-found', 'no customer has this identifier', 'id');
    return {
      changes: customerRecords(store, customer).map((r) => ({
        entity: r.entity as Change['entity'],
        op: 'upsert' as const,
        id: r.id,
        data: r.data,
      })),
    };
  }

  function runEngine(session: Session, check: Rec, mode: 'calc' | 'process') {
    const offline =
      check.transaction_subtype === 'offline' &&
      check.special_account_required_values_verify === false;
    const pin =
      typeof check.special_account_pin === 'string' ? check.special_account_pin : undefined;
    const paymentId = check.payment_id;
    const nextCouponSeq = Number(store.meta('coupon_seq') ?? '1');
    // A PIN the terminal verified offline is not sent (interfaces.md): the engine, which asks
    // for a PIN before it looks at pin_verified, is handed a stand-in for the absent one.
    const engineCheck =
      offline && pin === undefined ? { ...check, special_account_pin: VERIFIED_OFFLINE } : check;
    const { fixture, resolved } = buildFixture(store, {
      mode,
      nowMs: clock.now(),
      terminal: session.terminal,
      check: engineCheck,
      nextCouponSeq,
      pinVerified: (record) => {
        if (record.id !== paymentId || record.security_code !== 1) return undefined;
        // The terminal verified the PIN against the hash while offline (interfaces.md).
        if (offline) return true;
        if (pin === undefined) return undefined;
        return typeof record.pin_hash === 'string' && verifySecret(pin, record.pin_hash);
      },
    });
    return { result: o.engine(fixture), resolved, nextCouponSeq };
  }

  function engineFailure(result: EngineResult): HttpError | null {
    if (!('error' in result)) return null;
    const e = result.error;
    return new HttpError(422, e.code, e.message, e.path, e.details);
  }

  function calcCheck(session: Session, check: Rec) {
    const { result } = runEngine(session, check, 'calc');
    const failure = engineFailure(result);
    if (failure) throw failure;
    return (result as { check: Rec }).check;
  }

  function processCheck(session: Session, check: Rec) {
    const transactionId = check.transaction_id as string;
    if (store.transaction(transactionId)) {
      throw new HttpError(
        409,
        'idempotency-conflict',
        'this transaction_id was processed under another key',
        'transaction_id',
      );
    }
    const { result, resolved, nextCouponSeq } = runEngine(session, check, 'process');
    const failure = engineFailure(result);
    if (failure) throw failure;
    const processed = {
      ...(result as { check: Rec }).check,
      transaction_id: transactionId,
      transaction_subtype: check.transaction_subtype === 'offline' ? 'offline' : 'online',
    } as Rec;
    const emitted = ((processed.emitted_coupons as unknown[] | undefined) ?? []).length;
    if (emitted > 0) store.setMeta('coupon_seq', String(nextCouponSeq + emitted));
    const effects = applyProcessed(store, {
      transactionId,
      customer: resolved.customer,
      today: resolved.today,
      check: processed,
    });
    store.insertTransaction({
      transaction_id: transactionId,
      terminal_id: session.terminal.id,
      operation: 'process_check',
      customer_id: (resolved.customer?.id as string | undefined) ?? null,
      subtype: processed.transaction_subtype as string,
      body: JSON.stringify({ check: processed, effects }),
      created: new Date(clock.now()).toISOString(),
    });
    return processed;
  }

  function cancelCheck(
    session: Session,
    body: {
      transaction_id: string;
      comment?: string | undefined;
      business_staff?: { id: string; name?: string | undefined } | undefined;
    },
    key: string,
  ) {
    const row = store.transaction(body.transaction_id);
    if (!row) {
      // A void: the terminal refused a sale whose request may have reached us. Nothing was
      // applied; the id is fenced so that sale can never be applied later.
      store.insertTransaction({
        transaction_id: body.transaction_id,
        terminal_id: session.terminal.id,
        operation: 'void',
        customer_id: null,
        subtype: 'online',
        body: JSON.stringify({ voided_by: key }),
        created: new Date(clock.now()).toISOString(),
      });
      return {
        transaction_id: body.transaction_id,
        transaction_cancelled: 1,
        comment: body.comment,
      } as Rec;
    }
    if (refundsOf(body.transaction_id).length > 0)
      throw new HttpError(
        422,
        'sale-refunded',
        'some lines were refunded already: refund the rest instead',
        'transaction_id',
      );
    if (row.operation !== 'process_check') {
      throw new HttpError(
        422,
        'invalid-input',
        'no processed check has this transaction_id',
        'transaction_id',
      );
    }
    const stored = JSON.parse(row.body) as { check: Rec; effects: Effects };
    if (row.cancelled)
      throw new HttpError(422, 'invalid-input', 'the check is already cancelled', 'transaction_id');
    const today = localDate(clock.now(), timeZoneOf(store, session.terminal));
    const owed = reverseEffects(store, body.transaction_id, stored.effects, today);
    store.markCancelled(body.transaction_id);
    const cancelled = {
      ...stored.check,
      transaction_cancelled: 1,
      comment: body.comment ?? stored.check.comment,
    } as Rec;
    store.insertTransaction({
      transaction_id: key,
      terminal_id: session.terminal.id,
      operation: 'cancel_check',
      customer_id: row.customer_id,
      subtype: 'online',
      // Who cancelled: the cancelled check keeps its seller.
      body: JSON.stringify({
        cancels: body.transaction_id,
        check: cancelled,
        ...(body.business_staff ? { business_staff: body.business_staff } : {}),
      }),
      created: new Date(clock.now()).toISOString(),
    });
    // What the write-off could not take, as done here: the till reconciles its figure with it.
    return { ...cancelled, owed: { bonuses: owed } } as Rec;
  }

  /** The refunds recorded against a sale, oldest first. */
  function refundsOf(originalId: string): EarlierRefund[] {
    const out: EarlierRefund[] = [];
    for (const t of store.transactions()) {
      if (t.operation !== 'refund_check') continue;
      const b = JSON.parse(t.body) as {
        original_transaction_id: string;
        lines: readonly { index: number }[];
        check: EngineCheckResult;
      };
      if (b.original_transaction_id === originalId)
        out.push({ lines: b.lines.map((l) => l.index), check: b.check });
    }
    return out;
  }

  /**
   * A refund of some lines (engine.md 15): the engine's refund mode over what earlier refunds
   * left of the sale as stored here, never recalculated with today's rules.
   */
  function refundCheck(session: Session, body: RefundCheck, key: string) {
    const { row, stored } = saleToRefund(body);
    const original = remainderOf(
      stored.check as EngineProcessedCheck,
      refundsOf(body.original_transaction_id),
    ) as Rec;
    const { check, resolved } = runRefund(session, body, row, original);
    const refund = {
      ...check,
      transaction_id: key,
      preliminary_transaction_id: body.original_transaction_id,
      ...(body.comment ? { comment: body.comment } : {}),
      // Who refunded, not the sale's seller the stored check names.
      ...(body.business_staff ? { business_staff: body.business_staff } : {}),
    } as Rec;
    const effects = applyRefund(store, {
      refundId: key,
      customerId: row.customer_id,
      today: resolved.today,
      saleDate: localDate(Date.parse(row.created), resolved.timeZone),
      refund,
      via: stored.effects.accounts.find((a) => a.access_id !== null)?.access_id ?? null,
    });
    store.insertTransaction({
      transaction_id: key,
      terminal_id: session.terminal.id,
      operation: 'refund_check',
      customer_id: row.customer_id,
      subtype: 'online',
      body: JSON.stringify({
        original_transaction_id: body.original_transaction_id,
        lines: body.lines,
        check: refund,
        effects,
      }),
      created: new Date(clock.now()).toISOString(),
    });
    return { ...refund, owed: { bonuses: effects.owed } } as Rec;
  }

  /** The processed, uncancelled sale a refund names; a refund's own id must be new. */
  function saleToRefund(body: RefundCheck): {
    row: TransactionRow;
    stored: { check: Rec; effects: Effects };
  } {
    if (store.transaction(body.transaction_id)) {
      throw new HttpError(
        409,
        'idempotency-conflict',
        'this transaction_id was used under another key',
        'transaction_id',
      );
    }
    const row = store.transaction(body.original_transaction_id);
    if (!row || row.operation !== 'process_check')
      throw new HttpError(
        422,
        'sale-not-found',
        'no processed check has this id',
        'original_transaction_id',
      );
    if (row.cancelled)
      throw new HttpError(
        422,
        'already-cancelled',
        'this check is cancelled',
        'original_transaction_id',
      );
    return { row, stored: JSON.parse(row.body) as { check: Rec; effects: Effects } };
  }

  /** The engine in refund mode over `original`; its refusal names the request's `lines`. */
  function runRefund(session: Session, body: RefundCheck, row: TransactionRow, original: Rec) {
    const { fixture, resolved } = buildFixture(store, {
      mode: 'calc',
      nowMs: clock.now(),
      terminal: session.terminal,
      check: row.customer_id ? { ...original, customer_id: row.customer_id } : original,
      nextCouponSeq: 1,
      pinVerified: () => undefined,
    });
    const { check: _check, ...rest } = fixture as typeof fixture & { check?: unknown };
    const result = o.engine({
      ...rest,
      mode: 'refund',
      original,
      refund_lines: body.lines.map((l) => ({ index: l.index, quantity: l.quantity })),
    } as EngineFixtureInput);
    const failure = engineFailure(result);
    if (failure) {
      const e = failure.body().error;
      throw new HttpError(
        422,
        e.code,
        e.message,
        (e.path ?? '(root)').replace(/^refund_lines/, 'lines'),
        e.details,
      );
    }
    return { check: (result as { check: Rec }).check, resolved };
  }

  function bonusesOperation(
    session: Session,
    body: BonusesOperationObject,
    key: string,
    kind: 'add' | 'write-off',
  ): BonusesOperationResult {
    if (body.terminal_id !== session.terminal.id) {
      throw new HttpError(
        403,
        'forbidden',
        'terminal_id is not the signed-in terminal',
        'terminal_id',
      );
    }
    const amount = dec(body.amount ?? 0);
    if (!gt(amount, ZERO))
      throw new HttpError(422, 'invalid-input', 'amount must be > 0', 'amount');
    const results: BonusesOperationResult['results'] = [];
    for (const [i, id] of (body.users ?? []).entries()) {
      const customer =
        (store.getRecord('customer', id) as Rec | undefined) ?? lookupCustomer(store, id, 'card');
      if (!customer) throw new HttpError(422, 'invalid-input', `no customer ${id}`, `users[${i}]`);
      const bonuses = (customer.bonuses ?? {}) as Rec;
      const balance = dec(typeof bonuses.regular === 'number' ? bonuses.regular : 0);
      let next = add(balance, amount);
      let owed = ZERO;
      if (kind === 'write-off') {
        // Past the balance the rest is owed (engine.md 15), never a silent loss.
        const taken = lt(balance, amount) ? (gt(balance, ZERO) ? balance : ZERO) : amount;
        owed = sub(amount, taken);
        next = sub(balance, taken);
      }
      const owedBefore = dec(typeof bonuses.owed === 'number' ? bonuses.owed : 0);
      store.upsert('customer', customer.id as string, {
        ...customer,
        bonuses: {
          ...bonuses,
          regular: toNumber(next),
          ...(gt(owed, ZERO) ? { owed: toNumber(add(owedBefore, owed)) } : {}),
        },
      });
      results.push({
        customer_id: customer.id as string,
        amount: toNumber(kind === 'add' ? amount : neg(sub(amount, owed))),
        balance: toNumber(next),
        owed: toNumber(owed),
      });
    }
    store.insertTransaction({
      transaction_id: key,
      terminal_id: session.terminal.id,
      operation: kind === 'add' ? 'bonuses_add' : 'bonuses_write_off',
      customer_id: results[0]?.customer_id ?? null,
      subtype: 'online',
      body: JSON.stringify({ request: body, results }),
      created: new Date(clock.now()).toISOString(),
    });
    return { operation: kind, results };
  }

  /** `coupons/sell` (coupon-sales.ts), on the terminal's local date. */
  function couponSell(session: Session, body: CouponSell, _key: string): CouponSold {
    return sellCoupon(store, clock.now(), timeZoneOf(store, session.terminal), session, body);
  }

  function bankCardPayment(session: Session, body: BankCardPayment, key: string): BankCardPayment {
    const stored = { ...body, created: body.created ?? new Date(clock.now()).toISOString() };
    store.insertTransaction({
      transaction_id: key,
      terminal_id: session.terminal.id,
      operation: 'bank_card_payments',
      customer_id: null,
      subtype: 'online',
      body: JSON.stringify(stored),
      created: new Date(clock.now()).toISOString(),
    });
    return stored;
  }

  /** `GET /sandbox/balances`: every customer's bonuses and every account's balance. */
  function balances(terminal: TerminalInfo) {
    const today = localDate(clock.now(), timeZoneOf(store, terminal));
    const customers = (store.list('customer') as Rec[]).map((c) => {
      const lots = (store.findBy('bonus_lot', 'customer_id', c.id as string) as Rec[]).filter(
        (l) =>
          (l.starting == null || (l.starting as string) <= today) &&
          (l.expire == null || today <= (l.expire as string)),
      );
      const promotional = lots.reduce((s, l) => add(s, dec(l.amount as number)), ZERO);
      const bonuses = (c.bonuses ?? {}) as Rec;
      return {
        customer_id: c.id,
        regular: bonuses.regular ?? 0,
        promotional: toNumber(promotional),
        owed: bonuses.owed ?? 0,
      };
    });
    const accounts = (store.list('special_account') as Rec[]).map((a) => ({
      account_id: a.id,
      customer_id: a.customer_id,
      balance: a.balance ?? 0,
    }));
    return { customers, accounts };
  }

  function transactions() {
    return {
      transactions: store.transactions().map((t) => ({
        transaction_id: t.transaction_id,
        terminal_id: t.terminal_id,
        operation: t.operation,
        customer_id: t.customer_id,
        subtype: t.subtype,
        cancelled: t.cancelled,
        created: t.created,
        ...(JSON.parse(t.body) as Rec),
      })),
    };
  }

  return {
    authenticate,
    authenticateApiKey,
    signIn,
    staffSignIn,
    changes,
    lookup,
    calcCheck,
    processCheck,
    cancelCheck,
    refundCheck,
    bonusesOperation,
    bankCardPayment,
    couponSell,
    balances,
    transactions,
  };
}

export type CentralService = ReturnType<typeof createService>;
