// Magnetic stripe (ISO/IEC 7813): tracks 1 and 2, their LRC, and the swipe a serial reader sends.
import { type Decoded, fail, ok } from './bytes.js';

export interface Track1 {
  track: 1;
  pan: string;
  name: string;
  /** YYMM, or null when the field is skipped (`^`). */
  expiry: string | null;
  service_code: string | null;
  discretionary: string;
}

export interface Track2 {
  track: 2;
  pan: string;
  expiry: string | null;
  service_code: string | null;
  discretionary: string;
}

export interface Swipe {
  track1: Track1 | null;
  track2: Track2 | null;
  /** Raw track 3 text (rarely used), without sentinels. */
  track3: string | null;
  /** Tracks the reader reported as failed (`E`) or that did not parse. */
  errors: string[];
}

const TRACK1 = /^%B(\d{1,19})\^([^^?]{2,26})\^(\d{4}|\^)(\d{3}|\^)?([^?]*)\?$/;
const TRACK2 = /^;(\d{1,19})=(\d{4}|=)?(\d{3}|=)?([0-9]*)\?$/;

export function parseTrack1(text: string): Decoded<Track1> {
  if (text.length > 79) return fail('malformed', 'track 1 is longer than 79 characters');
  if (!text.startsWith('%')) return fail('malformed', 'track 1 starts with %');
  if (!text.endsWith('?')) return fail('truncated', 'track 1 lacks its end sentinel ?');
  const m = TRACK1.exec(text);
  if (!m) return fail('malformed', 'track 1 does not follow %B PAN ^ NAME ^ YYMM SERVICE DATA ?');
  const [, pan = '', name = '', exp = '', svc, disc = ''] = m;
  return ok({
    track: 1,
    pan,
    name: name.trim(),
    expiry: exp === '^' ? null : exp,
    service_code: svc === undefined || svc === '^' ? null : svc,
    discretionary: disc,
  });
}

export function parseTrack2(text: string): Decoded<Track2> {
  if (text.length > 40) return fail('malformed', 'track 2 is longer than 40 characters');
  if (!text.startsWith(';')) return fail('malformed', 'track 2 starts with ;');
  if (!text.endsWith('?')) return fail('truncated', 'track 2 lacks its end sentinel ?');
  const m = TRACK2.exec(text);
  if (!m) return fail('malformed', 'track 2 does not follow ; PAN = YYMM SERVICE DATA ?');
  const [, pan = '', exp, svc, disc = ''] = m;
  return ok({
    track: 2,
    pan,
    expiry: exp === undefined || exp === '=' ? null : exp,
    service_code: svc === undefined || svc === '=' ? null : svc,
    discretionary: disc,
  });
}

/**
 * The stripe's LRC: XOR of the character codes less 0x20 (track 1) or 0x30 (tracks 2, 3) from
 * the start sentinel through `?`. Serial readers rarely send it; we check it when they do.
 */
export function trackLrc(text: string, track: 1 | 2 | 3): number {
  const base = track === 1 ? 0x20 : 0x30;
  const mask = track === 1 ? 0x3f : 0x0f;
  let lrc = 0;
  for (let i = 0; i < text.length; i++) lrc ^= (text.charCodeAt(i) - base) & mask;
  return lrc;
}

/**
 * Splits a swipe's text (framing already removed) into tracks: `%...?` is track 1, the first
 * `;...?` track 2, a second `;...?` or `+...?` track 3. An `E` where a track should be, or a
 * track that does not parse, is listed in `errors`, never thrown.
 */
export function parseSwipe(text: string): Swipe {
  const swipe: Swipe = { track1: null, track2: null, track3: null, errors: [] };
  const body = text.replace(/[\r\n]/g, '');
  const segments = body.match(/[%;+][^%;+?]*\??|E/g) ?? [];
  for (const seg of segments) {
    if (seg === 'E' || seg === '%E?' || seg === ';E?' || seg === '+E?') {
      swipe.errors.push('track read error (E)');
      continue;
    }
    if (seg.startsWith('%')) {
      const t = parseTrack1(seg);
      if (t.ok) swipe.track1 = t.value;
      else swipe.errors.push(`track 1: ${t.message}`);
    } else if (
      seg.startsWith(';') &&
      swipe.track2 === null &&
      !swipe.errors.some((e) => e.startsWith('track 2'))
    ) {
      const t = parseTrack2(seg);
      if (t.ok) swipe.track2 = t.value;
      else swipe.errors.push(`track 2: ${t.message}`);
    } else {
      swipe.track3 = seg.replace(/^[;+]/, '').replace(/\?$/, '');
    }
  }
  return swipe;
}
