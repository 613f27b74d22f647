import { describe, expect, it } from 'vitest';
import { EngineFixture } from '../../src/contract/engine.js';
import { problemsOf } from '../../src/contract/problems.js';
import { fixture } from './helpers.js';

const problems = (input: unknown) => {
  const r = EngineFixture.safeParse(input);
  return r.success ? [] : problemsOf(r.error);
};

describe('engine fixture schema', () => {
  it('fills the context defaults', () => {
    const parsed = EngineFixture.parse({
      now: '2026-11-22T10:15:00Z',
      business: { id: 'b1' },
      check: {},
    });
    expect(parsed).toMatchObject({
      mode: 'calc',
      business: { base_time_zone: 'UTC' },
      loyalty: { bonus_payment_max_percent: 100, bonus_rate: 1, count_bonuses_redeemed_amount: 1 },
      customer: null,
      special_accounts: [],
      pending: { bonuses_redeemed: 0, accounts: {}, stats: {} },
      rules: [],
    });
  });

  it('accepts any non-empty string as an id', () => {
    expect(problems(fixture({ check: { customer_id: 'c1', check_items: [] } }))).toEqual([]);
  });

  it('refuses an unknown field, naming it', () => {
    expect(problems({ ...fixture(), checks: {} })).toEqual([
      { path: 'checks', message: 'unknown field' },
    ]);
  });

  it('refuses an unknown time zone', () => {
    expect(problems({ ...fixture(), pos: { id: 'p1', time_zone: 'Mars/Olympus' } })[0]?.path).toBe(
      'pos.time_zone',
    );
  });

  it('accepts any odometer number so the engine can judge it', () => {
    expect(problems(fixture({ check: { odometer: -1.125 } }))).toEqual([]);
  });

  it('needs original, not check, for a refund', () => {
    expect(problems({ ...fixture(), mode: 'refund' }).map((p) => p.path)).toEqual([
      'original',
      'check',
    ]);
  });
});
