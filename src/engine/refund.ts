// Cancellations and refunds (engine.md 15): computed from the processed check as it was
// stored, never by recalculating with today's rules. Each refunded unit returns its own
// share of its line's values: a line's value is spread over its units by largest remainder
// (ties to the earlier unit) and a refund takes the first units. A caller that refunds in
// steps passes what is left of the check as `original` each time, so the last step returns
// exactly the rest and the steps add up to a cancel.
import type {
  EngineCheckCoupon,
  EngineEmittedCoupon,
  EngineCheckItem,
  EngineCheckResult,
  EngineContext,
  EngineProcessedCheck,
  EngineResult,
  EngineSpecialAccountCharge,
} from '../contract/engine.js';
import { localDate, zoneOf } from '../contract/local-time.js';
import {
  type Dec,
  ZERO,
  add,
  allocate,
  cmp,
  dec,
  fromMinor,
  gt,
  max,
  round,
  sub,
  toMinor,
  toNumber,
} from '../money/index.js';
import { engineError, type ErrorResult } from './errors.js';
import { num, wire } from './numbers.js';

/**
 * The share of `k` of a line's `q` units in a value of `total` minor units: the value is
 * split by largest remainder between the refunded and the kept units (the refunded part
 * first on a tie), so two complementary refunds of one line add up to the line exactly.
 */
export function unitShare(total: bigint, q: Dec, k: Dec, quantityDigits: number): bigint {
  const qm = toMinor(q, quantityDigits);
  const km = toMinor(k, quantityDigits);
  if (km >= qm || qm === 0n) return total;
  return allocate(total, [km, qm - km])[0] ?? 0n;
}

interface LineValues {
  readonly quantity: Dec;
  readonly qDigits: number;
  readonly amount: bigint;
  readonly discount: bigint;
  readonly redeemed: bigint;
  readonly bonusesRedeemed: bigint;
  readonly bonusesAdded: bigint;
  readonly sales: bigint;
  readonly debit: bigint;
  readonly credit: bigint;
}

function salesOf(item: EngineCheckItem, md: number): bigint {
  let total = 0n;
  for (const t of item.calculated_taxes?.sales ?? []) total += toMinor(num(t.value), md);
  return total;
}

/** Answers mode `refund` (engine-fixture.md): `{ check: REFUND, warnings, owed }`. */
export function refund(ctx: EngineContext): EngineResult {
  const original = ctx.original;
  if (!original)
    return engineError('invalid-input', 'a refund needs the original check', 'original');
  const dg: RefundDigits = {
    md: original.amount_decimal_digits ?? 2,
    bd: original.bonuses_decimal_digits ?? 2,
    sd: original.special_accounts_decimal_digits ?? 2,
  };
  const items = original.check_items ?? [];
  const cancel = ctx.refund_lines === undefined;
  const today = localDate(ctx.now, zoneOf(ctx.pos, ctx.business));
  const broken = inconsistency(original, items, dg.md, cancel);
  if (broken) return broken;
  const values = lineValues(original, items, dg);
  const charges = original.special_accounts_charges ?? [];
  const shares = chargeShares(charges, values, dg.sd);
  const refunded = refundedQuantities(ctx, values);
  if (!(refunded instanceof Map)) return refunded;
  const back = returnedValues(items, values, shares, refunded, dg);
  if (cancel) {
    // The whole check: what the check says, services and shipping included.
    back.bonusesBack = toMinor(num(original.bonuses_redeemed_amount), dg.bd);
    back.writeOff = toMinor(num(original.bonuses_added_amount), dg.bd);
  }
  return refundAnswer(ctx, original, back, cancel, today, dg);
}

/** The original check's money, bonus and special-account digits. */
interface RefundDigits {
  readonly md: number;
  readonly bd: number;
  readonly sd: number;
}

/** What each line carries, including its share of the check's bonuses redeemed. */
function lineValues(
  original: EngineProcessedCheck,
  items: readonly EngineCheckItem[],
  { md, bd }: RefundDigits,
): LineValues[] {
  const redeemedMoney = items.map((it) => toMinor(num(it.calculated_bonuses_redeemed_amount), md));
  const bonusesByLine = allocate(toMinor(num(original.bonuses_redeemed_amount), bd), redeemedMoney);
  return items.map((it, i) => {
    const qDigits = it.quantity_decimal_digits ?? 3;
    return {
      quantity: round(num(it.quantity), qDigits),
      qDigits,
      amount: toMinor(num(it.amount), md),
      discount: toMinor(num(it.discount_amount), md),
      redeemed: redeemedMoney[i]!,
      bonusesRedeemed: bonusesByLine[i] ?? 0n,
      bonusesAdded: toMinor(num(it.bonuses_added), bd),
      sales: salesOf(it, md),
      debit: 0n,
      credit: 0n,
    };
  });
}

/**
 * Each charge spread over the lines: a debit by what each line paid (after discounts and
 * bonuses, with its sales taxes), a credit (cashback) by each line's amount after discounts.
 */
function chargeShares(
  charges: readonly EngineSpecialAccountCharge[],
  values: readonly LineValues[],
  sd: number,
): bigint[][] {
  const toPay = values.map((v) => {
    const paid = v.amount - v.discount - v.redeemed + v.sales;
    return paid > 0n ? paid : 0n;
  });
  const afterDiscount = values.map((v) => {
    const after = v.amount - v.discount;
    return after > 0n ? after : 0n;
  });
  return charges.map((c) =>
    allocate(
      toMinor(num(c.amount), c.decimal_digits ?? sd),
      c.direction === 'debit' ? toPay : afterDiscount,
    ),
  );
}

/** Which quantity of which line goes back: every line's in a cancel, else `refund_lines`. */
function refundedQuantities(
  ctx: EngineContext,
  values: readonly LineValues[],
): Map<number, Dec> | ErrorResult {
  const refunded = new Map<number, Dec>();
  if (ctx.refund_lines === undefined) {
    values.forEach((v, i) => refunded.set(i, v.quantity));
    return refunded;
  }
  for (const [j, r] of ctx.refund_lines.entries()) {
    const v = values[r.index];
    if (!v)
      return engineError(
        'invalid-input',
        `the original check has no line ${r.index}`,
        `refund_lines[${j}].index`,
      );
    if (refunded.has(r.index))
      return engineError(
        'invalid-input',
        `line ${r.index} is listed twice`,
        `refund_lines[${j}].index`,
      );
    const k = round(dec(r.quantity), v.qDigits);
    if (gt(k, v.quantity)) {
      return engineError(
        'invalid-input',
        `line ${r.index} has only ${toNumber(v.quantity)} to refund`,
        `refund_lines[${j}].quantity`,
      );
    }
    refunded.set(r.index, k);
  }
  return refunded;
}

/** What the refunded units return, in minor units, and the refund's lines. */
interface Returned {
  amount: bigint;
  discount: bigint;
  redeemed: bigint;
  bonusesBack: bigint;
  writeOff: bigint;
  sales: bigint;
  /** Per charge of the original check, the part that goes back. */
  readonly chargeBack: bigint[];
  readonly lines: EngineCheckItem[];
}

/** Sums each refunded line's share of its values, in line order. */
function returnedValues(
  items: readonly EngineCheckItem[],
  values: readonly LineValues[],
  shares: readonly (readonly bigint[])[],
  refunded: ReadonlyMap<number, Dec>,
  dg: RefundDigits,
): Returned {
  const back: Returned = {
    amount: 0n,
    discount: 0n,
    redeemed: 0n,
    bonusesBack: 0n,
    writeOff: 0n,
    sales: 0n,
    chargeBack: shares.map(() => 0n),
    lines: [],
  };
  for (const [i, k] of [...refunded.entries()].sort((a, b) => a[0] - b[0])) {
    const v = values[i]!;
    const share = (total: bigint) => unitShare(total, v.quantity, k, v.qDigits);
    const a = share(v.amount);
    const d = share(v.discount);
    const r = share(v.redeemed);
    const b = share(v.bonusesAdded);
    back.amount += a;
    back.discount += d;
    back.redeemed += r;
    back.bonusesBack += share(v.bonusesRedeemed);
    back.writeOff += b;
    back.sales += share(v.sales);
    shares.forEach((parts, c) => {
      back.chargeBack[c]! += share(parts[i] ?? 0n);
    });
    const { md, bd } = dg;
    back.lines.push({
      ...items[i]!,
      quantity: toNumber(k),
      amount: toNumber(fromMinor(a, md)),
      discount_amount: toNumber(fromMinor(d, md)),
      calculated_discount_amount: toNumber(fromMinor(d, md)),
      calculated_bonuses_redeemed_amount: toNumber(fromMinor(r, md)),
      bonuses_added: toNumber(fromMinor(b, bd)),
    });
  }
  return back;
}

/** The refund check: a cancel repeats the stored totals, a partial refund sums its lines. */
function refundAnswer(
  ctx: EngineContext,
  original: EngineProcessedCheck,
  back: Returned,
  cancel: boolean,
  today: string,
  { md, bd, sd }: RefundDigits,
): EngineResult {
  // Bonuses spent from lots that have expired meanwhile stay expired (engine.md 15).
  const expired = expiredShare(original, fromMinor(back.bonusesBack, bd), today, bd);
  const returned = sub(fromMinor(back.bonusesBack, bd), expired);
  const summary = cancel
    ? num(original.summary_amount ?? original.amount)
    : fromMinor(back.amount, md);
  const toPayBack = cancel
    ? num(original.amount_to_pay)
    : fromMinor(back.amount - back.discount - back.redeemed + back.sales, md);
  const refundCharges: EngineSpecialAccountCharge[] = (original.special_accounts_charges ?? []).map(
    (c, n) => ({
      ...c,
      amount: cancel ? c.amount : toNumber(fromMinor(back.chargeBack[n]!, c.decimal_digits ?? sd)),
    }),
  );
  const writeOffDec = fromMinor(back.writeOff, bd);
  const owed = owedBonuses(ctx, writeOffDec, returned, today);
  const {
    special_account_pin: _pin,
    special_account_pin_required: _a,
    special_account_odometer_required: _b,
    special_account_vehicle_id_required: _c,
    ...rest
  } = original;
  const out: EngineCheckResult = {
    ...rest,
    transaction_type: 'refund',
    transaction_cancelled: cancel ? 1 : 0,
    ...(original.transaction_id !== undefined
      ? { preliminary_transaction_id: original.transaction_id }
      : {}),
    preliminary_transaction_type: original.transaction_type ?? 'sale',
    check_items: back.lines,
    amount: cancel ? toNumber(num(original.amount)) : toNumber(fromMinor(back.amount, md)),
    discount_amount: cancel
      ? toNumber(num(original.discount_amount))
      : toNumber(fromMinor(back.discount, md)),
    bonuses_redeemed_amount: wire(returned, bd),
    bonuses_added_amount: wire(writeOffDec, bd),
    services_amount: cancel ? toNumber(num(original.services_amount)) : 0,
    shipping_amount: cancel ? toNumber(num(original.shipping_amount)) : 0,
    summary_amount: wire(summary, md),
    amount_to_pay: wire(max(ZERO, toPayBack), md),
    bonuses_added: gt(writeOffDec, ZERO) ? [{ amount: wire(writeOffDec, bd) }] : [],
    special_accounts_charges: refundCharges,
    redeemed_coupons: cancel ? reopen(ctx, original.redeemed_coupons ?? [], today) : [],
    emitted_coupons: cancel ? cancelEmitted(ctx, original.emitted_coupons ?? []) : [],
  };
  delete out.implemented_rules;
  return { check: out, warnings: [], owed: { bonuses: wire(owed, bd) } };
}

/**
 * A stored check whose lines and totals disagree was not written by the engine: a refund
 * of it would hand back a check that contradicts itself (a cancel returns the stored totals
 * beside the stored lines, engine.md decision 49), so it is refused. A line is checked in
 * every refund, the totals only in a cancel (a partial refund sums its own lines).
 */
function inconsistency(
  original: EngineProcessedCheck,
  items: readonly EngineCheckItem[],
  md: number,
  cancel: boolean,
): ErrorResult | null {
  let amount = 0n;
  let discount = 0n;
  for (const [i, it] of items.entries()) {
    const a = toMinor(num(it.amount), md);
    const d = toMinor(num(it.discount_amount), md);
    if (d < 0n || d > a)
      return engineError(
        'invalid-input',
        `line ${i} of the original check has a discount of ${toNumber(fromMinor(d, md))} on an amount of ${toNumber(fromMinor(a, md))}`,
        `original.check_items[${i}].discount_amount`,
      );
    amount += a;
    discount += d;
  }
  if (!cancel) return null;
  if (cmp(num(original.amount), fromMinor(amount, md)) !== 0)
    return totalError('amount', original.amount, amount, md);
  if (cmp(num(original.discount_amount), fromMinor(discount, md)) !== 0)
    return totalError('discount_amount', original.discount_amount, discount, md);
  return null;
}

function totalError(
  field: string,
  stored: number | null | undefined,
  lines: bigint,
  md: number,
): ErrorResult {
  return engineError(
    'invalid-input',
    `the original check's ${field} (${stored ?? 'missing'}) is not the sum of its lines (${toNumber(fromMinor(lines, md))})`,
    `original.${field}`,
  );
}

interface SpentRecord {
  source?: unknown;
  expire?: unknown;
  amount?: unknown;
}

/**
 * The part of `back` that came from lots expired by `today`, pro rata over the spend. The
 * record's parts are exact (engine.md 17.2: a lot of 2.5 at 0 bonus digits), so they are
 * weighed at the finest scale among them, never rounded to bonus digits first (3 and 1).
 */
function expiredShare(original: EngineProcessedCheck, back: Dec, today: string, bd: number): Dec {
  const spent = original.external_additional_info?.bonuses_spent;
  if (!Array.isArray(spent) || spent.length === 0) return ZERO;
  const parts = (spent as SpentRecord[]).map((p) => ({
    amount: typeof p.amount === 'number' && p.amount > 0 ? dec(p.amount) : ZERO,
    expired: p.source === 'promotional' && typeof p.expire === 'string' && p.expire < today,
  }));
  const scale = parts.reduce((m, p) => Math.max(m, p.amount.scale), 0);
  const shares = allocate(
    toMinor(back, bd),
    parts.map((p) => toMinor(p.amount, scale)),
  );
  let expired = 0n;
  parts.forEach((p, i) => {
    if (p.expired) expired += shares[i] ?? 0n;
  });
  return fromMinor(expired, bd);
}

/** A write-off beyond the balance takes it to zero; the rest is owed (engine.md 15). */
function owedBonuses(ctx: EngineContext, writeOff: Dec, returned: Dec, today: string): Dec {
  const customer = ctx.customer;
  let balance = add(returned, num(customer?.bonuses.regular));
  for (const lot of customer?.bonuses.promotional ?? []) {
    if ((!lot.starting || lot.starting <= today) && (!lot.expire || lot.expire >= today))
      balance = add(balance, num(lot.amount));
  }
  balance = sub(balance, num(ctx.pending.bonuses_redeemed));
  return max(ZERO, sub(writeOff, max(ZERO, balance)));
}

/** Coupons the check redeemed are reopened if still valid. */
function reopen(
  ctx: EngineContext,
  coupons: readonly EngineCheckCoupon[],
  today: string,
): EngineCheckCoupon[] {
  return coupons
    .filter((c) => c.valid !== false && c.applicable !== false)
    .map((c) => ({
      ...c,
      status: !c.expire_date || c.expire_date >= today ? 'open' : (c.status ?? 'redeemed'),
    }));
}

/**
 * Coupons the check emitted are cancelled if still open. One without a code (emitted without
 * a terminal, engine.md 17.14) has no record to look up: its own status decides.
 */
function cancelEmitted(
  ctx: EngineContext,
  coupons: readonly EngineEmittedCoupon[],
): EngineEmittedCoupon[] {
  return coupons.map((c) => {
    const known = c.code === null ? undefined : ctx.coupons.find((k) => k.code === c.code);
    const now = known?.status ?? c.status ?? 'open';
    return { ...c, status: now === 'open' ? 'cancelled' : now };
  });
}
