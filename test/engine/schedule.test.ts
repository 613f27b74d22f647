import { describe, expect, it } from 'vitest';
import { localDateTime } from '../../src/contract/local-time.js';
import { addDays, addMonths, compileSchedule, inSchedule } from '../../src/engine/schedule.js';

const at = (iso: string, zone = 'UTC') => localDateTime(iso, zone);
const window = (over: Record<string, unknown>) => compileSchedule({ week_days: [], ...over });

describe('schedule', () => {
  it('adds months clamping to the end of the month', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-11-30', 3)).toBe('2027-02-28');
  });

  it('adds days across a year end', () => {
    expect(addDays('2026-12-30', 3)).toBe('2027-01-02');
  });

  it('includes time_from and excludes time_to', () => {
    const s = window({ time_from: '10:00', time_to: '12:00' });
    expect(inSchedule(s, at('2026-11-22T10:00:00Z'))).toBe(true);
    expect(inSchedule(s, at('2026-11-22T12:00:00Z'))).toBe(false);
  });

  it('wraps a window past midnight and takes the weekday of its opening', () => {
    const wednesdayNight = window({ time_from: '22:00', time_to: '02:00', week_days: [3] });
    expect(inSchedule(wednesdayNight, at('2026-11-26T01:30:00Z'))).toBe(true); // Thursday 01:30
    expect(inSchedule(wednesdayNight, at('2026-11-25T01:30:00Z'))).toBe(false); // Wednesday 01:30: opened Tuesday
    expect(inSchedule(wednesdayNight, at('2026-11-25T03:00:00Z'))).toBe(false);
  });

  it('treats equal times and absent times as all day', () => {
    expect(
      inSchedule(window({ time_from: '08:00', time_to: '08:00' }), at('2026-11-22T03:00:00Z')),
    ).toBe(true);
    expect(inSchedule(window({}), at('2026-11-22T03:00:00Z'))).toBe(true);
  });

  it('leaves a window open on the side whose time is absent', () => {
    expect(inSchedule(window({ time_from: '18:00' }), at('2026-11-22T23:59:00Z'))).toBe(true);
    expect(inSchedule(window({ time_from: '18:00' }), at('2026-11-22T17:59:00Z'))).toBe(false);
    expect(inSchedule(window({ time_to: '09:00' }), at('2026-11-22T08:59:00Z'))).toBe(true);
    expect(inSchedule(window({ time_to: '09:00' }), at('2026-11-22T09:00:00Z'))).toBe(false);
  });

  it('bounds the local date by valid_after and valid_before, inclusive', () => {
    const s = window({ valid_after: '2026-11-22', valid_before: '2026-11-22' });
    expect(inSchedule(s, at('2026-11-22T23:59:59Z'))).toBe(true);
    expect(inSchedule(s, at('2026-11-23T00:00:00Z'))).toBe(false);
    expect(inSchedule(s, at('2026-11-21T23:59:59Z'))).toBe(false);
  });

  // The contract declares these fields RFC 3339 (data-contract.md, Schedule): a time with its
  // offset names a time at that offset, seen in the POS zone; a date-time bound is an instant.
  it('reads a time of day with an offset at that offset, in the POS zone', () => {
    const s = window({ time_from: '10:00:00+05:30', time_to: '12:00:00+05:30' });
    // 04:30-06:30 UTC = 05:30-07:30 in Berlin (winter).
    expect(inSchedule(s, at('2026-11-22T04:29:59Z', 'Europe/Berlin'))).toBe(false);
    expect(inSchedule(s, at('2026-11-22T04:30:00Z', 'Europe/Berlin'))).toBe(true);
    expect(inSchedule(s, at('2026-11-22T06:30:00Z', 'Europe/Berlin'))).toBe(false);
  });

  it('follows the zone offset of the day: 10:00:00Z is 12:00 in Berlin in summer', () => {
    const s = window({ time_from: '10:00:00Z', time_to: '11:00:00z' });
    expect(inSchedule(s, at('2026-07-01T10:30:00Z', 'Europe/Berlin'))).toBe(true);
    expect(inSchedule(s, at('2026-07-01T09:30:00Z', 'Europe/Berlin'))).toBe(false);
  });

  it('wraps an offset window past local midnight, with the weekday it opened on', () => {
    // 22:00Z-02:00Z on Wednesday = 23:00-03:00 in Berlin.
    const s = window({ time_from: '22:00:00Z', time_to: '02:00:00Z', week_days: [3] });
    expect(inSchedule(s, at('2026-11-26T01:30:00Z', 'Europe/Berlin'))).toBe(true); // Thu 02:30
    expect(inSchedule(s, at('2026-11-26T02:30:00Z', 'Europe/Berlin'))).toBe(false); // Thu 03:30
    expect(inSchedule(s, at('2026-11-25T21:59:00Z', 'Europe/Berlin'))).toBe(false); // Wed 22:59
  });

  it('takes only the time and offset of a date-time time bound', () => {
    const s = window({ time_from: '1999-12-31T10:00:00.000Z', time_to: '1999-12-31T12:00:00Z' });
    expect(inSchedule(s, at('2026-11-22T11:00:00Z'))).toBe(true);
    expect(inSchedule(s, at('2026-11-22T12:00:00Z'))).toBe(false);
  });

  it('bounds now by date-time validity as instants, [valid_after, valid_before)', () => {
    const s = window({
      valid_after: '2026-11-22T18:00:00+01:00',
      valid_before: '2026-11-23T06:00:00+01:00',
    });
    expect(inSchedule(s, at('2026-11-22T16:59:59Z', 'Europe/Berlin'))).toBe(false);
    expect(inSchedule(s, at('2026-11-22T17:00:00Z', 'Europe/Berlin'))).toBe(true);
    expect(inSchedule(s, at('2026-11-23T04:59:59Z', 'Europe/Berlin'))).toBe(true);
    expect(inSchedule(s, at('2026-11-23T05:00:00Z', 'Europe/Berlin'))).toBe(false);
  });
});
