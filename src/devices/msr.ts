// Magnetic stripe (ISO/IEC 7813): tracks 1 and 2 and the swipe a serial reader sends.
import { type Decoded, type DecodeFailure, fail, ok } from './bytes.js';
import { DEFAULT_BANK_RANGES, inRanges, luhnValid } from './mask.js';

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

/**
 * A read that parses but cannot be right is a misread, refused naming the field: an expiry
 * (YYMM) whose month is not 01..12. The cashier swipes again.
 */
function badExpiry(track: 1 | 2, expiry: string | null): DecodeFailure | null {
  if (expiry === null) return null;
  const month = Number(expiry.slice(2));
  return month >= 1 && month <= 12
    ? null
    : fail('malformed', `misread: track${track}.expiry ${expiry} has no month ${expiry.slice(2)}`);
}

/**
 * A bank card's number that fails its Luhn check digit is a misread. A number counts as a
 * bank card's when it has 12..19 digits, lies in a public card-scheme range and its track
 * carries a service code (a bank card always does; a loyalty stripe that skips it, or uses
 * its own numbering, stays a loyalty card whatever its digits).
 */
function badCheckDigit(
  track: 1 | 2,
  t: { pan: string; service_code: string | null },
): DecodeFailure | null {
  const bankLike =
    t.service_code !== null && /^\d{12,19}$/.test(t.pan) && inRanges(t.pan, DEFAULT_BANK_RANGES);
  return bankLike && !luhnValid(t.pan)
    ? fail('malformed', `misread: track${track}.pan fails its check digit`)
    : null;
}

export function parseTrack1(text: string): Decoded<Track1> {
  if (text.length > 79) return fail('malformed', 'track 1 is longer than 79 characters');
  if (!text.startsWith('%')) return fail('malformed', 'track 1 starts with %');
  if (!text.endsWith('?')) return fail('truncated', 'track 1 lacks its end sentinel ?');
  const m = TRACK1.exec(text);
  if (!m) return fail('malformed', 'track 1 does not follow %B PAN ^ NAME ^ YYMM SERVICE DATA ?');
  const [, pan = '', name = '', exp = '', svc, disc = ''] = m;
  const track: Track1 = {
    track: 1,
    pan,
    name: name.trim(),
    expiry: exp === '^' ? null : exp,
    service_code: svc === undefined || svc === '^' ? null : svc,
    discretionary: disc,
  };
  return badExpiry(1, track.expiry) ?? badCheckDigit(1, track) ?? ok(track);
}

export function parseTrack2(text: string): Decoded<Track2> {
  if (text.length > 40) return fail('malformed', 'track 2 is longer than 40 characters');
  if (!text.startsWith(';')) return fail('malformed', 'track 2 starts with ;');
  if (!text.endsWith('?')) return fail('truncated', 'track 2 lacks its end sentinel ?');
  const m = TRACK2.exec(text);
  if (!m) return fail('malformed', 'track 2 does not follow ; PAN = YYMM SERVICE DATA ?');
  const [, pan = '', exp, svc, disc = ''] = m;
  const track: Track2 = {
    track: 2,
    pan,
    expiry: exp === undefined || exp === '=' ? null : exp,
    service_code: svc === undefined || svc === '=' ? null : svc,
    discretionary: disc,
  };
  return badExpiry(2, track.expiry) ?? badCheckDigit(2, track) ?? ok(track);
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
  // Two tracks of one card carry one number: when they differ, one of them is misread.
  if (swipe.track1 && swipe.track2 && swipe.track1.pan !== swipe.track2.pan)
    swipe.errors.push('misread: track1.pan and track2.pan differ');
  // A misread track makes the whole swipe a misread: the other track is not trusted either,
  // and the misread is the reason the screen shows.
  const misread = swipe.errors.find((e) => e.includes('misread'));
  if (misread) {
    swipe.track1 = null;
    swipe.track2 = null;
    swipe.errors = [misread, ...swipe.errors.filter((e) => e !== misread)];
  }
  return swipe;
}
