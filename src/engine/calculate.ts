// The pipeline of one calculation (docs/engine.md lists it): lines, access, coupons
// presented, discounts, fuel recalculation, bonus-payment limits, payment with bonuses,
// bonuses, coupon emission, coupons returned, services, taxes and margins, totals, payment
// from a special account. Pure: everything comes from the context and the prepared rules.
import type {
  EngineCheck,
  EngineCheckItem,
  EngineCheckResult,
  EngineContext,
  EngineResult,
  EngineMarginItem,
  EngineTaxItem,
} from '../contract/engine.js';
import { localDateTime, zoneOf, type LocalDateTime } from '../contract/local-time.js';
import {
  type Dec,
  ZERO,
  add,
  dec,
  eq,
  fromMinor,
  gt,
  isNegative,
  mulRounded,
  round,
  sub,
} from '../money/index.js';
import { applyPaymentLimits, bonusAccessError, redeemBonuses } from './bonus-payment.js';
import { applyBonuses } from './bonuses.js';
import { applyCouponRules, modifierBatches, presentCoupons, redeemedCoupons } from './coupons.js';
import { applyDiscounts } from './discounts.js';
import { engineError, type ErrorResult } from './errors.js';
import { applyFuelRecalculation } from './fuel.js';
import { indexMatches, lineScratch, releaseMatches } from './matching.js';
import { pow10, wire, wireExact } from './numbers.js';
import { refund } from './refund.js';
import type { PreparedRules } from './rule-index.js';
import {
  aggregateByCode,
  calculateServices,
  lineMargins,
  lineTaxes,
  needsBase,
} from './services-taxes.js';
import { accountAccessError, payFromAccount, paysFromAccount } from './special-accounts.js';
import {
  ACC_SLOTS,
  LineState,
  type Access,
  type CalcState,
  type Digits,
  type LineInit,
  type SpentPart,
} from './state.js';
import { newAct } from './thresholds.js';
import { finalValues, outputLine, outputRule } from './totals.js';

export function digitsOf(check: {
  amount_decimal_digits?: number;
  bonuses_decimal_digits?: number;
  special_accounts_decimal_digits?: number;
}): Digits {
  return {
    amount: check.amount_decimal_digits ?? 2,
    bonuses: check.bonuses_decimal_digits ?? 2,
    special: check.special_accounts_decimal_digits ?? 2,
  };
}

/** A line field's path, built only for an error. */
const itemPath = (index: number, key: string): string => `check.check_items[${index}].${key}`;

/**
 * A request line as the rules see it; `invalid-input` for what the schema cannot say.
 * `completion`: the check's transaction_type is `completion`, the only one that may carry
 * what a pump dispensed (engine.md 17.4).
 */
export function buildLine(
  item: EngineCheckItem,
  index: number,
  digits: Digits,
  completion: boolean,
  slots?: BigInt64Array,
): LineState | ErrorResult {
  const refused = lineInputError(item, index, completion);
  if (refused) return refused;
  const quantityDigits = item.quantity_decimal_digits ?? 3;
  const quantity = quantityOf(item.processed_quantity ?? item.quantity, quantityDigits);
  const unpriced = unpricedError(item, index);
  if (unpriced) return unpriced;
  // The constructor copies its init: one scratch init serves every line.
  const init = LINE_INIT;
  init.index = index;
  init.item = item;
  init.quantity = quantity;
  init.amount = lineAmount(item, quantity, digits.amount);
  init.moneyDigits = digits.amount;
  init.priceDigits = item.price_decimal_digits ?? digits.amount;
  init.quantityDigits = quantityDigits;
  return new LineState(init, slots);
}

/** What the schema cannot say of a line's values, in buildLine's order of checks. */
function lineInputError(
  item: EngineCheckItem,
  index: number,
  completion: boolean,
): ErrorResult | null {
  // A completion sent as a sale would charge a quantity that may not be the one dispensed.
  const processed = completion ? null : processedKey(item);
  if (processed !== null)
    return engineError(
      'invalid-input',
      `${processed} is what a pump dispensed: only a completion reports it`,
      itemPath(index, processed),
    );
  const negative = negativeKey(item);
  if (negative !== null)
    return engineError(
      'invalid-input',
      `${negative} must not be negative`,
      itemPath(index, negative),
    );
  return aboveAuthorisedError(item, index) ?? piecesError(item, index);
}

// processedKey and negativeKey read a line's fields by name, in the order of the checks: they
// run for every line, and `item[key]` over a list of keys is a keyed read with a new key each
// time, which V8 looks up megamorphically.

/** The first of a line's processed values (what a pump dispensed) that is given, if any. */
function processedKey(item: EngineCheckItem): 'processed_quantity' | 'processed_amount' | null {
  if (item.processed_quantity !== undefined) return 'processed_quantity';
  if (item.processed_amount !== undefined) return 'processed_amount';
  return null;
}

const negative = (v: number | undefined): boolean => v !== undefined && v < 0;

/** The first of a line's quantities and amounts that is negative, if any. */
function negativeKey(item: EngineCheckItem): keyof EngineCheckItem | null {
  if (negative(item.quantity)) return 'quantity';
  if (negative(item.price)) return 'price';
  if (negative(item.amount)) return 'amount';
  if (negative(item.processed_quantity)) return 'processed_quantity';
  if (negative(item.processed_amount)) return 'processed_amount';
  return null;
}

/** A completion is calculated on the processed values, never more than authorised (engine.md 12). */
function aboveAuthorisedError(item: EngineCheckItem, index: number): ErrorResult | null {
  if (
    item.processed_quantity !== undefined &&
    item.authorized_quantity !== undefined &&
    item.processed_quantity > item.authorized_quantity
  ) {
    return engineError(
      'invalid-input',
      'processed quantity above the authorised one',
      itemPath(index, 'processed_quantity'),
    );
  }
  if (
    item.processed_amount !== undefined &&
    item.authorized_amount !== undefined &&
    item.processed_amount > item.authorized_amount
  ) {
    return engineError(
      'invalid-input',
      'processed amount above the authorised one',
      itemPath(index, 'processed_amount'),
    );
  }
  return null;
}

/** Goods counted in pieces are sold in whole ones (issue 12). */
function piecesError(item: EngineCheckItem, index: number): ErrorResult | null {
  const sold = item.processed_quantity ?? item.quantity;
  if (Number.isInteger(sold) || !countedInPieces(item)) return null;
  return engineError(
    'invalid-input',
    `${item.title ?? item.code} is sold in whole pieces: ${sold} is not a whole number`,
    itemPath(index, item.processed_quantity !== undefined ? 'processed_quantity' : 'quantity'),
    { quantity: sold },
  );
}

/**
 * A processed quantity alone is priced (engine.md 17.3): the request's amount is what was
 * authorised, not what was dispensed.
 */
const dispensedOnly = (item: EngineCheckItem): boolean =>
  item.processed_quantity !== undefined && item.processed_amount === undefined;

/** A line that must be priced (dispensedOnly) and has no price. */
function unpricedError(item: EngineCheckItem, index: number): ErrorResult | null {
  if (!dispensedOnly(item) || item.price !== undefined) return null;
  return engineError(
    'invalid-input',
    'a processed quantity without a processed amount needs the price to be priced',
    itemPath(index, 'processed_amount'),
  );
}

/** The line amount rules start from: the one given, else price x quantity, else 0. */
function lineAmount(item: EngineCheckItem, quantity: Dec, moneyDigits: number): Dec {
  const given = item.processed_amount ?? (dispensedOnly(item) ? undefined : item.amount);
  if (given !== undefined) return round(dec(given), moneyDigits);
  // The price exactly as given, rounded once with the product (engine.md 17.1): price
  // digits are for the prices the engine computes.
  if (item.price !== undefined) return mulRounded(dec(item.price), quantity, moneyDigits);
  return ZERO;
}

/** Goods counted in pieces (ours, issue 12): `whole_number` = 1, or the unit `pc`. */
function countedInPieces(item: EngineCheckItem): boolean {
  return item.whole_number === 1 || item.unit === 'pc';
}

const LINE_INIT: { -readonly [K in keyof LineInit]: LineInit[K] } = {
  index: 0,
  item: { code: '', quantity: 0 },
  quantity: ZERO,
  amount: ZERO,
  moneyDigits: 0,
  priceDigits: 0,
  quantityDigits: 0,
};

// Whole quantities below 1000 at 0-6 digits, built once: decimals are immutable, so lines
// share them instead of building two (and two BigInts) each.
const QUANTITIES: readonly (readonly Dec[])[] = Array.from({ length: 7 }, (_, digits) =>
  Array.from({ length: 1000 }, (_, q) => fromMinor(BigInt(q) * pow10(digits), digits)),
);

/** round(dec(value), digits): a line's quantity. */
function quantityOf(value: number, digits: number): Dec {
  if (Number.isInteger(value) && value >= 0 && value < 1000 && digits <= 6)
    return QUANTITIES[digits]![value]!;
  return round(dec(value), digits);
}

function visitsSoFar(ctx: EngineContext): number {
  return (
    (ctx.customer?.stats['all-time']?.visits ?? 0) + (ctx.pending.stats['all-time']?.visits ?? 0)
  );
}

/** Calculates (or processes) one check, or refunds one (mode `refund`). */
export function calculate(ctx: EngineContext, prepared: PreparedRules): EngineResult {
  if (ctx.mode === 'refund') return refund(ctx);
  const check = ctx.check;
  if (!check) return engineError('invalid-input', `mode ${ctx.mode} needs a check`, 'check');
  const digits = digitsOf(check);
  const requestLines = check.check_items ?? [];
  const lines = new Array<LineState>(requestLines.length);
  const scratch = lineScratch(prepared, requestLines.length);
  const current = scratch.current;
  const completion = check.transaction_type === 'completion';
  for (let i = 0; i < requestLines.length; i++) {
    const line = buildLine(requestLines[i]!, i, digits, completion, current);
    if ('error' in line) return line;
    lines[i] = line;
  }
  const zone = zoneOf(ctx.pos, ctx.business);
  let local: LocalDateTime | undefined;
  const localFn = (): LocalDateTime => (local ??= localDateTime(ctx.now, zone, prepared.zones));
  const customer = ctx.customer;
  const access: Access = customer ? customer.access_type : 'anonymous';
  const presented = presentCoupons({
    presented: check.redeemed_coupons ?? [],
    known: ctx.coupons,
    access,
    businessId: ctx.business.id,
    customerId: customer?.id ?? null,
    today: () => localFn().date,
  });
  const s: CalcState = {
    ctx,
    check,
    prepared,
    mode: ctx.mode === 'process' ? 'process' : 'calc',
    digits,
    lines,
    access,
    identified: customer !== null,
    corporate: Boolean(check.corporate_customer_id),
    loyaltyId: check.loyalty?.id ?? ctx.loyalty.id,
    posId: check.pos?.id ?? ctx.pos?.id,
    currency: ctx.loyalty.currency ?? ctx.business.currency,
    manualIds: new Set(
      (check.implemented_rules ?? []).map((r) => r.id).filter((id): id is string => Boolean(id)),
    ),
    isNew: visitsSoFar(ctx) === 0,
    paysWithBonuses: gt(dec(check.bonuses_redeemed_amount ?? 0), ZERO),
    paysFromAccount: paysFromAccount(check.payment_type),
    bonusRate: dec(ctx.loyalty.bonus_rate),
    local: localFn,
    modifierBatches: modifierBatches(presented),
    appliedBatches: new Set(),
    reports: scratch.reports,
    warnings: [],
    bonusesAdded: [],
    charges: [],
    emitted: [],
    redeemedBonuses: ZERO,
    redeemedMoney: ZERO,
    spent: [],
    lineTemplate: null,
    allLines: lines.map((l) => l.index),
    acc: new BigInt64Array(ACC_SLOTS),
    current,
    act: newAct(),
    allocation: scratch,
    scratch,
  };
  indexMatches(prepared, lines);
  try {
    return run(s, presented);
  } finally {
    releaseMatches(prepared);
    // Popped, not cut: the list keeps its capacity for the next check, and no report of
    // this one stays reachable.
    const reports = scratch.reports;
    while (reports.length > 0) reports.pop();
  }
}

/** The groups of rules, then the answer (calculate). */
function run(s: CalcState, presented: ReturnType<typeof presentCoupons>): EngineResult {
  const early = bonusAccessError(s) ?? accountAccessError(s);
  if (early) return early;

  const blocked = s.access === 'in-black-list';
  const groups = s.prepared.groups;
  applyDiscounts(s, blocked ? [] : groups.discount);
  applyFuelRecalculation(s);
  applyPaymentLimits(s, blocked ? [] : groups['bonus-payment-limit']);
  const refused = redeemBonuses(s);
  if (refused) return refused;
  applyBonuses(s, blocked ? [] : groups.bonuses);
  applyCouponRules(s, blocked ? [] : groups.coupon);
  const redeemed = redeemedCoupons(s, presented);
  return finish(s, redeemed);
}

/** The minor units of a value at `digits` when it is exact there, else null. */
function unitsAt(value: Dec, digits: number): bigint | null {
  if (value.scale === digits || value.units === 0n) return value.units;
  if (value.scale < digits) return value.units * pow10(digits - value.scale);
  const r = round(value, digits);
  return eq(r, value) ? r.units : null;
}

const LIMIT = 2n ** 53n;
/** Within (-2^53, 2^53): a thousand of them sum within 64 bits. */
const small = (units: bigint | null): units is bigint =>
  units !== null && units < LIMIT && units > -LIMIT;

/**
 * Taxes, margins, services and totals; then the payment from a special account. The line loop
 * stays here: it makes finish hot enough to be fully optimised, which keeps the temporaries of
 * the answer's values off the heap (bench/README.md, allocation per check).
 */
function finish(s: CalcState, redeemed: ReturnType<typeof redeemedCoupons>): EngineResult {
  const { amount: md, bonuses: bd } = s.digits;
  const check = s.check;
  const acc = s.acc;
  acc.fill(0n); // the totals in minor units while `exact` (addExact)
  let exact = s.lines.length < 1024;
  const allTaxes: EngineTaxItem[] = [];
  const allMargins: EngineMarginItem[] = [];
  const items = new Array<EngineCheckItem>(s.lines.length);
  for (let k = 0; k < s.lines.length; k++) {
    const line = s.lines[k]!;
    // The line's final amount, discount and amount after discounts are its gross, gross -
    // current and current units (LineState; a fuel recalculation rewrites them).
    const after = needsBase(s, line) ? line.current : ZERO; // the base of taxes and margins
    const taxes = lineTaxes(s, line, after);
    const margins = lineMargins(s, line, line.recalculated?.quantity ?? line.quantity, after);
    if (exact) exact = addExact(s, line, k, taxes.sales);
    for (let j = 0; j < taxes.items.length; j++) allTaxes.push(taxes.items[j]!);
    for (let j = 0; j < margins.length; j++) allMargins.push(margins[j]!);
    items[k] = outputLine(s, line, taxes.items, margins);
  }
  let amount = fromMinor(acc[0]!, md);
  let discount = fromMinor(acc[1]!, md);
  let sales = fromMinor(acc[2]!, md);
  let bonusesRedeemedMoney = fromMinor(acc[3]!, md);
  if (!exact) {
    amount = discount = sales = bonusesRedeemedMoney = ZERO;
    for (const line of s.lines) {
      const f = finalValues(line);
      amount = add(amount, f.amount);
      discount = add(discount, f.discount);
      sales = add(sales, lineTaxes(s, line, sub(f.amount, f.discount)).sales);
      bonusesRedeemedMoney = add(bonusesRedeemedMoney, line.redeemed);
    }
  }
  const services = calculateServices(s, amount);
  const shipping = round(dec(check.shipping_amount ?? 0), md);
  const summary = add(add(amount, shipping), services.total);
  let toPay = add(sub(sub(summary, discount), bonusesRedeemedMoney), sales);
  if (isNegative(toPay)) toPay = ZERO; // cannot happen: discounts and redemption never exceed the lines
  let bonusesAddedTotal: Dec = ZERO;
  for (const b of s.bonusesAdded) bonusesAddedTotal = add(bonusesAddedTotal, dec(b.amount));

  const { special_account_pin: _pin, implemented_rules: _asked, ...request } = check as EngineCheck;
  const out: EngineCheckResult = {
    ...request,
    transaction_type: request.transaction_type ?? 'sale',
    amount: wire(amount, md),
    discount_amount: wire(discount, md),
    bonuses_redeemed_amount: wire(s.redeemedBonuses, bd),
    bonuses_added_amount: wire(bonusesAddedTotal, bd),
    services_amount: wire(services.total, md),
    shipping_amount: wire(shipping, md),
    summary_amount: wire(summary, md),
    amount_to_pay: wire(toPay, md),
    amount_decimal_digits: md,
    bonuses_decimal_digits: bd,
    special_accounts_decimal_digits: s.digits.special,
    check_items: items,
    implemented_rules: s.reports.map((r) => outputRule(s, r)),
    bonuses_added: s.bonusesAdded,
    emitted_coupons: s.emitted,
  };
  if (check.check_services !== undefined) out.check_services = services.services;
  if (check.redeemed_coupons !== undefined) out.redeemed_coupons = redeemed;
  addTaxesAndMargins(out, allTaxes, allMargins);
  addBonusesSpent(s, out);
  return withAccountPayment(s, out, toPay);
}

/**
 * Adds line `k`'s amount, discount, sales taxes and money paid with bonuses to the totals in
 * s.acc[0..3], as minor units at money digits, where every line value is exact (rounded
 * there): summed in the scratch slots while each is below 2^53 and the lines fewer than 1024.
 * False, nothing added, when the line is off that ground (a value with more digits: none
 * today): finish then sums through decimals instead.
 */
function addExact(s: CalcState, line: LineState, k: number, sales: Dec): boolean {
  const md = s.digits.amount;
  const acc = s.acc;
  const a = line.gross;
  const t = unitsAt(sales, md);
  const r = unitsAt(line.redeemed, md);
  const current = s.current[k]!;
  if (
    small(a) &&
    small(t) &&
    small(r) &&
    a >= 0n &&
    line.wide === null &&
    current >= 0n &&
    current < LIMIT
  ) {
    // The discount a - current from the line's slot (within 2^53 as both are).
    acc[0] = BigInt.asIntN(64, acc[0]! + a);
    acc[1] = BigInt.asIntN(64, acc[1]! + BigInt.asIntN(64, a - current));
    acc[2] = BigInt.asIntN(64, acc[2]! + t);
    acc[3] = BigInt.asIntN(64, acc[3]! + r);
    return true;
  }
  const d = a - line.currentUnits;
  if (!(small(a) && small(d) && small(t) && small(r))) return false;
  acc[0] = BigInt.asIntN(64, acc[0]! + a);
  acc[1] = BigInt.asIntN(64, acc[1]! + d);
  acc[2] = BigInt.asIntN(64, acc[2]! + t);
  acc[3] = BigInt.asIntN(64, acc[3]! + r);
  return true;
}

// finish's callbacks, made once: these steps run once per check, too rarely to be optimised,
// and an arrow function written inline there is a new object at every call.
const isVat = (t: EngineTaxItem): boolean => t.type === 'vat';
const isSalesTax = (t: EngineTaxItem): boolean => t.type === 'sales';
const spentRecord = (p: SpentPart) => ({
  source: p.source,
  ...(p.id !== undefined ? { id: p.id } : {}),
  ...(p.expire !== undefined ? { expire: p.expire } : {}),
  amount: wireExact(p.amount),
});

/** The check's taxes (VAT and sales) and margins, each summed by code; absent when none. */
function addTaxesAndMargins(
  out: EngineCheckResult,
  allTaxes: readonly EngineTaxItem[],
  allMargins: readonly EngineMarginItem[],
): void {
  const vat = aggregateByCode(allTaxes.filter(isVat));
  const salesTaxes = aggregateByCode(allTaxes.filter(isSalesTax));
  if (vat.length + salesTaxes.length > 0) out.calculated_taxes = { base: vat, sales: salesTaxes };
  else delete out.calculated_taxes;
  if (allMargins.length > 0)
    out.calculated_margins = { terminal_additional_costs: aggregateByCode(allMargins) };
  else delete out.calculated_margins;
}

/**
 * Which lots paid, so a refund can return them (and let expired lots stay expired). The
 * parts are exact (a lot of 2.5 at 0 bonus digits gave 2.5) and add up to the amount
 * redeemed (engine.md 17.2).
 */
function addBonusesSpent(s: CalcState, out: EngineCheckResult): void {
  if (s.spent.length === 0) return;
  out.external_additional_info = {
    ...(s.check.external_additional_info ?? {}),
    bonuses_spent: s.spent.map(spentRecord),
  };
}

/** The answer, with the payment from a special account (its debit the first charge) if any. */
function withAccountPayment(s: CalcState, out: EngineCheckResult, toPay: Dec): EngineResult {
  const charges = [...s.charges];
  if (s.paysFromAccount) {
    const paid = payFromAccount(s, toPay);
    if ('error' in paid) return paid;
    charges.unshift(paid.charge);
    out.special_account = paid.account;
    out.special_account_pin_required = paid.pinRequired;
    out.special_account_odometer_required = paid.odometerRequired;
    out.special_account_vehicle_id_required = paid.vehicleIdRequired;
  }
  out.special_accounts_charges = charges;
  return { check: out, warnings: s.warnings };
}
