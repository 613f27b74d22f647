// Fuel prepay (engine.md 12). `recalculate-by-amount`: the customer pays exactly the
// prepaid amount and the quantity grows instead. Rules ran once on the request's quantity
// and the prepaid amount, giving the line's discount D; the line is then rewritten so that
// amount - discount = prepaid. The prepaid amount is what later groups see as current. The
// new quantity is not fed back into thresholds or items_limit_min, which keep the request's
// (LineState.quantity); per-unit effects of later groups count the new one, the quantity
// sold (LineState.sold, unitsSold: engine.md 17.6).
import {
  ZERO,
  add,
  allocate,
  div,
  fromMinor,
  isZero,
  max,
  mul,
  round,
  sub,
  toMinor,
  type Dec,
} from '../money/index.js';
import { num } from './numbers.js';
import type { CalcState, LineState } from './state.js';

export function isPrepay(line: LineState): boolean {
  const type =
    line.item.quantity_recalculate_type ?? line.item.additions?.quantity_recalculate_type;
  return type === 'recalculate-by-amount';
}

/** Recalculates one prepaid line after the discount group. */
export function recalculateLine(s: CalcState, line: LineState): void {
  const prepaid = line.amount;
  const d = line.discount;
  const q = line.quantity;
  const price = line.item.price;
  if (isZero(d) || isZero(q) || price === undefined) {
    line.recalculateSkipped = true;
    return;
  }
  const unitPrice = div(sub(prepaid, d), q, line.priceDigits);
  if (isZero(unitPrice) || unitPrice.units < 0n) {
    line.recalculateSkipped = true;
    return;
  }
  const quantity = div(prepaid, unitPrice, line.quantityDigits);
  const amount = round(mul(quantity, num(price)), s.digits.amount);
  const discount = max(ZERO, sub(amount, prepaid));
  line.recalculated = { quantity, amount, discount };
  line.recalculateSkipped = false;
  line.rewrite(amount, discount);
}

export function applyFuelRecalculation(s: CalcState): void {
  for (const line of s.lines) {
    if (!isPrepay(line)) continue;
    const before = line.discount;
    recalculateLine(s, line);
    if (line.recalculated) restateRules(s, line.index, sub(line.recalculated.discount, before));
  }
}

/**
 * A recalculated line's discount is its amount - prepaid (engine.md 12), not the D its rules
 * gave: the discount rules that acted on it say the same figure, the difference shared in
 * proportion to their amounts, so implemented_rules add up to the lines and the totals.
 */
function restateRules(s: CalcState, index: number, delta: Dec): void {
  if (isZero(delta)) return;
  const at: number[] = [];
  s.reports.forEach((r, k) => {
    if (r.applied && r.amount !== undefined && r.lines?.includes(index)) {
      if (r.compiled.rule.action_type === 'discount') at.push(k);
    }
  });
  if (at.length === 0) return;
  const digits = s.digits.amount;
  const weights = at.map((k) => toMinor(s.reports[k]!.amount!, digits));
  const parts = weights.some((w) => w > 0n)
    ? allocate(toMinor(delta, digits), weights)
    : at.map((_, j) => (j === 0 ? toMinor(delta, digits) : 0n));
  at.forEach((k, j) => {
    const r = s.reports[k]!;
    s.reports[k] = { ...r, amount: add(r.amount!, fromMinor(parts[j]!, digits)) };
  });
}
