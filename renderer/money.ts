// The renderer's one door to src/money, the module that owns exact decimals and rounding for
// the whole terminal, this screen included (src/money is pure: no Node, nothing of ours, so
// the bundle carries it). What is the screen's own is reading what a cashier types, and
// writing a value back into a field, in the language's separators.
import type { NumberStyle } from './format.js';
import * as money from '../src/money/index.js';

export type Dec = money.Dec;
export const { ZERO, add, cmp, dec, div, formatMoney, isZero, mul, sub, toFixed, toNumber } = money;

/** `12.50`: the style of the values the screen keeps for itself (the draft, the split). */
const PLAIN: NumberStyle = { decimal: '.', group: '' };

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Digits grouped by three with `group` between (`1.234.567`); any space for a space group. */
function groupedPattern(group: string): RegExp {
  const g = /^\s$/.test(group) ? '\\s' : escape(group);
  return new RegExp(`^\\d{1,3}(?:${g}\\d{3})+$`);
}

/** The integer digits of `int`, its group separators removed when they stand every 3 digits. */
function integerDigits(int: string, group: string): string | null {
  if (/^\d*$/.test(int)) return int;
  if (group === '' || !groupedPattern(group).test(int)) return null;
  return int.replace(/\D/g, '');
}

/**
 * What a cashier typed as an exact decimal, null when it is not one. The language's decimal
 * separator is the point (`12,50` in German); its group separator counts only between groups
 * of three before it (`1.234,50`); anywhere else the text is refused, never guessed, so
 * `12.50` typed in German is a question to the cashier and not 1250. A leading or trailing
 * point is allowed (`,5`, `5,`); no exponent.
 */
export function parseTyped(text: string, style: NumberStyle = PLAIN): Dec | null {
  const trimmed = text.trim();
  const sign = /^[+-]/.test(trimmed) ? trimmed[0]! : '';
  const [int = '', frac, ...more] = trimmed.slice(sign.length).split(style.decimal);
  if (more.length > 0) return null;
  const digits = integerDigits(int, style.group);
  if (digits === null || (frac !== undefined && !/^\d*$/.test(frac))) return null;
  if (digits === '' && !frac) return null;
  return money.parseDec(`${sign}${digits || '0'}${frac ? `.${frac}` : ''}`);
}

/** A value as a field shows it for editing: the language's point, no groups (`1234,5`). */
export function typedText(value: Dec, style: NumberStyle = PLAIN): string {
  return toFixed(value).replace('.', style.decimal);
}
