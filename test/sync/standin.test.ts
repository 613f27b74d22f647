// The stand-in limits: each refusal names its limit; earning and cash always pass.
import { describe, expect, it } from 'vitest';
import { dec, ZERO } from '../../src/money/index.js';
import { checkStandin, standinAllowance, type StandinInput } from '../../src/sync/standin.js';

const base: StandinInput = {
  limits: { customer_day_limit: 50, terminal_total_limit: 200, max_cache_age_s: 3_600 },
  cacheAgeMs: 1_000,
  spend: { bonuses: dec(10), money: ZERO },
  bonusRate: dec(1),
  offline: {
    terminal: { bonuses: ZERO, money: ZERO },
    customerDay: { bonuses: ZERO, money: ZERO },
  },
};

describe('stand-in limits', () => {
  it('allows spending within every limit', () => {
    expect(checkStandin(base)).toEqual({ ok: true });
  });

  it('always allows a sale that spends nothing, however old the cache', () => {
    expect(
      checkStandin({ ...base, cacheAgeMs: null, spend: { bonuses: ZERO, money: ZERO } }),
    ).toEqual({ ok: true });
  });

  it('refuses past the cache age, naming cache-age', () => {
    expect(checkStandin({ ...base, cacheAgeMs: 3_600_001 })).toMatchObject({
      ok: false,
      limit: 'cache-age',
    });
  });

  it('refuses past the customer day limit, naming customer-day with what is left', () => {
    const r = checkStandin({
      ...base,
      offline: { ...base.offline, customerDay: { bonuses: dec(30), money: dec(15) } },
    });
    expect(r).toMatchObject({ ok: false, limit: 'customer-day', available: 5 });
  });

  it('refuses past the terminal total, naming terminal-total', () => {
    const r = checkStandin({
      ...base,
      offline: { ...base.offline, terminal: { bonuses: ZERO, money: dec(195) } },
    });
    expect(r).toMatchObject({ ok: false, limit: 'terminal-total', available: 5 });
  });

  it('values bonuses at the bonus rate', () => {
    expect(checkStandin({ ...base, bonusRate: dec(6) })).toMatchObject({
      ok: false,
      limit: 'customer-day',
    });
  });
});

describe("what the stand-in limits leave (the offline banner's figures)", () => {
  const limits = { customer_day_limit: 50, terminal_total_limit: 200, max_cache_age_s: 3_600 };
  const nowMs = Date.parse('2026-11-26T12:00:00Z');

  it('takes money and bonuses at their rate off the terminal total', () => {
    const a = standinAllowance({
      limits,
      offlineTerminal: { bonuses: dec(10), money: dec('12.5') },
      bonusRate: dec('0.5'),
      sinceContactMs: 60_000,
      nowMs,
    });
    expect(a.terminal_limit).toBe(200);
    expect(a.terminal_left).toBe(182.5);
  });

  it('never leaves less than nothing', () => {
    const a = standinAllowance({
      limits,
      offlineTerminal: { bonuses: ZERO, money: dec(250) },
      bonusRate: dec(1),
      sinceContactMs: 0,
      nowMs,
    });
    expect(a.terminal_left).toBe(0);
  });

  it('allows spending until the cache reaches its maximum age since the last contact', () => {
    const a = standinAllowance({
      limits,
      offlineTerminal: { bonuses: ZERO, money: ZERO },
      bonusRate: dec(1),
      sinceContactMs: 600_000,
      nowMs,
    });
    expect(a.spending_until_ms).toBe(nowMs - 600_000 + 3_600_000);
  });

  it('allows no offline spending before any contact', () => {
    const a = standinAllowance({
      limits,
      offlineTerminal: { bonuses: ZERO, money: ZERO },
      bonusRate: dec(1),
      sinceContactMs: null,
      nowMs,
    });
    expect(a.spending_until_ms).toBeNull();
  });
});
