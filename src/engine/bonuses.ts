// The bonuses group (engine.md 7.4, 14, 16): rules credit regular or promotional bonuses, or
// cashback in money to a special account, after the sale. The base of a line is its amount
// after discounts, less what bonuses paid on it when that does not count.
import type { EngineRule } from '../contract/engine.js';
import {
  type Dec,
  ZERO,
  add,
  allocate,
  div,
  fromMinor,
  gt,
  mul,
  round,
  toMinor,
} from '../money/index.js';
import { mayAct } from './candidates.js';
import { touch, unitLimit } from './discounts.js';
import { cover, type Covered } from './matching.js';
import { HUNDRED, mulDiv, wire } from './numbers.js';
import type { CompiledRule, Tier } from './rule-index.js';
import { addDays, addMonths } from './schedule.js';
import type { CalcState } from './state.js';
import { baseAmount, evaluate, newGroupState, type GroupState } from './thresholds.js';

/** Whether this check may earn bonuses at all (engine.md 3). */
export function earnsBonuses(s: CalcState): boolean {
  return s.identified && s.access !== 'in-black-list';
}

/** Credits of one rule per covered line: bonuses, or money for special-account cashback. */
export function creditsFor(
  c: CompiledRule,
  s: CalcState,
  tier: Tier,
  covered: readonly Covered[],
  group: GroupState,
): Dec[] {
  const cashback = c.rule.charge_type === 'special-account';
  const digits = cashback ? s.digits.special : s.digits.bonuses;
  const v = tier.value;
  // The base of the covered units: exact, rounded once where it is used.
  const bases = covered.map((cv) => {
    const base = baseAmount(c, s, cv.line.index, group);
    return cv.whole ? base : mulDiv(base, cv.covered, cv.units, s.digits.amount);
  });
  switch (c.rule.value!.type) {
    case 'percentage': {
      const divisor = cashback ? HUNDRED : mul(HUNDRED, s.bonusRate); // (base x v / 100) / rate
      return bases.map((b) => div(mul(b, v), divisor, digits));
    }
    case 'amount-per-unit':
      return covered.map((cv) => round(mul(v, cv.covered), digits));
    case 'amount': {
      const parts = allocate(
        toMinor(round(v, digits), digits),
        bases.map((b) => toMinor(b, s.digits.amount)),
      );
      return parts.map((p) => fromMinor(p, digits));
    }
    default:
      return covered.map(() => ZERO); // `price` has no meaning here; the schema refuses it
  }
}

/** Starting and expiry dates of promotional bonuses credited by a rule (engine.md 14, 16). */
export function promotionalDates(
  rule: EngineRule,
  saleDate: string,
): { starting: string; expire: string | null } {
  let starting = saleDate;
  if (rule.promotional_bonuses_starting_type === 'days') {
    starting = addDays(saleDate, rule.promotional_bonuses_starting_value ?? 0);
  } else if (
    rule.promotional_bonuses_starting_type === 'date' &&
    rule.promotional_bonuses_starting_date
  ) {
    starting = rule.promotional_bonuses_starting_date;
  }
  let expire: string | null;
  const value = rule.promotional_bonuses_expire_value ?? 0;
  switch (rule.promotional_bonuses_expire_type) {
    case 'days':
      expire = addDays(starting, value);
      break;
    case 'months':
      expire = addMonths(starting, value);
      break;
    case 'date':
      expire = rule.promotional_bonuses_expire_date ?? null;
      break;
    default:
      expire = null;
  }
  return { starting, expire };
}

export function applyBonuses(s: CalcState, rules: readonly CompiledRule[]): void {
  if (!earnsBonuses(s)) return;
  const group = newGroupState(s.lines.length, true);
  for (const c of rules) {
    if (!mayAct(c, s)) continue;
    const ev = evaluate(c, s, group);
    if (ev.kind === 'skip') continue;
    if (ev.kind === 'report') {
      s.reports.push(ev.report);
      continue;
    }
    const covered = cover(c, s, ev.eligible, unitLimit(c));
    if (covered.length === 0) continue;
    const credits = creditsFor(c, s, ev.tier, covered, group);
    const cashback = c.rule.charge_type === 'special-account';
    let total: Dec = ZERO;
    const lines: number[] = [];
    covered.forEach((cv, k) => {
      const credit = credits[k]!;
      total = add(total, credit);
      if (!cashback) cv.line.bonusesAdded = add(cv.line.bonusesAdded, credit);
      if (c.rule.item_zero_quantity_as_one_quantity === 1) cv.line.zeroAsOne = true;
      lines.push(cv.line.index);
    });
    touch(group, c, lines);
    s.reports.push({ compiled: c, applied: true, amount: total, lines });
    if (!gt(total, ZERO)) continue;
    if (cashback) {
      const account = s.ctx.special_accounts.find((a) => a.id === c.rule.special_account_id);
      const currency = account?.currency ?? s.currency;
      s.charges.push({
        special_account_id: c.rule.special_account_id!,
        amount: wire(total, s.digits.special),
        ...(currency !== undefined ? { currency } : {}),
        decimal_digits: s.digits.special,
        direction: 'credit',
      });
    } else {
      const entry: CalcState['bonusesAdded'][number] = {
        amount: wire(total, s.digits.bonuses),
        object_id: c.rule.id.slice(0, 36),
        object_type: 'loyalty-rule',
      };
      if (c.rule.charge_type === 'promotional-bonuses') {
        const { starting, expire } = promotionalDates(c.rule, s.local().date);
        entry.starting = starting;
        if (expire !== null) entry.expire = expire;
      }
      s.bonusesAdded.push(entry);
    }
  }
}
