import { describe, expect, it } from 'vitest';
import { parseTyped } from '../../renderer/money.js';
import {
  formatAge,
  formatAmount,
  formatDateTime,
  formatDec,
  formatMoney,
  formatQuantity,
  NONE,
} from '../../renderer/format.js';
import { dateStyle, numberStyle } from '../../renderer/i18n.js';

describe('formatAmount', () => {
  it('pads an amount to the check digits', () => {
    expect(formatAmount(27, 2)).toBe('27.00');
    expect(formatAmount(0.5, 3)).toBe('0.500');
  });

  it('shows a value the engine rounded exactly as sent', () => {
    expect(formatAmount(0.3, 2)).toBe('0.30');
    expect(formatAmount(1.15, 2)).toBe('1.15');
  });

  it('rounds a longer value half away from zero on its decimal text', () => {
    // (1.005).toFixed(2) is "1.00" in binary floating point
    expect(formatAmount(1.005, 2)).toBe('1.01');
  });

  it('never shows minus zero', () => {
    expect(formatAmount(-0.001, 2)).toBe('0.00');
  });

  it('shows a dash for a missing amount', () => {
    expect(formatAmount(undefined)).toBe(NONE);
    expect(formatAmount(null)).toBe(NONE);
  });

  it('groups thousands and uses the language separator', () => {
    expect(formatAmount(1234567.5, 2, { decimal: ',', group: ' ' })).toBe('1 234 567,50');
  });

  it('shows zero digits without a decimal point', () => {
    expect(formatAmount(12, 0)).toBe('12');
  });
});

describe('other formats', () => {
  it('puts the currency after the amount', () => {
    expect(formatMoney(5, 2, 'EUR')).toBe('5.00 EUR');
  });

  it('shows a quantity as given unless the line names its digits', () => {
    expect(formatQuantity(2)).toBe('2');
    expect(formatQuantity(27.793)).toBe('27.793');
    expect(formatQuantity(2, 3)).toBe('2.000');
  });

  it('formats an exact decimal', () => {
    expect(formatDec(parseTyped('16.9'), 2)).toBe('16.90');
    expect(formatDec(null)).toBe(NONE);
  });

  it('shortens ages', () => {
    expect(formatAge(45)).toBe('45 sec');
    expect(formatAge(3600 * 5)).toBe('5 hr');
    expect(formatAge(null)).toBe(NONE);
  });

  it("writes an age's unit in the language's words", () => {
    expect(formatAge(2 * 86_400, 'de-DE')).toBe('2 Tg.');
    expect(formatAge(12 * 60, 'de-DE')).toBe('12 Min.');
  });
});

describe('numbers in the language chosen', () => {
  const de = numberStyle('de');

  it("takes each language's separators from Intl for its locale", () => {
    expect(numberStyle('de')).toEqual({ decimal: ',', group: '.' });
    expect(numberStyle('en')).toEqual({ decimal: '.', group: ',' });
  });

  it('writes German money with a decimal comma and points between thousands', () => {
    expect(formatMoney(1234567.5, 2, 'EUR', de)).toBe('1.234.567,50 EUR');
  });

  it('rounds German money on its decimal text, never through a float', () => {
    expect(formatAmount(1.005, 2, de)).toBe('1,01');
  });

  it('writes German quantities and exact decimals with a decimal comma', () => {
    expect(formatQuantity(27.793, undefined, de)).toBe('27,793');
    expect(formatDec(parseTyped('16.9'), 2, de)).toBe('16,90');
  });
});

describe('dates in the language chosen', () => {
  const at = '2026-11-26T23:05:00Z';

  it('writes a German date and time in the POS time zone', () => {
    expect(formatDateTime(at, dateStyle('de', 'Europe/Berlin'))).toBe('27.11.2026, 00:05');
  });

  it('writes an English date day first on a 24-hour clock', () => {
    expect(formatDateTime(at, dateStyle('en', 'UTC'))).toBe('26/11/2026, 23:05');
  });

  it("uses the browser's zone when the POS zone is unknown or not a zone", () => {
    expect(dateStyle('de', null).timeZone).toBeUndefined();
    expect(dateStyle('de', 'Mars/Olympus_Mons').timeZone).toBeUndefined();
  });

  it('shows a dash for a missing date and an unreadable one as sent', () => {
    expect(formatDateTime(null, dateStyle('de'))).toBe(NONE);
    expect(formatDateTime('yesterday', dateStyle('de'))).toBe('yesterday');
  });
});
