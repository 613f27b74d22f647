// A line's `amount` is a figure the terminal computes: price x quantity, rounded as the
// engine rounds (engine.md 2, 17.1). The engine takes a given amount as authoritative (a fuel
// line's prepaid or dispensed money), so without this check a caller could sell 2 x 12.90
// for 0.01 while the line, the receipt and the record still show the price. The caller's
// amount stands only where it is the caller's: a prepay by amount (`quantity_recalculate_type`);
// a completion's dispensed figures are the forecourt's and replace it.
import type { EngineCheck, EngineCheckResult, EngineError } from '../contract/engine.js';
import { dec, eq, mulRounded, round, toNumber } from '../money/index.js';

/**
 * The first line whose given amount is not its price x quantity; null when none. The last
 * `pumpLines` lines are pump fills (fill-lines.ts): their amount is what the pump charged.
 */
export function amountDisagrees(
  sent: EngineCheck,
  computed: EngineCheckResult,
  pumpLines = 0,
): EngineError | null {
  const all = sent.check_items ?? [];
  const lines = all.slice(0, all.length - pumpLines);
  for (const [i, line] of lines.entries()) {
    if (line.amount === undefined || line.quantity_recalculate_type !== undefined) continue;
    if (line.processed_quantity !== undefined || line.processed_amount !== undefined) continue;
    const out = computed.check_items?.[i];
    if (out?.price === undefined) continue; // no price: the amount is the line's only figure
    const amountDigits = out.amount_decimal_digits ?? computed.amount_decimal_digits ?? 2;
    // The price exactly as sent, rounded once with the product (engine.md 17.1): 1.759 x
    // 28.43 is 50.01, never 1.76 x 28.43.
    const expected = mulRounded(dec(out.price), dec(out.quantity), amountDigits);
    if (eq(round(dec(line.amount), amountDigits), expected)) continue;
    return {
      code: 'invalid-input',
      message: `the line's amount is price x quantity (${toNumber(expected)}); send an amount only for a prepay by amount`,
      path: `check.check_items[${i}].amount`,
      details: { expected: toNumber(expected) },
    };
  }
  return null;
}
