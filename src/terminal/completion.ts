// A pump completion is the sale its authorisation began (docs/terminal.md, "Fuel"): who pays
// and how were decided, and checked, when the pump was authorised (cash taken up front, a
// card pre-authorised, an account's PIN verified). The completion keeps them: a caller may
// repeat them, never change them. Otherwise a cash prepay could be completed from a fleet
// account (debited, and the prepaid cash still "given back"), or a card's pre-authorisation
// left standing while the sale is booked to another means.
import type { ErrorResponse, HandlerInput } from '../contract/commands.js';
import type { EngineCheck, EngineCheckResult, EngineError } from '../contract/engine.js';
import { dec, eq, gt, min, toNumber } from '../money/index.js';
import { refuse } from './command-map.js';
import type { PinLocked } from './pin-attempts.js';

const CODE = 'completion-differs';

/** The payment type an authorisation was made with (none named: cash, as it was taken). */
function authorisedPaymentType(authorised: EngineCheckResult): string {
  return authorised.payment_type ?? 'cash';
}

/** The authorisation's customer: the one its engine run resolved, or nobody. */
function authorisedCustomer(authorised: EngineCheckResult): string | null {
  return authorised.customer_id ?? null;
}

/** Whether the caller named a customer by an identifier the engine resolves. */
function namesCustomerById(check: EngineCheck): boolean {
  return check.id !== undefined || check.corporate_vehicle !== undefined;
}

/**
 * The completion with its authorisation's payment type, account and customer filled in, or
 * a refusal naming the first field the caller sent that differs from them.
 */
export function keptFromAuthorisation(
  check: EngineCheck,
  authorised: EngineCheckResult,
): { check: EngineCheck } | { error: ErrorResponse } {
  const type = authorisedPaymentType(authorised);
  const differs = (path: string, what: string, was: unknown) => ({
    error: refuse(CODE, `a completion keeps its authorisation's ${what}`, `check.${path}`, {
      authorised: was ?? null,
    }),
  });
  if (check.payment_type !== undefined && check.payment_type !== type)
    return differs('payment_type', `payment type (${type})`, type);
  for (const [i, p] of (check.payments ?? []).entries())
    if (p.type !== type) return differs(`payments[${i}].type`, `payment type (${type})`, type);
  // A card's payment id is its pre-authorisation's booking, made by the terminal.
  const account = authorised.payment_id;
  if (type !== 'bank-card' && check.payment_id !== undefined && check.payment_id !== account)
    return differs('payment_id', 'account', account);
  // Bonuses spent beyond the authorisation's would come back as cash change.
  const spent = authorised.bonuses_redeemed_amount ?? 0;
  const spend = check.bonuses_redeemed_amount;
  if (spend !== undefined && gt(dec(spend), dec(spent)))
    return differs('bonuses_redeemed_amount', `bonus spend (at most ${spent})`, spent);
  const customer = authorisedCustomer(authorised);
  if (check.customer_id !== undefined && check.customer_id !== customer)
    return differs('customer_id', 'customer', customer);
  const corporate = authorised.corporate_customer_id ?? null;
  if (check.corporate_customer_id !== undefined && check.corporate_customer_id !== corporate)
    return differs('corporate_customer_id', 'customer', corporate);
  return {
    check: {
      ...check,
      payment_type: type as EngineCheck['payment_type'],
      ...(spend === undefined && spent > 0 ? { bonuses_redeemed_amount: spent } : {}),
      ...(type !== 'bank-card' && account !== undefined ? { payment_id: account } : {}),
      ...(customer !== null && !namesCustomerById(check) ? { customer_id: customer } : {}),
      ...(corporate !== null && !namesCustomerById(check)
        ? { corporate_customer_id: corporate }
        : {}),
    },
  };
}

/**
 * After the engine resolved the completion's customer (an identifier the caller typed): it
 * must be the authorisation's. Null when it is.
 */
export function sameCustomer(
  check: EngineCheck,
  resolved: string | null,
  authorised: EngineCheckResult,
): ErrorResponse | null {
  const customer = authorisedCustomer(authorised);
  if (resolved === customer) return null;
  const path = check.id !== undefined ? 'check.id' : 'check.customer_id';
  return refuse(CODE, "a completion keeps its authorisation's customer", path, {
    authorised: customer,
  });
}

type SentLine = NonNullable<HandlerInput<'sale-process'>['check']['check_items']>[number];

/**
 * The authorised lines keep their goods and price: the caller reports what was dispensed, not
 * what it cost (9.8 l at 0.01 would leave most of a cash prepay to "give back"). A price
 * sent again must be the authorised one; the authorised price is used either way (a price
 * pulled since the authorisation is not the one the customer paid for). Null when all agree.
 */
export function linesDiffer(
  sent: readonly SentLine[] | undefined,
  authorised: EngineCheckResult,
): ErrorResponse | null {
  const was = authorised.check_items ?? [];
  for (const [i, line] of (sent ?? []).entries()) {
    const a = was[i];
    if (!a) continue;
    const at = `check.check_items[${i}]`;
    if (line.code !== a.code)
      return refuse(CODE, "a completion keeps its authorisation's goods", `${at}.code`, {
        authorised: a.code,
      });
    if (line.price !== undefined && (a.price === undefined || !eq(dec(line.price), dec(a.price))))
      return refuse(CODE, "a completion keeps its authorisation's price", `${at}.price`, {
        authorised: a.price ?? null,
      });
  }
  return null;
}

/** A completion line with its authorised price (and the digits it was typed with). */
export function withAuthorisedPrice<L extends { price?: number; price_decimal_digits?: number }>(
  line: L,
  authorised: { price?: number | undefined; price_decimal_digits?: number | undefined } | undefined,
): L {
  if (authorised?.price === undefined) return line;
  return {
    ...line,
    price: authorised.price,
    ...(authorised.price_decimal_digits !== undefined
      ? { price_decimal_digits: authorised.price_decimal_digits }
      : {}),
  };
}

/**
 * The fuel is in the tank: when fewer litres than authorised lower the ceiling below the
 * authorised bonus spend, the completion spends what it can (the engine's figure) instead of
 * refusing. The check to compute again, or null when the refusal is another one.
 */
export function cappedSpend(
  check: EngineCheck,
  error: EngineError | PinLocked,
): EngineCheck | null {
  if (error.code !== 'insufficient-bonuses') return null;
  const d = (error.details ?? {}) as { available?: unknown; ceiling?: unknown };
  if (typeof d.available !== 'number' || typeof d.ceiling !== 'number') return null;
  const can = toNumber(min(dec(d.available), dec(d.ceiling)));
  return { ...check, bonuses_redeemed_amount: can };
}
