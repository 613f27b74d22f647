// Rule schedules (engine.md 4 and 16): windows that wrap past midnight, validity bounds, and
// the calendar arithmetic of promotional lots (days, months clamped to the month's end). The
// local date and time of `now` come from src/contract/local-time.ts.
import { dayNumber, type LocalDateTime } from '../contract/local-time.js';

function fromDayNumber(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return fromDayNumber(dayNumber(date) + days);
}

/** Adds calendar months, clamping to the month's end (31 January + 1 month = 28/29 February). */
export function addMonths(date: string, months: number): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7)) - 1 + months;
  const d = Number(date.slice(8, 10));
  const year = y + Math.floor(m / 12);
  const month = ((m % 12) + 12) % 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(d, last);
  return `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** `HH:MM` or `HH:MM:SS` -> seconds since midnight. */
export function parseLocalTime(text: string): number {
  const [h = '0', m = '0', s = '0'] = text.split(':');
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
}

/**
 * A bound of the daily window. `offset` null: a local time in the POS zone (engine.md 4).
 * Otherwise a time of day at that UTC offset (seconds east), as RFC 3339 writes it
 * (`10:00:00Z`, `10:00:00+02:00`, or the time and offset of a date-time; its date is ignored).
 */
export interface TimeBound {
  readonly seconds: number;
  readonly offset: number | null;
}

/** A bound of the validity: a local date (inclusive), or an instant (epoch ms) from a date-time. */
export type DateBound = { readonly date: string } | { readonly instant: number };

const TIME =
  /^(?:\d{4}-\d{2}-\d{2}[Tt ])?(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:([Zz])|([+-])(\d{2}):(\d{2}))?$/;

/** A rule's `time_from` / `time_to` in any form the contract accepts (contract/check.ts). */
export function parseRuleTime(text: string): TimeBound {
  const m = TIME.exec(text);
  if (!m) return { seconds: parseLocalTime(text), offset: null };
  const seconds = Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0);
  if (m[4]) return { seconds, offset: 0 };
  if (!m[5]) return { seconds, offset: null };
  const sign = m[5] === '-' ? -1 : 1;
  return { seconds, offset: sign * (Number(m[6]) * 3600 + Number(m[7]) * 60) };
}

/** A rule's `valid_after` / `valid_before`: `YYYY-MM-DD`, or a date-time (an instant). */
export function parseRuleDate(text: string): DateBound {
  return text.length === 10 ? { date: text } : { instant: Date.parse(text) };
}

/** A bound of the window as seconds since local midnight on `now`'s local day. */
function localSeconds(b: TimeBound, now: LocalDateTime): number {
  if (b.offset === null) return b.seconds;
  return (((b.seconds - b.offset + now.offset) % 86_400) + 86_400) % 86_400;
}

/** A rule's schedule, compiled once. */
export interface Schedule {
  readonly validAfter: DateBound | null;
  readonly validBefore: DateBound | null;
  /** Null = open on that side. */
  readonly from: TimeBound | null;
  readonly to: TimeBound | null;
  /** ISO weekdays; null = every day. */
  readonly weekDays: ReadonlySet<number> | null;
}

export function compileSchedule(rule: {
  valid_after?: string | null;
  valid_before?: string | null;
  time_from?: string | null;
  time_to?: string | null;
  week_days: readonly number[];
}): Schedule {
  return {
    validAfter: rule.valid_after ? parseRuleDate(rule.valid_after) : null,
    validBefore: rule.valid_before ? parseRuleDate(rule.valid_before) : null,
    from: rule.time_from ? parseRuleTime(rule.time_from) : null,
    to: rule.time_to ? parseRuleTime(rule.time_to) : null,
    weekDays: rule.week_days.length > 0 ? new Set(rule.week_days) : null,
  };
}

/**
 * Whether `now` is inside the validity. Dates bound the local date, both inclusive; instants
 * bound `now` itself, [valid_after, valid_before) like the daily window.
 */
function inValidity(s: Schedule, now: LocalDateTime): boolean {
  const a = s.validAfter;
  if (a !== null && ('date' in a ? now.date < a.date : now.instant < a.instant)) return false;
  const b = s.validBefore;
  if (b !== null && ('date' in b ? now.date > b.date : now.instant >= b.instant)) return false;
  return true;
}

/**
 * Whether `now` falls inside the schedule (engine.md 4.4). The dates bound the local date;
 * the time window is [from, to), wrapping past midnight when to < from; the weekday is the
 * one of the day on which the current window opened.
 */
export function inSchedule(s: Schedule, now: LocalDateTime): boolean {
  if (!inValidity(s, now)) return false;
  let openedYesterday = false;
  const from = s.from && localSeconds(s.from, now);
  const to = s.to && localSeconds(s.to, now);
  if (from !== null && to !== null && from !== to) {
    if (from < to) {
      if (now.seconds < from || now.seconds >= to) return false;
    } else if (now.seconds >= from) {
      openedYesterday = false;
    } else if (now.seconds < to) {
      openedYesterday = true;
    } else {
      return false;
    }
  } else if (from !== null && to === null) {
    if (now.seconds < from) return false;
  } else if (from === null && to !== null) {
    if (now.seconds >= to) return false;
  }
  if (s.weekDays === null) return true;
  const weekday = openedYesterday ? ((now.weekday + 5) % 7) + 1 : now.weekday;
  return s.weekDays.has(weekday);
}
