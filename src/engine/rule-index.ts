// Rules are validated and compiled once (`prepareRules`) and reused across many checks:
// item filters become sets, thresholds exact decimals sorted by `from`, schedules seconds,
// and the rules are indexed by the item codes and categories they include, so a check
// visits only the rules that can match its lines (rules that include everything are kept
// apart, as are display rules, which report even without a matching line).
import type { z } from 'zod';
import { EngineRule, EngineRules, type EngineImplementedRule } from '../contract/engine.js';
import type { ZoneCache } from '../contract/local-time.js';
import { formatPath } from '../contract/problems.js';
import { type Dec, ZERO, cmp, dec } from '../money/index.js';
import { engineError, type ErrorResult } from './errors.js';
import { HUNDRED, percentDenominator } from './numbers.js';
import { compileSchedule, type Schedule } from './schedule.js';
import { INT64_MAX, type RuleReport } from './state.js';
import type { Evaluation, FixedReason } from './thresholds.js';

/** The action groups in the order they act (engine.md 7). */
export const GROUPS = ['discount', 'bonus-payment-limit', 'bonuses', 'coupon'] as const;
export type Group = (typeof GROUPS)[number];

export interface ItemFilter {
  /** Null when both include lists are empty: every line. */
  readonly items: ReadonlySet<string> | null;
  readonly categories: ReadonlySet<string> | null;
  readonly excludedItems: ReadonlySet<string> | null;
  readonly excludedCategories: ReadonlySet<string> | null;
  readonly everyLine: boolean;
  /** Some code or category is excluded. */
  readonly excludes: boolean;
}

export interface Tier {
  readonly from: Dec;
  readonly value: Dec;
  /**
   * A plain percentage (0 <= value <= 100) as integers for the discount hot path: p% of an
   * amount of u minor units is round_half_away(u x value.units / (100 x 10^value.scale)),
   * i.e. floor((u x twice + den) / twiceDen) for u >= 0, at the amount's own digits.
   */
  readonly percent?: PercentFactor | null;
}

export interface PercentFactor {
  readonly twice: bigint;
  readonly den: bigint;
  readonly twiceDen: bigint;
  /** Amounts up to this keep u x twice + den within 64 bits (see the discount loop). */
  readonly maxAmount: bigint;
}

export function percentFactor(value: Dec): PercentFactor | null {
  if (value.units < 0n || cmp(value, HUNDRED) > 0) return null;
  const den = percentDenominator(value.scale);
  const twice = 2n * value.units;
  const maxAmount = twice === 0n ? INT64_MAX : (INT64_MAX - den) / twice;
  return { twice, den, twiceDen: 2n * den, maxAmount };
}

export interface CompiledRule {
  readonly rule: EngineRule;
  /** Position in evaluation order. */
  readonly order: number;
  readonly group: Group;
  readonly matching: ItemFilter;
  /** The dependency filter: the matching one unless alternative dependencies are used. */
  readonly depends: ItemFilter;
  readonly tiers: readonly Tier[];
  /**
   * The tier a base of 0 reaches (tierFor in thresholds.ts), found once: the base of a rule
   * that depends on nothing, and of an amount or quantity rule without a matching line, which
   * since engine.md 17.9 is evaluated in every check all the same.
   */
  readonly zeroTier: Tier | null;
  readonly schedule: Schedule | null;
  readonly posIds: ReadonlySet<string> | null;
  readonly display: boolean;
  /** Found through the index by code and category; otherwise matched by scanning the lines. */
  readonly indexed: boolean;
  /** What implemented_rules says of the rule besides implementation_data (docs decision 10). */
  readonly descriptor: Readonly<EngineImplementedRule>;
  /**
   * Its not-applied reports that say only the reason, the same in every check, each with its
   * frozen answer entry: made on first use (fixedReport in thresholds.ts, outputRule).
   */
  readonly fixed: FixedReports;
}

export type FixedReports = {
  [R in FixedReason]: RuleReport | undefined;
} & {
  readonly output: { [R in FixedReason]: EngineImplementedRule | undefined };
  readonly evaluations: { [R in FixedReason]: Evaluation | undefined };
};

/** One slot per fixed reason, each empty. */
const noneYet = <T>(): { [R in FixedReason]: T | undefined } => ({
  'bonuses-redeemed': undefined,
  'account-payment': undefined,
  'no-line': undefined,
  'lines-taken': undefined,
});

/**
 * A rule's fixed reports, none made yet. Every slot is there from the start, so every
 * rule's record has one shape: most rules read theirs in every check, and records that grew
 * their slots in different orders made those reads megamorphic.
 */
function noFixedReports(): FixedReports {
  return { ...noneYet<RuleReport>(), output: noneYet(), evaluations: noneYet() };
}

export interface PreparedRules {
  /** Every active rule, in evaluation order: group, priority ascending, id ascending. */
  readonly rules: readonly CompiledRule[];
  /** Orders of rules that include an item code / a category. */
  readonly byCode: ReadonlyMap<string, readonly number[]>;
  readonly byCategory: ReadonlyMap<string, readonly number[]>;
  /** Orders of rules matched by scanning the lines (every-line rules), and of display rules. */
  readonly everyLine: readonly number[];
  readonly display: readonly number[];
  /** The same rules split by action group, each in evaluation order. */
  readonly groups: Readonly<Record<Group, readonly CompiledRule[]>>;
  /** Time-zone formatters, built on first use (immutable once built). */
  readonly zones: ZoneCache;
  /** indexMatches' counters, kept between checks instead of made per check. */
  readonly scratch: IndexScratch;
}

/**
 * Scratch of a check's index matches (indexMatches in matching.ts), kept with the rule set
 * instead of made per check: a calculation is synchronous, so no two checks use it at once,
 * and releaseMatches leaves `counts`, `filled` and `lists` empty again when a check is done.
 */
export interface IndexScratch {
  /** Per rule: its hits in this check, how many are laid out, and where in `flat`. */
  readonly counts: Uint32Array;
  readonly filled: Uint32Array;
  readonly start: Uint32Array;
  /** Per rule: its list of lines, once asked for. */
  readonly lists: (number[] | undefined)[];
  /** The lines of every rule hit, rule by rule (grown on need). */
  flat: Uint32Array;
  /** The rule of every hit, line by line, and where each line's hits end (grown on need). */
  hits: Uint32Array;
  lineEnd: Uint32Array;
  hitCount: number;
  /** Set while a check uses it. */
  busy: boolean;
  /** The check's per-line arrays (lineScratch in matching.ts), grown on need. */
  lines: LineScratch;
}

/**
 * A check's per-line typed arrays, kept with the rule set like the index scratch and sized
 * to the largest check seen: made per check, each of these past 64 bytes got a backing
 * store outside the heap (an allocation and a release per array per check). Only the first
 * `n` entries of a check of n lines are used; lineScratch clears them before each check.
 */
export interface LineScratch {
  readonly size: number;
  /** CalcState.current: the lines' current units. */
  readonly current: BigInt64Array;
  /** applyBonuses: bonuses credited per line by the integer route. */
  readonly credited: BigInt64Array;
  /** CalcState.allocation: the weights, and the parts and work (3 x size + 2). */
  readonly weights: BigInt64Array;
  readonly work: BigInt64Array;
  /** GroupState.touched and .closed of the discount group and of the bonuses group. */
  readonly discountTouched: Uint8Array;
  readonly discountClosed: Uint8Array;
  readonly bonusesTouched: Uint8Array;
  readonly bonusesClosed: Uint8Array;
  /**
   * CalcState.reports: the answer maps it to implemented_rules. Emptied by popping after each
   * check, which keeps its capacity (setting its length to 0 gives it back): since engine.md
   * 17.9 a check reports every candidate, and a list grown by push from empty reallocates
   * several times on the way to some 400 entries.
   */
  readonly reports: RuleReport[];
}

export function newLineScratch(size: number): LineScratch {
  return {
    size,
    current: new BigInt64Array(size),
    credited: new BigInt64Array(size),
    weights: new BigInt64Array(size),
    work: new BigInt64Array(3 * size + 2),
    discountTouched: new Uint8Array(size),
    discountClosed: new Uint8Array(size),
    bonusesTouched: new Uint8Array(size),
    bonusesClosed: new Uint8Array(size),
    reports: [],
  };
}

// The rule fields an implemented rule repeats, in this order after `id`.
const RULE_OUTPUT_KEYS = [
  'loyalty_id',
  'title',
  'comment',
  'scope',
  'active',
  'automatic',
  'priority',
  'combine',
  'action_type',
  'charge_type',
  'special_account_id',
  'coupon_batch_code',
  'card_category_id',
  'corporate_customer_category_id',
  'value',
] as const;

/** The rule's identity and descriptors; its filters and schedule stay with the rule set. */
function describe(rule: EngineRule): EngineImplementedRule {
  const out: EngineImplementedRule = { id: rule.id };
  for (const key of RULE_OUTPUT_KEYS) {
    const v = rule[key];
    if (v !== undefined && v !== null) (out as Record<string, unknown>)[key] = v;
  }
  // A slot for implementation_data, last as in the answer: each report copies this object
  // and fills the slot, without growing the copy's property store (outputRule).
  out.implementation_data = undefined;
  return out;
}

// Every field of a rule, in the schema's order, each undefined (inOneShape).
const RULE_SHAPE: Readonly<Record<string, undefined>> = Object.fromEntries(
  Object.keys(EngineRule.shape).map((key) => [key, undefined]),
);

/**
 * The rule with the same fields and values in the one shape every compiled rule shares:
 * each field of the schema, in its order (absent ones undefined), then any other. Parsed
 * rules take as many hidden classes as there are combinations of optional fields (6 in the
 * bench workload), which made every `c.rule.x` read in the per-rule loops (isCandidate,
 * evaluate, the groups) a megamorphic property load; in one shape those reads stay
 * monomorphic. The values are the parsed ones, shared and never changed.
 */
function inOneShape(rule: EngineRule): EngineRule {
  return { ...RULE_SHAPE, ...rule } as EngineRule;
}

function toSet(list: readonly string[]): ReadonlySet<string> | null {
  return list.length > 0 ? new Set(list) : null;
}

export function compileFilter(
  included: readonly string[],
  includedCategories: readonly string[],
  excluded: readonly string[],
  excludedCategories: readonly string[],
): ItemFilter {
  const items = toSet(included);
  const categories = toSet(includedCategories);
  const excludedItems = toSet(excluded);
  const excludedCats = toSet(excludedCategories);
  return {
    items,
    categories,
    excludedItems,
    excludedCategories: excludedCats,
    everyLine: items === null && categories === null,
    excludes: excludedItems !== null || excludedCats !== null,
  };
}

/** Whether a line (code, category) passes a filter (engine.md 5). */
export function passes(f: ItemFilter, code: string, category: string | undefined): boolean {
  if (f.excludedItems?.has(code)) return false;
  if (category !== undefined && f.excludedCategories?.has(category)) return false;
  if (f.everyLine) return true;
  if (f.items?.has(code)) return true;
  return category !== undefined && f.categories !== null && f.categories.has(category);
}

function compareRules(a: EngineRule, b: EngineRule): number {
  const ga = GROUPS.indexOf(a.action_type);
  const gb = GROUPS.indexOf(b.action_type);
  if (ga !== gb) return ga - gb;
  if (a.priority !== b.priority) return a.priority - b.priority;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function push(map: Map<string, number[]>, key: string, order: number): void {
  const list = map.get(key);
  if (list) list.push(order);
  else map.set(key, [order]);
}

/**
 * Compiles rules already parsed by the fixture schema. Inactive rules are dropped here.
 * `index: false` leaves every rule to scan the lines (the benchmark's naive comparison).
 */
export function compileRules(
  rules: readonly EngineRule[],
  options: { index?: boolean } = {},
): PreparedRules {
  const useIndex = options.index ?? true;
  const sorted = rules.filter((r) => r.active === 1).sort(compareRules);
  const byCode = new Map<string, number[]>();
  const byCategory = new Map<string, number[]>();
  const everyLine: number[] = [];
  const display: number[] = [];
  const compiled = sorted.map((parsed, order): CompiledRule => {
    const rule = inOneShape(parsed);
    const matching = compileFilter(
      rule.included_items,
      rule.included_item_categories,
      rule.excluded_items,
      rule.excluded_item_categories,
    );
    const depends =
      rule.use_alternative_dependencies_by_items === 1
        ? compileFilter(
            rule.depends_included_items,
            rule.depends_included_item_categories,
            rule.depends_excluded_items,
            rule.depends_excluded_item_categories,
          )
        : matching;
    const tiers = (rule.value?.thresholds ?? [])
      .map((t): Tier => {
        const value = dec(t.value);
        return { from: dec(t.from), value, percent: percentFactor(value) };
      })
      .sort((a, b) => cmp(a.from, b.from));
    const isDisplay = rule.automatic === 3;
    const indexed = useIndex && !isDisplay && !matching.everyLine;
    if (isDisplay) display.push(order);
    else if (!indexed) everyLine.push(order);
    else {
      for (const code of matching.items ?? []) push(byCode, code, order);
      for (const category of matching.categories ?? []) push(byCategory, category, order);
    }
    return {
      rule,
      order,
      group: rule.action_type,
      matching,
      depends,
      tiers,
      zeroTier: tiers.findLast((t) => cmp(t.from, ZERO) <= 0) ?? null,
      schedule: rule.scheduled === 1 ? compileSchedule(rule) : null,
      posIds: rule.pos.length > 0 ? new Set(rule.pos.map((p) => p.id)) : null,
      display: isDisplay,
      indexed,
      descriptor: describe(rule),
      fixed: noFixedReports(),
    };
  });
  const groups = {} as Record<Group, CompiledRule[]>;
  for (const g of GROUPS) groups[g] = compiled.filter((c) => c.group === g);
  const scratch: IndexScratch = {
    counts: new Uint32Array(compiled.length),
    filled: new Uint32Array(compiled.length),
    start: new Uint32Array(compiled.length),
    lists: new Array<number[] | undefined>(compiled.length).fill(undefined),
    flat: new Uint32Array(256),
    hits: new Uint32Array(256),
    lineEnd: new Uint32Array(64),
    hitCount: 0,
    busy: false,
    lines: newLineScratch(64),
  };
  return {
    rules: compiled,
    byCode,
    byCategory,
    everyLine,
    display,
    groups,
    zones: new Map(),
    scratch,
  };
}

/**
 * Validates raw rules against the fixture's rule schema and compiles them. A bad rule is an
 * `invalid-input` error naming its path (`rules[3].value.type`).
 */
export function prepareRules(rules: unknown): PreparedRules | ErrorResult {
  const parsed = EngineRules.safeParse(rules);
  if (!parsed.success) return rulesError(parsed.error);
  return compileRules(parsed.data);
}

function rulesError(error: z.ZodError): ErrorResult {
  const issue = error.issues[0];
  const path = formatPath(['rules', ...(issue?.path ?? [])]);
  return engineError('invalid-input', issue?.message ?? 'invalid rules', path);
}
