// Local time, the one home of it (engine.md 2, 4 and 5; data-contract.md "dates follow the
// business time-zone settings, default UTC"): which zone a POS counts its days in, the local
// date and time of an instant there, and whether two local dates lie in the same calendar
// period. The terminal, its store, the engine and the sandbox central all ask here, so a sale,
// the card payment that paid it and the central's figures land on the same local date.
//
// Intl.DateTimeFormat is the only time-zone source: it is part of the language, not Node.

/** `YYYY-MM-DD` and time of an instant in a zone, with what schedules and lots need of it. */
export interface LocalDateTime {
  /** `YYYY-MM-DD` */
  readonly date: string;
  /** Seconds since local midnight. */
  readonly seconds: number;
  /** ISO weekday of `date`, Monday = 1. */
  readonly weekday: number;
  /** The zone's offset from UTC at the instant, in seconds (east positive). */
  readonly offset: number;
  /** The instant itself, epoch milliseconds (for bounds that are instants). */
  readonly instant: number;
}

/** Formatters by zone: building one is costly, and a formatter is immutable. */
export type ZoneCache = Map<string, Intl.DateTimeFormat>;

// A memo, not state: a formatter gives the same text whoever built it. The engine passes its
// own (one per prepared rule set); everyone else shares this one.
const shared: ZoneCache = new Map();

/** The formatter of a zone; throws RangeError when the runtime does not know the zone. */
function formatter(zone: string, cache: ZoneCache = shared): Intl.DateTimeFormat {
  let f = cache.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      // h23: midnight prints 00, never 24.
      hourCycle: 'h23',
    });
    cache.set(zone, f);
  }
  return f;
}

/** True when `zone` is a time zone this runtime knows (IANA name or `UTC`). */
export function isTimeZone(zone: string): boolean {
  if (shared.has(zone)) return true;
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/**
 * The zone a POS counts its local dates in: the POS's own `time_zone`, else its business's
 * `base_time_zone`, else UTC (engine.md 2: the POS zone wins; data-contract.md: default UTC).
 * A zone this runtime does not know counts as absent, so one mistyped record cannot stop a
 * till selling, and every caller passes it over the same way (docs/terminal.md).
 */
export function zoneOf(
  pos: { readonly time_zone?: unknown } | null | undefined,
  business: { readonly base_time_zone?: unknown } | null | undefined,
): string {
  for (const zone of [pos?.time_zone, business?.base_time_zone])
    if (typeof zone === 'string' && isTimeZone(zone)) return zone;
  return 'UTC';
}

// What the en-US formatter above prints: "11/22/2026, 19:15:00".
const FORMATTED = /^(\d{2})\/(\d{2})\/(\d{4}), (\d{2}):(\d{2}):(\d{2})$/;

/**
 * The local date and time of an instant (epoch ms, or an ISO 8601 date-time) in `zone`.
 * Throws RangeError for a zone the runtime does not know: pass one zoneOf chose, or one a
 * contract schema checked with isTimeZone.
 */
export function localDateTime(
  instant: number | string,
  zone: string,
  cache?: ZoneCache,
): LocalDateTime {
  const at = new Date(instant);
  const f = formatter(zone, cache);
  // format() is a third of the cost of formatToParts(); the parts stay the fallback for
  // anything the pattern does not hold (years outside 1000-9999).
  const m = FORMATTED.exec(f.format(at));
  let date: string;
  let seconds: number;
  if (m) {
    date = `${m[3]}-${m[1]}-${m[2]}`;
    seconds = Number(m[4]) * 3600 + Number(m[5]) * 60 + Number(m[6]);
  } else {
    const parts: Record<string, string> = {};
    for (const p of f.formatToParts(at)) parts[p.type] = p.value;
    date = `${parts.year}-${parts.month}-${parts.day}`;
    seconds = Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second);
  }
  const ms = at.getTime();
  const offset = dayNumber(date) * 86_400 + seconds - Math.floor(ms / 1000);
  return { date, seconds, weekday: weekdayOf(date), offset, instant: ms };
}

/** An instant as paper shows it: `YYYY-MM-DD HH:MM` in `zone` (see localDateTime). */
export function localMinute(instant: number | string, zone: string): string {
  const t = localDateTime(instant, zone);
  const hh = String(Math.floor(t.seconds / 3600)).padStart(2, '0');
  const mm = String(Math.floor((t.seconds % 3600) / 60)).padStart(2, '0');
  return `${t.date} ${hh}:${mm}`;
}

/** The local date `YYYY-MM-DD` of an instant in `zone` (see localDateTime). */
export function localDate(instant: number | string, zone: string): string {
  return localDateTime(instant, zone).date;
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` date. */
export function dayNumber(date: string): number {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  return Math.round(Date.UTC(y, m - 1, d) / 86_400_000);
}

/** ISO weekday (Monday = 1) of a date. */
export function weekdayOf(date: string): number {
  // 1970-01-01 was a Thursday (ISO 4).
  return ((((dayNumber(date) + 3) % 7) + 7) % 7) + 1;
}

// ---- calendar periods ----

/** The periods a customer's totals are counted in: engine.md 5, plus `since_category`. */
export const STAT_PERIODS = [
  'day',
  'week',
  'month',
  'quarter',
  'year',
  'all-time',
  'since_category',
] as const;
export type StatPeriod = (typeof STAT_PERIODS)[number];

/** The Monday of a date's week (engine.md 5: weeks start on Monday). */
function mondayOf(date: string): number {
  return dayNumber(date) - (weekdayOf(date) - 1);
}

const quarterOf = (date: string): number => Math.floor((Number(date.slice(5, 7)) - 1) / 3);

/** True when local date `date` lies in the same calendar period as `today` (engine.md 5). */
export function samePeriod(period: StatPeriod, date: string, today: string): boolean {
  switch (period) {
    case 'day':
      return date === today;
    case 'week':
      return mondayOf(date) === mondayOf(today);
    case 'month':
      return date.slice(0, 7) === today.slice(0, 7);
    case 'quarter':
      return date.slice(0, 4) === today.slice(0, 4) && quarterOf(date) === quarterOf(today);
    case 'year':
      return date.slice(0, 4) === today.slice(0, 4);
    case 'all-time':
    case 'since_category':
      return true;
  }
}
