// How numbers reach the screen. Amounts arrive as JSON numbers already rounded by the engine;
// src/money reads them as exact decimals, rounds them to the check's digits and writes their
// text (grouped by 3), never float arithmetic, so 0.1 + 0.2 style artefacts cannot appear on
// a receipt preview. What is the screen's own is the language's two separators.
import { dec, formatMoney as moneyText, type Dec } from './money.js';

export interface NumberStyle {
  /** Decimal separator of the UI language. */
  decimal: string;
  /** Thousands separator; '' for none. */
  group: string;
}

export const plainStyle: NumberStyle = { decimal: '.', group: '' };

/** Placeholder for a value the engine has not given yet. */
export const NONE = '—';

/** src/money's text (`1,234.50`) with the language's separators. */
function styled(value: Dec, digits: number, style: NumberStyle): string {
  return moneyText(value, digits).replace(/[,.]/g, (c) =>
    c === '.' ? style.decimal : style.group,
  );
}

/** An amount at `digits` decimals (default 2), or NONE when absent. */
export function formatAmount(
  value: number | null | undefined,
  digits = 2,
  style: NumberStyle = plainStyle,
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NONE;
  return formatDec(dec(value), digits, style);
}

/** An exact decimal (what is left to pay, change) at `digits` decimals. */
export function formatDec(value: Dec | null, digits = 2, style: NumberStyle = plainStyle): string {
  return value === null ? NONE : styled(value, digits, style);
}

/** An amount with its currency code after it (`12.50 EUR`). */
export function formatMoney(
  value: number | null | undefined,
  digits = 2,
  currency: string | undefined = undefined,
  style: NumberStyle = plainStyle,
): string {
  const amount = formatAmount(value, digits, style);
  return currency === undefined || amount === NONE ? amount : `${amount} ${currency}`;
}

/** A quantity as given (`2`, `12.345`), or at its digits when the line states them. */
export function formatQuantity(
  value: number | null | undefined,
  digits: number | undefined = undefined,
  style: NumberStyle = plainStyle,
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NONE;
  if (digits !== undefined) return formatAmount(value, digits, style);
  const exact = dec(value);
  return styled(exact, exact.scale, style);
}

/** Seconds as a short age (`45 s`, `12 min`, `3 h`, `2 d`). */
export function formatAge(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return NONE;
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

/** An RFC 3339 time as `YYYY-MM-DD HH:MM` in the terminal's own zone. */
export function formatDateTime(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return NONE;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}
