// The offline stand-in limits (sync.md): what one customer may spend offline per day (bonuses
// and special-account money), what the terminal may spend offline in total until the server
// confirms it, and how old the cache may be for offline spending at all. Earning and cash
// sales are always allowed. A refusal names its limit. Pure: figures in, decision out.
import { add, dec, gt, mul, sub, toNumber, ZERO, type Dec } from '../money/index.js';

export interface StandinLimits {
  customer_day_limit: number;
  terminal_total_limit: number;
  max_cache_age_s: number;
}

export type StandinLimit = 'cache-age' | 'customer-day' | 'terminal-total';

export type StandinDecision =
  | { ok: true }
  | {
      ok: false;
      code: 'standin-limit';
      limit: StandinLimit;
      message: string;
      /** What is still available under the limit (money), or the cache age for cache-age. */
      available: number;
    };

export interface StandinInput {
  limits: StandinLimits;
  /** Age of the cache (since the last successful contact); null when unknown. */
  cacheAgeMs: number | null;
  /** What this sale spends. */
  spend: { bonuses: Dec; money: Dec };
  /** Money one bonus is worth (loyalty `bonus_rate`). */
  bonusRate: Dec;
  /** Unconfirmed offline spending so far (ledger.offlineSpending). */
  offline: { terminal: { bonuses: Dec; money: Dec }; customerDay: { bonuses: Dec; money: Dec } };
}

const value = (s: { bonuses: Dec; money: Dec }, rate: Dec): Dec =>
  add(mul(s.bonuses, rate), s.money);

export function checkStandin(i: StandinInput): StandinDecision {
  const spend = value(i.spend, i.bonusRate);
  if (!gt(spend, ZERO)) return { ok: true };
  const maxAgeMs = i.limits.max_cache_age_s * 1000;
  if (i.cacheAgeMs === null || i.cacheAgeMs > maxAgeMs) {
    return {
      ok: false,
      code: 'standin-limit',
      limit: 'cache-age',
      message:
        i.cacheAgeMs === null
          ? 'offline spending needs a known last contact with the central service'
          : `the cache is older than ${i.limits.max_cache_age_s} s: offline spending is not allowed`,
      available: 0,
    };
  }
  const customerLimit = dec(i.limits.customer_day_limit);
  const customerUsed = value(i.offline.customerDay, i.bonusRate);
  if (gt(add(customerUsed, spend), customerLimit)) {
    const left = sub(customerLimit, customerUsed);
    return {
      ok: false,
      code: 'standin-limit',
      limit: 'customer-day',
      message: `over the offline limit per customer per day (${toNumber(customerLimit)})`,
      available: gt(left, ZERO) ? toNumber(left) : 0,
    };
  }
  const terminalLimit = dec(i.limits.terminal_total_limit);
  const terminalUsed = value(i.offline.terminal, i.bonusRate);
  if (gt(add(terminalUsed, spend), terminalLimit)) {
    const left = sub(terminalLimit, terminalUsed);
    return {
      ok: false,
      code: 'standin-limit',
      limit: 'terminal-total',
      message: `over the terminal's offline spending limit (${toNumber(terminalLimit)})`,
      available: gt(left, ZERO) ? toNumber(left) : 0,
    };
  }
  return { ok: true };
}

/** What the limits leave the terminal for offline spending, for the cashier's offline banner. */
export interface StandinAllowance {
  terminal_limit: number;
  /** The terminal total limit minus unconfirmed offline spending; never below 0. */
  terminal_left: number;
  /** When offline spending stops (the cache reaches its maximum age); null with no contact. */
  spending_until_ms: number | null;
}

export function standinAllowance(i: {
  limits: StandinLimits;
  offlineTerminal: { bonuses: Dec; money: Dec };
  bonusRate: Dec;
  sinceContactMs: number | null;
  nowMs: number;
}): StandinAllowance {
  const limit = dec(i.limits.terminal_total_limit);
  const left = sub(limit, value(i.offlineTerminal, i.bonusRate));
  return {
    terminal_limit: toNumber(limit),
    terminal_left: gt(left, ZERO) ? toNumber(left) : 0,
    spending_until_ms:
      i.sinceContactMs === null
        ? null
        : i.nowMs - i.sinceContactMs + i.limits.max_cache_age_s * 1000,
  };
}
