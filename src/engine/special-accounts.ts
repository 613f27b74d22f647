// Paying from a special account (engine.md 10, 16): the account is found, checked in the
// order engine.md 16 gives (the first failure is the error), and charged `amount_to_pay`.
// `calc` reports a missing PIN, odometer or vehicle id only through the `*_required` flags;
// `process` refuses them.
import type { DataRequiredType } from '../contract/enums.js';
import type {
  EngineContext,
  EngineCorporateAccess,
  EngineSpecialAccount,
  EngineSpecialAccountCharge,
} from '../contract/engine.js';
import { type Dec, ZERO, add, dec, gt, lt, max, round, sub, toNumber } from '../money/index.js';
import { decimalPlacesOf } from './numbers.js';
import { engineError, type ErrorResult } from './errors.js';
import type { CalcState } from './state.js';

export interface AccountPayment {
  readonly pinRequired: boolean;
  readonly odometerRequired: DataRequiredType;
  readonly vehicleIdRequired: DataRequiredType;
  readonly charge: EngineSpecialAccountCharge;
  readonly account: { id: string; title?: string; currency?: string; type?: 'money' | 'quantity' };
}

interface Limit {
  readonly name: 'day' | 'month' | 'overall' | 'user-day' | 'user-month' | 'user-overall';
  readonly limit: number | undefined;
  readonly used: number;
  /** Whose holds count against it: the account's, or (user-*) the corporate access's. */
  readonly holder: 'account' | 'access';
}

/** What one payment source looks like once the corporate indirection is resolved. */
interface Source {
  readonly account: Omit<EngineSpecialAccount, 'id'>;
  readonly accountId: string;
  /** The corporate access paid through, whose holds count against the user-* limits. */
  readonly accessId: string | null;
  readonly active: boolean;
  readonly windows: readonly {
    from: string | null | undefined;
    until: string | null | undefined;
  }[];
  readonly goods: readonly (readonly string[])[];
  readonly securityCode: boolean;
  readonly pinVerified: boolean;
  readonly odometer: DataRequiredType;
  readonly vehicleId: DataRequiredType;
  readonly limits: readonly Limit[];
}

/** `used` from the fixture, else the `_used` companion of the contract's limits. */
const usedOf = (fixture: number, contract: number | undefined): number =>
  fixture !== 0 ? fixture : (contract ?? 0);

function customerSource(a: EngineSpecialAccount): Source {
  const l = a.limits;
  return {
    account: a,
    accountId: a.id,
    accessId: null,
    active: a.active === 1,
    windows: [{ from: l?.available_from, until: l?.available_until }],
    goods: [a.goods_items ?? []],
    securityCode: a.security_code === 1,
    pinVerified: a.pin_verified === true,
    odometer: a.odometer ?? 'none',
    vehicleId: 'none',
    limits: [
      {
        name: 'day',
        holder: 'account',
        limit: l?.day_limit,
        used: usedOf(a.used.day, l?.day_limit_used),
      },
      {
        name: 'month',
        holder: 'account',
        limit: l?.month_limit,
        used: usedOf(a.used.month, l?.month_limit_used),
      },
      {
        name: 'overall',
        holder: 'account',
        limit: l?.overall_limit,
        used: usedOf(a.used.overall, l?.overall_limit_used),
      },
    ],
  };
}

function corporateSource(access: EngineCorporateAccess): Source | null {
  const info = access.corporate_customer_special_account;
  const account = info?.special_account;
  if (!info || !account) return null;
  const l = access.limits;
  const customer = info.corporate_customer;
  const active =
    info.active !== 0 &&
    account.active !== 0 &&
    customer?.suspended !== 1 &&
    customer?.corporate_user?.status !== 0;
  return {
    account,
    accountId: account.id ?? info.id ?? access.id,
    accessId: access.id,
    active,
    windows: [
      { from: l?.account_available_from, until: l?.account_available_until },
      { from: l?.user_available_from, until: l?.user_available_until },
      { from: account.limits?.available_from, until: account.limits?.available_until },
    ],
    goods: [access.goods_items ?? [], account.goods_items ?? []],
    securityCode: access.security_code === 1,
    pinVerified: (access.pin_verified ?? account.pin_verified) === true,
    odometer: access.odometer ?? 'none',
    vehicleId: access.vehicle_id ?? 'none',
    limits: [
      {
        name: 'day',
        holder: 'account',
        limit: l?.account_day_limit,
        used: usedOf(access.used.account.day, l?.account_day_limit_used),
      },
      {
        name: 'month',
        holder: 'account',
        limit: l?.account_month_limit,
        used: usedOf(access.used.account.month, l?.account_month_limit_used),
      },
      {
        name: 'user-day',
        holder: 'access',
        limit: l?.user_day_limit,
        used: usedOf(access.used.user.day, l?.user_day_limit_used),
      },
      {
        name: 'user-month',
        holder: 'access',
        limit: l?.user_month_limit,
        used: usedOf(access.used.user.month, l?.user_month_limit_used),
      },
      {
        name: 'user-overall',
        holder: 'access',
        limit: l?.user_overall_limit,
        used: usedOf(access.used.user.overall, l?.user_overall_limit_used),
      },
    ],
  };
}

function inWindow(
  nowMs: number,
  w: { from: string | null | undefined; until: string | null | undefined },
): boolean {
  if (w.from && nowMs < Date.parse(w.from)) return false;
  if (w.until && nowMs > Date.parse(w.until)) return false;
  return true;
}

/** What one limit (or the account's funds) still allows; `left` null: no bound. */
interface Headroom {
  readonly name: Limit['name'] | 'funds';
  readonly left: Dec | null;
}

/**
 * Each bound on a payment from `source`, in the order engine.md 16 checks them: every set
 * limit (server usage plus this terminal's holds against it), then the funds (balance plus
 * credit minus the holds on the account). This terminal's holds: the account's (every access
 * of a fleet account) count against its limits and funds, the access's against the driver's;
 * a context naming only the access (older fixtures) has its holds count for both. Each hold
 * counts once.
 */
function headroomOf(
  source: Source,
  held: Readonly<Record<string, number>>,
  paymentId: string,
): Headroom[] {
  const accessPending = dec((source.accessId !== null ? held[source.accessId] : undefined) ?? 0);
  const pending = dec(
    held[source.accountId] ?? (source.accessId !== null ? held[paymentId] : 0) ?? 0,
  );
  const out: Headroom[] = [];
  for (const l of source.limits) {
    if (!l.limit) continue; // 0 or absent: unlimited
    const usedNow = add(dec(l.used), l.holder === 'access' ? accessPending : pending);
    out.push({ name: l.name, left: sub(dec(l.limit), usedNow) });
  }
  const account = source.account;
  if (account.credit_type === 'unlimited') out.push({ name: 'funds', left: null });
  else {
    const credit = account.credit_type === 'limited' ? dec(account.credit_limit ?? 0) : ZERO;
    out.push({
      name: 'funds',
      left: add(sub(dec(account.balance ?? account.amount ?? 0), pending), credit),
    });
  }
  return out;
}

/**
 * What can be spent now from an account (`special-account`, its id) or through a corporate
 * access (`corporate-special-account`, the access id): the least of its funds and every
 * limit, each net of this terminal's unconfirmed holds, never below 0; 0 when it is inactive
 * or outside its window; null when nothing bounds it. The same figures `payFromAccount`
 * refuses by, so the screen never promises what a payment would be refused.
 */
export function spendableNow(
  ctx: Pick<EngineContext, 'special_accounts' | 'corporate_accesses' | 'pending' | 'now'>,
  paymentType: 'special-account' | 'corporate-special-account',
  id: string,
): Dec | null {
  const access =
    paymentType === 'corporate-special-account'
      ? ctx.corporate_accesses.find((x) => x.id === id)
      : undefined;
  const account =
    paymentType === 'special-account' ? ctx.special_accounts.find((x) => x.id === id) : undefined;
  const source = access ? corporateSource(access) : account ? customerSource(account) : null;
  if (!source) return null;
  const nowMs = Date.parse(ctx.now);
  if (!source.active || !source.windows.every((w) => inWindow(nowMs, w))) return ZERO;
  let least: Dec | null = null;
  for (const h of headroomOf(source, ctx.pending.accounts, id)) {
    if (h.left !== null && (least === null || lt(h.left, least))) least = h.left;
  }
  return least === null ? null : max(ZERO, least);
}

/** Whether the check is paid from a special account (engine.md 10). */
export function paysFromAccount(paymentType: string | undefined): boolean {
  return paymentType === 'special-account' || paymentType === 'corporate-special-account';
}

/** Access errors known before any calculation (engine.md 16: anonymous, black-listed). */
export function accountAccessError(s: CalcState): ErrorResult | null {
  if (!s.paysFromAccount) return null;
  if (s.access === 'anonymous') {
    return engineError(
      'customer-required',
      'paying from a special account needs an identified customer',
      'check.payment_type',
    );
  }
  if (s.access === 'in-black-list')
    return engineError('customer-blocked', 'the customer is blocked', 'check.payment_type');
  return null;
}

/** Checks the payment and builds its debit charge of `amount_to_pay`. */
export function payFromAccount(s: CalcState, amountToPay: Dec): AccountPayment | ErrorResult {
  const access = accountAccessError(s);
  if (access) return access;
  const id = s.check.payment_id;
  const source = paymentSource(s);
  if (!source)
    return engineError('account-not-found', `no special account ${id ?? '(none)'}`, ID_PATH);
  // In engine.md 16's order: the first failure is the error.
  const refused =
    availabilityError(s, source, id!) ??
    goodsError(s, source) ??
    (skipsRequiredValues(s) ? null : requiredValuesError(s, source));
  if (refused) return refused;
  const digits = s.digits.special;
  const charge = round(amountToPay, digits);
  return (
    headroomError(source, s.ctx.pending.accounts, id!, charge, digits) ?? payment(s, source, charge)
  );
}

const ID_PATH = 'check.payment_id';

/** The account (or corporate access) `check.payment_id` names, or null. */
function paymentSource(s: CalcState): Source | null {
  const id = s.check.payment_id;
  if (!id) return null;
  if (s.check.payment_type === 'corporate-special-account') {
    const a = s.ctx.corporate_accesses.find((x) => x.id === id);
    return a ? corporateSource(a) : null;
  }
  const a = s.ctx.special_accounts.find((x) => x.id === id);
  return a ? customerSource(a) : null;
}

/** Whether the account may pay now and in the check's currency. */
function availabilityError(s: CalcState, source: Source, id: string): ErrorResult | null {
  if (!source.active) {
    return engineError('account-inactive', `special account ${id} is not active`, ID_PATH);
  }
  const nowMs = Date.parse(s.ctx.now);
  if (!source.windows.every((w) => inWindow(nowMs, w))) {
    return engineError(
      'account-outside-window',
      `special account ${id} is not available now`,
      ID_PATH,
    );
  }
  if (source.account.type === 'quantity') {
    // Litres or units never pay a check, whatever the account's currency (engine.md 17.18).
    return engineError(
      'currency-mismatch',
      `special account ${id} holds a quantity, not money in the check's currency`,
      ID_PATH,
    );
  }
  if (s.currency !== undefined && source.account.currency !== s.currency) {
    return engineError(
      'currency-mismatch',
      `special account currency ${source.account.currency ?? '(none)'} is not the check's ${s.currency}`,
      ID_PATH,
    );
  }
  return null;
}

/** The check's codes outside a goods list of the source (an empty list allows every code). */
function goodsError(s: CalcState, source: Source): ErrorResult | null {
  for (const goods of source.goods) {
    if (goods.length === 0) continue;
    const allowed = new Set(goods);
    const codes = [...new Set(s.lines.map((l) => l.code).filter((c) => !allowed.has(c)))];
    if (codes.length > 0) {
      return engineError(
        'goods-not-payable',
        `goods not payable from this account: ${codes.join(', ')}`,
        'check.check_items',
        {
          codes,
        },
      );
    }
  }
  return null;
}

/** Required values: `process` verifies them, unless a completion's pre-authorisation did. */
function skipsRequiredValues(s: CalcState): boolean {
  const check = s.check;
  return (
    s.mode === 'process' &&
    check.transaction_type === 'completion' &&
    check.special_account_required_values_verify === false
  );
}

/** PIN, odometer and vehicle id: a missing one is an error only in `process`. */
function requiredValuesError(s: CalcState, source: Source): ErrorResult | null {
  const processing = s.mode === 'process';
  const check = s.check;
  if (source.securityCode) {
    const pin = check.special_account_pin;
    if (pin === undefined || pin === '') {
      if (processing)
        return engineError(
          'pin-required',
          'this account needs its PIN',
          'check.special_account_pin',
        );
    } else if (!source.pinVerified) {
      return engineError('pin-invalid', 'the PIN is not valid', 'check.special_account_pin');
    }
  }
  if (source.odometer !== 'none') {
    const refused = odometerError(s, source.odometer, processing);
    if (refused) return refused;
  }
  if (
    source.vehicleId === 'required' &&
    processing &&
    !(check.vehicle_id ?? check.corporate_vehicle?.vehicle_id)
  ) {
    return engineError(
      'vehicle-id-required',
      'this account needs a vehicle id',
      'check.vehicle_id',
    );
  }
  return null;
}

/** The odometer reading of an account that asks for one: well formed, never going back. */
function odometerError(
  s: CalcState,
  asked: DataRequiredType,
  processing: boolean,
): ErrorResult | null {
  const check = s.check;
  const reading = check.odometer;
  if (reading === undefined) {
    if (processing && asked === 'required') {
      return engineError(
        'odometer-required',
        'this account needs an odometer reading',
        'check.odometer',
      );
    }
    return null;
  }
  if (reading < 0 || decimalPlacesOf(reading) > 2) {
    return engineError(
      'odometer-invalid',
      'an odometer reading is >= 0 with at most two decimals',
      'check.odometer',
    );
  }
  const vehicle = check.vehicle_id ?? check.corporate_vehicle?.vehicle_id;
  const unit = check.odometer_unit ?? check.terminal_odometer_measurement_units ?? 'km';
  const last = s.ctx.vehicles.find((v) => v.vehicle_id === vehicle)?.last_odometer;
  if (vehicle !== undefined && last && last.unit === unit && reading < last.value) {
    return engineError(
      'odometer-decreased',
      `odometer ${reading} ${unit} is below the last reading ${last.value} ${unit}`,
      'check.odometer',
      { last: last.value, unit },
    );
  }
  return null;
}

/** The first limit (or the funds) that `charge` would exceed, as its error. */
function headroomError(
  source: Source,
  held: Readonly<Record<string, number>>,
  id: string,
  charge: Dec,
  digits: number,
): ErrorResult | null {
  for (const h of headroomOf(source, held, id)) {
    if (h.left === null || !gt(charge, h.left)) continue;
    const available = toNumber(round(max(ZERO, h.left), digits));
    return h.name === 'funds'
      ? engineError('insufficient-funds', `the account has ${available}`, ID_PATH, {
          available,
        })
      : engineError(
          'limit-exceeded',
          `the ${h.name} limit leaves ${toNumber(max(ZERO, h.left))}`,
          ID_PATH,
          { limit: h.name, available },
        );
  }
  return null;
}

/** The accepted payment: its debit charge and what the answer says of the account. */
function payment(s: CalcState, source: Source, charge: Dec): AccountPayment {
  const digits = s.digits.special;
  const account = source.account;
  const currency = account.currency ?? s.currency;
  return {
    pinRequired: source.securityCode,
    odometerRequired: source.odometer,
    vehicleIdRequired: source.vehicleId,
    charge: {
      special_account_id: source.accountId,
      amount: toNumber(charge),
      ...(currency !== undefined ? { currency } : {}),
      decimal_digits: digits,
      direction: 'debit',
    },
    account: {
      id: source.accountId,
      ...(account.title !== undefined ? { title: account.title } : {}),
      ...(account.currency !== undefined ? { currency: account.currency } : {}),
      ...(account.type !== undefined ? { type: account.type } : {}),
    },
  };
}
