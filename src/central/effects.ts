// What a processed check does to the sandbox's balances, and how a cancel undoes it. Every
// change is a record upsert, so it reaches terminals through the change feed. Amounts are
// exact decimals (src/money); the engine has already decided and rounded them.
import { createHash } from 'node:crypto';
import {
  add,
  cmp,
  dec,
  gt,
  isNegative,
  lt,
  min,
  neg,
  sub,
  toNumber,
  ZERO,
  type Dec,
} from '../money/index.js';
import type { CentralStore } from './store/central-store.js';
import { currentStats, usageOf, withUsedCompanions, type Rec } from './context.js';

/** What one transaction changed, kept with it so a cancel reverses exactly that. */
export interface Effects {
  customer_id: string | null;
  lots_consumed: { id: string; amount: number }[];
  regular_redeemed: number;
  regular_added: number;
  lots_created: { id: string; amount: number }[];
  accounts: {
    account_id: string;
    access_id: string | null;
    direction: 'debit' | 'credit';
    amount: number;
  }[];
  coupons_redeemed: string[];
  coupons_emitted: string[];
}

const n = (v: unknown): Dec => (typeof v === 'number' ? dec(v) : ZERO);

/**
 * The id of a record a transaction creates (`what` names it: `coupon-0`, `lot-1`): a
 * name-based UUID (SHA-1, version 5) of the transaction id and `what`. A UUID, as the contract
 * wants of every id (a coupon's id comes back in checks that present it), and the same for
 * the same transaction, so the sandbox's records replay alike.
 */
function derivedId(transactionId: string, what: string): string {
  const b = createHash('sha1').update(`${transactionId}/${what}`).digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50; // version 5
  b[8] = (b[8]! & 0x3f) | 0x80; // variant 10
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function update(
  store: CentralStore,
  entity: string,
  id: string,
  fn: (r: Rec) => Rec,
): Rec | undefined {
  const current = store.getRecord(entity, id) as Rec | undefined;
  if (!current) return undefined;
  const next = fn(structuredClone(current));
  store.upsert(entity, id, next);
  return next;
}

function setRegular(store: CentralStore, customerId: string, delta: Dec): void {
  update(store, 'customer', customerId, (c) => {
    const bonuses = (c.bonuses ?? {}) as Rec;
    return { ...c, bonuses: { ...bonuses, regular: toNumber(add(n(bonuses.regular), delta)) } };
  });
}

function activeOn(lot: Rec, today: string): boolean {
  const starting = lot.starting as string | null | undefined;
  const expire = lot.expire as string | null | undefined;
  return (starting == null || starting <= today) && (expire == null || today <= expire);
}

const innerAccountId = (access: Rec | undefined): unknown =>
  (
    (access?.corporate_customer_special_account as Rec | undefined)?.special_account as
      Rec | undefined
  )?.id;

/**
 * The account a charge moves and the corporate access it was paid through. A corporate charge
 * names the fleet account, so the access is `via` (the check's payment_id) when it is an
 * access of that account; a charge naming an access itself is resolved to its account.
 */
function accountOfCharge(
  store: CentralStore,
  id: string,
  via?: unknown,
): { accountId: string; accessId: string | null } {
  if (typeof via === 'string') {
    const access = store.getRecord('corporate_access', via) as Rec | undefined;
    if (access && innerAccountId(access) === id) return { accountId: id, accessId: via };
  }
  if (store.getRecord('special_account', id)) return { accountId: id, accessId: null };
  const access = store.getRecord('corporate_access', id) as Rec | undefined;
  const inner = innerAccountId(access);
  if (access && typeof inner === 'string') return { accountId: inner, accessId: id };
  return { accountId: id, accessId: null };
}

/** The corporate access a check paid through, if any. */
const accessOfCheck = (check: Rec): unknown =>
  check.payment_type === 'corporate-special-account' ? check.payment_id : undefined;

/**
 * Writes an account's usage as counted now into its record and into every access of it (the
 * driver's own usage too), so the change feed carries the used amounts (docs/sync.md): our
 * `used` with the local date it was counted on (`used_as_of`), and the contract's `_used` and
 * `_available` companions of the limits.
 */
function stampUsage(store: CentralStore, accountId: string, today: string): void {
  const account = usageOf(store, accountId, today);
  update(store, 'special_account', accountId, (a) => ({
    ...a,
    used: account,
    used_as_of: today,
    ...withUsedCompanions(a.limits, {
      day_limit: account.day,
      month_limit: account.month,
      overall_limit: account.overall,
    }),
  }));
  for (const access of store.list('corporate_access') as Rec[]) {
    if (innerAccountId(access) !== accountId) continue;
    const user = usageOf(store, access.id as string, today);
    store.upsert('corporate_access', access.id as string, {
      ...access,
      used: { account: { day: account.day, month: account.month }, user },
      used_as_of: today,
      ...withUsedCompanions(access.limits, {
        account_day_limit: account.day,
        account_month_limit: account.month,
        user_day_limit: user.day,
        user_month_limit: user.month,
        user_overall_limit: user.overall,
      }),
    });
  }
}

function moveAccount(store: CentralStore, accountId: string, delta: Dec): void {
  const next = update(store, 'special_account', accountId, (a) => ({
    ...a,
    balance: toNumber(add(n(a.balance), delta)),
  }));
  if (!next) return;
  // Corporate accesses embed their account: keep every copy at the same balance.
  for (const access of store.list('corporate_access') as Rec[]) {
    const info = access.corporate_customer_special_account as Rec | undefined;
    const inner = info?.special_account as Rec | undefined;
    if (inner?.id === accountId) {
      store.upsert('corporate_access', access.id as string, {
        ...access,
        corporate_customer_special_account: {
          ...info,
          special_account: { ...inner, balance: next.balance },
        },
      });
    }
  }
}

function bumpStats(
  store: CentralStore,
  customerId: string,
  today: string,
  amount: Dec,
  quantity: Dec,
  visits: number,
): void {
  const current = store.getRecord('customer_stats', customerId) as Rec | undefined;
  const periods = currentStats(current, today);
  for (const p of Object.values(periods)) {
    p.amount = toNumber(add(dec(p.amount), amount));
    p.quantity = toNumber(add(dec(p.quantity), quantity));
    p.visits += visits;
  }
  store.upsert('customer_stats', customerId, {
    id: customerId,
    customer_id: customerId,
    as_of: today,
    periods,
  });
}

interface ApplyInput {
  transactionId: string;
  customer: Rec | null;
  today: string;
  check: Rec;
}

/** Applies a processed check; returns what it did, for a later cancel. */
export function applyProcessed(store: CentralStore, input: ApplyInput): Effects {
  const { check, today, customer } = input;
  const customerId = (customer?.id as string | undefined) ?? null;
  const effects: Effects = {
    customer_id: customerId,
    lots_consumed: [],
    regular_redeemed: 0,
    regular_added: 0,
    lots_created: [],
    accounts: [],
    coupons_redeemed: [],
    coupons_emitted: [],
  };
  if (customerId) {
    spendBonuses(store, input, customerId, effects);
    creditBonuses(store, input, customerId, effects);
    bumpStats(store, customerId, today, n(check.amount), checkQuantity(check), 1);
  }
  chargeAccounts(store, input, effects);
  redeemCoupons(store, check, effects);
  emitCoupons(store, input, customerId, effects);
  recordOdometer(store, check);
  return effects;
}

/** Spent bonuses: promotional lots first, earliest expiry first (engine.md 8), then regular. */
function spendBonuses(
  store: CentralStore,
  { check, today }: ApplyInput,
  customerId: string,
  effects: Effects,
): void {
  let toSpend = n(check.bonuses_redeemed_amount);
  if (!gt(toSpend, ZERO)) return;
  const lots = (store.findBy('bonus_lot', 'customer_id', customerId) as Rec[])
    .filter((l) => activeOn(l, today) && gt(n(l.amount), ZERO))
    .sort((a, b) => String(a.expire ?? '9999').localeCompare(String(b.expire ?? '9999')));
  for (const lot of lots) {
    if (!gt(toSpend, ZERO)) break;
    const take = min(toSpend, n(lot.amount));
    store.upsert('bonus_lot', lot.id as string, {
      ...lot,
      amount: toNumber(sub(n(lot.amount), take)),
    });
    effects.lots_consumed.push({ id: lot.id as string, amount: toNumber(take) });
    toSpend = sub(toSpend, take);
  }
  if (gt(toSpend, ZERO)) {
    setRegular(store, customerId, neg(toSpend));
    effects.regular_redeemed = toNumber(toSpend);
  }
}

/** Credited bonuses: a dated entry is a promotional lot, the rest regular. */
function creditBonuses(
  store: CentralStore,
  { check, today, transactionId }: ApplyInput,
  customerId: string,
  effects: Effects,
): void {
  let regular: Dec = ZERO;
  ((check.bonuses_added as Rec[] | undefined) ?? []).forEach((b, i) => {
    if (b.starting != null || b.expire != null) {
      const id = derivedId(transactionId, `lot-${i}`);
      store.upsert('bonus_lot', id, {
        id,
        customer_id: customerId,
        amount: b.amount,
        starting: b.starting ?? today,
        expire: b.expire ?? null,
      });
      effects.lots_created.push({ id, amount: b.amount as number });
    } else {
      regular = add(regular, n(b.amount));
    }
  });
  if (gt(regular, ZERO)) {
    setRegular(store, customerId, regular);
    effects.regular_added = toNumber(regular);
  }
}

function checkQuantity(check: Rec): Dec {
  return ((check.check_items as Rec[] | undefined) ?? []).reduce<Dec>(
    (q, item) => add(q, n(item.quantity)),
    ZERO,
  );
}

/** Moves each charged special account; a debit also counts towards its usage limits. */
function chargeAccounts(
  store: CentralStore,
  { check, today, transactionId }: ApplyInput,
  effects: Effects,
): void {
  for (const charge of (check.special_accounts_charges as Rec[] | undefined) ?? []) {
    const id = charge.special_account_id as string;
    const { accountId, accessId } = accountOfCharge(store, id, accessOfCheck(check));
    const amount = n(charge.amount);
    const direction = charge.direction === 'credit' ? 'credit' : 'debit';
    moveAccount(store, accountId, direction === 'debit' ? neg(amount) : amount);
    if (direction === 'debit') {
      store.addUsage(accountId, today, String(charge.amount), transactionId);
      if (accessId) store.addUsage(accessId, today, String(charge.amount), transactionId);
      stampUsage(store, accountId, today);
    }
    effects.accounts.push({
      account_id: accountId,
      access_id: accessId,
      direction,
      amount: toNumber(amount),
    });
  }
}

function redeemCoupons(store: CentralStore, check: Rec, effects: Effects): void {
  for (const c of (check.redeemed_coupons as Rec[] | undefined) ?? []) {
    // Only a coupon the check used is spent: one answered valid but not applicable stays open.
    if (c.valid === false || c.applicable === false || typeof c.code !== 'string') continue;
    for (const coupon of store.findBy('coupon', 'code', c.code) as Rec[]) {
      if (coupon.status !== 'open') continue;
      store.upsert('coupon', coupon.id as string, { ...coupon, status: 'redeemed' });
      effects.coupons_redeemed.push(coupon.id as string);
    }
  }
}

function emitCoupons(
  store: CentralStore,
  { check, transactionId }: ApplyInput,
  customerId: string | null,
  effects: Effects,
): void {
  ((check.emitted_coupons as Rec[] | undefined) ?? []).forEach((c, i) => {
    if (typeof c.code !== 'string') return;
    const id = (typeof c.id === 'string' && c.id) || derivedId(transactionId, `coupon-${i}`);
    store.upsert('coupon', id, {
      ...c,
      id,
      customer_id: customerId,
      status: 'open',
      processing_status: 'processed',
    });
    effects.coupons_emitted.push(id);
  });
}

/** The check's odometer reading becomes its vehicle's last one. */
function recordOdometer(store: CentralStore, check: Rec): void {
  const vehicleTag = check.vehicle_id;
  if (typeof check.odometer !== 'number' || typeof vehicleTag !== 'string') return;
  for (const v of store.findBy('vehicle', 'vehicle_id', vehicleTag) as Rec[]) {
    store.upsert('vehicle', v.id as string, {
      ...v,
      last_odometer: { value: check.odometer, unit: check.odometer_unit ?? 'km' },
    });
  }
}

/** Undoes a transaction's effects (engine.md 15); returns the bonuses the customer owes. */
export function reverseEffects(
  store: CentralStore,
  transactionId: string,
  effects: Effects,
  today: string,
): number {
  let owed: Dec = ZERO;
  const customerId = effects.customer_id;
  if (customerId) {
    for (const used of effects.lots_consumed) {
      // A lot that expired meanwhile stays expired: its bonuses are not given back. A lot
      // gone since (its sale was cancelled, which took what was spent from it off the
      // regular balance) gives them back to the regular balance.
      const back = update(store, 'bonus_lot', used.id, (l) =>
        activeOn(l, today) ? { ...l, amount: toNumber(add(n(l.amount), dec(used.amount))) } : l,
      );
      if (!back) setRegular(store, customerId, dec(used.amount));
    }
    if (effects.regular_redeemed > 0) setRegular(store, customerId, dec(effects.regular_redeemed));
    // Take back what the check credited; past the balance it is owed, never silently lost.
    let takeBack = dec(effects.regular_added);
    for (const created of effects.lots_created) {
      const lot = store.getRecord('bonus_lot', created.id) as Rec | undefined;
      // What was already spent from the lot comes off the regular balance instead.
      const spent = sub(dec(created.amount), lot ? n(lot.amount) : ZERO);
      if (lot) store.remove('bonus_lot', created.id);
      if (gt(spent, ZERO)) takeBack = add(takeBack, spent);
    }
    if (gt(takeBack, ZERO)) {
      const c = store.getRecord('customer', customerId) as Rec | undefined;
      const balance = n((c?.bonuses as Rec | undefined)?.regular);
      const taken = lt(balance, takeBack) ? (isNegative(balance) ? ZERO : balance) : takeBack;
      owed = sub(takeBack, taken);
      if (cmp(taken, ZERO) !== 0) setRegular(store, customerId, neg(taken));
      if (gt(owed, ZERO)) {
        update(store, 'customer', customerId, (r) => {
          const bonuses = (r.bonuses ?? {}) as Rec;
          return { ...r, bonuses: { ...bonuses, owed: toNumber(add(n(bonuses.owed), owed)) } };
        });
      }
    }
  }
  for (const a of effects.accounts) {
    moveAccount(store, a.account_id, a.direction === 'debit' ? dec(a.amount) : neg(dec(a.amount)));
  }
  store.releaseUsage(transactionId);
  for (const accountId of new Set(effects.accounts.map((a) => a.account_id)))
    stampUsage(store, accountId, today);
  for (const id of effects.coupons_redeemed) {
    update(store, 'coupon', id, (c) => {
      const expire = c.expire_date as string | undefined;
      return c.status === 'redeemed' && (expire === undefined || expire >= today)
        ? { ...c, status: 'open' }
        : c;
    });
  }
  for (const id of effects.coupons_emitted) {
    update(store, 'coupon', id, (c) => (c.status === 'open' ? { ...c, status: 'cancelled' } : c));
  }
  return toNumber(owed);
}

/** What a partial refund changed (kept with it, for the record). */
interface RefundEffects {
  customer_id: string | null;
  bonuses_returned: number;
  bonuses_written_off: number;
  owed: number;
  accounts: Effects['accounts'];
}

interface RefundInput {
  refundId: string;
  customerId: string | null;
  today: string;
  /** The local date the sale's account usage was counted on: the refund gives it back there. */
  saleDate: string;
  /** The refund check the engine computed (engine.md 15). */
  refund: Rec;
  /** The corporate access the sale was paid through: its usage goes back too. */
  via?: string | null;
}

/**
 * Applies a partial refund: spent bonuses come back (to the regular balance), bonuses the
 * refunded lines earned are written off (past the balance, owed), account charges go back
 * with their usage, stats lose the refunded amount. Coupons are not reopened (engine.md 15).
 */
export function applyRefund(store: CentralStore, input: RefundInput): RefundEffects {
  const { refund, customerId, refundId } = input;
  const effects: RefundEffects = {
    customer_id: customerId,
    bonuses_returned: 0,
    bonuses_written_off: 0,
    owed: 0,
    accounts: [],
  };
  if (customerId) {
    const returned = n(refund.bonuses_redeemed_amount);
    if (gt(returned, ZERO)) setRegular(store, customerId, returned);
    effects.bonuses_returned = toNumber(returned);
    const writeOff = n(refund.bonuses_added_amount);
    if (gt(writeOff, ZERO)) {
      const c = store.getRecord('customer', customerId) as Rec | undefined;
      const balance = n((c?.bonuses as Rec | undefined)?.regular);
      const taken = lt(balance, writeOff) ? (isNegative(balance) ? ZERO : balance) : writeOff;
      const owed = sub(writeOff, taken);
      if (cmp(taken, ZERO) !== 0) setRegular(store, customerId, neg(taken));
      if (gt(owed, ZERO)) {
        update(store, 'customer', customerId, (r) => {
          const bonuses = (r.bonuses ?? {}) as Rec;
          return { ...r, bonuses: { ...bonuses, owed: toNumber(add(n(bonuses.owed), owed)) } };
        });
      }
      effects.bonuses_written_off = toNumber(taken);
      effects.owed = toNumber(owed);
    }
    const quantity = ((refund.check_items as Rec[] | undefined) ?? []).reduce<Dec>(
      (q, item) => add(q, n(item.quantity)),
      ZERO,
    );
    bumpStats(store, customerId, input.today, neg(n(refund.amount)), neg(quantity), 0);
  }
  for (const charge of (refund.special_accounts_charges as Rec[] | undefined) ?? []) {
    const amount = n(charge.amount);
    if (!gt(amount, ZERO)) continue;
    const { accountId, accessId } = accountOfCharge(
      store,
      charge.special_account_id as string,
      input.via,
    );
    const direction = charge.direction === 'credit' ? 'credit' : 'debit';
    // A payment comes back; cashback credited by the sale is taken back.
    moveAccount(store, accountId, direction === 'debit' ? amount : neg(amount));
    if (direction === 'debit') {
      const back = toNumber(neg(amount)).toString();
      store.addUsage(accountId, input.saleDate, back, refundId);
      if (accessId) store.addUsage(accessId, input.saleDate, back, refundId);
      stampUsage(store, accountId, input.today);
    }
    effects.accounts.push({
      account_id: accountId,
      access_id: accessId,
      direction,
      amount: toNumber(amount),
    });
  }
  return effects;
}
