// The renderer's one door to src/money, the module that owns exact decimals and rounding for
// the whole terminal, this screen included (src/money is pure: no Node, nothing of ours, so
// the bundle carries it). What is the screen's own is reading what a cashier types.
import * as money from '../src/money/index.js';

export type Dec = money.Dec;
export const { ZERO, add, cmp, dec, div, formatMoney, isZero, sub, toFixed, toNumber } = money;

// Digits with at most one point, a leading or trailing one allowed (`.5`, `5.`); no exponent.
const TYPED = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;

/** What a cashier typed as an exact decimal: `.` or `,` as the point; null when it is not one. */
export function parseTyped(text: string): Dec | null {
  const plain = text.trim().replace(',', '.');
  if (!TYPED.test(plain)) return null;
  return money.parseDec(plain.replace(/^([+-]?)\./, '$10.'));
}
