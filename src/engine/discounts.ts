// The discount group (engine.md 7.1): rules lower the current amount of the lines they
// cover, in order, exclusive rules closing the lines they touch.
import {
  type Dec,
  ZERO,
  add,
  allocate,
  allocateSmall,
  cmp,
  fromMinor,
  isNegative,
  mul,
  mulRoundedUnits,
  round,
  sub,
  toMinor,
} from '../money/index.js';
import { isCandidate } from './candidates.js';
import { cover, unitsFor, type Covered } from './matching.js';
import { HUNDRED, clamp, mulDiv, percentOf, pow10 } from './numbers.js';
import type { CompiledRule, PercentFactor, Tier } from './rule-index.js';
import { INT64_MAX, type CalcState, type LineState } from './state.js';
import {
  evaluate,
  fixedReport,
  newGroupState,
  unitlessReason,
  type GroupState,
} from './thresholds.js';

/** The current amount of the covered units: exact, rounded once (engine.md 16). */
export function coveredAmount(c: Covered, digits: number): Dec {
  return c.whole ? c.line.current : mulDiv(c.line.current, c.covered, c.units, digits);
}

/** Discount of each covered line for one rule, never more than the covered amount. */
export function discountsFor(
  c: CompiledRule,
  tier: Tier,
  covered: readonly Covered[],
  digits: number,
): Dec[] {
  const type = c.rule.value!.type;
  const v = tier.value;
  if (type === 'amount') {
    const amounts = covered.map((cv) => coveredAmount(cv, digits));
    const total = amounts.reduce((a, b) => add(a, b), ZERO);
    const wanted = clamp(round(v, digits), ZERO, total); // capped at the lines' total
    const parts = allocate(
      toMinor(wanted, digits),
      amounts.map((a) => toMinor(a, digits)),
    );
    return parts.map((p) => fromMinor(p, digits));
  }
  const simplePercent = type === 'percentage' && !isNegative(v) && cmp(v, HUNDRED) <= 0;
  return covered.map((cv) => {
    if (simplePercent && cv.whole) return percentOf(cv.line.current, v, digits); // the common case
    const cap = coveredAmount(cv, digits);
    let d: Dec;
    switch (type) {
      case 'percentage':
        // current x covered / units x v / 100, rounded once
        d = cv.whole
          ? percentOf(cv.line.current, v, digits)
          : mulDiv(mul(cv.line.current, cv.covered), v, mul(cv.units, HUNDRED), digits);
        break;
      case 'amount-per-unit':
        d = round(mul(v, cv.covered), digits);
        break;
      case 'price':
        d = sub(cap, round(mul(v, cv.covered), digits));
        break;
    }
    return clamp(d, ZERO, cap);
  });
}

/**
 * The discount of a line whose every unit is covered, in minor units at `digits` (the line's
 * current amount is given there too), computed on the integers: what discountsFor gives for
 * it. Null outside the usual ground (a negative amount or value, a percentage above 100):
 * then discountsFor.
 */
export function wholeLineDiscount(
  type: 'percentage' | 'amount-per-unit' | 'price',
  tier: Tier,
  current: bigint,
  units: Dec,
  digits: number,
): bigint | null {
  if (current < 0n) return null;
  if (type === 'percentage') {
    const pf = tier.percent;
    return pf ? (current * pf.twice + pf.den) / pf.twiceDen : null; // never above the line
  }
  const product = roundedProduct(tier.value, units, digits);
  if (product === null) return null;
  const d = type === 'amount-per-unit' ? product : current - product;
  return d < 0n ? 0n : d > current ? current : d;
}

/** round(a x b, digits) half away from zero, as minor units; null when a x b < 0. */
function roundedProduct(a: Dec, b: Dec, digits: number): bigint | null {
  if ((a.units < 0n || b.units < 0n) && a.units * b.units < 0n) return null;
  return mulRoundedUnits(a, b, digits);
}

const SMALL_FACTOR = 2n ** 30n;

/** Whether only one unit is acted on (engine.md 7: percentage and amount-per-unit). */
export function unitLimit(c: CompiledRule): number {
  const type = c.rule.value?.type;
  if (c.rule.only_once_per_check === 1 && (type === 'percentage' || type === 'amount-per-unit'))
    return 1;
  return c.rule.items_limit_max;
}

export function touch(group: GroupState, c: CompiledRule, lines: readonly number[]): void {
  for (const i of lines) {
    if (group.touched[i] === 0) {
      group.touched[i] = 1;
      group.untouched -= 1;
    }
    if (c.rule.combine === 0 && group.closed[i] === 0) {
      group.closed[i] = 1;
      group.open -= 1;
    }
  }
}

/** Applies one discount, `d` minor units at money digits, to a line. */
function lower(line: LineState, d: bigint, c: CompiledRule): void {
  // The discount grows with it (LineState). In the slot when both are within its range.
  const slots = line.slots;
  const i = line.index;
  if (line.wide === null && d >= 0n && d <= INT64_MAX && slots[i]! >= 0n)
    slots[i] = BigInt.asIntN(64, slots[i]! - d);
  else line.currentUnits = line.currentUnits - d;
  if (c.rule.item_zero_quantity_as_one_quantity === 1) line.zeroAsOne = true;
}

export function applyDiscounts(s: CalcState, rules: readonly CompiledRule[]): void {
  const ls = s.scratch;
  const group = newGroupState(
    s.lines.length,
    false,
    ls === null ? null : [ls.discountTouched, ls.discountClosed],
  );
  const digits = s.digits.amount;
  for (const c of rules) {
    if (!isCandidate(c, s)) continue;
    const ev = evaluate(c, s, group);
    if (ev.kind === 'report') {
      s.reports.push(ev.report);
      continue;
    }
    const type = c.rule.value!.type;
    const limit = unitLimit(c);
    const pf = ev.tier.percent;
    let done: Applied;
    if (limit !== 0) done = coveredUnits(s, c, ev.eligible, ev.tier, limit, digits);
    else if (type === 'amount') done = amountOverLines(s, c, ev.eligible, ev.tier, digits);
    else if (type === 'percentage' && pf)
      done = percentOfLines(s, c, ev.eligible, ev.tier, pf, digits);
    else done = eachWholeLine(s, c, type, ev.eligible, ev.tier, digits);
    if (done.lines.length === 0) {
      s.reports.push(fixedReport(c, unitlessReason(c, s))); // no eligible line has a unit
      continue;
    }
    touch(group, c, done.lines);
    s.reports.push({
      compiled: c,
      applied: true,
      amount: fromMinor(done.total, digits),
      lines: done.lines,
    });
  }
}

/** What one rule did: the sum of its discounts (minor units at money digits), on which lines. */
interface Applied {
  readonly total: bigint;
  readonly lines: readonly number[];
}

// Within these bounds (amounts below 2^53 minor units, fewer than 1024 lines) every product
// and the running total of percentOfLines stay inside 64 bits.
const SMALL_AMOUNT = 2n ** 53n;
const FEW_LINES = 1024;

/**
 * The commonest effect, kept tight: p% of every unit of every eligible line with a unit. In
 * 64 bits BigInt.asIntN(64, x) is the identity; it lets V8 compute on machine integers
 * instead of allocating a BigInt per step. The list of lines is the eligible one itself
 * unless a line without a unit is left out.
 */
function percentOfLines(
  s: CalcState,
  c: CompiledRule,
  eligible: readonly number[],
  tier: Tier,
  pf: PercentFactor,
  digits: number,
): Applied {
  const { twice, den, twiceDen } = pf;
  const bound = pf.maxAmount < SMALL_AMOUNT ? pf.maxAmount : SMALL_AMOUNT;
  const fast = eligible.length < FEW_LINES;
  const zeroAsOne = c.rule.item_zero_quantity_as_one_quantity === 1;
  const acc = s.acc;
  const slots = s.current;
  acc[0] = 0n; // discounts of the 64-bit path
  let large = 0n; // the others
  let lines: number[] | null = null;
  for (let k = 0; k < eligible.length; k++) {
    const i = eligible[k]!;
    const line = s.lines[i]!;
    if (!line.hasQuantity && !(zeroAsOne && line.quantity.units === 0n)) {
      lines ??= eligible.slice(0, k); // a line with no unit is never covered
      continue;
    }
    if (zeroAsOne) line.zeroAsOne = true;
    lines?.push(i);
    if (fast && line.wide === null) {
      const current = slots[i]!;
      if (current >= 0n && current <= bound) {
        const d = BigInt.asIntN(64, BigInt.asIntN(64, current * twice + den) / twiceDen);
        slots[i] = BigInt.asIntN(64, current - d);
        acc[0] = BigInt.asIntN(64, acc[0]! + d);
        continue;
      }
    }
    const current = line.currentUnits;
    const d = toMinor(percentOf(line.current, tier.value, digits), digits);
    line.currentUnits = current - d;
    large += d;
  }
  return { total: acc[0]! + large, lines: lines ?? eligible };
}

/** Every unit of every eligible line, each line on its own (wholeLineDiscount, else discountsFor). */
function eachWholeLine(
  s: CalcState,
  c: CompiledRule,
  type: 'percentage' | 'amount-per-unit' | 'price',
  eligible: readonly number[],
  tier: Tier,
  digits: number,
): Applied {
  // The total in a scratch slot while every discount is below 2^53 (fewer than 1024 lines).
  const acc = s.acc;
  const slots = s.current;
  acc[0] = 0n;
  let large = 0n;
  const fast = eligible.length < FEW_LINES;
  const v = tier.value;
  const perUnit = type === 'amount-per-unit';
  let lines: number[] | null = null; // the eligible list itself unless a line is left out
  for (let k = 0; k < eligible.length; k++) {
    const i = eligible[k]!;
    const line = s.lines[i]!;
    const units = unitsFor(line, c);
    if (units.units <= 0n) {
      lines ??= eligible.slice(0, k); // a line with no unit is never covered
      continue;
    }
    lines?.push(i);
    if (c.rule.item_zero_quantity_as_one_quantity === 1) line.zeroAsOne = true;
    const scale = v.scale + units.scale;
    if (
      fast &&
      type !== 'percentage' &&
      line.wide === null &&
      scale > digits &&
      scale - digits <= 17 &&
      v.units >= 0n &&
      v.units < SMALL_FACTOR &&
      units.units < SMALL_FACTOR
    ) {
      const current = slots[i]!;
      if (current >= 0n && current < SMALL_AMOUNT) {
        // wholeLineDiscount on machine integers (every value below 2^63, see mulRoundedUnits):
        // the product v x units rounded to `digits`, the discount it gives clamped to the line.
        const p = pow10(scale - digits);
        const product = BigInt.asIntN(
          64,
          BigInt.asIntN(64, 2n * BigInt.asIntN(64, v.units * units.units) + p) /
            BigInt.asIntN(64, 2n * p),
        );
        // The discount is written to a scratch slot: a bigint chosen by a branch (a phi)
        // would be boxed into a heap BigInt.
        if (perUnit) acc[1] = product;
        else acc[1] = BigInt.asIntN(64, current - product);
        const d = acc[1]!;
        if (d > current) {
          slots[i] = 0n;
          acc[0] = BigInt.asIntN(64, acc[0]! + current);
        } else if (d > 0n) {
          slots[i] = BigInt.asIntN(64, current - d);
          acc[0] = BigInt.asIntN(64, acc[0]! + d);
        }
        continue;
      }
    }
    let d = wholeLineDiscount(type, tier, line.currentUnits, units, digits);
    if (d === null) {
      const whole = { line, covered: units, units, whole: true };
      d = toMinor(discountsFor(c, tier, [whole], digits)[0]!, digits);
    }
    line.currentUnits = line.currentUnits - d;
    if (fast && d >= 0n && d < SMALL_AMOUNT) acc[0] = BigInt.asIntN(64, acc[0]! + d);
    else large += d;
  }
  return { total: acc[0]! + large, lines: lines ?? eligible };
}

/** A fixed amount over every eligible line with a unit, spread by their current amounts. */
function amountOverLines(
  s: CalcState,
  c: CompiledRule,
  eligible: readonly number[],
  tier: Tier,
  digits: number,
): Applied {
  // Lists sized for every eligible line and cut to length: one allocation each.
  const lines = new Array<number>(eligible.length);
  let n = 0;
  // The weights (the lines' current units) in the check's scratch while every line's are in
  // its slot (LineState), and their sum in a scratch slot while each is below 2^53 (fewer
  // than 1024 lines): no heap BigInt per line. Any other line: the bigint route below.
  const scratch = allocationScratch(s);
  const weights = scratch.weights;
  const slots = s.current;
  const acc = s.acc;
  acc[0] = 0n;
  let small = eligible.length < FEW_LINES;
  for (let k = 0; k < eligible.length; k++) {
    const i = eligible[k]!;
    const line = s.lines[i]!;
    if (unitsFor(line, c).units <= 0n) continue;
    lines[n] = i;
    if (small && line.wide === null) {
      const u = slots[i]!;
      weights[n] = u;
      if (u >= 0n && u < SMALL_AMOUNT) acc[0] = BigInt.asIntN(64, acc[0]! + u);
      else small = false;
    } else small = false;
    n += 1;
  }
  lines.length = n;
  const wanted = round(tier.value, digits).units; // capped at the lines' total
  if (small) {
    const sum = acc[0]!;
    const capped = wanted < 0n ? 0n : wanted > sum ? sum : wanted;
    const parts = scratch.work;
    if (allocateSmall(capped, weights, n, parts)) {
      // Each part is at most its line's current units (weights >= 0): the slot stays in range.
      for (let k = 0; k < n; k++) {
        const i = lines[k]!;
        slots[i] = BigInt.asIntN(64, slots[i]! - parts[k]!);
        if (c.rule.item_zero_quantity_as_one_quantity === 1) s.lines[i]!.zeroAsOne = true;
      }
      // The parts sum to what was allocated (largest remainder; all zero only when it is 0).
      return { total: capped, lines };
    }
  }
  const wide = new Array<bigint>(n);
  let sum = 0n;
  for (let k = 0; k < n; k++) {
    const u = s.lines[lines[k]!]!.currentUnits;
    wide[k] = u;
    sum += u;
  }
  const capped = wanted < 0n ? 0n : wanted > sum ? sum : wanted;
  const parts = allocate(capped, wide);
  for (let k = 0; k < n; k++) lower(s.lines[lines[k]!]!, parts[k]!, c);
  return { total: capped, lines };
}

/** The check's scratch for allocateSmall: its weights, and its parts and work. */
export function allocationScratch(s: CalcState): { weights: BigInt64Array; work: BigInt64Array } {
  const n = s.lines.length;
  return (s.allocation ??= { weights: new BigInt64Array(n), work: new BigInt64Array(3 * n + 2) });
}

/** At most `limit` units, cheapest first (cover), then discountsFor. */
function coveredUnits(
  s: CalcState,
  c: CompiledRule,
  eligible: readonly number[],
  tier: Tier,
  limit: number,
  digits: number,
): Applied {
  const covered = cover(c, s, eligible, limit);
  const discounts = discountsFor(c, tier, covered, digits);
  let total = 0n;
  const lines: number[] = [];
  for (let k = 0; k < covered.length; k++) {
    const cv = covered[k]!;
    const d = toMinor(discounts[k]!, digits); // at `digits` (ZERO when clamped)
    lower(cv.line, d, c);
    total += d;
    lines.push(cv.line.index);
  }
  return { total, lines };
}
