// The engine context of one check, assembled from the sandbox's records: the same shape the
// terminal assembles from its cache (engine-fixture.md), with nothing pending (the sandbox is
// the service, so its figures are the truth).
import {
  EngineCorporateAccess,
  EngineCoupon,
  EngineCustomer,
  EngineSpecialAccount,
  type EngineFixtureInput,
} from '../contract/engine.js';
import { localDate, samePeriod, STAT_PERIODS, zoneOf } from '../contract/local-time.js';
// The POS record carries our `catalog` (the demo's goods); pick() drops it for the engine.
import { strictShared } from '../contract/shared.js';
import { add, dec, max, sub, toNumber, ZERO, type Dec } from '../money/index.js';
import { pick } from '../contract/wire.js';
import type { CentralStore } from './store/central-store.js';
import { HttpError } from './errors.js';

export type Rec = Record<string, unknown>;

// The keys each strict schema knows, for pick(): the sandbox's records carry more (owner, hashes).
const accountKeys = Object.keys(EngineSpecialAccount.shape);
const accessKeys = Object.keys(EngineCorporateAccess.shape);
const customerKeys = Object.keys(EngineCustomer.shape);
const couponKeys = Object.keys(EngineCoupon.shape);
const posKeys = Object.keys(strictShared.CheckPos.shape);

export interface TerminalInfo {
  id: string;
  business_id: string;
  pos_id: string;
  loyalty_id: string;
}

export interface Resolved {
  customer: Rec | null;
  /** The POS's zone, else the business's, else UTC (zoneOf). */
  timeZone: string;
  today: string;
}

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** Usage of an account by period, from the usage rows of the sandbox. */
export function usageOf(
  store: CentralStore,
  accountId: string,
  today: string,
): { day: number; month: number; overall: number } {
  let day: Dec = ZERO;
  let month: Dec = ZERO;
  let overall: Dec = ZERO;
  for (const u of store.usage(accountId)) {
    const a = dec(u.amount);
    overall = add(overall, a);
    if (samePeriod('month', u.local_date, today)) month = add(month, a);
    if (samePeriod('day', u.local_date, today)) day = add(day, a);
  }
  return { day: toNumber(day), month: toNumber(month), overall: toNumber(overall) };
}

/**
 * `{ limits }` with the contract's `_used` and `_available` companions of each limit it has
 * that `used` names (key: the limit's name) set to that usage; `{}` when there are no limits.
 */
export function withUsedCompanions(
  limits: unknown,
  used: Readonly<Record<string, number>>,
): { limits?: Rec } {
  if (!limits || typeof limits !== 'object') return {};
  const out: Rec = { ...(limits as Rec) };
  for (const [name, value] of Object.entries(used)) {
    if (!(name in out)) continue;
    const limit = num(out[name]);
    out[`${name}_used`] = value;
    out[`${name}_available`] = limit > 0 ? toNumber(max(ZERO, sub(dec(limit), dec(value)))) : null;
  }
  return { limits: out };
}

/** Period totals as of `today`: a period that rolled since `as_of` counts as zero. */
export function currentStats(
  stats: Rec | undefined,
  today: string,
): Record<string, { amount: number; quantity: number; visits: number }> {
  const periods = (stats?.periods ?? {}) as Record<
    string,
    { amount: number; quantity: number; visits: number }
  >;
  const asOf = typeof stats?.as_of === 'string' ? stats.as_of : today;
  const out: Record<string, { amount: number; quantity: number; visits: number }> = {};
  for (const period of STAT_PERIODS) {
    const p = periods[period];
    out[period] =
      samePeriod(period, asOf, today) && p
        ? { amount: num(p.amount), quantity: num(p.quantity), visits: num(p.visits) }
        : { amount: 0, quantity: 0, visits: 0 };
  }
  return out;
}

function businessOf(store: CentralStore, terminal: TerminalInfo): Rec {
  const settings = store.getRecord('business_settings', terminal.business_id) as Rec | undefined;
  if (!settings) throw new HttpError(500, 'internal', 'the sandbox has no business settings');
  return settings;
}

/** The zone of the terminal's POS, in the one order of contract/local-time.ts. */
export function timeZoneOf(store: CentralStore, terminal: TerminalInfo): string {
  const pos = store.getRecord('pos', terminal.pos_id) as Rec | undefined;
  return zoneOf(pos, businessOf(store, terminal));
}

/** Finds the customer a check names: `customer_id`, `corporate_customer_id` or `id` + `id_type`. */
function resolveCustomer(store: CentralStore, check: Rec): Rec | null {
  const byId = (id: unknown) =>
    typeof id === 'string' ? (store.getRecord('customer', id) as Rec | undefined) : undefined;
  const direct = byId(check.customer_id) ?? byId(check.corporate_customer_id);
  if (direct) return direct;
  if (typeof check.id === 'string')
    return lookupCustomer(store, check.id, (check.id_type as string | undefined) ?? 'card');
  if (typeof check.customer_id === 'string') {
    throw new HttpError(
      422,
      'customer-not-found',
      `no customer ${check.customer_id}`,
      'customer_id',
    );
  }
  return null;
}

export function lookupCustomer(store: CentralStore, value: string, idType: string): Rec | null {
  const first = (rows: unknown[]) => (rows[0] as Rec | undefined) ?? null;
  switch (idType) {
    case 'card': {
      const card = first(store.findBy('card', 'code', value));
      return card
        ? ((store.getRecord('customer', card.customer_id as string) as Rec | undefined) ?? null)
        : null;
    }
    case 'phone': {
      const digits = value.replace(/\D/g, '');
      return (
        (store.list('customer') as Rec[]).find(
          (c) => typeof c.phone === 'string' && c.phone.replace(/\D/g, '') === digits,
        ) ?? null
      );
    }
    case 'email':
      return (
        (store.list('customer') as Rec[]).find(
          (c) =>
            typeof c.email === 'string' && c.email.toLowerCase() === value.trim().toLowerCase(),
        ) ?? null
      );
    case 'external-id':
      return first(store.findBy('customer', 'external_id', value));
    case 'qr':
      return (
        first(store.findBy('customer', 'qr_code', value)) ?? lookupCustomer(store, value, 'card')
      );
    case 'vehicle':
    case 'avi': {
      const field = idType === 'avi' ? 'avi_id' : 'qr_code';
      const vehicle =
        first(store.findBy('vehicle', field, value)) ??
        first(store.findBy('vehicle', 'vehicle_id', value));
      return vehicle
        ? ((store.getRecord('customer', vehicle.customer_id as string) as Rec | undefined) ?? null)
        : null;
    }
    default:
      return null;
  }
}

/** Every record the terminal may cache about one customer, for `customers/lookup`. */
export function customerRecords(
  store: CentralStore,
  customer: Rec,
): { entity: string; id: string; data: Rec }[] {
  const id = customer.id as string;
  const out: { entity: string; id: string; data: Rec }[] = [
    { entity: 'customer', id, data: customer },
  ];
  const add = (entity: string, rows: unknown[]) => {
    for (const r of rows as Rec[]) out.push({ entity, id: r.id as string, data: r });
  };
  add('card', store.findBy('card', 'customer_id', id));
  add('bonus_lot', store.findBy('bonus_lot', 'customer_id', id));
  add('special_account', store.findBy('special_account', 'customer_id', id));
  add('corporate_access', store.findBy('corporate_access', 'customer_id', id));
  add('vehicle', store.findBy('vehicle', 'customer_id', id));
  add('coupon', store.findBy('coupon', 'customer_id', id));
  const stats = store.getRecord('customer_stats', id) as Rec | undefined;
  if (stats) out.push({ entity: 'customer_stats', id, data: stats });
  return out;
}

/** The engine's view of one special account record, with usage counted now. */
function engineAccount(
  store: CentralStore,
  account: Rec,
  today: string,
  pinVerified: boolean | undefined,
): Rec {
  const out = pick(account, accountKeys);
  const used = usageOf(store, account.id as string, today);
  out.used = used;
  // The companions the record carries were counted on `used_as_of`: today's figures replace them.
  Object.assign(
    out,
    withUsedCompanions(out.limits, {
      day_limit: used.day,
      month_limit: used.month,
      overall_limit: used.overall,
    }),
  );
  if (pinVerified !== undefined) out.pin_verified = pinVerified;
  return out;
}

function engineAccess(
  store: CentralStore,
  access: Rec,
  today: string,
  pinVerified: boolean | undefined,
): Rec {
  const out = pick(access, accessKeys);
  const accountId = (
    (access.corporate_customer_special_account as Rec | undefined)?.special_account as
      Rec | undefined
  )?.id;
  const account =
    typeof accountId === 'string'
      ? usageOf(store, accountId, today)
      : { day: 0, month: 0, overall: 0 };
  const user = usageOf(store, access.id as string, today);
  out.used = { account: { day: account.day, month: account.month }, user };
  Object.assign(
    out,
    withUsedCompanions(out.limits, {
      account_day_limit: account.day,
      account_month_limit: account.month,
      user_day_limit: user.day,
      user_month_limit: user.month,
      user_overall_limit: user.overall,
    }),
  );
  if (pinVerified !== undefined) out.pin_verified = pinVerified;
  return out;
}

interface BuildOptions {
  mode: 'calc' | 'process';
  nowMs: number;
  terminal: TerminalInfo;
  check: Rec;
  /** Whether the PIN sent (or the terminal's offline verification) holds, per account id. */
  pinVerified: (record: Rec) => boolean | undefined;
  nextCouponSeq: number;
}

/** The engine fixture of one check (context + rules). */
export function buildFixture(
  store: CentralStore,
  o: BuildOptions,
): { fixture: EngineFixtureInput; resolved: Resolved } {
  const { terminal, check } = o;
  const business = businessOf(store, terminal);
  const timeZone = timeZoneOf(store, terminal);
  const today = localDate(o.nowMs, timeZone);
  const loyalty = store.getRecord('loyalty', terminal.loyalty_id) as Rec | undefined;
  const pos = store.getRecord('pos', terminal.pos_id) as Rec | undefined;
  const customer = resolveCustomer(store, check);
  const ofCustomer = customer
    ? customerContext(store, customer, today, o.pinVerified)
    : { customer: null, accounts: [], accesses: [], vehicles: [] };
  const coupons = couponsOfCheck(store, check);
  const ofLoyalty = (r: Rec) => r.loyalty_id == null || r.loyalty_id === terminal.loyalty_id;
  const rules = (store.list('rule') as Rec[]).filter(ofLoyalty);
  const posRecord = pos ? pick(pos, posKeys) : { id: terminal.pos_id };
  const fixture = {
    now: new Date(o.nowMs).toISOString(),
    mode: o.mode,
    business: {
      id: terminal.business_id,
      currency: business.currency,
      base_time_zone: business.base_time_zone ?? 'UTC',
    },
    loyalty: loyalty ? engineLoyalty(loyalty) : {},
    pos: posRecord,
    rules,
    customer: ofCustomer.customer,
    special_accounts: ofCustomer.accounts,
    corporate_accesses: ofCustomer.accesses,
    coupons,
    additional_services: store.list('additional_service'),
    additional_costs: (store.list('additional_cost') as Rec[]).filter(ofLoyalty),
    vehicles: ofCustomer.vehicles,
    pending: {},
    terminal: { id: terminal.id, coupon_prefix: 'SBX-', next_coupon_seq: o.nextCouponSeq },
    check,
  } as unknown as EngineFixtureInput;
  return { fixture, resolved: { customer, timeZone, today } };
}

function engineLoyalty(loyalty: Rec): Rec {
  return {
    id: loyalty.id,
    currency: loyalty.currency,
    bonus_payment_max_percent: loyalty.bonus_payment_max_percent,
    bonus_rate: loyalty.bonus_rate,
    count_bonuses_redeemed_amount: loyalty.count_bonuses_redeemed_amount,
  };
}

/** The engine's view of the customer, their accounts, accesses and fleet vehicles. */
function customerContext(
  store: CentralStore,
  customer: Rec,
  today: string,
  pinVerified: BuildOptions['pinVerified'],
): { customer: Rec; accounts: Rec[]; accesses: Rec[]; vehicles: Rec[] } {
  const id = customer.id as string;
  const lots = (store.findBy('bonus_lot', 'customer_id', id) as Rec[]).map((l) => ({
    id: l.id,
    amount: l.amount,
    starting: l.starting ?? null,
    expire: l.expire ?? null,
  }));
  const base = pick(customer, customerKeys);
  const engineCustomer = {
    ...base,
    bonuses: { regular: num((customer.bonuses as Rec | undefined)?.regular), promotional: lots },
    stats: currentStats(store.getRecord('customer_stats', id) as Rec | undefined, today),
  };
  const accounts = (store.findBy('special_account', 'customer_id', id) as Rec[]).map((a) =>
    engineAccount(store, a, today, pinVerified(a)),
  );
  const accesses = (store.findBy('corporate_access', 'customer_id', id) as Rec[]).map((a) =>
    engineAccess(store, a, today, pinVerified(a)),
  );
  return { customer: engineCustomer, accounts, accesses, vehicles: fleetOf(store, customer) };
}

/** The vehicles of the customer's fleet: its corporate customer's, else its own. */
function fleetOf(store: CentralStore, customer: Rec): Rec[] {
  const fleetOwner =
    (customer.corporate_customer_id as string | undefined) ?? (customer.id as string);
  const vehicles: Rec[] = [];
  for (const v of store.findBy('vehicle', 'customer_id', fleetOwner) as Rec[]) {
    if (typeof v.vehicle_id === 'string')
      vehicles.push({ vehicle_id: v.vehicle_id, last_odometer: v.last_odometer ?? null });
  }
  return vehicles;
}

/** The records of the coupons the check redeems, each code once. */
function couponsOfCheck(store: CentralStore, check: Rec): Rec[] {
  const codes = new Set(
    ((check.redeemed_coupons as Rec[] | undefined) ?? [])
      .map((c) => c.code)
      .filter((c): c is string => typeof c === 'string'),
  );
  const coupons: Rec[] = [];
  for (const code of codes) {
    for (const c of store.findBy('coupon', 'code', code) as Rec[])
      coupons.push(pick(c, couponKeys));
  }
  return coupons;
}
