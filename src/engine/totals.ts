// The answer (engine.md 13, 16): each line's values and its calculated_* per-unit values,
// the rule reports as implemented_rules, and the check's totals, always sums of the rounded
// line values.
import type {
  EngineCheckItem,
  EngineImplementedRule,
  EngineMarginItem,
  EngineTaxItem,
} from '../contract/engine.js';
import { type Dec, eq, isZero, quotientToNumber, sub } from '../money/index.js';
import { ONE, wire, wireExact } from './numbers.js';
import type { CalcState, LineState, RuleReport } from './state.js';

/** The final quantity, amount and discount of a line (after a fuel recalculation). */
export function finalValues(line: LineState): { quantity: Dec; amount: Dec; discount: Dec } {
  return (
    line.recalculated ?? { quantity: line.quantity, amount: line.amount, discount: line.discount }
  );
}

export function outputLine(
  s: CalcState,
  line: LineState,
  taxes: readonly EngineTaxItem[],
  margins: readonly EngineMarginItem[],
  final: { quantity: Dec; amount: Dec; discount: Dec } = finalValues(line),
): EngineCheckItem {
  const { amount: md, bonuses: bd } = s.digits;
  const { quantity, amount, discount } = final;
  const divisor = isZero(quantity) ? (line.zeroAsOne ? ONE : null) : quantity;
  const single = divisor !== null && eq(divisor, ONE); // x / 1 rounded is x rounded
  const discountAmount = wire(discount, md);
  const out: EngineCheckItem = {
    ...line.item,
    quantity: wireExact(quantity),
    amount: wire(amount, md),
    discount_amount: discountAmount,
    bonuses_added: wire(line.bonusesAdded, bd),
    calculated_price: perUnit(sub(amount, discount), line.priceDigits, divisor, single),
    calculated_discount_amount: discountAmount,
    calculated_unit_discount_amount: perUnit(discount, md, divisor, single),
    calculated_bonuses_redeemed_amount: wire(line.redeemed, md),
    calculated_unit_bonuses_redeemed_amount: perUnit(line.redeemed, md, divisor, single),
    amount_decimal_digits: md,
    price_decimal_digits: line.priceDigits,
    bonuses_decimal_digits: bd,
  };
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

/** A per-unit value: `value` / `divisor` rounded to `digits`; null without a divisor. */
function perUnit(value: Dec, digits: number, divisor: Dec | null, single: boolean): number | null {
  if (divisor === null) return null;
  // wire(div(value, divisor, digits), digits): the quotient is already at `digits`.
  return single || isZero(value) ? wire(value, digits) : quotientToNumber(value, divisor, digits);
}

/** A rule report as a CheckImplementedRule: the rule and its implementation_data. */
export function outputRule(s: CalcState, r: RuleReport): EngineImplementedRule {
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
    data = { applied: r.applied, amount: wire(r.amount, digits), lines: r.lines.slice() };
  } else {
    data = { applied: r.applied };
    if (r.reason !== undefined) data.reason = r.reason;
    if (r.amount !== undefined) data.amount = wire(r.amount, digits);
    if (r.lines !== undefined) data.lines = [...r.lines];
    if (r.missing !== undefined) data.missing = r.missing === null ? null : wireExact(r.missing);
  }
  // The rule's identity and descriptors, built once when compiled (rule-index.ts).
  const out: EngineImplementedRule = { ...r.compiled.descriptor };
  out.implementation_data = data;
  return out;
}
