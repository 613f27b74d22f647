// Processing a sale (sync.md, "Behaviour the terminal must have"): the one service the
// terminal workflow calls. A check that spends (bonuses, special-account money, coupons) goes
// online first to process_check with a short deadline; on a network error, timeout, 429 or
// 5xx the terminal stands in offline within the stand-in limits and queues the same
// transaction under the same id. A check that only earns or is paid in cash is calculated
// locally and queued at once: the till never waits for the link. Either way the sale, its
// ledger effects and its outbox row commit in one SQLite transaction before "done".
import type { ErrorBody } from '../contract/commands.js';
import type { Config } from '../contract/config.js';
import type {
  EngineCheck,
  EngineCheckResult,
  EngineError,
  EngineResult,
  EngineRule,
  EngineWarning,
} from '../contract/engine.js';
import { compileRules, calculate, type PreparedRules } from '../engine/index.js';
import { dec, ZERO, add, type Dec } from '../money/index.js';
import type { OperationInput } from '../store/ledger.js';
import type { Store } from '../store/open.js';
import type { CentralClient, Failure } from '../sync/client.js';
import type { SyncClock } from '../sync/clock.js';
import type { Connectivity } from '../sync/connectivity.js';
import { uuidv7 } from '../sync/ids.js';
import {
  accountsOf,
  saleOperation,
  voidOperation,
  type Answered,
  type PayloadMeta,
} from './ledger-ops.js';
import { checkStandin, type StandinLimit } from '../sync/standin.js';
import { spendingField } from './presented-customer.js';
import { pinAttempt, pinTarget, settleRefusal, type PinLocked } from './pin-attempts.js';
import { posToday } from './pos-date.js';

/** The contract's error body, except that a sale's refusal may name no path. */
export type SaleError = Omit<ErrorBody, 'path'> & { path: string | null };

export type SaleOutcome =
  | {
      ok: true;
      transaction_id: string;
      /** The processed check: the server's when it answered, else this terminal's. */
      check: EngineCheckResult;
      subtype: 'online' | 'offline';
      /** done: the server has it; queued: the outbox will deliver it. */
      sync: 'done' | 'queued';
      clock_suspect: boolean;
      /** True when the same transaction id had been recorded before (a repeat tap). */
      repeated: boolean;
      /**
       * The local date the sale is booked on (its POS's zone, pos-date.ts): the card
       * operations that paid it are booked on the same date, even past midnight.
       */
      local_date: string;
    }
  | { ok: false; transaction_id: string; error: SaleError };

/** A sale recorded: what `process` answers when it succeeds. */
export type Sold = Extract<SaleOutcome, { ok: true }>;

export interface SaleRequest {
  /** The check as the till sends it; `transaction_id` optional (made here when absent). */
  check: EngineCheck;
  /**
   * The till's own computation of this check in process mode (the sale pipeline's frozen
   * check, what the card was charged for): recorded as it is when the sale is queued or
   * stands in, never computed again. Absent: computed here, once.
   */
  local?: LocalSale;
  /**
   * Keeps the sale's answer in the transaction that records the sale, when nothing of it has
   * left the till (queued, or standing in after the central service applied nothing): a throw
   * rolls the record back. Not called when the central service has, or may have, applied the
   * sale: that record commits whatever its answer (docs/terminal.md).
   */
  keep?: (sold: Sold) => void;
  /**
   * Runs in the transaction that records the sale, whatever its answer (the pump fills it
   * sells marked sold): a sale and what it settles commit together or not at all.
   */
  withRecord?: () => void;
}

/** Both callbacks in order, or the one given, or none. */
function both(a?: () => void, b?: () => void): (() => void) | undefined {
  if (!a || !b) return a ?? b;
  return () => {
    a();
    b();
  };
}

/** A check computed on this till in process mode, with what recording it needs. */
export interface LocalSale {
  readonly processed: EngineCheckResult;
  readonly customerId: string | null;
  readonly bonusRate: number;
}

/** What computing a sale locally needs: the store with its cache, and who this terminal is. */
export interface ComputeDeps {
  store: Store;
  config: Config;
  terminalId: string;
}

/** The POS and loyalty a check is sold in: its own, else the cache's first (a one-POS till). */
export function scopeOf(store: Store, check: EngineCheck): { posId?: string; loyaltyId?: string } {
  const posId = check.pos?.id ?? store.cache.all('pos')[0]?.id;
  const pos = posId ? store.cache.get('pos', posId) : null;
  const loyaltyId = check.loyalty?.id ?? pos?.loyalty_id ?? store.cache.all('loyalty')[0]?.id;
  return { ...(posId ? { posId } : {}), ...(loyaltyId ? { loyaltyId } : {}) };
}

/**
 * The engine over the local store in process mode: the one computation of a sale on this till.
 * The PIN is handed to the engine only as "given"; its check against the cached hash is
 * `pin_verified` (the engine strips the PIN from its answer; nothing stored carries it).
 */
export function computeSale(
  d: ComputeDeps,
  check: EngineCheck,
  pin: string | undefined,
  mode: 'calc' | 'process' = 'process',
):
  | { ok: true; local: LocalSale; warnings: EngineWarning[] }
  | { ok: false; error: EngineError | PinLocked } {
  const { store, config, terminalId } = d;
  // The PIN limit: checked, verified and counted in this one synchronous step.
  const attempt = pinAttempt(store, config, check, pin);
  if (attempt?.locked) return { ok: false, error: attempt.locked };
  let targetVerified = false;
  const assembled = store.assembleContext({
    check: pin === undefined ? check : ({ ...check, special_account_pin: pin } as EngineCheck),
    mode,
    ...scopeOf(store, check),
    terminal: { id: terminalId, couponPrefix: config.terminal.coupon_prefix },
    pinVerified: (id) => {
      if (pin === undefined) return undefined;
      const hash = store.cache.pinHashOf(id);
      const right = hash !== null && store.secretHashes.verify(pin, hash);
      if (right && id === check.payment_id) targetVerified = true;
      return right;
    },
  });
  const result: EngineResult = calculate(assembled.context, preparedRules(assembled.rules));
  if ('error' in result) return { ok: false, error: settleRefusal(attempt, result.error) };
  // A sale's PIN is settled when the sale is (the central service may still refuse it).
  if (targetVerified && mode === 'calc') attempt?.settle('right');
  const { context } = assembled;
  return {
    ok: true,
    warnings: result.warnings,
    local: {
      processed: result.check,
      customerId: assembled.customer?.id ?? null,
      bonusRate: context.loyalty.bonus_rate,
    },
  };
}

/** The refusal of a sale under a transaction id this till voided (sync.md, "Unknown outcomes"). */
export function transactionVoided(id: string): SaleError {
  return {
    code: 'transaction-voided',
    message:
      'this sale was voided because its outcome was unknown; sell it again under a new transaction id',
    path: 'transaction_id',
    details: { transaction_id: id },
  };
}

export interface SaleServiceDeps {
  store: Store;
  client: CentralClient;
  link: Connectivity;
  clock: SyncClock;
  config: Config;
  terminalId: string;
  appVersion: string;
  schemaVersion: number;
  /** Kicks the outbox after a queued write (sync.md: draining starts on new writes). */
  onQueued?: () => void;
  newId?: () => string;
}

/** A check spends when it pays with bonuses, from a special account, or redeems coupons. */
export function spends(check: EngineCheck): boolean {
  return spendingField(check) !== null || (check.redeemed_coupons ?? []).length > 0;
}

/**
 * Failures after which the terminal stands in: the server may simply be unreachable, or it
 * answered in a way the terminal cannot read (the outcome is unknown, never a refusal).
 */
function standsIn(f: Failure): boolean {
  return (
    f.kind === 'network' ||
    f.kind === 'timeout' ||
    f.kind === 'invalid-response' ||
    (f.kind === 'http' && (f.status >= 500 || f.status === 429 || f.status === 408))
  );
}

/**
 * A failure after which the request may have reached the server (its answer was lost, or
 * came back unreadable: a 2xx whose body breaks the contract may well have applied the sale).
 */
function ambiguous(f: Failure): boolean {
  if (f.kind === 'invalid-response') return true;
  if (f.kind === 'timeout') return !/connect/i.test(f.code);
  if (f.kind === 'network')
    return !/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN/.test(f.code);
  return f.kind === 'http' && f.status >= 500;
}

/**
 * The coupons a stand-in sale sends: only those the till redeemed. One the till could not
 * (unknown to its copy, not open there) gave the customer nothing on the receipt, so the
 * server must not spend it when the queued sale arrives (docs/sync.md). Not for a sale whose
 * online attempt may have reached the server: that request is sent again unchanged, and a
 * difference in the server's answer is a sale-differs item.
 */
function redeemedOnly(check: EngineCheck, processed: EngineCheckResult): Partial<EngineCheck> {
  if (!check.redeemed_coupons) return {};
  const used = new Set(
    (processed.redeemed_coupons ?? [])
      .filter((c) => c.valid !== false && c.applicable !== false)
      .map((c) => c.code),
  );
  return { redeemed_coupons: check.redeemed_coupons.filter((c) => used.has(c.code)) };
}

/** The server's definite refusal of a sale: its code, message, path and details. */
function refusalOf(f: Failure): SaleError {
  return f.kind === 'http'
    ? {
        code: f.code,
        message: f.message,
        path: f.path,
        ...(f.details ? { details: f.details as Record<string, unknown> } : {}),
      }
    : { code: f.code, message: f.message, path: null };
}

/** The process_check request: the check with its PIN, marked when the till's clock is suspect. */
function onlineBody(check: EngineCheck, pin: string | undefined, clockSuspect: boolean) {
  const withPin = { ...check, ...(pin ? { special_account_pin: pin } : {}) };
  return clockSuspect
    ? {
        ...withPin,
        external_additional_info: {
          ...(check.external_additional_info ?? {}),
          clock_suspect: true,
        },
      }
    : withPin;
}

const prepared = new WeakMap<readonly EngineRule[], PreparedRules>();
/** The rules compiled for the engine, once per rules array (the cache swaps the array). */
export function preparedRules(rules: readonly EngineRule[]): PreparedRules {
  let p = prepared.get(rules);
  if (!p) {
    p = compileRules(rules as EngineRule[]);
    prepared.set(rules, p);
  }
  return p;
}

export class SaleService {
  private readonly d: SaleServiceDeps;

  constructor(d: SaleServiceDeps) {
    this.d = d;
  }

  private meta(clockSuspect: boolean): PayloadMeta {
    const { appVersion, schemaVersion, clock } = this.d;
    return { appVersion, schemaVersion, nowMs: clock.now(), clockSuspect };
  }

  /** Today at the POS the check is sold in: the local date its sale is booked on. */
  private today(check: EngineCheck): string {
    return posToday(this.d.store.cache, this.d.clock.now(), check.pos?.id);
  }

  /** The request's frozen computation, or this check computed now (once) in process mode. */
  private localOf(
    req: SaleRequest,
    check: EngineCheck,
    pin: string | undefined,
  ): { ok: true; local: LocalSale } | { ok: false; error: SaleError } {
    if (req.local) return { ok: true, local: req.local };
    const r = computeSale(this.d, check, pin);
    return r.ok ? r : { ok: false, error: { ...r.error, path: r.error.path ?? null } };
  }

  /** The PIN sale before this one, per account: each waits for it (pin-attempts.ts). */
  private readonly pinQueues = new Map<string, Promise<unknown>>();

  /**
   * Sales typing a PIN for the same account run one at a time: the lockout check, the online
   * call and the counting of the central service's `pin-invalid` are one step, whatever the
   * network does in between.
   */
  process(req: SaleRequest): Promise<SaleOutcome> {
    const { special_account_pin: pin } = req.check as { special_account_pin?: string };
    const target = pinTarget(req.check, pin);
    if (target === null) return this.processNow(req);
    const run = (this.pinQueues.get(target) ?? Promise.resolve()).then(() => this.processNow(req));
    const tail = run.catch(() => undefined);
    this.pinQueues.set(target, tail);
    void tail.then(() => {
      if (this.pinQueues.get(target) === tail) this.pinQueues.delete(target);
    });
    return run;
  }

  private async processNow(req: SaleRequest): Promise<SaleOutcome> {
    const { store, link, clock } = this.d;
    const id = req.check.transaction_id ?? (this.d.newId ? this.d.newId() : uuidv7(clock.now()));
    const repeated = this.repeatOf(id, req.check);
    if (repeated) return repeated;
    // A voided id is spent: the server has (or will have) it cancelled, so a sale under it
    // would be acknowledged here and cancelled there.
    if (store.ledger.voidOf(id))
      return { ok: false, transaction_id: id, error: transactionVoided(id) };
    const { special_account_pin: pin, ...withoutPin } = req.check as EngineCheck & {
      special_account_pin?: string;
    };
    const check = { ...withoutPin, transaction_id: id } as EngineCheck;
    const clockSuspect = link.status().clockSuspect;

    // A customer (or vehicle) with operations still queued here: sent online now, this sale
    // would overtake them (the server would refuse the queued odometer, or spend twice), so
    // it goes through the queue behind them, as a stand-in within the limits.
    const customerId = req.local?.customerId ?? check.customer_id ?? null;
    if (spends(check) && store.ledger.hasUnsent(customerId, check.vehicle_id ?? null))
      return this.standIn(req, id, check, pin, clockSuspect, false);
    if (spends(check)) return this.processOnline(req, id, check, pin, clockSuspect);
    return this.queueLocal(req, id, check, pin, clockSuspect);
  }

  /** A sale recorded before under this id (a repeat tap): answered from the ledger. */
  private repeatOf(id: string, check: EngineCheck): Sold | null {
    const { store } = this.d;
    const existing = store.ledger.storedCheck(id);
    if (!existing) return null;
    const status = store.ledger.status(id);
    return {
      ok: true,
      transaction_id: id,
      check: existing.document,
      subtype: status?.subtype ?? 'online',
      sync: status?.outboxStatus === 'done' ? 'done' : 'queued',
      clock_suspect: false,
      repeated: true,
      local_date: status?.localDate ?? this.today(check),
    };
  }

  /**
   * A sale that spends: sent online first with a short deadline. The server's answer is
   * recorded as done; its refusal is the sale's; a failure that may be the network's
   * stands in.
   */
  private async processOnline(
    req: SaleRequest,
    id: string,
    check: EngineCheck,
    pin: string | undefined,
    clockSuspect: boolean,
  ): Promise<SaleOutcome> {
    const { store, client, clock, config } = this.d;
    // The PIN limit holds online too: a locked PIN is not even sent.
    const attempt = pinAttempt(store, config, check, pin);
    if (attempt?.locked) return { ok: false, transaction_id: id, error: attempt.locked };
    // Durable before the request leaves: a till killed before the answer is recorded finds
    // this at its next start and voids the sale there (recoverOnlineAttempts).
    store.onlineAttempts.begin(id, clock.now());
    const online = await client.write('processCheck', onlineBody(check, pin, clockSuspect), id, {
      deadlineMs: config.central.timeouts.online_deadline_ms,
    });
    if (online.ok) {
      attempt?.settle('right');
      return this.recordOnline(req, id, check, online.value as EngineCheckResult, clockSuspect);
    }
    const f = online.failure;
    if (standsIn(f)) return this.standIn(req, id, check, pin, clockSuspect, ambiguous(f));
    const error = refusalOf(f);
    // A definite answer: the server applied nothing.
    store.onlineAttempts.end(id);
    const locked = error.code === 'pin-invalid' ? attempt?.settle('wrong') : null;
    return { ok: false, transaction_id: id, error: locked ?? error };
  }

  /** The server's processed check, recorded as done (nothing left to send). */
  private recordOnline(
    req: SaleRequest,
    id: string,
    check: EngineCheck,
    processed: EngineCheckResult,
    clockSuspect: boolean,
  ): Sold {
    const { store } = this.d;
    // The server's answer is the check; the customer comes from the till's computation
    // (or, without one, from the cache: no engine run and no PIN verification here).
    const customerId =
      req.local?.customerId ??
      store.assembleContext({ check, mode: 'process', ...scopeOf(store, check) }).customer?.id ??
      null;
    const localDate = this.today(check);
    this.record(
      id,
      'online',
      check,
      processed,
      customerId,
      clockSuspect,
      localDate,
      { status: 'done', response: processed },
      req.withRecord,
    );
    return {
      ok: true,
      transaction_id: id,
      check: processed,
      subtype: 'online',
      sync: 'done',
      clock_suspect: clockSuspect,
      repeated: false,
      local_date: localDate,
    };
  }

  /**
   * A sale that only earns or is paid in cash: computed here (or the till's frozen check)
   * and queued at once, with its answer kept in the same transaction.
   */
  private queueLocal(
    req: SaleRequest,
    id: string,
    check: EngineCheck,
    pin: string | undefined,
    clockSuspect: boolean,
  ): SaleOutcome {
    const local = this.localOf(req, check, pin);
    if (!local.ok) return { ok: false, transaction_id: id, error: local.error };
    const subtype = this.d.link.current === 'offline' ? 'offline' : 'online';
    const processed = {
      ...local.local.processed,
      transaction_id: id,
      transaction_subtype: subtype,
    } as EngineCheckResult;
    const body: EngineCheck =
      subtype === 'offline' ? { ...check, transaction_subtype: 'offline' } : check;
    const sold: Sold = {
      ok: true,
      transaction_id: id,
      check: processed,
      subtype,
      sync: 'queued',
      clock_suspect: clockSuspect,
      repeated: false,
      local_date: this.today(check),
    };
    const { keep } = req;
    this.record(
      id,
      subtype,
      body,
      processed,
      local.local.customerId,
      clockSuspect,
      sold.local_date,
      { status: 'queued' },
      both(req.withRecord, keep && (() => keep(sold))),
    );
    return sold;
  }

  private standIn(
    req: SaleRequest,
    id: string,
    check: EngineCheck,
    pin: string | undefined,
    clockSuspect: boolean,
    maybeApplied: boolean,
  ): SaleOutcome {
    const { store, link, config } = this.d;
    const refuse = (error: SaleError): SaleOutcome => {
      // The request may have reached the server before its answer was lost: void it, so a
      // sale the cashier was told did not happen cannot stay on the server.
      if (maybeApplied) this.queueVoid(id, clockSuspect);
      else store.onlineAttempts.end(id);
      return { ok: false, transaction_id: id, error };
    };
    const computed = this.localOf(req, check, pin);
    if (!computed.ok) return refuse(computed.error);
    const { processed, customerId, bonusRate } = computed.local;
    const today = this.today(check);
    let money: Dec = ZERO;
    for (const c of processed.special_accounts_charges ?? [])
      if (c.direction === 'debit') money = add(money, dec(c.amount));
    const decision = checkStandin({
      limits: config.standin,
      cacheAgeMs: link.sinceContactMs(),
      spend: { bonuses: dec(processed.bonuses_redeemed_amount ?? 0), money },
      bonusRate: dec(bonusRate),
      // A wall clock that jumped must not open a new day's allowance: while it is suspect,
      // every unconfirmed offline spend of the customer counts, whatever day it was stamped.
      offline: store.ledger.offlineSpending(customerId, clockSuspect ? 'any-day' : today),
    });
    if (!decision.ok) {
      return refuse({
        code: decision.code,
        message: decision.message,
        path: null,
        details: { limit: decision.limit satisfies StandinLimit, available: decision.available },
      });
    }
    // The server accepts a PIN the terminal verified offline (interfaces.md, Secrets).
    const body: Record<string, unknown> = {
      ...check,
      // A request that may have reached the server goes again as it was (one key, one body).
      ...(maybeApplied ? {} : redeemedOnly(check, processed)),
      transaction_subtype: 'offline',
    };
    if (pin !== undefined) body.special_account_required_values_verify = false;
    const offline = {
      ...processed,
      transaction_id: id,
      transaction_subtype: 'offline',
    } as EngineCheckResult;
    const sold: Sold = {
      ok: true,
      transaction_id: id,
      check: offline,
      subtype: 'offline',
      sync: 'queued',
      clock_suspect: clockSuspect,
      repeated: false,
      local_date: today,
    };
    // A request that may have reached the server cannot be taken back here: that record
    // commits whatever its answer (the till must not forget a sale the server may hold).
    const keep = maybeApplied ? undefined : req.keep;
    try {
      this.record(
        id,
        'offline',
        body as EngineCheck,
        offline,
        customerId,
        clockSuspect,
        today,
        { status: 'queued' },
        both(req.withRecord, keep && (() => keep(sold))),
      );
    } catch (e) {
      // Rolled back, and the server applied nothing: the online attempt is over (as a refusal's).
      if (!maybeApplied) store.onlineAttempts.end(id);
      throw e;
    }
    pinAttempt(store, config, check, pin)?.settle('right');
    return sold;
  }

  /**
   * Online attempts a killed run left open: a sale recorded here only closes its attempt;
   * one never recorded may still have been applied by the server, so it is voided (as a
   * refusal while standing in is), and sale-status reports it unknown. Run at start.
   */
  recoverOnlineAttempts(): { voided: number; recorded: number } {
    const { store } = this.d;
    let voided = 0;
    let recorded = 0;
    for (const a of store.onlineAttempts.open()) {
      if (store.ledger.hasCheck(a.transactionId)) {
        store.onlineAttempts.end(a.transactionId);
        recorded++;
      } else {
        this.queueVoid(a.transactionId, false, 'void: the till stopped before the answer');
        voided++;
      }
    }
    return { voided, recorded };
  }

  /** Queues a cancel of a transaction whose fate on the server is unknown. */
  private queueVoid(
    transactionId: string,
    clockSuspect: boolean,
    comment = 'void: refused while standing in',
  ): void {
    const { clock, store } = this.d;
    const voidId = this.d.newId ? this.d.newId() : uuidv7(clock.now());
    this.commit(
      voidOperation({
        id: voidId,
        transactionId,
        comment,
        // The sale it voids may be unknown here: booked on the till's POS's date.
        localDate: posToday(store.cache, clock.now()),
        meta: this.meta(clockSuspect),
      }),
      transactionId,
    );
    this.d.onQueued?.();
  }

  private record(
    id: string,
    subtype: 'online' | 'offline',
    body: EngineCheck,
    processed: EngineCheckResult,
    customerId: string | null,
    clockSuspect: boolean,
    localDate: string,
    answered: Answered,
    inside?: () => void,
  ): void {
    const { store } = this.d;
    const cache = store.cache;
    // A corporate charge names the fleet account; the driver's access is the check's payment_id.
    const via = body.payment_type === 'corporate-special-account' ? body.payment_id : undefined;
    const emits = answered.status === 'queued' && (processed.emitted_coupons ?? []).length > 0;
    const op = saleOperation({
      id,
      subtype,
      localDate,
      body,
      processed,
      customerId,
      accounts: accountsOf(cache, processed.special_accounts_charges ?? [], { via }),
      nextCouponSeq: emits ? store.ledger.nextCouponSeq() : null,
      answered,
      meta: this.meta(clockSuspect),
    });
    // Only a sale that spends went online first (process) and has an attempt to end.
    this.commit(op, spends(body) ? id : null, inside);
    if (answered.status === 'queued') this.d.onQueued?.();
  }

  /**
   * Records `op`; with `attempt`, ends that online attempt in the same transaction, so a crash
   * leaves both or neither (never a record with its attempt open, nor a second void); with
   * `inside` (the answer kept), runs it there too, so its throw rolls both back.
   */
  private commit(op: OperationInput, attempt: string | null, inside?: () => void): void {
    const { store } = this.d;
    if (attempt === null && inside === undefined) {
      store.record(op);
      return;
    }
    store.write(() => {
      store.record(op);
      if (attempt !== null) store.onlineAttempts.end(attempt);
      inside?.();
    });
  }
}
