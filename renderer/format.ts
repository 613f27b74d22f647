// How numbers and dates reach the screen. Amounts arrive as JSON numbers already rounded by
// the engine; src/money reads them as exact decimals, rounds them to the check's digits and
// writes their text (grouped by 3), never float arithmetic, so 0.1 + 0.2 style artefacts
// cannot appear on a receipt preview. What is the screen's own is the locale's: its two
// separators (asked of Intl once, then applied to that exact text) and Intl's date format.
import { dec, formatMoney as moneyText, type Dec } from './money.js';

export interface NumberStyle {
  /** Decimal separator of the UI language. */
  decimal: string;
  /** Thousands separator; '' for none. */
  group: string;
}

export const plainStyle: NumberStyle = { decimal: '.', group: '' };

/**
 * The separators `locale` writes numbers with, as Intl gives them (de-DE: ',' and '.'). The
 * sample is only read for its separators: no amount goes through Intl's float formatting.
 */
export function localeNumberStyle(locale: string): NumberStyle {
  const parts = new Intl.NumberFormat(locale).formatToParts(1234567.5);
  const part = (type: string) => parts.find((p) => p.type === type)?.value;
  return { decimal: part('decimal') ?? '.', group: part('group') ?? '' };
}

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

/** Seconds as a short age in `locale`'s words (`45 s`, `12 min`, `3 h`, `2 d`; `2 Tg.` in German). */
export function formatAge(seconds: number | null | undefined, locale = 'en'): string {
  if (seconds === null || seconds === undefined) return NONE;
  const [value, unit] =
    seconds < 60
      ? [seconds, 'second']
      : seconds < 3600
        ? [Math.floor(seconds / 60), 'minute']
        : seconds < 86_400
          ? [Math.floor(seconds / 3600), 'hour']
          : [Math.floor(seconds / 86_400), 'day'];
  return ageFormat(locale, unit).format(value);
}

// Built once per locale and unit: an Intl formatter costs more to make than to use, and the
// status bar writes an age on every render.
const ageFormats = new Map<string, Intl.NumberFormat>();

function ageFormat(locale: string, unit: string): Intl.NumberFormat {
  const key = `${locale} ${unit}`;
  let f = ageFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short' });
    ageFormats.set(key, f);
  }
  return f;
}

/** How dates and times are written: the locale's order and the zone they are shown in. */
export interface DateStyle {
  readonly locale: string;
  /** An IANA zone; undefined for the browser's own. */
  readonly timeZone: string | undefined;
}

/** The style of `locale` in `zone`; a zone this browser does not know counts as absent. */
export function localeDateStyle(locale: string, zone?: string | null): DateStyle {
  return { locale, timeZone: zone && knownZone(zone) ? zone : undefined };
}

/** Zones asked about, and whether this runtime knows them (asked on every render). */
const zones = new Map<string, boolean>();

function knownZone(zone: string): boolean {
  let known = zones.get(zone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat(undefined, { timeZone: zone });
      known = true;
    } catch {
      known = false; // RangeError: not a zone this runtime has
    }
    zones.set(zone, known);
  }
  return known;
}

// Formatters by locale and zone: building one is costly, and each is immutable.
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(style: DateStyle): Intl.DateTimeFormat {
  const key = `${style.locale} ${style.timeZone ?? ''}`;
  let f = dateFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(style.locale, {
      timeZone: style.timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23', // a till's clock: 00:05, never 12:05 AM or 24:05
    });
    dateFormats.set(key, f);
  }
  return f;
}

/** An RFC 3339 time as the locale writes a date and time (de-DE `26.11.2026, 18:05`). */
export function formatDateTime(iso: string | null | undefined, style: DateStyle): string {
  if (iso === null || iso === undefined) return NONE;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return dateFormat(style).format(d);
}
