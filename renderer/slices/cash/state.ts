// Cash at the till outside a sale: paid in (change from the bank, a float top-up) and paid
// out (a bank deposit, a small expense) with the reason (`cash-movement`). The movements of
// the shift, its X report and its close (with the cash counted, over or short, and the Z
// report) are the report slice's.
import type { CashMovement } from '../../types.js';

export type CashKind = CashMovement['kind'];

export interface CashState {
  /** The movement this screen recorded last. */
  last: CashMovement | null;
  /**
   * The idempotency key of the movement being recorded: made at the first press, kept while
   * it has no answer (a press again after a lost answer is the same movement, recorded once),
   * dropped when the movement is recorded.
   */
  key: string | null;
}

export type CashField = 'cash-kind' | 'cash-amount' | 'cash-reason';

/** The fields' first values. */
export const CASH_FORM = { 'cash-kind': 'paid-in' } as const;

export function initialCash(): CashState {
  return { last: null, key: null };
}

export type CashEvent =
  { type: 'cash-moved'; movement: CashMovement } | { type: 'cash-key'; key: string };

/** The field a refusal's `path` names, where the cashier fixes it. */
export function cashFieldOf(path: string | undefined): CashField | null {
  if (path === 'amount') return 'cash-amount';
  if (path === 'reason') return 'cash-reason';
  return null;
}
