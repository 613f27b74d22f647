// Parsing what a person types and formatting what a person reads.
import { type Dec, parseDec, round, toFixed } from './decimal.js';

export type ParseResult = { ok: true; value: Dec } | { ok: false; message: string };

/**
 * Parses an amount typed at the till ("12.5", "12,50", " 3 ") at most `digits` decimals;
 * more decimals than the currency has is an error, never a silent rounding.
 */
export function parseAmount(text: string, digits: number): ParseResult {
  const normal = text.trim().replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(normal)) return { ok: false, message: `not an amount: "${text}"` };
  const value = parseDec(normal);
  if (!value) return { ok: false, message: `not an amount: "${text}"` };
  const frac = normal.split('.')[1] ?? '';
  if (frac.replace(/0+$/, '').length > digits) {
    return { ok: false, message: `at most ${digits} decimal digits: "${text}"` };
  }
  return { ok: true, value: round(value, digits) };
}

/** "1234.5" at 2 digits -> "1,234.50" (with the currency code when given). */
export function formatMoney(value: Dec, digits: number, currency?: string): string {
  const fixed = toFixed(round(value, digits));
  const negative = fixed.startsWith('-');
  const [int = '0', frac] = (negative ? fixed.slice(1) : fixed).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const text = `${negative ? '-' : ''}${grouped}${frac ? `.${frac}` : ''}`;
  return currency ? `${text} ${currency}` : text;
}
