// Paying with bonuses (engine.md 7.2, 7.3, 8, 16): bonus-payment-limit rules set each line's
// percentage, the ceiling is their sum rounded down, and the granted amount is spread over
// lines in proportion to their ceilings. Promotional lots are spent first, earliest expiry
// first, then regular bonuses.
import {
  type Dec,
  ZERO,
  add,
  allocate,
  allocateSmall,
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
import { isCandidate } from './candidates.js';
import { engineError, type ErrorResult } from './errors.js';
import { allocationScratch } from './discounts.js';
import { clamp, num, percentOf, percentDenominator, HUNDRED } from './numbers.js';
import type { CompiledRule } from './rule-index.js';
import type { CalcState, SpentPart } from './state.js';
import { evaluate, fixedReport } from './thresholds.js';

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

/**
 * bonus-payment-limit rules: the first applicable rule for a line sets its percentage. They
 * are evaluated whether or not the check pays with bonuses (engine.md 17.9): the lines they
 * set say what the customer could pay; a rule whose lines all have a limit: lines-taken.
 */
export function applyPaymentLimits(s: CalcState, rules: readonly CompiledRule[]): void {
  for (const c of rules) {
    if (!isCandidate(c, s)) continue;
    const ev = evaluate(c, s, null);
    if (ev.kind === 'report') {
      s.reports.push(ev.report);
      continue;
    }
    const lines = ev.eligible.filter((i) => s.lines[i]!.limitPercent === null);
    if (lines.length === 0) {
      s.reports.push(fixedReport(c, 'lines-taken'));
      continue;
    }
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
  if (!s.paysWithBonuses) return null; // the ceilings mean nothing to it
  const scratch = allocationScratch(s);
  const wide = lineCeilings(s, scratch.weights);
  const ceiling = div(ceilingMoney(s, wide), s.bonusRate, bd, 'down');
  // Balances are exact; what a redemption may take of them is whole bonus units (17.2).
  const available = round(availableBonuses(s), bd, 'down');
  const granted = min(requested, min(available, ceiling));
  if (lt(granted, requested)) {
    const refused = capped(s, requested, available, ceiling, granted);
    if (refused) return refused;
  }
  s.redeemedBonuses = granted;
  s.redeemedMoney = round(mul(granted, s.bonusRate), md);
  if (isZero(granted)) return null;
  spreadRedeemed(s, scratch, wide);
  s.spent = spendParts(s, granted);
  return null;
}

/**
 * Each line's ceiling (money bonuses may pay on it, rounded down) in minor units at money
 * digits: in `ceilings`, the check's scratch (no heap BigInt each), summed in s.acc[0], while
 * its amount is in its slot and below 2^31 and so are its percentage's units (products below
 * 2^62); once a line is outside that, every ceiling in the list returned, as bigints (null:
 * none outside).
 */
function lineCeilings(s: CalcState, ceilings: BigInt64Array): bigint[] | null {
  const md = s.digits.amount;
  const defaultPercent = num(s.ctx.loyalty.bonus_payment_max_percent);
  const n = s.lines.length;
  const slots = s.current;
  const acc = s.acc;
  acc[0] = 0n;
  let wide: bigint[] | null = null;
  for (let i = 0; i < n; i++) {
    const line = s.lines[i]!;
    const p = line.limitPercent ?? defaultPercent;
    if (wide === null && n < FEW_LINES && line.wide === null && p.units >= 0n && p.units < SMALL) {
      const current = slots[i]!;
      if (current >= 0n && current < SMALL) {
        // percentOf(current, p, md, 'down'): floor(u x p.units / (100 x 10^p.scale))
        const c = BigInt.asIntN(
          64,
          BigInt.asIntN(64, current * p.units) / percentDenominator(p.scale),
        );
        ceilings[i] = c;
        acc[0] = BigInt.asIntN(64, acc[0]! + c);
        continue;
      }
    }
    if (wide === null) {
      wide = new Array<bigint>(n);
      for (let k = 0; k < i; k++) wide[k] = ceilings[k]!;
    }
    wide[i] = max(ZERO, percentOf(line.current, p, md, 'down')).units; // at money digits
  }
  return wide;
}

/** The sum of the lines' ceilings (lineCeilings), in money. */
function ceilingMoney(s: CalcState, wide: readonly bigint[] | null): Dec {
  const md = s.digits.amount;
  if (wide === null) return fromMinor(s.acc[0]!, md);
  let total = 0n;
  for (const c of wide) total += c;
  return fromMinor(total, md);
}

/** A redemption below the request: refused in `process`, a warning in `calc`. */
function capped(
  s: CalcState,
  requested: Dec,
  available: Dec,
  ceiling: Dec,
  granted: Dec,
): ErrorResult | null {
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
  return null;
}

/** Spreads the redeemed money over the lines by their ceilings; a line that gets nothing keeps ZERO. */
function spreadRedeemed(
  s: CalcState,
  scratch: { readonly weights: BigInt64Array; readonly work: BigInt64Array },
  wide: readonly bigint[] | null,
): void {
  const md = s.digits.amount;
  const n = s.lines.length;
  const ceilings = scratch.weights;
  const total = toMinor(s.redeemedMoney, md);
  if (wide === null && allocateSmall(total, ceilings, n, scratch.work)) {
    for (let i = 0; i < n; i++) {
      const part = scratch.work[i]!;
      if (part !== 0n) s.lines[i]!.redeemed = fromMinor(part, md);
    }
  } else {
    const parts = allocate(total, wide ?? Array.from(ceilings.subarray(0, n)));
    for (let i = 0; i < n; i++) {
      const part = parts[i]!;
      if (part !== 0n) s.lines[i]!.redeemed = fromMinor(part, md);
    }
  }
}

const fmt = (d: Dec): string => String(toNumber(d));

const SMALL = 2n ** 31n;
const FEW_LINES = 1024;
