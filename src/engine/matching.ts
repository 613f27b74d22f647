// Which lines a rule matches (engine.md 5), how many units a line counts for a rule, and
// which units a rule covers under items_limit_max / only_once_per_check (engine.md 7, 16).
import { type Dec, ZERO, add, cmp, fromMinor, isZero, mul } from '../money/index.js';
import {
  passes,
  type CompiledRule,
  newLineScratch,
  type IndexScratch,
  type ItemFilter,
  type LineScratch,
  type PreparedRules,
} from './rule-index.js';
import { coveredQuantity, unitCount } from './numbers.js';
import type { CalcState, LineState } from './state.js';

/**
 * Finds the matching lines of every indexed rule for these lines: one pass over the lines,
 * looking each line's code and category up in the rule index. They go to the rule set's
 * scratch (IndexScratch) for this check, laid out rule by rule in one flat list; a rule's own
 * list is made when it is first asked for (indexedLines), since most rules found never act.
 * releaseMatches clears the scratch when the check is done.
 */
export function indexMatches(prepared: PreparedRules, lines: readonly LineState[]): void {
  const scratch = prepared.scratch;
  if (scratch.busy) {
    // A check that stopped half-way (an exception): start clean.
    scratch.counts.fill(0);
    scratch.filled.fill(0);
    scratch.lists.fill(undefined);
  }
  scratch.busy = true;
  if (scratch.lineEnd.length < lines.length) scratch.lineEnd = new Uint32Array(lines.length);
  const lineEnd = scratch.lineEnd; // where each line's hits end
  // First the rule of every (rule, line) hit, line by line, counted per rule.
  let n = 0;
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li]!;
    const code = line.code;
    const byCode = prepared.byCode.get(code);
    if (byCode) {
      for (let k = 0; k < byCode.length; k++) {
        const order = byCode[k]!;
        if (admits(prepared, order, line)) n = hit(scratch, order, n);
      }
    }
    if (line.category !== undefined) {
      const byCategory = prepared.byCategory.get(line.category);
      if (byCategory) {
        for (let k = 0; k < byCategory.length; k++) {
          const order = byCategory[k]!;
          // A rule that includes the line's code too was hit by it already.
          const items = prepared.rules[order]!.matching.items;
          if ((items === null || !items.has(code)) && admits(prepared, order, line))
            n = hit(scratch, order, n);
        }
      }
    }
    lineEnd[li] = n;
  }
  scratch.hitCount = n;
  // Then each rule's lines, in line order, at its place in the flat list.
  if (scratch.flat.length < n) scratch.flat = new Uint32Array(Math.max(n, 2 * scratch.flat.length));
  const { counts, filled, start, flat, hits } = scratch;
  let next = 0;
  let k = 0;
  for (let li = 0; li < lines.length; li++) {
    const index = lines[li]!.index;
    for (const end = lineEnd[li]!; k < end; k++) {
      const order = hits[k]!;
      if (filled[order] === 0) {
        start[order] = next;
        next += counts[order]!;
      }
      flat[start[order]! + filled[order]!] = index;
      filled[order]! += 1;
    }
  }
}

/**
 * The rule set's per-line arrays for a check of `n` lines, cleared over those lines (grown
 * first when the check is larger than any before). Calculations are synchronous: one check
 * at a time uses them, and nothing of them outlives the check (the answer copies values).
 */
export function lineScratch(prepared: PreparedRules, n: number): LineScratch {
  let ls = prepared.scratch.lines;
  if (ls.size < n) ls = prepared.scratch.lines = newLineScratch(Math.max(n, 2 * ls.size));
  ls.current.fill(0n, 0, n);
  ls.credited.fill(0n, 0, n);
  ls.weights.fill(0n, 0, n);
  ls.work.fill(0n, 0, 3 * n + 2);
  ls.discountTouched.fill(0, 0, n);
  ls.discountClosed.fill(0, 0, n);
  ls.bonusesTouched.fill(0, 0, n);
  ls.bonusesClosed.fill(0, 0, n);
  return ls;
}

/** Clears what indexMatches left in the rule set's scratch; the check is done with it. */
export function releaseMatches(prepared: PreparedRules): void {
  const scratch = prepared.scratch;
  const { counts, filled, lists, hits } = scratch;
  for (let h = 0; h < scratch.hitCount; h++) {
    const order = hits[h]!;
    counts[order] = 0;
    filled[order] = 0;
    lists[order] = undefined;
  }
  scratch.hitCount = 0;
  scratch.busy = false;
}

/** The matching lines of an indexed rule in this check, made on first use. */
function indexedLines(prepared: PreparedRules, order: number): readonly number[] {
  const scratch = prepared.scratch;
  const count = scratch.counts[order]!;
  if (count === 0) return NONE;
  let list = scratch.lists[order];
  if (list === undefined) {
    list = new Array<number>(count);
    const from = scratch.start[order]!;
    for (let k = 0; k < count; k++) list[k] = scratch.flat[from + k]!;
    scratch.lists[order] = list;
  }
  return list;
}

/** Records a hit of rule `order` as the n-th; the next n. */
function hit(scratch: IndexScratch, order: number, n: number): number {
  scratch.counts[order]! += 1;
  if (n === scratch.hits.length) {
    const more = new Uint32Array(scratch.hits.length * 2);
    more.set(scratch.hits);
    scratch.hits = more;
  }
  scratch.hits[n] = order;
  return n + 1;
}

/** Whether a rule found through the index by a line's code or category keeps it. */
function admits(prepared: PreparedRules, order: number, line: LineState): boolean {
  const f = prepared.rules[order]!.matching;
  if (f.excludes) {
    if (f.excludedItems?.has(line.code)) return false;
    if (line.category !== undefined && f.excludedCategories?.has(line.category)) return false;
  }
  return true;
}

/** Lines passing a filter, scanning every line. */
export function filterLines(f: ItemFilter, lines: readonly LineState[]): number[] {
  // Sized for every line and cut to length at the end: one allocation, where a list grown
  // by push reallocates several times.
  const out = new Array<number>(lines.length);
  let n = 0;
  const excluded = f.excludedCategories;
  if (f.everyLine && f.excludedItems === null && excluded !== null) {
    // The usual every-line rule with exclusions: one set to test per line.
    for (const line of lines) {
      if (line.category === undefined || !excluded.has(line.category)) out[n++] = line.index;
    }
  } else {
    for (const line of lines) if (passes(f, line.code, line.category)) out[n++] = line.index;
  }
  out.length = n;
  return out;
}

const NONE: readonly number[] = Object.freeze([]);

/** The matching lines of a rule in this check (shared lists: never to be changed). */
export function matchingLines(c: CompiledRule, s: CalcState): readonly number[] {
  if (c.indexed) return indexedLines(s.prepared, c.order);
  const f = c.matching;
  if (f.everyLine && !f.excludes) return s.allLines;
  return filterLines(f, s.lines);
}

/** The dependency lines of a rule (engine.md 5): matching, unless alternative dependencies. */
export function dependencyLines(
  c: CompiledRule,
  s: CalcState,
  matching: readonly number[],
): readonly number[] {
  return c.depends === c.matching ? matching : filterLines(c.depends, s.lines);
}

/**
 * A line's units for a rule: its quantity, or 1 for quantity 0 when the rule says so. The
 * request's quantity, also after a fuel prepay's recalculation: the base of thresholds and
 * items_limit_min (engine.md 17.6).
 */
export function unitsFor(line: LineState, c: CompiledRule): Dec {
  if (isZero(line.quantity) && c.rule.item_zero_quantity_as_one_quantity === 1)
    return fromMinor(1, 0);
  return line.quantity;
}

/**
 * A line's units for a per-unit effect (items_limit_max, only_once_per_check, amount per
 * unit, the cheapest unit, a covered share): like unitsFor, but on the quantity sold, which a
 * fuel prepay's recalculation changes (engine.md 17.6). Thresholds and items_limit_min keep
 * the request's quantity (unitsFor).
 */
export function unitsSold(line: LineState, c: CompiledRule): Dec {
  const sold = line.sold;
  if (isZero(sold) && c.rule.item_zero_quantity_as_one_quantity === 1) return fromMinor(1, 0);
  return sold;
}

export interface Covered {
  readonly line: LineState;
  /** The quantity covered. */
  readonly covered: Dec;
  /** The line's units for this rule, as sold (unitsSold). */
  readonly units: Dec;
  /** Every unit is covered. */
  readonly whole: boolean;
}

/**
 * The units a rule acts on among `eligible` lines: all of them, or at most `limit` units,
 * cheapest current unit price first (ties: earlier line), whole units of a line before its
 * partial one. Lines with no unit are never covered.
 */
export function cover(
  c: CompiledRule,
  s: CalcState,
  eligible: readonly number[],
  limit: number,
): Covered[] {
  if (limit <= 0) {
    const all: Covered[] = [];
    for (const i of eligible) {
      const line = s.lines[i]!;
      const units = unitsSold(line, c);
      if (units.units > 0n) all.push({ line, covered: units, units, whole: true });
    }
    return all;
  }
  // The cheapest first until the limit is used up: the prefix of a stable sort by unit price,
  // picked one at a time (a limit takes a few lines, so this beats sorting them all). Only
  // the picked lines get a Covered record.
  let left = BigInt(limit);
  const out: Covered[] = [];
  while (left > 0n) {
    let bestLine: LineState | null = null;
    let bestUnits: Dec = ZERO;
    for (let k = 0; k < eligible.length; k++) {
      const line = s.lines[eligible[k]!]!;
      if (picked(out, line)) continue;
      const units = unitsSold(line, c);
      if (units.units <= 0n) continue; // a line with no unit is never covered
      if (bestLine === null || cheaper(line, units, bestLine, bestUnits)) {
        bestLine = line;
        bestUnits = units;
      }
    }
    if (bestLine === null) break;
    const count = unitCount(bestUnits);
    const take = count < left ? count : left;
    // Kept in line order as they are picked (sorting copies the list; a limit picks a few).
    const record: Covered = {
      line: bestLine,
      covered: coveredQuantity(bestUnits, take),
      units: bestUnits,
      whole: take === count,
    };
    let at = out.length;
    out.push(record);
    while (at > 0 && out[at - 1]!.line.index > bestLine.index) {
      out[at] = out[at - 1]!;
      at -= 1;
    }
    out[at] = record;
    left -= take;
  }
  return out;
}

/** Whether a line is picked already (a limit picks a few lines: a scan, not a typed array). */
function picked(out: readonly Covered[], line: LineState): boolean {
  for (let k = 0; k < out.length; k++) if (out[k]!.line === line) return true;
  return false;
}

/**
 * Whether line a's unit price (current / units) is below line b's, compared exactly by
 * cross-multiplication; on a tie the earlier line is cheaper.
 */
function cheaper(a: LineState, aUnits: Dec, b: LineState, bUnits: Dec): boolean {
  // Current amounts are minor units at one scale (money digits): compare on the integers,
  // machine integers when both lines are in their slots and every factor below 2^31.
  let d: number;
  if (aUnits.scale === bUnits.scale) {
    const slots = a.slots;
    if (
      a.wide === null &&
      b.wide === null &&
      aUnits.units < FACTOR31 &&
      bUnits.units < FACTOR31 &&
      aUnits.units > -FACTOR31 &&
      bUnits.units > -FACTOR31 &&
      slots[a.index]! < FACTOR31 &&
      slots[a.index]! > -FACTOR31 &&
      slots[b.index]! < FACTOR31 &&
      slots[b.index]! > -FACTOR31
    ) {
      const x = BigInt.asIntN(64, slots[a.index]! * bUnits.units);
      const y = BigInt.asIntN(64, slots[b.index]! * aUnits.units);
      d = x < y ? -1 : x > y ? 1 : 0;
    } else d = compareUnits(a.currentUnits * bUnits.units, b.currentUnits * aUnits.units);
  } else d = cmp(mul(a.current, bUnits), mul(b.current, aUnits));
  return d !== 0 ? d < 0 : a.index < b.index;
}

const FACTOR31 = 2n ** 31n;

const compareUnits = (x: bigint, y: bigint): number => (x < y ? -1 : x > y ? 1 : 0);

/** Sum of the matching units (zero counts as one when the rule says so). */
export function matchingUnits(c: CompiledRule, s: CalcState, lines: readonly number[]): Dec {
  let total: Dec = ZERO;
  for (const i of lines) total = add(total, unitsFor(s.lines[i]!, c));
  return total;
}
