// The dependency base and the tier it reaches (engine.md 5, 6), and the last two candidate
// conditions of engine.md 4 (threshold and items_limit_min; bonuses redeemed and account
// payment). `evaluate` runs them for one rule and says whether and where it acts.
import type { EngineStats } from '../contract/engine.js';
import { type Dec, ZERO, add, cmp, dec, fromMinor, gt, lt, sub } from '../money/index.js';
import { dependencyLines, matchingLines, matchingUnits, unitsFor } from './matching.js';
import { pow10 } from './numbers.js';
import { passes, type CompiledRule, type Tier } from './rule-index.js';
import type { CalcState, RuleReport } from './state.js';

/** Which lines an action group has touched and closed so far (engine.md 7, 16). */
export interface GroupState {
  readonly touched: Uint8Array;
  readonly closed: Uint8Array;
  /** How many lines are not touched / not closed yet: at 0 no rule of that kind can act. */
  untouched: number;
  open: number;
  /** The bonuses group: the base leaves out money paid with bonuses when it does not count. */
  readonly bonuses: boolean;
  /** Some line has quantity 0 (no unit unless a rule counts it as one); null until asked. */
  quantityZero: boolean | null;
}

/** `marks`: cleared arrays of at least `lines` entries to use as touched and closed. */
export function newGroupState(
  lines: number,
  bonuses = false,
  marks: readonly [Uint8Array, Uint8Array] | null = null,
): GroupState {
  return {
    touched: marks?.[0] ?? new Uint8Array(lines),
    closed: marks?.[1] ?? new Uint8Array(lines),
    untouched: lines,
    open: lines,
    bonuses,
    quantityZero: null,
  };
}

/** Whether money paid with bonuses counts in this rule's amount base (engine.md 5, 16). */
export function countsRedeemed(c: CompiledRule, s: CalcState): boolean {
  return (
    (c.rule.count_bonuses_redeemed_amount ?? s.ctx.loyalty.count_bonuses_redeemed_amount) === 1
  );
}

/** A line's amount as the rule's amount base sees it. */
export function baseAmount(
  c: CompiledRule,
  s: CalcState,
  index: number,
  group: GroupState | null,
): Dec {
  const line = s.lines[index]!;
  if (group?.bonuses && !countsRedeemed(c, s)) return sub(line.current, line.redeemed);
  return line.current;
}

function periodTotals(c: CompiledRule, s: CalcState): { amount: Dec; quantity: Dec; visits: Dec } {
  const key: keyof EngineStats =
    c.rule.depends_calc_period_related_to_current_category === 1
      ? 'since_category'
      : (c.rule.depends_calc_period ?? 'all-time');
  const a = s.ctx.customer?.stats[key];
  const p = s.ctx.pending.stats[key];
  return {
    amount: add(dec(a?.amount ?? 0), dec(p?.amount ?? 0)),
    quantity: add(dec(a?.quantity ?? 0), dec(p?.quantity ?? 0)),
    visits: dec((a?.visits ?? 0) + (p?.visits ?? 0)),
  };
}

/** The dependency base of a rule at this point of the calculation (engine.md 5). */
export function dependencyBase(
  c: CompiledRule,
  s: CalcState,
  matching: readonly number[],
  group: GroupState | null,
): Dec {
  const type = c.rule.depends_type;
  if (type === 'none') return ZERO;
  const deps = dependencyLines(c, s, matching);
  let amount: Dec = ZERO;
  let quantity: Dec = ZERO;
  if (type === 'amount' || type === 'period-amount') {
    amount = sumBases(c, s, deps, group);
  } else if (type === 'quantity' || type === 'period-quantity') {
    for (const i of deps) quantity = add(quantity, unitsFor(s.lines[i]!, c));
  }
  switch (type) {
    case 'amount':
      return amount;
    case 'quantity':
      return quantity;
    case 'period-amount':
      return add(periodTotals(c, s).amount, amount);
    case 'period-quantity':
      return add(periodTotals(c, s).quantity, quantity);
    case 'period-visits':
      return add(periodTotals(c, s).visits, dec(1));
  }
}

/** The sum of the amount bases of some lines. */
function sumBases(
  c: CompiledRule,
  s: CalcState,
  lines: readonly number[],
  group: GroupState | null,
): Dec {
  const md = s.digits.amount;
  if (!(group?.bonuses && !countsRedeemed(c, s))) {
    // The base is the current amount, at money digits on every line. Amounts below 2^53 and
    // fewer than 1024 lines keep the sum within 64 bits: it runs in a scratch slot (CalcState.acc).
    // Each line's units are read from its slot (LineState) where they are.
    const acc = s.acc;
    const slots = s.current;
    acc[1] = 0n;
    let large = 0n; // amounts outside that ground
    const fast = lines.length < FEW_LINES;
    for (let k = 0; k < lines.length; k++) {
      const line = s.lines[lines[k]!]!;
      if (fast && line.wide === null) {
        const u = slots[line.index]!;
        if (u >= 0n && u < SMALL_AMOUNT) {
          acc[1] = BigInt.asIntN(64, acc[1]! + u);
          continue;
        }
      }
      large += line.currentUnits;
    }
    return fromMinor(acc[1]! + large, md);
  }
  let total: Dec = ZERO;
  for (const i of lines) total = add(total, baseAmount(c, s, i, group));
  return total;
}

/**
 * dependencyBase of a rule whose base is the current amount of its own matching lines, summed
 * from the index scratch (or the check's lines) without making the rule's list of lines,
 * into s.acc[1] as minor units at money digits (no decimal: tierAtUnits reads it): since
 * engine.md 17.9 every candidate is evaluated, most of them to report lines-taken. Only on
 * sumBases' 64-bit ground (every line's units in its slot, below 2^53, fewer than 1024
 * lines); false elsewhere, and the list route answers.
 */
function ownAmountUnits(
  c: CompiledRule,
  s: CalcState,
  scans: boolean,
  group: GroupState | null,
): boolean {
  if (c.rule.depends_type !== 'amount' || c.depends !== c.matching) return false;
  if ((group?.bonuses && !countsRedeemed(c, s)) || s.lines.length >= FEW_LINES) return false;
  const acc = s.acc;
  const slots = s.current;
  const scratch = s.prepared.scratch;
  const f = c.matching;
  // An indexed rule's lines are in the index scratch; any other rule's are the check's lines,
  // tested when it scans (an every-line rule without exclusions takes them all).
  const listed = c.indexed;
  const count = listed ? scratch.counts[c.order]! : s.lines.length;
  const from = listed ? scratch.start[c.order]! : 0;
  acc[1] = 0n;
  for (let k = 0; k < count; k++) {
    const line = listed ? s.lines[scratch.flat[from + k]!]! : s.lines[k]!;
    if (scans && !passes(f, line.code, line.category)) continue;
    if (line.wide !== null) return false;
    const u = slots[line.index]!;
    if (u < 0n || u >= SMALL_AMOUNT) return false;
    acc[1] = BigInt.asIntN(64, acc[1]! + u);
  }
  return true;
}

/**
 * tierFor of a base of acc[1] minor units at `digits` (0 <= acc[1] < 2^63), compared in 64
 * bits; undefined when a tier's threshold is off that ground (more digits, or 2^31 units).
 */
function tierAtUnits(
  tiers: readonly Tier[],
  acc: BigInt64Array,
  digits: number,
): Tier | null | undefined {
  let found: Tier | null = null;
  for (let k = 0; k < tiers.length; k++) {
    const from = tiers[k]!.from;
    const shift = digits - from.scale;
    if (shift < 0 || shift > 9 || from.units < 0n || from.units >= FROM_UNITS) return undefined;
    if (BigInt.asIntN(64, from.units * pow10(shift)) <= acc[1]!) found = tiers[k]!;
    else break;
  }
  return found;
}

const FROM_UNITS = 2n ** 31n;

const SMALL_AMOUNT = 2n ** 53n;
const FEW_LINES = 1024;

/** The last tier whose `from` <= base (engine.md 6), or null. */
export function tierFor(tiers: readonly Tier[], base: Dec): Tier | null {
  let found: Tier | null = null;
  for (const t of tiers) {
    if (cmp(t.from, base) <= 0) found = t;
    else break;
  }
  return found;
}

/** What is lacking to the lowest threshold above the base; null when none is above. */
export function missingTo(tiers: readonly Tier[], base: Dec): Dec | null {
  for (const t of tiers) if (gt(t.from, base)) return sub(t.from, base);
  return null;
}

export type Evaluation =
  | { readonly kind: 'report'; readonly report: RuleReport }
  | {
      readonly kind: 'act';
      readonly tier: Tier;
      readonly eligible: readonly number[];
    };

/** The check's one 'act' evaluation, refilled by each evaluate: its callers read it at once. */
export interface Act {
  readonly kind: 'act';
  tier: Tier;
  eligible: readonly number[];
}

export const newAct = (): Act => ({ kind: 'act', tier: NO_TIER, eligible: [] });

/** The tier of a coupon rule without a value. */
const NO_TIER: Tier = Object.freeze({ from: ZERO, value: ZERO });

/** Reasons whose report says nothing but the reason: the same report in every check. */
export type FixedReason = 'bonuses-redeemed' | 'account-payment' | 'no-line' | 'lines-taken';

/**
 * A rule's report for a fixed reason, built once per rule set (CompiledRule.fixed), and its
 * output once too (totals.ts outputRule): engine.md 17.9 returns every candidate, most of
 * them not applied for one of these reasons.
 */
export function fixedReport(c: CompiledRule, reason: FixedReason): RuleReport {
  return (c.fixed[reason] ??= Object.freeze({ compiled: c, applied: false, reason }));
}

const reported = (report: RuleReport): Evaluation => ({ kind: 'report', report });

/** evaluate's answer for a fixed reason, made once per rule set too. */
const fixedly = (c: CompiledRule, reason: FixedReason): Evaluation =>
  (c.fixed.evaluations[reason] ??= Object.freeze({
    kind: 'report',
    report: fixedReport(c, reason),
  }));

/**
 * Decides whether a candidate (engine.md 4.1-4.7 passed) acts and on which lines, or why it
 * does not (engine.md 17.9, 17.10), checking in this order: threshold, items_limit_min,
 * bonuses redeemed, account payment, then `no-line` (no line matches) or `lines-taken`
 * (every matching line taken by earlier rules of its group). Every candidate gets an answer:
 * none is dropped. It runs for every candidate, so its common path (the counting loops, the
 * tier) stays here: the steps moved out are small enough for the optimiser to inline
 * (takenMarks, freeAmong, fixedReason), or run only for a display rule, a report or a list
 * that is built anyway.
 */
export function evaluate(c: CompiledRule, s: CalcState, group: GroupState | null): Evaluation {
  if (c.display) return displayReport(c, s, group);
  // An indexed rule's matches are read from the check's index scratch (indexMatches), a
  // scanning rule's by testing the lines, until its own list is needed: a rule that does
  // not act never makes one.
  const scratch = s.prepared.scratch;
  const f = c.matching;
  const scans = !c.indexed && !(f.everyLine && !f.excludes); // else its list exists already
  let matching: readonly number[] | null = null;
  let count = 0;
  let free = 0;
  const taken = takenMarks(c, group);
  if (scans) {
    for (const line of s.lines) {
      if (passes(f, line.code, line.category)) {
        count += 1;
        // Without lines to tell free from taken only whether one matches counts: the
        // eligible list, when needed, is the matching one.
        if (taken === null) break;
        free += 1 - taken[line.index]!;
      }
    }
  } else {
    if (c.indexed) count = scratch.counts[c.order]!;
    else {
      matching = matchingLines(c, s);
      count = matching.length;
    }
    if (taken !== null && count > 0) {
      const from = matching === null ? scratch.start[c.order]! : 0; // indexed: in the scratch
      free = freeAmong(taken, matching ?? scratch.flat, from, count);
    }
  }
  if (group === null) free = count; // no exclusivity outside the discount and bonuses groups
  // No matching line and no lines of its own to depend on: an amount or quantity base is 0.
  const type = c.rule.depends_type;
  let base: Dec | null = null; // null: the base is s.acc[1] minor units (ownAmountUnits)
  let tier: Tier | null | undefined;
  if (
    type === 'none' ||
    (count === 0 && c.depends === c.matching && (type === 'amount' || type === 'quantity'))
  ) {
    base = ZERO;
    tier = c.zeroTier;
  } else if ((matching === null || matching === s.allLines) && ownAmountUnits(c, s, scans, group)) {
    tier = tierAtUnits(c.tiers, s.acc, s.digits.amount);
    if (tier === undefined) tier = tierFor(c.tiers, (base = fromMinor(s.acc[1]!, s.digits.amount)));
  } else {
    base = dependencyBase(c, s, (matching ??= matchingLines(c, s)), group);
    tier = tierFor(c.tiers, base);
  }
  // A coupon rule may come without a value: it then has no threshold to reach.
  if (tier === null && (c.group !== 'coupon' || c.tiers.length > 0))
    return thresholdReport(c, s, base);
  if (c.rule.items_limit_min > 0) {
    const short = itemsShortReport(c, s, (matching ??= matchingLines(c, s)));
    if (short !== null) return short;
  }
  const reason = fixedReason(c, s, group, count, free);
  if (reason !== null) return fixedly(c, reason);
  let eligible: readonly number[] | null = null;
  if (taken !== null && free < count) {
    // An exclusive rule acts on untouched lines, a combinable one on lines no exclusive rule closed.
    if (scans) eligible = freeScanned(c, s, taken, free);
    else {
      const from = matching === null ? scratch.start[c.order]! : 0; // indexed: in the scratch
      eligible = freeListed(taken, matching ?? scratch.flat, from, count, free);
    }
  } // else every matching line is free: the list itself (never changed by its users)
  const act = s.act;
  act.tier = tier ?? NO_TIER;
  act.eligible = eligible ?? matching ?? matchingLines(c, s);
  return act;
}

/**
 * The group's marks of the lines this rule may not take: an exclusive rule takes untouched
 * lines, a combinable one lines no exclusive rule closed. Null outside the discount and
 * bonuses groups, and when every line is taken (none is free, only the count is needed).
 */
function takenMarks(c: CompiledRule, group: GroupState | null): Uint8Array | null {
  if (group === null) return null;
  const exclusive = c.rule.combine === 0;
  if ((exclusive ? group.untouched : group.open) === 0) return null;
  return exclusive ? group.touched : group.closed;
}

/** How many of a listed rule's `count` matching lines, `lines[from..]`, are not `taken`. */
function freeAmong(
  taken: Uint8Array,
  lines: readonly number[] | Uint32Array,
  from: number,
  count: number,
): number {
  let free = 0;
  for (let k = 0; k < count; k++) free += 1 - taken[lines[from + k]!]!;
  return free;
}

/** The last reasons not to act, in evaluate's order, after threshold and items_limit_min. */
function fixedReason(
  c: CompiledRule,
  s: CalcState,
  group: GroupState | null,
  count: number,
  free: number,
): FixedReason | null {
  if (c.rule.apply_when_bonuses_redeemed === 0 && s.paysWithBonuses) return 'bonuses-redeemed';
  if (c.rule.apply_when_customers_account_payment === 0 && s.paysFromAccount)
    return 'account-payment';
  if (count === 0) return 'no-line';
  if (free > 0) return null;
  // Taken lines without a unit for this rule never could take it: no-line, not lines-taken.
  if (group !== null && (group.quantityZero ??= s.lines.some((l) => !l.hasQuantity)))
    return unitlessReason(c, s);
  return 'lines-taken';
}

/** A display rule's report: what its base lacks to the lowest threshold, or to items_limit_min. */
function displayReport(c: CompiledRule, s: CalcState, group: GroupState | null): Evaluation {
  const matching = matchingLines(c, s);
  const base = dependencyBase(c, s, matching, group);
  let missing = missingTo(c.tiers, base);
  if (missing === null && c.rule.items_limit_min > 0) {
    const units = matchingUnits(c, s, matching);
    const min = dec(c.rule.items_limit_min);
    if (lt(units, min)) missing = sub(min, units);
  }
  return reported({ compiled: c, applied: false, reason: 'display', missing });
}

/** A rule below its lowest threshold: what its base lacks (`base` null: s.acc[1] minor units). */
function thresholdReport(c: CompiledRule, s: CalcState, base: Dec | null): Evaluation {
  return reported({
    compiled: c,
    applied: false,
    reason: 'threshold',
    missing: missingTo(c.tiers, base ?? fromMinor(s.acc[1]!, s.digits.amount)),
  });
}

/** The report of a rule whose matching lines count fewer units than items_limit_min, else null. */
function itemsShortReport(
  c: CompiledRule,
  s: CalcState,
  matching: readonly number[],
): Evaluation | null {
  const units = matchingUnits(c, s, matching);
  const min = dec(c.rule.items_limit_min);
  if (!lt(units, min)) return null;
  return reported({
    compiled: c,
    applied: false,
    reason: 'items-limit-min',
    missing: sub(min, units),
  });
}

/** The `free` matching lines of a scanning rule that are not `taken`: its lines tested again. */
function freeScanned(c: CompiledRule, s: CalcState, taken: Uint8Array, free: number): number[] {
  const some = new Array<number>(free); // its final length: one allocation
  const f = c.matching;
  let n = 0;
  for (const line of s.lines) {
    if (taken[line.index] === 0 && passes(f, line.code, line.category)) some[n++] = line.index;
  }
  return some;
}

/** The `free` lines not `taken` among a listed rule's `count` matching lines, `lines[from..]`. */
function freeListed(
  taken: Uint8Array,
  lines: readonly number[] | Uint32Array,
  from: number,
  count: number,
  free: number,
): number[] {
  const some = new Array<number>(free); // its final length: one allocation
  let n = 0;
  for (let k = 0; k < count; k++) {
    const i = lines[from + k]!;
    if (taken[i] === 0) some[n++] = i;
  }
  return some;
}

/**
 * Why a discount or bonuses rule whose eligible lines have no unit (quantity 0 without
 * zero-as-one) does not act (engine.md 17.9): `no-line` when none of its matching lines has
 * a unit, else `lines-taken` (the ones with a unit were taken by earlier rules).
 */
export function unitlessReason(c: CompiledRule, s: CalcState): 'no-line' | 'lines-taken' {
  for (const i of matchingLines(c, s))
    if (unitsFor(s.lines[i]!, c).units > 0n) return 'lines-taken';
  return 'no-line';
}
