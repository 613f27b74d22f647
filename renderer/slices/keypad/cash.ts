// Quick-cash amounts for the payment screen: the exact cash due, then the next round sums a
// customer hands over in notes (the first multiple of 5, 10, 20, 50, 100 and 200 above it).
// Exact decimals only (src/money, through money.ts): no amount goes through a float.
import { cmp, dec, div, mul, type Dec } from '../../money.js';

const NOTES = [5, 10, 20, 50, 100, 200].map((n) => dec(n));

/** At most `count` amounts: the exact due first, then the next sums in notes, ascending. */
export function quickCash(due: Dec, count = 5): Dec[] {
  if (cmp(due, dec(0)) <= 0) return [];
  const out: Dec[] = [due];
  for (const note of NOTES) {
    const next = mul(div(due, note, 0, 'ceil'), note);
    if (out.every((d) => cmp(d, next) !== 0)) out.push(next);
  }
  return out.sort((a, b) => cmp(a, b)).slice(0, count);
}
