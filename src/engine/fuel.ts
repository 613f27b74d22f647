// Fuel prepay (engine.md 12). `recalculate-by-amount`: the customer pays exactly the
// prepaid amount and the quantity grows instead. Rules ran once on the request's quantity
// and the prepaid amount, giving the line's discount D; the line is then rewritten so that
// amount - discount = prepaid. The new quantity is not fed back into thresholds: later
// groups see the request's quantity (LineState.quantity) and the prepaid amount as current.
import { ZERO, div, isZero, max, mul, round, sub } from '../money/index.js';
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
  for (const line of s.lines) if (isPrepay(line)) recalculateLine(s, line);
}
