// Paying with bonuses (engine.md 7.2, 7.3, 8, 16): bonus-payment-limit rules set each line's
// percentage, the ceiling is their sum rounded down, and the granted amount is spread over
// lines in proportion to their ceilings. Promotional lots are spent first, earliest expiry
// first, then regular bonuses.
import {
  type Dec,
  ZERO,
  add,
  allocate,
  div,
  fromMinor,
  gt,
  isZero,
  lt,
  max,
  min,
  mul,
  round,
  sub,
  toMinor,
  toNumber,
} from '../money/index.js';
import { mayAct } from './candidates.js';
import { engineError, type ErrorResult } from './errors.js';
import { clamp, num, percentOf, HUNDRED } from './numbers.js';
import type { CompiledRule } from './rule-index.js';
import type { CalcState, SpentPart } from './state.js';
import { evaluate } from './thresholds.js';

/** Access check for a request that pays with bonuses (engine.md 3, 16). */
export function bonusAccessError(s: CalcState): ErrorResult | null {
  if (!s.paysWithBonuses) return null;
  const path = 'check.bonuses_redeemed_amount';
  if (s.access === 'in-black-list')
    return engineError('customer-blocked', 'the customer is blocked', path);
  if (s.access !== 'full-bonuses-access') {
    return engineError(
      'bonus-redeem-not-allowed',
      s.access === 'anonymous'
        ? 'paying with bonuses needs an identified customer'
        : `a customer with ${s.access} may not pay with bonuses`,
      path,
    );
  }
  return null;
}

/** bonus-payment-limit rules: the first applicable rule for a line sets its percentage. */
export function applyPaymentLimits(s: CalcState, rules: readonly CompiledRule[]): void {
  if (!s.paysWithBonuses) return; // a limit means nothing to a check that does not pay with bonuses
  for (const c of rules) {
    if (!mayAct(c, s)) continue;
    const ev = evaluate(c, s, null);
    if (ev.kind === 'skip') continue;
    if (ev.kind === 'report') {
      s.reports.push(ev.report);
      continue;
    }
    const lines = ev.eligible.filter((i) => s.lines[i]!.limitPercent === null);
    if (lines.length === 0) continue;
    const percent = clamp(ev.tier.value, ZERO, HUNDRED);
    for (const i of lines) s.lines[i]!.limitPercent = percent;
    s.reports.push({ compiled: c, applied: true, lines });
  }
}

/** Lots active on the local date (inclusive whole days), earliest expiry first. */
export function activeLots(s: CalcState): { id?: string; expire: string | null; amount: Dec }[] {
  const customer = s.ctx.customer;
  if (!customer) return [];
  const today = s.local().date;
  const lots = customer.bonuses.promotional
    .map((lot, k) => ({ lot, k }))
    .filter(
      ({ lot }) => (!lot.starting || lot.starting <= today) && (!lot.expire || lot.expire >= today),
    )
    .sort((a, b) => {
      const ea = a.lot.expire ?? '9999-12-31';
      const eb = b.lot.expire ?? '9999-12-31';
      return ea < eb ? -1 : ea > eb ? 1 : a.k - b.k;
    });
  return lots.map(({ lot }) => ({
    ...(lot.id !== undefined ? { id: lot.id } : {}),
    expire: lot.expire ?? null,
    amount: num(lot.amount),
  }));
}

/** Bonuses the customer may spend now: regular + active lots - pending, never below 0. */
export function availableBonuses(s: CalcState): Dec {
  const customer = s.ctx.customer;
  if (!customer) return ZERO;
  let total = num(customer.bonuses.regular);
  for (const lot of activeLots(s)) total = add(total, lot.amount);
  return max(ZERO, sub(total, num(s.ctx.pending.bonuses_redeemed)));
}

/** Splits a spend over lots then regular bonuses; pending spends come off first, in the same order. */
export function spendParts(s: CalcState, amount: Dec): SpentPart[] {
  const parts: SpentPart[] = [];
  let skip = num(s.ctx.pending.bonuses_redeemed);
  let left = amount;
  for (const lot of activeLots(s)) {
    let avail = lot.amount;
    const skipped = min(skip, avail);
    skip = sub(skip, skipped);
    avail = sub(avail, skipped);
    const take = min(left, avail);
    if (gt(take, ZERO)) {
      parts.push({
        source: 'promotional',
        ...(lot.id !== undefined ? { id: lot.id } : {}),
        expire: lot.expire,
        amount: take,
      });
      left = sub(left, take);
    }
  }
  if (gt(left, ZERO)) parts.push({ source: 'regular', amount: left });
  return parts;
}

/**
 * Grants the redemption and spreads its money over lines (engine.md 8). In `process` a cap
 * is a refusal (`insufficient-bonuses`); in `calc` it is a warning.
 */
export function redeemBonuses(s: CalcState): ErrorResult | null {
  const { amount: md, bonuses: bd } = s.digits;
  const requested = round(num(s.check.bonuses_redeemed_amount), bd);
  const defaultPercent = num(s.ctx.loyalty.bonus_payment_max_percent);
  let ceilingMoney: Dec = ZERO;
  for (const line of s.lines) {
    line.ceiling = max(
      ZERO,
      percentOf(line.current, line.limitPercent ?? defaultPercent, md, 'down'),
    );
    ceilingMoney = add(ceilingMoney, line.ceiling);
  }
  if (!s.paysWithBonuses) return null;
  const ceiling = div(ceilingMoney, s.bonusRate, bd, 'down');
  const available = availableBonuses(s);
  const granted = min(requested, min(available, ceiling));
  if (lt(granted, requested)) {
    const details = {
      requested: toNumber(requested),
      available: toNumber(available),
      ceiling: toNumber(ceiling),
    };
    if (s.mode === 'process') {
      return engineError(
        'insufficient-bonuses',
        `only ${fmt(granted)} of ${fmt(requested)} bonuses can be redeemed`,
        'check.bonuses_redeemed_amount',
        details,
      );
    }
    s.warnings.push({
      code: 'bonuses-redeemed-capped',
      message: `bonuses redeemed capped at ${fmt(granted)} (requested ${fmt(requested)}, available ${fmt(available)}, ceiling ${fmt(ceiling)})`,
      path: 'check.bonuses_redeemed_amount',
    });
  }
  s.redeemedBonuses = granted;
  s.redeemedMoney = round(mul(granted, s.bonusRate), md);
  if (isZero(granted)) return null;
  const parts = allocate(
    toMinor(s.redeemedMoney, md),
    s.lines.map((l) => toMinor(l.ceiling, md)),
  );
  s.lines.forEach((line, k) => {
    line.redeemed = fromMinor(parts[k] ?? 0n, md);
  });
  s.spent = spendParts(s, granted);
  return null;
}

const fmt = (d: Dec): string => String(toNumber(d));
