// The check engine's speed: one 50-line check against 500 active rules (engine.md), the
// workload fixed by a seeded PRNG and described in the output. Beside it, a "floor" that
// only tests each rule's precomputed include/exclude sets against the lines (no arithmetic
// at all) and the ratio engine/floor, and the same engine without its rule index (rules by
// lines) for comparison. Targets: median <= 200 us, p99 <= 1 ms, engine/floor <= 3x.
import { pathToFileURL } from 'node:url';
import {
  EngineFixture,
  type EngineFixtureInput,
  type EngineRuleInput,
} from '../src/contract/engine.js';
import { calculate, compileRules } from '../src/engine/index.js';
import { passes } from '../src/engine/rule-index.js';
// mulberry32, seeded, so every run measures the same workload.
import { seededRandom as prng } from '../src/central/faults.js';
import { gcLine, line, sample, sampleWithGc, summarize } from './stats.js';

const RULES = 500;
const LINES = 50;
const CATEGORIES = 50;
const CODES = 2000;

export interface Workload {
  fixture: EngineFixtureInput;
  description: string[];
}

/** Builds the fixed workload: 500 rules and one 50-line check. */
export function workload(seed = 20261122): Workload {
  const rnd = prng(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const category = (i: number) => `cat-${i}`;
  const code = (i: number) => `item-${i}`;
  const counts = {
    category: 0,
    code: 0,
    every: 0,
    scheduled: 0,
    discount: 0,
    bonuses: 0,
    other: 0,
    exclusive: 0,
  };
  const rules: EngineRuleInput[] = [];
  for (let i = 0; i < RULES; i++) {
    const r: EngineRuleInput = {
      id: `r${String(i).padStart(4, '0')}`,
      title: `rule ${i}`,
      action_type: 'discount',
    };
    const filter = rnd();
    if (filter < 0.6) {
      counts.category++;
      r.included_item_categories = Array.from({ length: 1 + int(3) }, () =>
        category(int(CATEGORIES)),
      );
    } else if (filter < 0.8) {
      counts.code++;
      r.included_items = Array.from({ length: 1 + int(20) }, () => code(int(CODES)));
    } else {
      counts.every++;
      if (rnd() < 0.5) r.excluded_item_categories = [category(int(CATEGORIES))];
    }
    if (rnd() < 0.3) {
      counts.scheduled++;
      r.scheduled = 1;
      const from = int(24);
      r.time_from = `${String(from).padStart(2, '0')}:00`;
      r.time_to = `${String((from + 1 + int(12)) % 24).padStart(2, '0')}:00`;
      if (rnd() < 0.5) r.week_days = [1 + int(7), 1 + int(7)];
    }
    const action = rnd();
    r.priority = int(10);
    r.combine = rnd() < 0.3 ? 1 : 0;
    if (r.combine === 0) counts.exclusive++;
    const tiers = rnd() < 0.3;
    if (tiers) {
      r.depends_type = 'amount';
    }
    const thresholds = (v: number) =>
      tiers
        ? [
            { from: 0, value: v / 2 },
            { from: 20 + int(50), value: v },
          ]
        : [{ from: 0, value: v }];
    if (action < 0.7) {
      counts.discount++;
      const t = rnd();
      r.value =
        t < 0.6
          ? { type: 'percentage', thresholds: thresholds(1 + int(15)) }
          : t < 0.8
            ? { type: 'amount-per-unit', thresholds: thresholds(0.1 + int(5) / 10) }
            : t < 0.95
              ? { type: 'amount', thresholds: thresholds(1 + int(5)) }
              : { type: 'price', thresholds: thresholds(1 + int(5)) };
      if (rnd() < 0.1) r.items_limit_max = 1 + int(3);
    } else if (action < 0.9) {
      counts.bonuses++;
      r.action_type = 'bonuses';
      r.charge_type = rnd() < 0.8 ? 'regular-bonuses' : 'promotional-bonuses';
      r.promotional_bonuses_expire_type = 'days';
      r.promotional_bonuses_expire_value = 30;
      r.value =
        rnd() < 0.7
          ? { type: 'percentage', thresholds: thresholds(1 + int(10)) }
          : { type: 'amount-per-unit', thresholds: thresholds(1 + int(3)) };
    } else {
      counts.other++;
      if (rnd() < 0.5) {
        r.action_type = 'bonus-payment-limit';
        r.value = { type: 'percentage', thresholds: [{ from: 0, value: 20 + int(60) }] };
      } else {
        r.action_type = 'coupon';
        r.coupon_batch_code = `batch-${i}`;
      }
    }
    rules.push(r);
  }
  const items = Array.from({ length: LINES }, (_, i) => ({
    code: code(int(CODES)),
    category: category(int(CATEGORIES)),
    title: `item ${i}`,
    quantity: 1 + int(3),
    price: (50 + int(1950)) / 100,
  }));
  const fixture: EngineFixtureInput = {
    now: '2026-11-22T18:15:00Z',
    mode: 'calc',
    business: { id: 'b1', currency: 'EUR', base_time_zone: 'Europe/Berlin' },
    loyalty: { id: 'l1', currency: 'EUR', bonus_payment_max_percent: 50 },
    pos: { id: 'p1' },
    rules,
    customer: {
      id: 'c1',
      access_type: 'full-bonuses-access',
      bonuses: {
        regular: 500,
        promotional: [{ id: 'lot1', amount: 20, starting: '2026-11-01', expire: '2026-12-31' }],
      },
      stats: { 'all-time': { amount: 1000, quantity: 200, visits: 40 } },
    },
    terminal: { id: 't1', coupon_prefix: 'T01-', next_coupon_seq: 1 },
    check: {
      customer_id: 'c1',
      loyalty: { id: 'l1' },
      pos: { id: 'p1' },
      bonuses_redeemed_amount: 25,
      check_items: items,
    },
  };
  const pct = (n: number) => `${Math.round((n / RULES) * 100)}%`;
  return {
    fixture,
    description: [
      `workload (seed ${seed}): ${LINES}-line check (codes out of ${CODES}, categories out of ${CATEGORIES}, quantities 1-3), ${RULES} active rules:`,
      `  filters: ${pct(counts.category)} by 1-3 categories, ${pct(counts.code)} by 1-20 item codes, ${pct(counts.every)} on every line (half with an excluded category)`,
      `  ${pct(counts.scheduled)} scheduled (hour windows, some wrapping midnight, half with week days); 30% with amount tiers`,
      `  actions: ${pct(counts.discount)} discounts, ${pct(counts.bonuses)} bonuses, ${pct(counts.other)} other (payment limits, coupons); ${pct(counts.exclusive)} exclusive`,
      `  identified customer paying 25 bonuses; Europe/Berlin`,
    ],
  };
}

export async function benchEngine(): Promise<void> {
  const { fixture, description } = workload();
  const parsed = EngineFixture.parse(fixture);
  const { rules, ...context } = parsed;
  const prepared = compileRules(rules);
  const run = () => calculate(context, prepared);
  const first = run();
  if ('error' in first) throw new Error(`the workload fails: ${first.error.code}`);
  const applied =
    first.check.implemented_rules?.filter((r) => r.implementation_data?.applied).length ?? 0;
  for (const d of description) console.log(d);
  console.log(
    `  per check: ${first.check.implemented_rules?.length ?? 0} rules reported, ${applied} applied`,
  );

  const timed = await sampleWithGc(3000, 1000, run);
  const engine = summarize(timed.samples);
  // The floor: each rule's precomputed include/exclude sets tested against each line, nothing
  // else: no allocation, the lines' codes and categories read once into arrays, each rule's
  // sets into locals (the same test as `passes`, inlined). 500 x 50 = 25,000 pairs of one or
  // two Set lookups each, over 500 small sets.
  const lines = context.check!.check_items!;
  const codes = lines.map((l) => l.code);
  const categories = lines.map((l) => l.category);
  const filters = prepared.rules.map((c) => c.matching);
  let sink = 0; // pairs that pass, over every run: read below so the loop is never dropped
  const floorRuns = 3000;
  const floorWarmup = 1000;
  const floor = summarize(
    sample(floorRuns, floorWarmup, () => {
      for (const f of filters) {
        const { excludedItems, excludedCategories, items, categories: cats, everyLine } = f;
        for (let i = 0; i < codes.length; i++) {
          const code = codes[i]!;
          const category = categories[i];
          if (excludedItems !== null && excludedItems.has(code)) continue;
          if (category !== undefined && excludedCategories?.has(category)) continue;
          if (
            everyLine ||
            (items !== null && items.has(code)) ||
            (category !== undefined && cats !== null && cats.has(category))
          ) {
            sink++;
          }
        }
      }
    }),
  );
  // The same pairs through `passes`, to show the floor is that test and nothing more.
  let passing = 0;
  for (const c of prepared.rules) {
    for (const l of lines) if (passes(c.matching, l.code, l.category)) passing++;
  }
  if (sink !== passing * (floorRuns + floorWarmup))
    throw new Error('the floor does not test what passes tests');
  // The same check without rules: what reading its 50 lines and answering them cost alone;
  // the rest of the engine's figures is the rules' work.
  const bare = compileRules([]);
  const linesOnly = await sampleWithGc(1000, 300, () => calculate(context, bare));
  const naivePrepared = compileRules(rules, { index: false });
  const naive = summarize(sample(1000, 300, () => calculate(context, naivePrepared)));
  console.log(line('engine: calculate (50 lines x 500 rules)', engine));
  console.log(line('floor: include/exclude sets x lines', floor));
  console.log(line('naive: engine without the rule index', naive));
  console.log(line('lines only: the same check, no rules', summarize(linesOnly.samples)));
  console.log(
    `engine/floor ${(engine.median_us / floor.median_us).toFixed(2)}x (target <= 3x); engine/naive ${(engine.median_us / naive.median_us).toFixed(2)}x; targets median <= 200 us: ${engine.median_us <= 200 ? 'met' : 'MISSED'}, p99 <= 1000 us: ${engine.p99_us <= 1000 ? 'met' : 'MISSED'}`,
  );
  console.log(gcLine('engine: GC and allocation', 3000, timed.gc));
  console.log(gcLine('lines only: GC and allocation', 1000, linesOnly.gc));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchEngine();
}
