// A fleet or account prepay capped by what the account allows (docs/forecourt.md, "Prepay
// capped by limits"): the driver asks for more fuel than the account's funds or a limit leave
// (a full tank on a day limit half used). Instead of refusing, the prepay is authorised for the
// money the engine says is left, by amount, so the pump is preset to stop there; the answer
// says so (`prepay-capped`). The line's quantity becomes what that money buys at the list price:
// the engine's discounted unit price is (prepaid - D) / the request's quantity (engine.md 12),
// so a quantity left at what the asked-for amount bought spread the shortfall over the litres
// as a discount (150.00 for 120.55 l of diesel sold 123.967 l, 205.66 worth). Only a prepay of one fuel line is capped: with several lines,
// which one to cut is the cashier's choice.
import type { EngineCheck } from '../contract/engine.js';
import type { Warning } from '../contract/commands.js';
import { dec, div, toFixed, toNumber } from '../money/index.js';

const CAPPED_BY = new Set(['limit-exceeded', 'insufficient-funds']);

/** The engine's limits (special-accounts.ts) in a cashier's words. */
const LIMIT_WORDS: Record<string, string> = {
  day: "the account's day limit",
  month: "the account's month limit",
  'user-day': "the driver's day limit",
  'user-month': "the driver's month limit",
  'user-overall': "the driver's overall limit",
};
const FUNDS = "the account's balance";
const limitWords = (name: string): string => LIMIT_WORDS[name] ?? `the account's ${name} limit`;

/** The prepay to compute again, capped at what the account allows; null when it cannot be. */
export function cappedPrepay(
  check: EngineCheck,
  error: { code: string; details?: Record<string, unknown> | undefined },
): { check: EngineCheck; warning: Warning } | null {
  if (!CAPPED_BY.has(error.code)) return null;
  const details = (error.details ?? {}) as { available?: unknown; limit?: unknown };
  const available = details.available;
  const lines = check.check_items ?? [];
  if (typeof available !== 'number' || available <= 0 || lines.length !== 1) return null;
  const why = typeof details.limit === 'string' ? limitWords(details.limit) : FUNDS;
  return {
    check: {
      ...check,
      check_items: [
        {
          ...lines[0]!,
          quantity: quantityFor(lines[0]!, available),
          amount: available,
          quantity_recalculate_type: 'recalculate-by-amount',
        },
      ],
    },
    warning: {
      code: 'prepay-capped',
      message: `${why} leaves ${toFixed(dec(available), 2)}: the pump is preset to stop there`,
      path: 'check.check_items[0].amount',
    },
  };
}

/** The units `amount` buys at the line's list price; the request's quantity without a price. */
function quantityFor(
  line: NonNullable<EngineCheck['check_items']>[number],
  amount: number,
): number {
  const price = line.price;
  if (price === undefined || price <= 0) return line.quantity;
  return toNumber(div(dec(amount), dec(price), line.quantity_decimal_digits ?? 3));
}
