import { describe, expect, it } from 'vitest';
import { prepareRules } from '../../src/engine/index.js';
import { compileRules, passes, compileFilter } from '../../src/engine/rule-index.js';
import { EngineRules } from '../../src/contract/engine.js';
import { percent, rule } from './helpers.js';

const compile = (rules: unknown[]) => compileRules(EngineRules.parse(rules));

describe('rule index', () => {
  it('orders rules by action group, then priority, then id', () => {
    const prepared = compile([
      rule('b', { action_type: 'bonuses' }),
      rule('z', { priority: 1 }),
      rule('y', { priority: 1 }),
      rule('x', { priority: 0 }),
    ]);
    expect(prepared.rules.map((c) => c.rule.id)).toEqual(['x', 'y', 'z', 'b']);
  });

  it('drops inactive rules when compiling', () => {
    expect(compile([rule('a', { active: 0 }), rule('b')]).rules.map((c) => c.rule.id)).toEqual([
      'b',
    ]);
  });

  it('indexes rules by the codes and categories they include', () => {
    const prepared = compile([
      rule('a', { included_items: ['I1'] }),
      rule('b', { included_item_categories: ['coffee'] }),
      rule('c'),
    ]);
    expect(prepared.byCode.get('I1')).toEqual([0]);
    expect(prepared.byCategory.get('coffee')).toEqual([1]);
    expect(prepared.everyLine).toEqual([2]);
  });

  it('sorts thresholds by from', () => {
    const prepared = compile([
      rule('a', {
        value: {
          type: 'percentage',
          thresholds: [
            { from: 0, value: 5 },
            { from: 10, value: 7 },
          ],
        },
      }),
    ]);
    expect(prepared.rules[0]!.tiers.map((t) => Number(t.from.units))).toEqual([0, 10]);
  });

  it('answers invalid-input naming the path of a bad rule', () => {
    const out = prepareRules([
      rule('a'),
      { id: 'b', action_type: 'bonus-payment-limit', value: { type: 'amount', thresholds: [] } },
    ]);
    expect(out).toMatchObject({ error: { code: 'invalid-input', path: 'rules[1].value.type' } });
  });

  it('refuses two rules with one id', () => {
    expect(prepareRules([rule('a'), rule('a')])).toMatchObject({
      error: { code: 'invalid-input', path: 'rules[1].id' },
    });
  });

  it('lets an excluded item win over an included category', () => {
    const f = compileFilter([], ['coffee'], ['C2'], []);
    expect(passes(f, 'C1', 'coffee')).toBe(true);
    expect(passes(f, 'C2', 'coffee')).toBe(false);
  });

  it('matches every line but the excluded ones when nothing is included', () => {
    const f = compileFilter([], [], [], ['food']);
    expect(passes(f, 'X', 'drinks')).toBe(true);
    expect(passes(f, 'X', 'food')).toBe(false);
  });

  it('fills the defaults of engine.md 16 on a rule', () => {
    const [r] = EngineRules.parse([{ id: 'a', action_type: 'discount', value: percent(5) }]);
    expect(r).toMatchObject({
      active: 1,
      automatic: 1,
      scope: 'retail',
      priority: 0,
      combine: 1,
      applicable_for_customer: 'all',
      applicable_for_sale: 'all',
      depends_type: 'none',
      scheduled: 0,
      apply_when_bonuses_redeemed: 1,
      apply_when_customers_account_payment: 1,
      items_limit_min: 0,
      items_limit_max: 0,
      only_once_per_check: 0,
    });
  });
});
