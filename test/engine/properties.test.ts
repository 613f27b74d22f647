// Properties of the engine over random checks (fast-check): it never throws, totals are sums
// of lines, discounts stay within their lines, nothing is left to pay below zero, a
// redemption never exceeds what was asked, what is available or the ceiling, permuting lines
// permutes their results, and the same input gives the same bytes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EngineFixture,
  type EngineFixtureInput,
  type EngineResult,
  type EngineRuleInput,
} from '../../src/contract/engine.js';
import { runFixture } from '../../src/engine/index.js';
import {
  type Dec,
  ZERO,
  add,
  dec,
  lte,
  max,
  mul,
  round,
  sub,
  toNumber,
} from '../../src/money/index.js';

const cents = (n: number) => n / 100;

const lineArb = (opts: { integer: boolean }) =>
  fc.record({
    code: fc.constantFrom('A', 'B', 'C', 'D', 'E'),
    category: fc.constantFrom('x', 'y', 'z'),
    title: fc.constant('item'),
    quantity: opts.integer
      ? fc.integer({ min: 1, max: 5 })
      : fc.oneof(
          fc.integer({ min: 0, max: 5 }),
          fc.integer({ min: 1, max: 5000 }).map((q) => q / 1000),
        ),
    price: fc.integer({ min: 0, max: 5000 }).map(cents),
    // The wide generator also draws taxes, given amounts and fuel prepay lines.
    taxes: opts.integer
      ? fc.constant(undefined)
      : fc.constantFrom(
          undefined,
          [{ code: 'V', type: 'vat' as const, rate: 20 }],
          [
            { code: 'S', type: 'sales' as const, rate: 8.25 },
            { code: 'E', type: 'vat' as const, rate: 10, exempt: true },
          ],
        ),
    amount: opts.integer
      ? fc.constant(undefined)
      : fc.option(fc.integer({ min: 0, max: 9000 }).map(cents), { nil: undefined }),
    quantity_recalculate_type: opts.integer
      ? fc.constant(undefined)
      : fc.constantFrom(
          undefined,
          undefined,
          'recalculate-by-amount' as const,
          'adjust-by-amount' as const,
        ),
  });

const tiersArb = (type: 'percentage' | 'amount' | 'amount-per-unit' | 'price', high: number) =>
  fc
    .array(
      fc.record({
        from: fc.integer({ min: 0, max: 30 }),
        value: fc.integer({ min: 0, max: high * 100 }).map(cents),
      }),
      { minLength: 1, maxLength: 3 },
    )
    .chain((ts) => fc.tuple(fc.constant(ts), fc.boolean()))
    // Most rules start at 0 so that they act; the others have a threshold to reach.
    .map(([ts, fromZero]) => {
      const sorted = [...ts].sort((a, b) => a.from - b.from);
      if (fromZero) sorted[0] = { ...sorted[0]!, from: 0 };
      return { type, thresholds: sorted };
    });

const ruleArb = (opts: { positionFree: boolean }): fc.Arbitrary<EngineRuleInput> => {
  const discountTypes = opts.positionFree
    ? fc.constantFrom('percentage' as const, 'amount-per-unit' as const, 'price' as const)
    : fc.constantFrom(
        'percentage' as const,
        'amount' as const,
        'amount-per-unit' as const,
        'price' as const,
      );
  const bonusTypes = opts.positionFree
    ? fc.constantFrom('percentage' as const, 'amount-per-unit' as const)
    : fc.constantFrom('percentage' as const, 'amount' as const, 'amount-per-unit' as const);
  const common = {
    priority: fc.integer({ min: 0, max: 3 }),
    combine: fc.constantFrom(0 as const, 1 as const),
    depends_type: fc.constantFrom('none' as const, 'amount' as const, 'quantity' as const),
    included_items: fc.subarray(['A', 'B', 'C']),
    excluded_item_categories: fc.subarray(['x', 'y']),
    items_limit_max: opts.positionFree ? fc.constant(0) : fc.integer({ min: 0, max: 3 }),
    only_once_per_check: opts.positionFree
      ? fc.constant(0 as const)
      : fc.constantFrom(0 as const, 1 as const),
    apply_when_bonuses_redeemed: fc.constantFrom(0 as const, 1 as const),
  };
  return fc
    .oneof(
      fc.record({
        ...common,
        action_type: fc.constant('discount' as const),
        value: discountTypes.chain((t) => tiersArb(t, t === 'percentage' ? 120 : 20)),
      }),
      fc.record({
        ...common,
        action_type: fc.constant('bonuses' as const),
        charge_type: fc.constantFrom('regular-bonuses' as const, 'promotional-bonuses' as const),
        count_bonuses_redeemed_amount: fc.constantFrom(0 as const, 1 as const, null),
        value: bonusTypes.chain((t) => tiersArb(t, 20)),
      }),
      fc.record({
        ...common,
        action_type: fc.constant('bonus-payment-limit' as const),
        value: tiersArb('percentage', 100),
      }),
      fc.record({
        ...common,
        action_type: fc.constant('coupon' as const),
        coupon_batch_code: fc.constant('B1'),
      }),
    )
    .map((r) => r as EngineRuleInput);
};

const fixtureArb = (opts: { integer: boolean; positionFree: boolean }) =>
  fc
    .record({
      lines: fc.array(lineArb(opts), { minLength: 0, maxLength: 8 }),
      rules: fc.array(ruleArb(opts), { maxLength: 6 }),
      access: fc.constantFrom(
        'anonymous',
        'full-bonuses-access',
        'full-bonuses-access',
        'add-bonuses-only',
        'in-black-list',
      ),
      regular: fc.integer({ min: 0, max: 5000 }).map(cents),
      lot: fc.integer({ min: 0, max: 2000 }).map(cents),
      pending: fc.integer({ min: 0, max: 1000 }).map(cents),
      redeem: opts.positionFree
        ? fc.constant(0)
        : fc.oneof(
            { weight: 2, arbitrary: fc.constant(0) },
            { weight: 1, arbitrary: fc.integer({ min: 1, max: 6000 }).map(cents) },
          ),
      maxPercent: fc.integer({ min: 0, max: 100 }),
      rate: fc.constantFrom(1, 0.5, 2, 0.3),
      mode: fc.constantFrom('calc' as const, 'process' as const),
      shipping: fc.integer({ min: 0, max: 500 }).map(cents),
      account: opts.positionFree
        ? fc.constant(null)
        : fc.oneof(
            { weight: 4, arbitrary: fc.constant(null) },
            {
              weight: 1,
              arbitrary: fc.record({
                balance: fc.integer({ min: 0, max: 20000 }).map(cents),
                day: fc.integer({ min: 0, max: 20000 }).map(cents),
                credit: fc.constantFrom('none' as const, 'limited' as const, 'unlimited' as const),
              }),
            },
          ),
    })
    .map((g): EngineFixtureInput => ({
      now: '2026-11-22T10:15:00Z',
      mode: g.mode,
      business: { id: 'b1', currency: 'EUR' },
      loyalty: {
        id: 'l1',
        currency: 'EUR',
        bonus_payment_max_percent: g.maxPercent,
        bonus_rate: g.rate,
      },
      pos: { id: 'p1' },
      rules: g.rules.map((r, i) => ({ ...r, id: `r${i}`, title: `r${i}` })),
      customer:
        g.access === 'anonymous'
          ? null
          : {
              id: 'c1',
              access_type: g.access as 'full-bonuses-access',
              bonuses: {
                regular: g.regular,
                promotional: [{ amount: g.lot, expire: '2026-12-01' }],
              },
            },
      pending: { bonuses_redeemed: g.pending },
      special_accounts: g.account
        ? [
            {
              id: 'sa1',
              currency: 'EUR',
              balance: g.account.balance,
              credit_type: g.account.credit,
              credit_limit: 10,
              limits: { day_limit: g.account.day },
            },
          ]
        : [],
      check: {
        bonuses_redeemed_amount: g.redeem,
        shipping_amount: g.shipping,
        check_items: g.lines.map((l) => ({ ...l, taxes: l.taxes ? [...l.taxes] : undefined })),
        ...(g.account ? { payment_type: 'special-account' as const, payment_id: 'sa1' } : {}),
      },
    }));

const tally = { errors: 0, checks: 0, discounted: 0, redeemed: 0 };

const run = (input: EngineFixtureInput): EngineResult => runFixture(EngineFixture.parse(input));
const d = (n: number | null | undefined): Dec => dec(n ?? 0);
/** Compares exact values by their numbers (scales may differ). */
const same = (a: Dec, b: Dec) => expect(toNumber(a)).toBe(toNumber(b));
const sumOf = (xs: (number | null | undefined)[]) => xs.reduce<Dec>((a, x) => add(a, d(x)), ZERO);

function checkInvariants(input: EngineFixtureInput, out: EngineResult): void {
  if ('error' in out) {
    tally.errors++;
    return;
  }
  tally.checks++;
  if ((out.check.discount_amount ?? 0) > 0) tally.discounted++;
  if ((out.check.bonuses_redeemed_amount ?? 0) > 0) tally.redeemed++;
  const c = out.check;
  const items = c.check_items ?? [];
  same(d(c.amount), round(sumOf(items.map((l) => l.amount)), 2));
  same(d(c.discount_amount), round(sumOf(items.map((l) => l.discount_amount)), 2));
  same(
    d(c.summary_amount),
    round(add(add(d(c.amount), d(c.shipping_amount)), d(c.services_amount)), 2),
  );
  const redeemedMoney = sumOf(items.map((l) => l.calculated_bonuses_redeemed_amount));
  const sales = sumOf(items.flatMap((l) => (l.calculated_taxes?.sales ?? []).map((t) => t.value)));
  same(
    d(c.amount_to_pay),
    round(add(sub(sub(d(c.summary_amount), d(c.discount_amount)), redeemedMoney), sales), 2),
  );
  expect(lte(ZERO, d(c.amount_to_pay))).toBe(true);
  same(d(c.bonuses_added_amount), round(sumOf((c.bonuses_added ?? []).map((b) => b.amount)), 2));
  const limits = input
    .rules!.filter((r) => r.action_type === 'bonus-payment-limit')
    .flatMap((r) => r.value!.thresholds.map((t) => t.value));
  const topPercent = dec(
    Math.max(
      input.loyalty!.bonus_payment_max_percent ?? 100,
      ...limits.map((v) => Math.min(100, v)),
    ),
  );
  let ceiling: Dec = ZERO;
  for (const l of items) {
    expect(lte(ZERO, d(l.discount_amount))).toBe(true);
    expect(lte(d(l.discount_amount), d(l.amount))).toBe(true);
    const after = sub(d(l.amount), d(l.discount_amount));
    const lineCeiling = round(mul(after, topPercent), 4 + 2, 'down');
    expect(lte(mul(d(l.calculated_bonuses_redeemed_amount), dec(100)), lineCeiling)).toBe(true);
    ceiling = add(ceiling, after);
  }
  const granted = d(c.bonuses_redeemed_amount);
  const requested = d(input.check!.bonuses_redeemed_amount);
  const customer = input.customer;
  const available = customer
    ? max(
        ZERO,
        sub(
          add(d(customer.bonuses!.regular), d(customer.bonuses!.promotional![0]!.amount)),
          d(input.pending!.bonuses_redeemed),
        ),
      )
    : ZERO;
  expect(lte(granted, requested)).toBe(true);
  expect(lte(granted, available)).toBe(true);
  expect(lte(mul(redeemedMoney, dec(100)), mul(ceiling, topPercent))).toBe(true);
}

describe('engine properties', () => {
  it('holds its invariants on 10,000 random checks, and answers the same bytes twice', () => {
    fc.assert(
      fc.property(fixtureArb({ integer: false, positionFree: false }), (input) => {
        const a = run(input);
        const b = run(input);
        expect(JSON.stringify(a)).toBe(JSON.stringify(b));
        checkInvariants(input, a);
      }),
      { numRuns: 10_000, seed: 20261122 },
    );
    // The generator reaches the interesting paths, not only refusals.
    expect(tally.checks).toBeGreaterThan(5_000);
    expect(tally.discounted).toBeGreaterThan(800);
    expect(tally.redeemed).toBeGreaterThan(400);
  });

  it('permutes line results when the lines are permuted, totals unchanged', () => {
    fc.assert(
      fc.property(
        fixtureArb({ integer: true, positionFree: true }).chain((input) =>
          fc.tuple(
            fc.constant(input),
            fc.shuffledSubarray([...(input.check!.check_items ?? []).keys()], {
              minLength: input.check!.check_items!.length,
              maxLength: input.check!.check_items!.length,
            }),
          ),
        ),
        ([input, order]) => {
          const items = input.check!.check_items!;
          const permuted = {
            ...input,
            check: { ...input.check, check_items: order.map((i) => items[i]!) },
          };
          const a = run(input);
          const b = run(permuted);
          if ('error' in a || 'error' in b) {
            expect('error' in a && 'error' in b).toBe(true);
            return;
          }
          expect(b.check.amount).toBe(a.check.amount);
          expect(b.check.summary_amount).toBe(a.check.summary_amount);
          expect(b.check.discount_amount).toBe(a.check.discount_amount);
          const lines = a.check.check_items!;
          expect(b.check.check_items).toEqual(order.map((i) => lines[i]));
        },
      ),
      { numRuns: 1_000, seed: 20261123 },
    );
  });
});

// engine.md 17.2 and 17.4 over random checks.
const lotsArb = fc.record({
  bonusDigits: fc.integer({ min: 0, max: 3 }),
  // Balances finer than the bonus digits (exact in the context, 17.2).
  regular: fc.integer({ min: 0, max: 50_000 }).map((n) => n / 1000),
  lots: fc.array(
    fc.record({
      amount: fc.integer({ min: 0, max: 5_000 }).map((n) => n / 1000),
      expire: fc.constantFrom('2026-11-22', '2026-11-30', '2026-12-31', '2026-11-21'),
    }),
    { maxLength: 4 },
  ),
  pending: fc.integer({ min: 0, max: 3_000 }).map((n) => n / 1000),
  redeem: fc.integer({ min: 1, max: 60_000 }).map((n) => n / 1000),
  price: fc.integer({ min: 1, max: 10_000 }).map(cents),
  mode: fc.constantFrom('calc' as const, 'process' as const),
});

describe('engine properties of section 17', () => {
  it('records a redemption in exact parts that add up to bonuses_redeemed_amount (17.2)', () => {
    let recorded = 0;
    fc.assert(
      fc.property(lotsArb, (g) => {
        const out = run({
          now: '2026-11-22T10:15:00Z',
          mode: g.mode,
          business: { id: 'b1', currency: 'EUR' },
          loyalty: { id: 'l1', currency: 'EUR', bonus_payment_max_percent: 100, bonus_rate: 1 },
          pos: { id: 'p1' },
          rules: [],
          customer: {
            id: 'c1',
            access_type: 'full-bonuses-access',
            bonuses: {
              regular: g.regular,
              promotional: g.lots.map((l, i) => ({ id: `lot${i}`, ...l })),
            },
          },
          pending: { bonuses_redeemed: g.pending },
          check: {
            bonuses_decimal_digits: g.bonusDigits,
            bonuses_redeemed_amount: g.redeem,
            check_items: [{ code: 'A', quantity: 1, price: g.price }],
          },
        });
        if ('error' in out) {
          expect(out.error.code).toBe('insufficient-bonuses');
          return;
        }
        const granted = d(out.check.bonuses_redeemed_amount);
        const spent = out.check.external_additional_info?.bonuses_spent as
          { amount: number }[] | undefined;
        if (granted.units === 0n) {
          expect(spent).toBeUndefined();
          return;
        }
        recorded++;
        // What was granted is whole bonus units, within the balance rounded down; its parts
        // are exact and add up to it.
        same(round(granted, g.bonusDigits), granted);
        const active = g.lots.filter((l) => l.expire >= '2026-11-22');
        const balance = sub(add(d(g.regular), sumOf(active.map((l) => l.amount))), d(g.pending));
        expect(lte(granted, round(max(ZERO, balance), g.bonusDigits, 'down'))).toBe(true);
        for (const p of spent!) expect(lte(dec(p.amount), ZERO)).toBe(false);
        expect(toNumber(sumOf(spent!.map((p) => p.amount)))).toBe(toNumber(granted));
      }),
      { numRuns: 3_000, seed: 20261126 },
    );
    expect(recorded).toBeGreaterThan(1_000);
  });

  it('refuses processed values on every check that is not a completion, naming the field (17.4)', () => {
    const line = fc.record({
      code: fc.constantFrom('A', 'B'),
      quantity: fc.integer({ min: 1, max: 5000 }).map((q) => q / 1000),
      price: fc.integer({ min: 1, max: 5000 }).map(cents),
      processed_quantity: fc.option(
        fc.integer({ min: 0, max: 5000 }).map((q) => q / 1000),
        { nil: undefined },
      ),
      processed_amount: fc.option(fc.integer({ min: 0, max: 9000 }).map(cents), {
        nil: undefined,
      }),
    });
    fc.assert(
      fc.property(
        fc.constantFrom(undefined, 'sale', 'preauthorization', 'completion', 'bonuses-add'),
        fc.array(line, { maxLength: 5 }),
        (type, lines) => {
          const out = run({
            now: '2026-11-22T10:15:00Z',
            business: { id: 'b1', currency: 'EUR' },
            loyalty: { id: 'l1', currency: 'EUR' },
            pos: { id: 'p1' },
            rules: [],
            customer: null,
            check: {
              ...(type ? { transaction_type: type } : {}),
              check_items: lines.map((l) => JSON.parse(JSON.stringify(l)) as typeof l),
            },
          });
          const first = lines.findIndex(
            (l) => l.processed_quantity !== undefined || l.processed_amount !== undefined,
          );
          if (type === 'completion' || first < 0) {
            expect('error' in out).toBe(false);
            return;
          }
          const key =
            lines[first]!.processed_quantity !== undefined
              ? 'processed_quantity'
              : 'processed_amount';
          expect(out).toMatchObject({
            error: { code: 'invalid-input', path: `check.check_items[${first}].${key}` },
          });
        },
      ),
      { numRuns: 2_000, seed: 20261127 },
    );
  });
});

// engine.md 17.9: the candidates (conditions 1-7 of section 4) come back in implemented_rules
// exactly once each, in action order, whatever their lines; never a rule failing 1-7, none
// for a black-listed customer, no bonuses rule but a display one in an anonymous sale. The
// rules here vary in what 1-7 look at (active, automatic, POS, customer), the rest as above.
const GROUP_ORDER = ['discount', 'bonus-payment-limit', 'bonuses', 'coupon'];

const candidateArb = fc
  .tuple(
    fixtureArb({ integer: false, positionFree: false }),
    fc.array(
      fc.record({
        active: fc.constantFrom(1 as const, 1 as const, 1 as const, 0 as const),
        automatic: fc.constantFrom(1 as const, 1 as const, 3 as const, 0 as const),
        customer: fc.constantFrom('all' as const, 'identified' as const, 'new' as const),
        pos: fc.constantFrom('', 'p1', 'p2'),
        listed: fc.boolean(),
      }),
      { minLength: 6, maxLength: 6 },
    ),
    fc.boolean(),
  )
  .map(([input, extras, manual]): EngineFixtureInput => {
    const rules = input.rules!.map((r, i) => ({
      ...r,
      active: extras[i]!.active,
      automatic: extras[i]!.automatic,
      applicable_for_customer: extras[i]!.customer,
      pos: extras[i]!.pos ? [{ id: extras[i]!.pos, title: extras[i]!.pos }] : [],
    }));
    const listed = rules.filter((_, i) => extras[i]!.listed).map((r) => ({ id: r.id }));
    return {
      ...input,
      rules,
      check: { ...input.check, manual_rules: manual, implemented_rules: listed },
    };
  });

/** The ids engine.md 17.9 returns, worked out from the fixture alone, in action order. */
function candidateIds(input: EngineFixtureInput): string[] {
  const customer = input.customer;
  if (customer?.access_type === 'in-black-list') return [];
  const check = input.check!;
  const listed = new Set((check.implemented_rules ?? []).map((r) => r.id));
  return input
    .rules!.filter((r) => (r.active ?? 1) === 1)
    .filter((r) => r.automatic !== 0 || (check.manual_rules === true && listed.has(r.id)))
    .filter((r) => (r.pos ?? []).length === 0 || r.pos!.some((p) => p.id === 'p1'))
    .filter((r) => r.applicable_for_customer === 'all' || customer) // no stats: a customer is new
    .filter((r) => customer || r.action_type !== 'bonuses' || r.automatic === 3)
    .sort(
      (a, b) =>
        GROUP_ORDER.indexOf(a.action_type) - GROUP_ORDER.indexOf(b.action_type) ||
        (a.priority ?? 0) - (b.priority ?? 0) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .map((r) => r.id);
}

describe('rules returned (engine.md 17.9)', () => {
  it('returns every candidate exactly once, in action order, and no other rule', () => {
    let returned = 0;
    fc.assert(
      fc.property(candidateArb, (input) => {
        const out = run(input);
        if ('error' in out) return;
        const ids = (out.check.implemented_rules ?? []).map((r) => r.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids).toEqual(candidateIds(input));
        returned += ids.length;
      }),
      { numRuns: 2_000, seed: 20261126 },
    );
    expect(returned).toBeGreaterThan(500); // the generator reaches returned rules
  });
});
