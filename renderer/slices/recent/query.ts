// The search box read as a `sales-recent` query. One box takes a time (`14:05`), an amount
// (`9.46`, in the language's separators), the last digits of a card (`4242`) or a customer
// (a name, a phone, a card number); `recent-by` says which when the guess would be wrong.
import type { MessageKey } from '../../i18n.js';
import { numberStyle } from '../../i18n.js';
import { parseTyped, toNumber } from '../../money.js';
import type { Built } from '../../requests.js';
import { field } from '../frame/state.js';
import { posTimeZone } from '../sale/state.js';
import type { State } from '../../state.js';
import { SEARCH_BY, type RecentQuery, type SearchBy } from './state.js';

const TIME = /^(\d{1,2}):(\d{2})$/;
/** A time finds the sales recorded this many minutes either side of it. */
export const TIME_WINDOW_MIN = 15;

function searchBy(state: State): SearchBy {
  const by = field(state, 'recent-by');
  return (SEARCH_BY as readonly string[]).includes(by) ? (by as SearchBy) : 'auto';
}

/** What `auto` reads the text as. */
export function guessSearch(text: string, decimal: string): Exclude<SearchBy, 'auto'> {
  if (TIME.test(text)) return 'time';
  if (/^\d+$/.test(text)) return text.length >= 4 ? 'card' : 'amount';
  if (/^[\d.,\s]+$/.test(text) && text.includes(decimal)) return 'amount';
  return 'customer';
}

/** The query of the search box, or the error of the box; nowMs: the clock, for today. */
export function recentQuery(state: State, nowMs: number): Built<RecentQuery> {
  const text = field(state, 'recent-search').trim();
  if (text === '') return { input: {} };
  const num = numberStyle(state.settings.language);
  const by = searchBy(state);
  const kind = by === 'auto' ? guessSearch(text, num.decimal) : by;
  const refuse = (key: MessageKey): Built<RecentQuery> => ({ errors: { 'recent-search': key } });
  switch (kind) {
    case 'amount': {
      const d = parseTyped(text, num);
      return d === null ? refuse('validation.number') : { input: { amount: toNumber(d) } };
    }
    case 'time': {
      const range = timeRange(text, nowMs, posTimeZone(state));
      return range ? { input: range } : refuse('recent.bad-time');
    }
    case 'card':
    case 'customer':
      return text.length < 2 ? refuse('recent.search-short') : { input: { [kind]: text } };
  }
}

/** `HH:MM` today in `zone` (the POS's, else the browser's), ± TIME_WINDOW_MIN, as UTC. */
export function timeRange(
  text: string,
  nowMs: number,
  zone: string | null,
): { from: string; to: string } | null {
  const m = TIME.exec(text);
  if (!m) return null;
  const [h, min] = [Number(m[1]), Number(m[2])];
  if (h > 23 || min > 59) return null;
  const tz = zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const today = wallClock(nowMs, tz);
  const wall = Date.UTC(today.y, today.mo - 1, today.d, h, min);
  const at = wall - offsetMs(wall - offsetMs(wall, tz), tz);
  const w = TIME_WINDOW_MIN * 60_000;
  return { from: new Date(at - w).toISOString(), to: new Date(at + w).toISOString() };
}

/** The date and time on a wall clock in `zone` at the instant `ms`. */
function wallClock(ms: number, zone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    y: get('year'),
    mo: get('month'),
    d: get('day'),
    h: get('hour') % 24,
    mi: get('minute'),
    s: get('second'),
  };
}

/** How far `zone`'s wall clock is ahead of UTC at the instant `ms`. */
function offsetMs(ms: number, zone: string): number {
  const c = wallClock(ms, zone);
  return Date.UTC(c.y, c.mo - 1, c.d, c.h, c.mi, c.s) - Math.floor(ms / 1000) * 1000;
}
