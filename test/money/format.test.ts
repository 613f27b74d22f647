import { describe, expect, it } from 'vitest';
import { dec, formatMoney, parseAmount, toFixed } from '../../src/money/index.js';

describe('parseAmount', () => {
  it('accepts a comma as the decimal separator', () => {
    const r = parseAmount('12,5', 2);
    expect(r.ok && toFixed(r.value)).toBe('12.50');
  });

  it('refuses more decimals than the currency has', () => {
    expect(parseAmount('1.005', 2)).toEqual({
      ok: false,
      message: 'at most 2 decimal digits: "1.005"',
    });
  });

  it('refuses text that is not an amount', () => {
    expect(parseAmount('12a', 2).ok).toBe(false);
  });
});

describe('formatMoney', () => {
  it('groups thousands and pads to the digits', () => {
    expect(formatMoney(dec(1234.5), 2, 'EUR')).toBe('1,234.50 EUR');
    expect(formatMoney(dec(-1000), 0)).toBe('-1,000');
  });
});
