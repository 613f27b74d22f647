import { describe, expect, it } from 'vitest';
import {
  isTimeZone,
  localDate,
  localDateTime,
  samePeriod,
  weekdayOf,
  zoneOf,
} from '../../src/contract/local-time.js';

const at = Date.parse;

describe('the zone of a POS', () => {
  it("is the POS's own zone when it has one", () => {
    expect(zoneOf({ time_zone: 'Asia/Tokyo' }, { base_time_zone: 'Europe/Berlin' })).toBe(
      'Asia/Tokyo',
    );
  });

  it("is its business's zone when the POS has none", () => {
    expect(zoneOf({}, { base_time_zone: 'Europe/Berlin' })).toBe('Europe/Berlin');
    expect(zoneOf(null, { base_time_zone: 'Europe/Berlin' })).toBe('Europe/Berlin');
    expect(zoneOf({ time_zone: null }, { base_time_zone: 'Europe/Berlin' })).toBe('Europe/Berlin');
  });

  it('is UTC when neither the POS nor its business has one', () => {
    expect(zoneOf(undefined, undefined)).toBe('UTC');
    expect(zoneOf({}, {})).toBe('UTC');
  });

  it('passes over a zone the runtime does not know, as if it were absent', () => {
    expect(zoneOf({ time_zone: 'Mars/Olympus' }, { base_time_zone: 'Europe/Berlin' })).toBe(
      'Europe/Berlin',
    );
    expect(zoneOf({ time_zone: '' }, { base_time_zone: 'Not/A_Zone' })).toBe('UTC');
  });
});

describe('an invalid zone', () => {
  it('is not a time zone', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });

  it('has no local date: asking for one is a caller bug (RangeError)', () => {
    expect(() => localDate(at('2026-11-22T12:00:00Z'), 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('local date and time of an instant', () => {
  it('reads the local date and time in the time zone', () => {
    expect(localDateTime('2026-11-22T23:30:00Z', 'Europe/Berlin')).toEqual({
      date: '2026-11-23',
      seconds: 30 * 60,
      weekday: 1,
      offset: 3600,
      instant: at('2026-11-22T23:30:00Z'),
    });
  });

  it('takes the instant as epoch milliseconds or ISO text alike', () => {
    const iso = '2026-11-22T23:30:00Z';
    expect(localDateTime(at(iso), 'Asia/Tokyo')).toEqual(localDateTime(iso, 'Asia/Tokyo'));
  });

  it('starts the new day at local midnight, not at UTC midnight', () => {
    // 23:00 UTC is midnight in Berlin (winter, UTC+1).
    expect(localDateTime('2026-11-22T22:59:59Z', 'Europe/Berlin')).toMatchObject({
      date: '2026-11-22',
      seconds: 86_399,
    });
    expect(localDateTime('2026-11-22T23:00:00Z', 'Europe/Berlin')).toMatchObject({
      date: '2026-11-23',
      seconds: 0,
    });
    expect(localDate(at('2026-11-22T23:00:00Z'), 'UTC')).toBe('2026-11-22');
  });

  it('lands on a date a day away from UTC in a zone far from it', () => {
    // 11:00 UTC on the 26th: 01:00 on the 27th at UTC+14, 00:00 on the 26th at UTC-11.
    expect(localDate(at('2026-11-26T11:00:00Z'), 'Pacific/Kiritimati')).toBe('2026-11-27');
    expect(localDate(at('2026-11-26T10:59:59Z'), 'Pacific/Pago_Pago')).toBe('2026-11-25');
  });

  it('follows the offset across a daylight-saving change', () => {
    // Berlin springs forward at 01:00 UTC on 29 March 2026: 02:00 CET becomes 03:00 CEST.
    expect(localDateTime('2026-03-29T00:59:59Z', 'Europe/Berlin')).toMatchObject({
      date: '2026-03-29',
      seconds: 1 * 3600 + 59 * 60 + 59,
      offset: 3600,
    });
    expect(localDateTime('2026-03-29T01:00:00Z', 'Europe/Berlin')).toMatchObject({
      date: '2026-03-29',
      seconds: 3 * 3600,
      offset: 7200,
    });
    // Back at 01:00 UTC on 25 October: the local day ends at 23:00 UTC, an hour later than in summer.
    expect(localDate(at('2026-10-25T22:59:59Z'), 'Europe/Berlin')).toBe('2026-10-25');
    expect(localDate(at('2026-10-25T23:00:00Z'), 'Europe/Berlin')).toBe('2026-10-26');
  });

  it('numbers weekdays the ISO way, Monday = 1 and Sunday = 7', () => {
    expect(weekdayOf('2026-11-23')).toBe(1);
    expect(weekdayOf('2026-11-22')).toBe(7);
  });
});

describe('calendar periods', () => {
  it('starts a week on Monday', () => {
    expect(samePeriod('week', '2026-11-22', '2026-11-23')).toBe(false); // Sunday, Monday
    expect(samePeriod('week', '2026-11-23', '2026-11-29')).toBe(true); // Monday, Sunday
  });

  it('compares days, months, quarters and years by the calendar', () => {
    expect(samePeriod('day', '2026-11-23', '2026-11-23')).toBe(true);
    expect(samePeriod('day', '2026-11-22', '2026-11-23')).toBe(false);
    expect(samePeriod('month', '2026-11-01', '2026-11-30')).toBe(true);
    expect(samePeriod('month', '2026-10-31', '2026-11-01')).toBe(false);
    expect(samePeriod('quarter', '2026-10-01', '2026-12-31')).toBe(true);
    expect(samePeriod('quarter', '2026-09-30', '2026-10-01')).toBe(false);
    expect(samePeriod('quarter', '2025-11-01', '2026-11-01')).toBe(false);
    expect(samePeriod('year', '2026-01-01', '2026-12-31')).toBe(true);
  });

  it('never rolls all-time and since_category', () => {
    expect(samePeriod('all-time', '1999-01-01', '2026-11-23')).toBe(true);
    expect(samePeriod('since_category', '1999-01-01', '2026-11-23')).toBe(true);
  });
});
