// The answer (engine.md 13, 16): each line's values and its calculated_* per-unit values,
// the rule reports as implemented_rules, and the check's totals, always sums of the rounded
// line values.
import type {
  EngineCheckItem,
  EngineImplementedRule,
  EngineMarginItem,
  EngineTaxItem,
} from '../contract/engine.js';
import {
  type Dec,
  roundedUnitsToNumber,
  unitsQuotientToNumber,
  unitsToNumber,
} from '../money/index.js';
import { ONE, pow10, wire, wireExact } from './numbers.js';
import type { CalcState, LineState, RuleReport } from './state.js';
import type { FixedReason } from './thresholds.js';

/** The final quantity, amount and discount of a line (after a fuel recalculation). */
export function finalValues(line: LineState): { quantity: Dec; amount: Dec; discount: Dec } {
  return (
    line.recalculated ?? { quantity: line.quantity, amount: line.amount, discount: line.discount }
  );
}

/**
 * The answer line: the request line's fields, then the calculated ones. Its amount, discount
 * and amount after discounts are the line's gross, gross - current and current units at
 * money digits (a fuel recalculation rewrites them: LineState.rewrite); the per-unit values
 * divide those units straight to a JSON number.
 */
export function outputLine(
  s: CalcState,
  line: LineState,
  taxes: readonly EngineTaxItem[],
  margins: readonly EngineMarginItem[],
): EngineCheckItem {
  const { amount: md, bonuses: bd } = s.digits;
  const quantity = line.recalculated?.quantity ?? line.quantity;
  const gross = line.gross;
  const current = line.currentUnits;
  const discount = gross - current;
  const divisor = quantity.units === 0n ? (line.zeroAsOne ? ONE : null) : quantity;
  // x / 1 rounded is x rounded (the divisor is one when its units are 10^scale)
  const single = divisor !== null && divisor.units === pow10(divisor.scale);
  const discountAmount = discount === 0n ? 0 : unitsToNumber(discount, md);
  const redeemed = line.redeemed;
  const out = lineShell(s, line.item);
  out.quantity = wireExact(quantity);
  out.amount = gross === 0n ? 0 : unitsToNumber(gross, md);
  out.discount_amount = discountAmount;
  out.bonuses_added = wire(line.bonusesAdded, bd);
  out.calculated_price = perUnit(current, md, line.priceDigits, divisor, single);
  out.calculated_discount_amount = discountAmount;
  out.calculated_unit_discount_amount = perUnit(discount, md, md, divisor, single);
  out.calculated_bonuses_redeemed_amount = wire(redeemed, md);
  out.calculated_unit_bonuses_redeemed_amount = perUnit(
    redeemed.units,
    redeemed.scale,
    md,
    divisor,
    single,
  );
  out.amount_decimal_digits = md;
  out.price_decimal_digits = line.priceDigits;
  out.bonuses_decimal_digits = bd;
  if (taxes.length > 0) {
    out.calculated_taxes = {
      base: taxes.filter((t) => t.type === 'vat'),
      sales: taxes.filter((t) => t.type === 'sales'),
    };
  } else if (out.calculated_taxes !== undefined) delete out.calculated_taxes; // echoed from the request
  if (margins.length > 0) out.calculated_margins = { terminal_additional_costs: [...margins] };
  else if (out.calculated_margins !== undefined) delete out.calculated_margins;
  if (line.recalculateSkipped !== null) {
    out.quantity_decimal_digits = line.quantityDigits;
    out.quantity_recalculate_type = 'recalculate-by-amount';
    out.additions = {
      ...(line.item.additions ?? {}),
      job: line.item.additions?.job ?? {},
      quantity_decimal_digits: line.quantityDigits,
      quantity_recalculate_skipped: line.recalculateSkipped,
      quantity_recalculate_type: 'recalculate-by-amount',
    };
  }
  return out;
}

/** The answer lines of a check built so far share a key order: a shell to copy (lineShell). */
export interface LineTemplate {
  /** The request line's own keys, in order. */
  readonly keys: readonly string[];
  /** An answer line with those keys and the calculated ones, never handed out or changed. */
  readonly shell: EngineCheckItem;
}

/**
 * An answer line with the request line's values, its calculated fields still to set: what
 * `{ ...item, quantity, amount, ... }` builds, key for key and in the same order. Built by
 * that literal it grows its property store several times; a request line with the same keys
 * in the same order as the check's first one (the usual case) copies the check's shell
 * instead, one allocation of the final size, and then its own values.
 */
function lineShell(s: CalcState, item: EngineCheckItem): EngineCheckItem {
  const t = s.lineTemplate;
  if (t !== null && sameKeys(item, t.keys)) {
    const out: EngineCheckItem = { ...t.shell };
    const to = out as Record<string, unknown>;
    const from = item as Record<string, unknown>;
    for (const key in from) to[key] = from[key];
    return out;
  }
  const out: EngineCheckItem = {
    ...item,
    quantity: 0,
    amount: 0,
    discount_amount: 0,
    bonuses_added: 0,
    calculated_price: null,
    calculated_discount_amount: 0,
    calculated_unit_discount_amount: null,
    calculated_bonuses_redeemed_amount: 0,
    calculated_unit_bonuses_redeemed_amount: null,
    amount_decimal_digits: 0,
    price_decimal_digits: 0,
    bonuses_decimal_digits: 0,
  };
  if (t === null) s.lineTemplate = { keys: Object.keys(item), shell: { ...out } };
  return out;
}

/**
 * Whether a request line's enumerable keys are these, in this order (for-in, which also
 * sees inherited ones: such a line never matches an own-keys list, and takes the literal).
 */
function sameKeys(item: EngineCheckItem, keys: readonly string[]): boolean {
  let j = 0;
  for (const key in item) {
    if (key !== keys[j]) return false;
    j += 1;
  }
  return j === keys.length;
}

/** A per-unit value: units / 10^scale / divisor rounded to `digits`; null without a divisor. */
function perUnit(
  units: bigint,
  scale: number,
  digits: number,
  divisor: Dec | null,
  single: boolean,
): number | null {
  if (divisor === null) return null;
  if (units === 0n) return 0;
  // wire(div(value, divisor, digits), digits): the quotient is already at `digits`.
  return single
    ? roundedUnitsToNumber(units, scale, digits)
    : unitsQuotientToNumber(units, scale, divisor, digits);
}

/** A rule report as a CheckImplementedRule: the rule and its implementation_data. */
export function outputRule(s: CalcState, r: RuleReport): EngineImplementedRule {
  if (r.amount === undefined && r.lines === undefined && r.missing === undefined) {
    const reason = r.reason;
    if (reason !== undefined && !r.applied && r.compiled.fixed[reason as FixedReason] === r)
      return fixedOutput(r, reason as FixedReason);
  }
  const rule = r.compiled.rule;
  const digits =
    rule.action_type === 'discount'
      ? s.digits.amount
      : rule.charge_type === 'special-account'
        ? s.digits.special
        : s.digits.bonuses;
  let data: NonNullable<EngineImplementedRule['implementation_data']>;
  if (r.reason === undefined && r.missing === undefined && r.amount !== undefined && r.lines) {
    // An applied rule, the usual report: one literal, in the order of the general case.
    data = { applied: r.applied, amount: wire(r.amount, digits), lines: ownLines(s, r.lines) };
  } else {
    data = { applied: r.applied };
    if (r.reason !== undefined) data.reason = r.reason;
    if (r.amount !== undefined) data.amount = wire(r.amount, digits);
    if (r.lines !== undefined) data.lines = ownLines(s, r.lines);
    if (r.missing !== undefined) data.missing = r.missing === null ? null : wireExact(r.missing);
  }
  // The rule's identity and descriptors, built once when compiled (rule-index.ts).
  const out: EngineImplementedRule = { ...r.compiled.descriptor };
  out.implementation_data = data;
  return out;
}

/**
 * The answer entry of a fixed report (thresholds.ts fixedReport), built once per rule set and
 * shared by every check's answer: frozen, since nothing downstream changes implemented_rules
 * (callers serialise or read them; fuel.ts replaces applied reports, never these).
 */
function fixedOutput(r: RuleReport, reason: FixedReason): EngineImplementedRule {
  const cache = r.compiled.fixed.output;
  let out = cache[reason];
  if (out === undefined) {
    out = { ...r.compiled.descriptor };
    out.implementation_data = Object.freeze({ applied: false, reason });
    cache[reason] = out = Object.freeze(out);
  }
  return out;
}

/**
 * A report's lines as the answer's own list. A rule's lists are made for its check and die
 * with it (its matches in the index, the lines left eligible or acted on), so the answer
 * takes them as they are; only the check's list of every line is shared between rules.
 */
function ownLines(s: CalcState, lines: readonly number[]): number[] {
  return lines === s.allLines || Object.isFrozen(lines) ? lines.slice() : (lines as number[]);
}
