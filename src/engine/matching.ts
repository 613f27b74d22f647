// Which lines a rule matches (engine.md 5), how many units a line counts for a rule, and
// which units a rule covers under items_limit_max / only_once_per_check (engine.md 7, 16).
import { type Dec, ZERO, add, cmp, fromMinor, isZero, mul } from '../money/index.js';
import { passes, type CompiledRule, type ItemFilter, type PreparedRules } from './rule-index.js';
import { coveredQuantity, unitCount } from './numbers.js';
import type { CalcState, LineState } from './state.js';

/**
 * Matching lines of every indexed rule for these lines, by rule order: one pass over the
 * lines, looking each line's code and category up in the rule index.
 */
export function indexMatches(
  prepared: PreparedRules,
  lines: readonly LineState[],
): (number[] | undefined)[] {
  // Two passes so each rule's list is allocated once at its final length (lists grown by
  // push reallocate and over-allocate: a large share of a check's garbage). The first
  // records the rule of every (rule, line) hit, line by line; the second lays them out.
  const ruleCount = prepared.rules.length;
  const counts = new Uint32Array(ruleCount);
  const last = new Int32Array(ruleCount).fill(-1); // the last line counted per rule
  const lineEnd = new Uint32Array(lines.length); // where each line's hits end
  let hits = new Uint32Array(256);
  let n = 0;
  const hit = (order: number, line: LineState): void => {
    if (last[order] === line.index || !admits(prepared, order, line)) return; // code and category both hit
    last[order] = line.index;
    counts[order]! += 1;
    if (n === hits.length) {
      const more = new Uint32Array(hits.length * 2);
      more.set(hits);
      hits = more;
    }
    hits[n++] = order;
  };
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li]!;
    const byCode = prepared.byCode.get(line.code);
    if (byCode) for (const order of byCode) hit(order, line);
    if (line.category !== undefined) {
      const byCategory = prepared.byCategory.get(line.category);
      if (byCategory) for (const order of byCategory) hit(order, line);
    }
    lineEnd[li] = n;
  }
  const matches: (number[] | undefined)[] = new Array(ruleCount);
  const filled = new Uint32Array(ruleCount);
  let k = 0;
  for (let li = 0; li < lines.length; li++) {
    const index = lines[li]!.index;
    for (const end = lineEnd[li]!; k < end; k++) {
      const order = hits[k]!;
      let list = matches[order];
      if (list === undefined) {
        list = new Array<number>(counts[order]!);
        matches[order] = list;
      }
      list[filled[order]!] = index;
      filled[order]! += 1;
    }
  }
  return matches;
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
  if (c.indexed) return s.matches[c.order] ?? NONE;
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

/** A line's units for a rule: its quantity, or 1 for quantity 0 when the rule says so. */
export function unitsFor(line: LineState, c: CompiledRule): Dec {
  if (isZero(line.quantity) && c.rule.item_zero_quantity_as_one_quantity === 1)
    return fromMinor(1, 0);
  return line.quantity;
}

export interface Covered {
  readonly line: LineState;
  /** The quantity covered. */
  readonly covered: Dec;
  /** The line's units for this rule. */
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
      const units = unitsFor(line, c);
      if (units.units > 0n) all.push({ line, covered: units, units, whole: true });
    }
    return all;
  }
  // The cheapest first until the limit is used up: the prefix of a stable sort by unit price,
  // picked one at a time (a limit takes a few lines, so this beats sorting them all). Only
  // the picked lines get a Covered record.
  let left = BigInt(limit);
  const out: Covered[] = [];
  let taken: Uint8Array | null = null;
  while (left > 0n) {
    let best = -1;
    let bestLine: LineState | null = null;
    let bestUnits: Dec = ZERO;
    for (let k = 0; k < eligible.length; k++) {
      if (taken !== null && taken[k] === 1) continue;
      const line = s.lines[eligible[k]!]!;
      const units = unitsFor(line, c);
      if (units.units <= 0n) continue; // a line with no unit is never covered
      if (bestLine === null || cheaper(line, units, bestLine, bestUnits)) {
        best = k;
        bestLine = line;
        bestUnits = units;
      }
    }
    if (bestLine === null) break;
    (taken ??= new Uint8Array(eligible.length))[best] = 1;
    const count = unitCount(bestUnits);
    const take = count < left ? count : left;
    out.push({
      line: bestLine,
      covered: coveredQuantity(bestUnits, take),
      units: bestUnits,
      whole: take === count,
    });
    left -= take;
  }
  return out.length > 1 ? out.sort(byLine) : out;
}

const byLine = (a: Covered, b: Covered): number => a.line.index - b.line.index;

/**
 * Whether line a's unit price (current / units) is below line b's, compared exactly by
 * cross-multiplication; on a tie the earlier line is cheaper.
 */
function cheaper(a: LineState, aUnits: Dec, b: LineState, bUnits: Dec): boolean {
  // Current amounts are minor units at one scale (money digits): compare on the integers.
  const d =
    aUnits.scale === bUnits.scale
      ? compareUnits(a.currentUnits * bUnits.units, b.currentUnits * aUnits.units)
      : cmp(mul(a.current, bUnits), mul(b.current, aUnits));
  return d !== 0 ? d < 0 : a.index < b.index;
}

const compareUnits = (x: bigint, y: bigint): number => (x < y ? -1 : x > y ? 1 : 0);

/** Sum of the matching units (zero counts as one when the rule says so). */
export function matchingUnits(c: CompiledRule, s: CalcState, lines: readonly number[]): Dec {
  let total: Dec = ZERO;
  for (const i of lines) total = add(total, unitsFor(s.lines[i]!, c));
  return total;
}
