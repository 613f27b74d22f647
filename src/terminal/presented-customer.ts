// Who may spend a customer's value: the customer who presented their card, phone or QR at the
// till. A bare `customer_id` is the caller's word (ids are answered by customer-identify and
// printed on records), so a check that spends bonuses or pays from a customer's account
// carries what was presented (`id`, `id_type`), and the till resolves it (docs/terminal.md,
// "The customer presents"). A vehicle's tag names a vehicle, not a person, so it is not
// enough to spend with. Earning and prices still go by `customer_id` alone.
import type { ErrorResponse } from '../contract/commands.js';
import type { EngineCheck } from '../contract/engine.js';
import { dec, gt, ZERO } from '../money/index.js';
import type { Identified } from '../store/cache.js';
import { isAccountType, type IdType } from '../contract/enums.js';
import { refuse } from './command-map.js';

/** The identifiers a person presents (a vehicle's do not count). */
const PERSON_IDS: readonly string[] = ['card', 'phone', 'qr', 'email', 'external-id'];

/** The field through which a check spends what a customer owns, or null when it spends none. */
export function spendingField(check: EngineCheck): string | null {
  if (gt(dec(check.bonuses_redeemed_amount ?? 0), ZERO)) return 'check.bonuses_redeemed_amount';
  if (isAccountType(check.payment_type)) return 'check.payment_type';
  const part = (check.payments ?? []).findIndex((p) => isAccountType(p.type));
  return part >= 0 ? `check.payments[${part}].type` : null;
}

/** The person identifier on the check, or null (none, or a vehicle's). */
function personId(check: EngineCheck): { id: string; type: IdType } | null {
  if (!check.id || !check.id_type || !PERSON_IDS.includes(check.id_type)) return null;
  return { id: check.id, type: check.id_type as IdType };
}

/**
 * The check with its customer as presented: refused when it spends a customer's value and
 * that customer was not presented (no person identifier, an unknown one, another customer's
 * than `customer_id`); naming the presented customer when it names none. The identifier is
 * looked up once, and only when it decides something.
 */
export function withPresentedCustomer(
  check: EngineCheck,
  identify: (id: string, idType: IdType) => Identified,
): { check: EngineCheck } | { error: ErrorResponse } {
  const spends = spendingField(check);
  const person = personId(check);
  if (spends && !person)
    return {
      error: refuse(
        'customer-not-presented',
        "scan the customer's card (or enter their phone or QR code): paying with their bonuses or account needs it",
        'check.id',
        { spends },
      ),
    };
  if (!person || (!spends && check.customer_id)) return { check };
  const presented = identify(person.id, person.type).customer?.id ?? null;
  if (spends && !presented)
    return {
      error: refuse(
        'customer-not-found',
        'no customer has this card, phone or QR code',
        'check.id',
      ),
    };
  if (spends && check.customer_id !== undefined && check.customer_id !== presented)
    return {
      error: refuse(
        'customer-mismatch',
        'this is not the customer whose card was presented: identify the customer again',
        'check.customer_id',
      ),
    };
  return { check: presented && !check.customer_id ? { ...check, customer_id: presented } : check };
}
