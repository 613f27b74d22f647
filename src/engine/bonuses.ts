// The bonuses group (engine.md 7.4, 14, 16): rules credit regular or promotional bonuses, or
// cashback in money to a special account, after the sale. The base of a line is its amount
// after discounts, less what bonuses paid on it when that does not count.
import type { EngineRule } from '../contract/engine.js';
import {
  type Dec,
  ZERO,
  add,
  allocate,
  div,
  fromMinor,
  gt,
  mul,
  round,
  toMinor,
} from '../money/index.js';
import { isCandidate } from './candidates.js';
import { touch, unitLimit } from './discounts.js';
import { cover, unitsSold, type Covered } from './matching.js';
import { HUNDRED, mulDiv, pow10, wire } from './numbers.js';
import type { CompiledRule, Tier } from './rule-index.js';
import { addDays, addMonths } from './schedule.js';
import type { CalcState } from './state.js';
import {
  baseAmount,
  countsRedeemed,
  evaluate,
  fixedReport,
  newGroupState,
  unitlessReason,
  type GroupState,
} from './thresholds.js';

/** Whether this check may earn bonuses at all (engine.md 3). */
export function earnsBonuses(s: CalcState): boolean {
  return s.identified && s.access !== 'in-black-list';
}

/** Credits of one rule per covered line: bonuses, or money for special-account cashback. */
export function creditsFor(
  c: CompiledRule,
  s: CalcState,
  tier: Tier,
  covered: readonly Covered[],
  group: GroupState,
): Dec[] {
  const cashback = c.rule.charge_type === 'special-account';
  const digits = cashback ? s.digits.special : s.digits.bonuses;
  const v = tier.value;
  switch (c.rule.value!.type) {
    case 'percentage': {
      const divisor = cashback ? HUNDRED : mul(HUNDRED, s.bonusRate); // (base x v / 100) / rate
      // Rounded once (engine.md 17.8): base x covered / units x v / 100 / rate, the covered
      // share never rounded to money digits first.
      return covered.map((cv) => {
        const base = baseAmount(c, s, cv.line.index, group);
        if (cv.whole) return div(mul(base, v), divisor, digits);
        return div(mul(mul(base, cv.covered), v), mul(cv.units, divisor), digits);
      });
    }
    case 'amount-per-unit':
      return covered.map((cv) => round(mul(v, cv.covered), digits));
    case 'amount': {
      // The weights of the shares: the covered bases, each rounded to money digits.
      const bases = covered.map((cv) => {
        const base = baseAmount(c, s, cv.line.index, group);
        return cv.whole ? base : mulDiv(base, cv.covered, cv.units, s.digits.amount);
      });
      const parts = allocate(
        toMinor(round(v, digits), digits),
        bases.map((b) => toMinor(b, s.digits.amount)),
      );
      return parts.map((p) => fromMinor(p, digits));
    }
    default:
      return covered.map(() => ZERO); // `price` has no meaning here; the schema refuses it
  }
}

/** Starting and expiry dates of promotional bonuses credited by a rule (engine.md 14, 16). */
export function promotionalDates(
  rule: EngineRule,
  saleDate: string,
): { starting: string; expire: string | null } {
  let starting = saleDate;
  if (rule.promotional_bonuses_starting_type === 'days') {
    starting = addDays(saleDate, rule.promotional_bonuses_starting_value ?? 0);
  } else if (
    rule.promotional_bonuses_starting_type === 'date' &&
    rule.promotional_bonuses_starting_date
  ) {
    starting = rule.promotional_bonuses_starting_date;
  }
  let expire: string | null;
  const value = rule.promotional_bonuses_expire_value ?? 0;
  switch (rule.promotional_bonuses_expire_type) {
    case 'days':
      expire = addDays(starting, value);
      break;
    case 'months':
      expire = addMonths(starting, value);
      break;
    case 'date':
      expire = rule.promotional_bonuses_expire_date ?? null;
      break;
    default:
      expire = null;
  }
  return { starting, expire };
}

export function applyBonuses(s: CalcState, rules: readonly CompiledRule[]): void {
  // An anonymous sale earns nothing, but its display rules still advertise (engine.md 17.9,
  // 17.11); a black-listed customer gets no rule at all (run passes none).
  const earns = earnsBonuses(s);
  if (!earns && s.access === 'in-black-list') return;
  const ls = s.scratch;
  const group = newGroupState(
    s.lines.length,
    true,
    ls === null ? null : [ls.bonusesTouched, ls.bonusesClosed],
  );
  // Bonuses credited by the integer route, per line in minor units at bonus digits, added to
  // the lines' decimals once at the end (creditEveryLine).
  const credited = ls?.credited ?? new BigInt64Array(s.lines.length);
  for (const c of rules) {
    if ((!earns && !c.display) || !isCandidate(c, s)) continue;
    const ev = evaluate(c, s, group);
    if (ev.kind === 'report') {
      s.reports.push(ev.report);
      continue;
    }
    const cashback = c.rule.charge_type === 'special-account';
    const limit = unitLimit(c);
    const fast =
      limit <= 0 && !cashback ? creditEveryLine(s, c, ev.tier, ev.eligible, group, credited) : null;
    if (fast !== null) {
      if (fast.lines.length === 0) {
        s.reports.push(fixedReport(c, unitlessReason(c, s))); // no eligible line has a unit
        continue;
      }
      touch(group, c, fast.lines);
      const total = fromMinor(fast.total, s.digits.bonuses);
      s.reports.push({ compiled: c, applied: true, amount: total, lines: fast.lines });
      if (gt(total, ZERO)) credit(s, c, total, cashback);
      continue;
    }
    const covered = cover(c, s, ev.eligible, limit);
    if (covered.length === 0) {
      s.reports.push(fixedReport(c, unitlessReason(c, s))); // no eligible line has a unit
      continue;
    }
    const credits = creditsFor(c, s, ev.tier, covered, group);
    let total: Dec = ZERO;
    const lines: number[] = [];
    covered.forEach((cv, k) => {
      const credit = credits[k]!;
      total = add(total, credit);
      if (!cashback) cv.line.bonusesAdded = add(cv.line.bonusesAdded, credit);
      if (c.rule.item_zero_quantity_as_one_quantity === 1) cv.line.zeroAsOne = true;
      lines.push(cv.line.index);
    });
    touch(group, c, lines);
    s.reports.push({ compiled: c, applied: true, amount: total, lines });
    if (gt(total, ZERO)) credit(s, c, total, cashback);
  }
  for (let i = 0; i < s.lines.length; i++) {
    const units = credited[i]!;
    if (units !== 0n) {
      const line = s.lines[i]!;
      line.bonusesAdded = add(line.bonusesAdded, fromMinor(units, s.digits.bonuses));
    }
  }
}

/** What a rule's credits total gives: a cashback charge, or an entry of bonuses_added. */
function credit(s: CalcState, c: CompiledRule, total: Dec, cashback: boolean): void {
  if (cashback) {
    const account = s.ctx.special_accounts.find((a) => a.id === c.rule.special_account_id);
    const currency = account?.currency ?? s.currency;
    s.charges.push({
      special_account_id: c.rule.special_account_id!,
      amount: wire(total, s.digits.special),
      ...(currency !== undefined ? { currency } : {}),
      decimal_digits: s.digits.special,
      direction: 'credit',
    });
  } else {
    const entry: CalcState['bonusesAdded'][number] = {
      amount: wire(total, s.digits.bonuses),
      object_id: c.rule.id.slice(0, 36),
      object_type: 'loyalty-rule',
    };
    if (c.rule.charge_type === 'promotional-bonuses') {
      const { starting, expire } = promotionalDates(c.rule, s.local().date);
      entry.starting = starting;
      if (expire !== null) entry.expire = expire;
    }
    s.bonusesAdded.push(entry);
  }
}

// The integer route's ground: factors below 2^21 and bases below 2^31 keep every product
// below 2^52, a credit at most 2^52 + 1, and a rule's total over fewer than 1024 lines, or a
// line's over the rules while its sum is below 2^62, within 64 bits.
const FACTOR21 = 2n ** 21n;
const FACTOR31 = 2n ** 31n;
const FACTOR62 = 2n ** 62n;
const FACTOR30 = 2n ** 30n;
const FEW_LINES = 1024;

/**
 * The usual bonus rule (every unit of every eligible line, regular or promotional bonuses, a
 * percentage or an amount per unit) on machine integers: what cover and creditsFor give,
 * each line's credit added to `credited` (minor units at bonus digits) instead of its
 * decimal, and the rule's total in minor units. Null, with nothing changed, when a value is
 * outside the ground above (a line outside its slot, a negative amount or value, a large
 * factor): then the decimal route.
 */
function creditEveryLine(
  s: CalcState,
  c: CompiledRule,
  tier: Tier,
  eligible: readonly number[],
  group: GroupState,
  credited: BigInt64Array,
): { total: bigint; lines: readonly number[] } | null {
  const type = c.rule.value!.type;
  const bd = s.digits.bonuses;
  const md = s.digits.amount;
  const v = tier.value;
  if (v.units < 0n || eligible.length >= FEW_LINES) return null;
  // percentage: credit = round(base x factor / den), the base in minor units at money
  // digits: div(mul(base, v), 100 x rate, bd) with the scales folded into factor and den.
  let factor = 0n;
  let den = 1n;
  if (type === 'percentage') {
    const rate = s.bonusRate;
    const shift = bd + rate.scale - (md + v.scale);
    if (shift > 18 || shift < -18) return null;
    factor = shift >= 0 ? v.units * pow10(shift) : v.units;
    den = shift >= 0 ? 100n * rate.units : 100n * rate.units * pow10(-shift);
    if (factor >= FACTOR21 || den <= 0n || den >= FACTOR62) return null;
  } else if (type !== 'amount-per-unit' || v.units >= FACTOR21) return null;
  const lessRedeemed = group.bonuses && !countsRedeemed(c, s);
  // First every guard, so that nothing changes unless every line takes this route.
  if (!linesOnGround(s, c, v, eligible, credited, lessRedeemed)) return null;
  return creditLines(s, c, v, eligible, credited, lessRedeemed, factor, den);
}

/** Whether every eligible line with a unit is on creditEveryLine's ground. */
function linesOnGround(
  s: CalcState,
  c: CompiledRule,
  v: Dec,
  eligible: readonly number[],
  credited: BigInt64Array,
  lessRedeemed: boolean,
): boolean {
  const percentage = c.rule.value!.type === 'percentage';
  const bd = s.digits.bonuses;
  const md = s.digits.amount;
  const slots = s.current;
  for (let k = 0; k < eligible.length; k++) {
    const line = s.lines[eligible[k]!]!;
    const units = unitsSold(line, c);
    if (units.units <= 0n) continue;
    if (credited[line.index]! >= FACTOR62) return false;
    if (percentage) {
      if (line.wide !== null) return false;
      const current = slots[line.index]!;
      const redeemed = lessRedeemed ? line.redeemed : ZERO;
      if (redeemed.scale !== md && redeemed.units !== 0n) return false;
      if (redeemed.units < 0n || redeemed.units >= FACTOR31) return false;
      if (current < redeemed.units || current >= FACTOR31) return false;
    } else {
      const scale = v.scale + units.scale;
      if (scale <= bd || scale - bd > 17 || units.units >= FACTOR30) return false;
    }
  }
  return true;
}

/**
 * creditEveryLine's credits, every line on the ground: each added to `credited`, the total
 * summed in s.acc[2]. The lines credited are the eligible list itself unless one without a
 * unit is left out.
 */
function creditLines(
  s: CalcState,
  c: CompiledRule,
  v: Dec,
  eligible: readonly number[],
  credited: BigInt64Array,
  lessRedeemed: boolean,
  factor: bigint,
  den: bigint,
): { total: bigint; lines: readonly number[] } {
  const percentage = c.rule.value!.type === 'percentage';
  const bd = s.digits.bonuses;
  const slots = s.current;
  const acc = s.acc;
  acc[2] = 0n;
  let lines: number[] | null = null;
  const zeroAsOne = c.rule.item_zero_quantity_as_one_quantity === 1;
  for (let k = 0; k < eligible.length; k++) {
    const i = eligible[k]!;
    const line = s.lines[i]!;
    const units = unitsSold(line, c);
    if (units.units <= 0n) {
      lines ??= eligible.slice(0, k);
      continue;
    }
    lines?.push(i);
    if (zeroAsOne) line.zeroAsOne = true;
    // n / d: n in a scratch slot, as a bigint chosen by a branch would be a heap BigInt.
    let d: bigint;
    if (percentage) {
      const redeemed = lessRedeemed ? line.redeemed.units : 0n;
      acc[3] = BigInt.asIntN(64, BigInt.asIntN(64, slots[i]! - redeemed) * factor);
      d = den;
    } else {
      // round(v x units, bd): the product over 10^(scale - bd)
      acc[3] = BigInt.asIntN(64, v.units * units.units);
      d = pow10(v.scale + units.scale - bd);
    }
    const n = acc[3]!;
    // n / d rounded half away from zero (n >= 0): one more at a remainder of half or above.
    const q = BigInt.asIntN(64, n / d);
    const twice = BigInt.asIntN(64, 2n * BigInt.asIntN(64, n - BigInt.asIntN(64, q * d)));
    if (twice >= d) {
      credited[i] = BigInt.asIntN(64, credited[i]! + BigInt.asIntN(64, q + 1n));
      acc[2] = BigInt.asIntN(64, acc[2]! + BigInt.asIntN(64, q + 1n));
    } else {
      credited[i] = BigInt.asIntN(64, credited[i]! + q);
      acc[2] = BigInt.asIntN(64, acc[2]! + q);
    }
  }
  return { total: acc[2]!, lines: lines ?? eligible };
}
