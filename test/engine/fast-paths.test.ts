// The engine's integer fast paths give what the decimal routes they shortcut give: a whole
// line's discount from its minor units vs discountsFor, a percentage on the integers vs
// div(mul()), and an indexed rule set vs the same rules matched by scanning every line.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EngineFixture, EngineRules, type EngineRuleInput } from '../../src/contract/engine.js';
import { discountsFor, wholeLineDiscount } from '../../src/engine/discounts.js';
import { calculate, compileRules } from '../../src/engine/index.js';
import { percentOf } from '../../src/engine/numbers.js';
import { LineState } from '../../src/engine/state.js';
import { type Dec, dec, div, fromMinor, mul, round } from '../../src/money/index.js';
import { fixture, item, percent, rule } from './helpers.js';

const HUNDRED = dec(100);

/** A decimal from units and scale, as values reach the engine. */
const decArb = (maxUnits: bigint, maxScale: number, negative = false) =>
  fc
    .tuple(
      fc.bigInt({ min: negative ? -maxUnits : 0n, max: maxUnits }),
      fc.integer({ min: 0, max: maxScale }),
    )
    .map(([units, scale]) => fromMinor(units, scale));

describe('percentOf', () => {
  it('gives div(mul(amount, percent), 100) in every rounding mode', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4 }),
        fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        decArb(20_000n, 4, true),
        fc.constantFrom('half-away', 'down', 'floor', 'ceil') as fc.Arbitrary<
          'half-away' | 'down' | 'floor' | 'ceil'
        >,
        (digits, units, percent, mode) => {
          const amount = fromMinor(units, digits);
          expect(percentOf(amount, percent, digits, mode)).toEqual(
            div(mul(amount, percent), HUNDRED, digits, mode),
          );
        },
      ),
      { numRuns: 5000 },
    );
  });
});

describe('wholeLineDiscount', () => {
  const types = ['percentage', 'amount-per-unit', 'price'] as const;

  it('gives what discountsFor gives for a line whose every unit is covered', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...types),
        decArb(100_000n, 3, true),
        fc.bigInt({ min: -100n, max: 10n ** 9n }),
        decArb(5000n, 3).filter((q) => q.units > 0n),
        fc.integer({ min: 0, max: 3 }),
        (type, value, currentUnits, quantity, digits) => {
          const [compiled] = compileRules(
            EngineRules.parse([
              rule('r', {
                value: {
                  type,
                  thresholds: [{ from: 0, value: Number(value.units) / 10 ** value.scale }],
                },
              }),
            ]),
          ).rules;
          const tier = compiled!.tiers[0]!;
          const line = new LineState({
            index: 0,
            item: { code: 'A', title: 'A', quantity: 1 },
            quantity,
            amount: fromMinor(currentUnits, digits),
            moneyDigits: digits,
            priceDigits: digits,
            quantityDigits: 3,
          });
          const fast = wholeLineDiscount(type, tier, line.currentUnits, quantity, digits);
          const slow: Dec = discountsFor(
            compiled!,
            tier,
            [{ line, covered: quantity, units: quantity, whole: true }],
            digits,
          )[0]!;
          if (fast !== null) expect(fast).toBe(round(slow, digits).units);
        },
      ),
      { numRuns: 5000 },
    );
  });
});

describe('the rule index', () => {
  it('gives byte-identical answers to scanning every line, whatever the mix of filters', () => {
    const code = fc.constantFrom('A1', 'A2', 'B1', 'B2', 'C1');
    const category = fc.constantFrom('a', 'b', 'c');
    const ruleArb = fc.record({
      included_items: fc.array(code, { maxLength: 2 }),
      included_item_categories: fc.array(category, { maxLength: 2 }),
      excluded_items: fc.array(code, { maxLength: 1 }),
      excluded_item_categories: fc.array(category, { maxLength: 1 }),
      combine: fc.constantFrom(0, 1),
      priority: fc.integer({ min: 0, max: 3 }),
      percentValue: fc.integer({ min: 1, max: 30 }),
      type: fc.constantFrom('percentage', 'amount', 'amount-per-unit', 'price'),
    });
    fc.assert(
      fc.property(
        fc.array(ruleArb, { minLength: 1, maxLength: 12 }),
        fc.array(fc.tuple(code, category, fc.integer({ min: 0, max: 3 })), {
          minLength: 1,
          maxLength: 8,
        }),
        (rules, lines) => {
          const parsed = EngineFixture.parse(
            fixture({
              rules: rules.map((r, k) =>
                rule(`r${k}`, {
                  included_items: r.included_items,
                  included_item_categories: r.included_item_categories,
                  excluded_items: r.excluded_items,
                  excluded_item_categories: r.excluded_item_categories,
                  combine: r.combine,
                  priority: r.priority,
                  value: {
                    type: r.type as 'percentage',
                    thresholds: [
                      {
                        from: 0,
                        value: r.type === 'percentage' ? r.percentValue : r.percentValue / 10,
                      },
                    ],
                  },
                }),
              ),
              check: {
                check_items: lines.map(([c, cat, q], k) =>
                  item(c, q, 1 + k * 1.25, { category: cat }),
                ),
              },
            }),
          );
          const { rules: parsedRules, ...context } = parsed;
          const indexed = JSON.stringify(calculate(context, compileRules(parsedRules)));
          const scanned = JSON.stringify(
            calculate(context, compileRules(parsedRules, { index: false })),
          );
          expect(indexed).toBe(scanned);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("a rule set's per-line scratch", () => {
  it('leaves nothing of one check in the next: each answers as with a fresh rule set', () => {
    const code = fc.constantFrom('A1', 'B1', 'C1', 'C2');
    const lineArb = fc.tuple(
      code,
      fc.integer({ min: 0, max: 3 }),
      fc.integer({ min: 1, max: 900 }),
    );
    // Up to 70 lines: past the scratch's first size (64), so it grows between checks too.
    const checkArb = fc.array(lineArb, { minLength: 1, maxLength: 70 });
    const rules = [
      rule('d-pct', { included_items: ['A1', 'C1'], value: percent(10) }),
      rule('d-amount', {
        included_item_categories: ['coffee'],
        combine: 1,
        value: { type: 'amount', thresholds: [{ from: 0, value: 3 }] },
      }),
      rule('d-every', { priority: 1, value: percent(5) }),
      rule('b-pct', { action_type: 'bonuses', charge_type: 'regular-bonuses', value: percent(7) }),
      rule('b-unit', {
        action_type: 'bonuses',
        charge_type: 'regular-bonuses',
        combine: 1,
        included_items: ['B1'],
        value: { type: 'amount-per-unit', thresholds: [{ from: 0, value: 0.3 }] },
      }),
    ];
    const contextOf = (lines: [string, number, number][], redeem: number) => {
      const { rules: parsed, ...context } = EngineFixture.parse(
        fixture({
          rules,
          check: {
            customer_id: 'c1',
            bonuses_redeemed_amount: redeem,
            check_items: lines.map(([c, q, cents]) => item(c, q, cents / 100)),
          },
        }),
      );
      return { parsed, context };
    };
    fc.assert(
      fc.property(checkArb, checkArb, fc.constantFrom(0, 2), (first, second, redeem) => {
        const a = contextOf(first, redeem);
        const b = contextOf(second, redeem);
        const shared = compileRules(a.parsed);
        calculate(a.context, shared);
        const after = JSON.stringify(calculate(b.context, shared));
        expect(after).toBe(JSON.stringify(calculate(b.context, compileRules(b.parsed))));
      }),
      { numRuns: 200 },
    );
  });
});

describe("a rule's own amount base", () => {
  it('is the sum of its matching lines, found by the index or by scanning', () => {
    // A threshold in cents, reached or not: the tier is found on the base, or what is missing
    // to it is the threshold less the base.
    const code = fc.constantFrom('A1', 'B1', 'C1', 'C2');
    const filterArb = fc.constantFrom<Partial<EngineRuleInput>>(
      { included_items: ['A1', 'C2'] },
      { included_item_categories: ['coffee'] },
      { excluded_item_categories: ['coffee'] },
      { excluded_items: ['B1'] },
      {},
    );
    fc.assert(
      fc.property(
        filterArb,
        fc.array(fc.tuple(code, fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 900 })), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.boolean(),
        fc.integer({ min: 1, max: 400_000 }),
        (filter, lines, index, from) => {
          const { rules, ...context } = EngineFixture.parse(
            fixture({
              rules: [
                rule('far', { ...filter, depends_type: 'amount', value: percent(10, from / 100) }),
              ],
              check: {
                customer_id: 'c1',
                check_items: lines.map(([c, q, cents]) => item(c, q, cents / 100)),
              },
            }),
          );
          const out = calculate(context, compileRules(rules, { index }));
          if ('error' in out) throw new Error(out.error.code);
          const matches = (c: string) =>
            filter.included_items
              ? filter.included_items.includes(c)
              : filter.included_item_categories
                ? c.startsWith('C')
                : filter.excluded_item_categories
                  ? !c.startsWith('C')
                  : filter.excluded_items
                    ? !filter.excluded_items.includes(c)
                    : true;
          const cents = lines.filter(([c]) => matches(c)).reduce((sum, [, q, p]) => sum + q * p, 0);
          const data = out.check.implemented_rules?.[0]?.implementation_data;
          if (cents >= from) expect(data?.reason).not.toBe('threshold');
          else {
            expect(data?.reason).toBe('threshold');
            expect(data?.missing).toBe((from - cents) / 100);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
