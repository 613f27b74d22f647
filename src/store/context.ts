// Context assembly: from an identifier and a check, the engine's whole context (engine.md 2,
// engine-fixture.md) in one read transaction: the customer with bonuses, promotional lots and
// period stats, special accounts and corporate accesses with their usage, coupons, vehicles
// with the last odometer, services, margins, the candidate rules, and `pending` (what this
// terminal spent that the cache does not show yet).
//
// Cached records were checked against the engine's schemas when they arrived (entities.ts);
// here they are only picked and combined, not checked by those again, so a sale stays well
// under a millisecond. The cache reads each back through the store's own schema of its entity
// (JSON.parse and zod: about a fifth of the time here, bench/store.ts). Rules come from
// memory (rules.ts), validated once when loaded.
import {
  EngineBusiness,
  EngineLoyalty,
  type EngineCheck,
  type EngineContext,
  type EngineCorporateAccess,
  type EngineCoupon,
  type EngineCustomer,
  type EngineRule,
  type EngineSpecialAccount,
  type EngineStats,
  type EngineVehicle,
  type PromotionalLot,
  type RefundLine,
} from '../contract/engine.js';
import { localDate, samePeriod, STAT_PERIODS, zoneOf } from '../contract/local-time.js';
import { add, dec, gt, toNumber, ZERO, type Dec } from '../money/index.js';
import type { Cache, CachedCustomer, CachedVehicle, IdType } from './cache.js';
import { pick } from '../contract/wire.js';
import type { Entity } from '../contract/feed.js';
import { engineShapes, type RecordOf } from './entities.js';
import type { Ledger } from './ledger.js';
import type { RuleSet } from './rules.js';

export interface ContextRequest {
  /** The check as the till sends it (already validated by the caller). */
  readonly check: EngineCheck;
  readonly mode?: 'calc' | 'process';
  /** How the customer presented themselves; default the check's `id` and `id_type`. */
  readonly identifier?: { readonly id: string; readonly idType: IdType };
  /** Default the check's `pos.id` and `loyalty.id`. */
  readonly posId?: string;
  readonly loyaltyId?: string;
  /** Numbers provisional coupons (engine.md 16); the counter comes from the ledger. */
  readonly terminal?: { readonly id: string; readonly couponPrefix: string };
  /**
   * Whether the PIN given for an account (or corporate access) matched its cached hash; the
   * caller verifies, the engine never sees a hash. Undefined: no PIN was given.
   */
  readonly pinVerified?: (accountOrAccessId: string) => boolean | undefined;
}

export interface RefundRequest {
  /** The processed check to refund, as this terminal stored it. */
  readonly transactionId: string;
  /** Absent: cancel the whole check. */
  readonly lines?: readonly RefundLine[];
  readonly posId?: string;
  readonly loyaltyId?: string;
}

export interface AssembledContext {
  readonly context: EngineContext;
  /** Candidate rules of the loyalty and POS; the same array until the rules change. */
  readonly rules: readonly EngineRule[];
  readonly customer: CachedCustomer | null;
  readonly vehicle: CachedVehicle | null;
}

const ID_TYPES: readonly IdType[] = [
  'phone',
  'card',
  'qr',
  'email',
  'external-id',
  'vehicle',
  'avi',
];

type Totals = { amount: number; quantity: number; visits: number };

/** The server's figures of the periods still current (a rolled period counts as zero). */
function cachedStats(stats: RecordOf<'customer_stats'> | null, today: string): EngineStats {
  const out: EngineStats = {};
  if (!stats) return out;
  for (const period of STAT_PERIODS) {
    const v = stats.periods[period];
    if (!v) continue;
    if (stats.as_of && !samePeriod(period, stats.as_of, today)) continue;
    out[period] = { amount: v.amount, quantity: v.quantity, visits: v.visits };
  }
  return out;
}

/** The holds of this terminal's sales per current period. */
function pendingStats(
  rows: ReadonlyArray<{ localDate: string; amount: Dec; quantity: Dec; visits: number }>,
  today: string,
): EngineStats {
  const out: EngineStats = {};
  for (const period of STAT_PERIODS) {
    let amount = ZERO;
    let quantity = ZERO;
    let visits = 0;
    let any = false;
    for (const r of rows) {
      if (!samePeriod(period, r.localDate, today)) continue;
      amount = add(amount, r.amount);
      quantity = add(quantity, r.quantity);
      visits += r.visits;
      any = true;
    }
    if (any)
      out[period] = {
        amount: toNumber(amount),
        quantity: toNumber(quantity),
        visits,
      } satisfies Totals;
  }
  return out;
}

/** `used` counted on another day (month) than today no longer holds for the day (month). */
function rollUsed<T extends { day: number; month: number }>(
  used: T,
  asOf: string | null | undefined,
  today: string,
): T {
  if (!asOf) return used;
  return {
    ...used,
    day: samePeriod('day', asOf, today) ? used.day : 0,
    month: samePeriod('month', asOf, today) ? used.month : 0,
  };
}

/** The engine's reading of a usage figure: ours when given, else the contract's companion. */
const usedOr = (own: number, companion: number | null | undefined): number =>
  own !== 0 ? own : (companion ?? 0);

/** `limits` with each `_used` companion it has set from `values` (key: companion name). */
function withCompanions<L extends object>(
  limits: L | undefined,
  values: Readonly<Record<string, number>>,
): { limits?: L } {
  if (!limits) return {};
  const out = { ...limits } as Record<string, unknown>;
  for (const [key, v] of Object.entries(values)) if (key in out) out[key] = v;
  return { limits: out as L };
}

/**
 * A special account's usage rolled to today, in `used` and in the contract's `_used`
 * companions alike: a rolled day left in a companion would otherwise still count.
 */
function accountUsage(
  a: EngineSpecialAccount,
  asOf: string | null | undefined,
  today: string,
): Pick<EngineSpecialAccount, 'used' | 'limits'> {
  const l = a.limits;
  const used = rollUsed(
    {
      day: usedOr(a.used.day, l?.day_limit_used),
      month: usedOr(a.used.month, l?.month_limit_used),
      overall: usedOr(a.used.overall, l?.overall_limit_used),
    },
    asOf,
    today,
  );
  return {
    used,
    ...withCompanions(l, {
      day_limit_used: used.day,
      month_limit_used: used.month,
      overall_limit_used: used.overall,
    }),
  };
}

/** The same for a corporate access: the account's day and month, the driver's three. */
function accessUsage(
  a: EngineCorporateAccess,
  asOf: string | null | undefined,
  today: string,
): Pick<EngineCorporateAccess, 'used' | 'limits'> {
  const l = a.limits;
  const account = rollUsed(
    {
      day: usedOr(a.used.account.day, l?.account_day_limit_used),
      month: usedOr(a.used.account.month, l?.account_month_limit_used),
    },
    asOf,
    today,
  );
  const user = rollUsed(
    {
      day: usedOr(a.used.user.day, l?.user_day_limit_used),
      month: usedOr(a.used.user.month, l?.user_month_limit_used),
      overall: usedOr(a.used.user.overall, l?.user_overall_limit_used),
    },
    asOf,
    today,
  );
  return {
    used: { account, user },
    ...withCompanions(l, {
      account_day_limit_used: account.day,
      account_month_limit_used: account.month,
      user_day_limit_used: user.day,
      user_month_limit_used: user.month,
      user_overall_limit_used: user.overall,
    }),
  };
}

const shapeKeys = (entity: Entity): readonly string[] => engineShapes[entity]?.keys ?? [];

/** The fields the engine reads of each cached entity. */
const KEYS = {
  customer: shapeKeys('customer'),
  lot: shapeKeys('bonus_lot'),
  account: shapeKeys('special_account'),
  access: shapeKeys('corporate_access'),
  coupon: shapeKeys('coupon'),
  pos: shapeKeys('pos'),
  service: shapeKeys('additional_service'),
  cost: shapeKeys('additional_cost'),
};

function business(cache: Cache): EngineContext['business'] {
  const settings = cache.all('business_settings')[0];
  return EngineBusiness.parse({
    id: settings?.business_id ?? (settings as { id?: string } | undefined)?.id ?? 'unknown',
    currency: (settings as { currency?: string } | undefined)?.currency,
    // An unknown zone counts as absent here too (zoneOf), rather than failing every sale.
    base_time_zone: zoneOf(null, settings),
  });
}

function loyalty(cache: Cache, id: string | null): EngineContext['loyalty'] {
  const rec = id ? cache.get('loyalty', id) : null;
  return EngineLoyalty.parse(rec ? pick(rec, engineShapes.loyalty?.keys ?? []) : id ? { id } : {});
}

function pos(cache: Cache, id: string | null): EngineContext['pos'] {
  const rec = id ? cache.get('pos', id) : null;
  if (!rec) return id ? { id } : undefined;
  return pick(rec, KEYS.pos) as EngineContext['pos'];
}

/** A vehicle with the higher of its cached odometer and the readings taken here. */
function withLocalOdometer(
  ledger: Ledger,
  vehicleId: string,
  cached: { value: number; unit: 'km' | 'mi' | 'h' } | null | undefined,
): EngineVehicle {
  if (cached) {
    const local = ledger.lastOdometer(vehicleId, cached.unit);
    const value = local && gt(local, dec(cached.value)) ? toNumber(local) : cached.value;
    return { vehicle_id: vehicleId, last_odometer: { value, unit: cached.unit } };
  }
  for (const unit of ['km', 'mi', 'h'] as const) {
    const local = ledger.lastOdometer(vehicleId, unit);
    if (local) return { vehicle_id: vehicleId, last_odometer: { value: toNumber(local), unit } };
  }
  return { vehicle_id: vehicleId, last_odometer: null };
}

function vehicleEntries(
  ledger: Ledger,
  records: readonly CachedVehicle[],
  checkVehicle: string | undefined,
): EngineVehicle[] {
  const out = new Map<string, EngineVehicle>();
  for (const v of records) {
    const vehicleId = v.vehicle_id ?? v.qr_code ?? v.id;
    if (!out.has(vehicleId))
      out.set(vehicleId, withLocalOdometer(ledger, vehicleId, v.last_odometer));
  }
  // A vehicle the cache does not know still keeps the readings taken here.
  if (checkVehicle && !out.has(checkVehicle)) {
    const local = withLocalOdometer(ledger, checkVehicle, null);
    if (local.last_odometer) out.set(checkVehicle, local);
  }
  return [...out.values()];
}

function coupon(cache: Cache, ledger: Ledger, record: RecordOf<'coupon'>): EngineCoupon {
  const c = pick(record, KEYS.coupon) as EngineCoupon;
  const batch = c.batch as (Record<string, unknown> & { code?: string }) | undefined;
  let out: EngineCoupon = c;
  if (!batch?.code && c.batch_id) {
    const b = cache.get('coupon_batch', c.batch_id);
    if (b?.code) out = { ...c, batch: { ...(batch ?? {}), code: b.code } as EngineCoupon['batch'] };
  }
  // This till's own redeem or cancel wins over a cached status that does not show it yet.
  const mark = ledger.couponMark(out.code ?? record.code);
  if (out.status === 'open' && mark === 'redeemed') out = { ...out, status: 'redeemed' };
  if (out.status === 'redeemed' && mark === 'reopened') out = { ...out, status: 'open' };
  return out;
}

/** Coupons presented on the check, by code (a code listed twice is one coupon). */
function presentedCoupons(cache: Cache, ledger: Ledger, check: EngineCheck): EngineCoupon[] {
  const codes = new Set(
    (check.redeemed_coupons ?? [])
      .map((c) => c.code)
      .filter((c): c is string => typeof c === 'string'),
  );
  const coupons: EngineCoupon[] = [];
  for (const code of codes)
    for (const c of cache.couponsByCode(code)) coupons.push(coupon(cache, ledger, c));
  return coupons.filter((c, i) => coupons.findIndex((d) => d.id === c.id) === i);
}

type Found = { customer: CachedCustomer | null; vehicle: CachedVehicle | null };

/** Who: the check's customer id, else the identifier, else the vehicle on the check. */
function whoIs(cache: Cache, req: ContextRequest): Found {
  const check = req.check;
  let found: Found = { customer: null, vehicle: null };
  if (check.customer_id) found = { customer: cache.customerById(check.customer_id), vehicle: null };
  else {
    const ident =
      req.identifier ??
      (check.id && check.id_type && (ID_TYPES as readonly string[]).includes(check.id_type)
        ? { id: check.id, idType: check.id_type as IdType }
        : null);
    if (ident) found = cache.identify(ident.id, ident.idType);
  }
  if (!found.vehicle && (check.vehicle_id || check.avi_id)) {
    const v = check.vehicle_id
      ? cache.identify(check.vehicle_id, 'vehicle')
      : cache.identify(check.avi_id ?? '', 'avi');
    found = { customer: found.customer ?? v.customer, vehicle: v.vehicle };
  }
  return found;
}

/** What the engine reads of a customer and of the accounts and accesses they hold. */
interface CustomerPart {
  readonly customer: EngineCustomer | null;
  readonly specialAccounts: EngineSpecialAccount[];
  readonly accesses: EngineCorporateAccess[];
  readonly vehicleRecords: CachedVehicle[];
  readonly pending: EngineContext['pending'];
}

function engineCustomer(cache: Cache, cust: CachedCustomer, today: string): EngineCustomer {
  const lots = cache.bonusLotsOf(cust.id).map((l) => pick(l, KEYS.lot) as PromotionalLot);
  const base = pick(cust, KEYS.customer) as EngineCustomer;
  return {
    ...base,
    bonuses: { regular: base.bonuses?.regular ?? 0, promotional: lots },
    stats: cachedStats(cache.statsOf(cust.id), today),
  };
}

/** The customer's special accounts and corporate accesses, usage rolled to today. */
function accountsOf(
  cache: Cache,
  cust: CachedCustomer,
  verified: ContextRequest['pinVerified'],
  today: string,
): Pick<CustomerPart, 'specialAccounts' | 'accesses'> & { accessAccountIds: string[] } {
  const pin = (id: string) => {
    const v = verified?.(id);
    return v === undefined ? {} : { pin_verified: v };
  };
  const specialAccounts = cache.specialAccountsOf(cust.id).map((a) => {
    const acc = pick(a, KEYS.account) as EngineSpecialAccount;
    return { ...acc, ...accountUsage(acc, a.used_as_of, today), ...pin(a.id) };
  });
  // Read once: the engine's accesses and the accounts they draw on for the holds (heldFor).
  const rows = cache.corporateAccessesOf(cust.id);
  const accesses = rows.map((a) => {
    const acc = pick(a, KEYS.access) as EngineCorporateAccess;
    return { ...acc, ...accessUsage(acc, a.used_as_of, today), ...pin(a.id) };
  });
  const accessAccountIds = rows
    .map((a) => a.corporate_customer_special_account?.special_account?.id)
    .filter((x): x is string => typeof x === 'string');
  return { specialAccounts, accesses, accessAccountIds };
}

/** This terminal's holds against the customer, their accounts and their accesses. */
function heldFor(
  ledger: Ledger,
  cust: CachedCustomer,
  part: ReturnType<typeof accountsOf>,
  today: string,
): EngineContext['pending'] {
  const held = ledger.pendingFor(
    cust.id,
    [...part.specialAccounts.map((a) => a.id), ...part.accessAccountIds],
    part.accesses.map((a) => a.id),
  );
  return {
    bonuses_redeemed: toNumber(held.bonuses),
    accounts: Object.fromEntries([...held.accounts].map(([id, v]) => [id, toNumber(v)])),
    stats: pendingStats(held.stats, today),
  };
}

function customerPart(
  cache: Cache,
  ledger: Ledger,
  found: Found,
  req: ContextRequest,
  today: string,
): CustomerPart {
  const cust = found.customer;
  const vehicleRecords = found.vehicle ? [found.vehicle] : [];
  if (!cust) {
    const pending = { bonuses_redeemed: 0, accounts: {}, stats: {} };
    return { customer: null, specialAccounts: [], accesses: [], vehicleRecords, pending };
  }
  const customer = engineCustomer(cache, cust, today);
  const accounts = accountsOf(cache, cust, req.pinVerified, today);
  return {
    customer,
    specialAccounts: accounts.specialAccounts,
    accesses: accounts.accesses,
    vehicleRecords: vehicleRecords.length === 0 ? cache.vehiclesOf(cust.id) : vehicleRecords,
    pending: heldFor(ledger, cust, accounts, today),
  };
}

/** The engine's context for a check, read inside the caller's read transaction. */
function assembleIn(
  cache: Cache,
  ledger: Ledger,
  rules: RuleSet<EngineRule>,
  req: ContextRequest,
  nowMs: number,
): AssembledContext {
  const check = req.check;
  const posId = req.posId ?? check.pos?.id ?? null;
  const loyaltyId = req.loyaltyId ?? check.loyalty?.id ?? null;
  const biz = business(cache);
  const posCtx = pos(cache, posId);
  const today = localDate(nowMs, zoneOf(posCtx, biz));
  const found = whoIs(cache, req);
  const cust = found.customer;
  const part = customerPart(cache, ledger, found, req, today);
  const coupons = presentedCoupons(cache, ledger, check);
  const terminal = req.terminal
    ? {
        id: req.terminal.id,
        coupon_prefix: req.terminal.couponPrefix,
        next_coupon_seq: ledger.nextCouponSeq(),
      }
    : undefined;
  const context: EngineContext = {
    now: new Date(nowMs).toISOString(),
    mode: req.mode ?? 'calc',
    business: biz,
    loyalty: loyalty(cache, loyaltyId),
    ...(posCtx ? { pos: posCtx } : {}),
    customer: part.customer,
    special_accounts: part.specialAccounts,
    corporate_accesses: part.accesses,
    coupons,
    additional_services: cache
      .all('additional_service')
      .map((s) => pick(s, KEYS.service)) as EngineContext['additional_services'],
    additional_costs: (loyaltyId
      ? cache.additionalCostsOf(loyaltyId)
      : cache.all('additional_cost')
    ).map((c) => pick(c, KEYS.cost)) as EngineContext['additional_costs'],
    vehicles: vehicleEntries(ledger, part.vehicleRecords, check.vehicle_id),
    pending: part.pending,
    ...(terminal ? { terminal } : {}),
    check: cust && !check.customer_id ? { ...check, customer_id: cust.id } : check,
  };
  return {
    context,
    rules: rules.candidates(loyaltyId, posId),
    customer: cust,
    vehicle: found.vehicle,
  };
}

export function createContextAssembler(deps: {
  cache: () => Cache;
  ledger: () => Ledger;
  rules: RuleSet<EngineRule>;
  read: <T>(fn: () => T) => T;
}) {
  function assemble(req: ContextRequest, nowMs: number): AssembledContext {
    return deps.read(() => assembleIn(deps.cache(), deps.ledger(), deps.rules, req, nowMs));
  }

  return {
    assemble,
    /**
     * The context of a refund or cancel: the processed check as stored (engine.md 15), the
     * customer's figures as now. Null when this terminal did not record the check.
     */
    assembleRefund(req: RefundRequest, nowMs: number): AssembledContext | null {
      const stored = deps.ledger().storedCheck(req.transactionId);
      if (!stored) return null;
      const original = stored.document;
      const base = assemble(
        {
          check: original as EngineCheck,
          mode: 'calc',
          ...(req.posId ? { posId: req.posId } : {}),
          ...(req.loyaltyId ? { loyaltyId: req.loyaltyId } : {}),
        },
        nowMs,
      );
      const { check: _check, ...rest } = base.context;
      const context: EngineContext = {
        ...rest,
        mode: 'refund',
        original,
        ...(req.lines ? { refund_lines: [...req.lines] } : {}),
      };
      return { ...base, context };
    },
  };
}

export type ContextAssembler = ReturnType<typeof createContextAssembler>;
