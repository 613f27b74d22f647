// The processed check as it was paid: the engine computed it before the tender was settled,
// so the tender (payment type, card operation ids, the split) comes from the check as paid.
// Checkout records this and the receipt prints it: one definition for both.
import type { EngineCheck, EngineCheckResult } from '../contract/engine.js';

/** The processed check with the tender of the check as paid (its card operations' ids). */
export function withTender(processed: EngineCheckResult, paid: EngineCheck): EngineCheckResult {
  return {
    ...processed,
    ...(paid.payment_type !== undefined ? { payment_type: paid.payment_type } : {}),
    ...(paid.payment_id !== undefined ? { payment_id: paid.payment_id } : {}),
    ...(paid.payments !== undefined ? { payments: paid.payments } : {}),
  };
}
