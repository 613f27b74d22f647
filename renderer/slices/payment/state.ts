// Paying the sale: the transaction id (made before the first attempt, kept for every retry),
// the parts of a split, and whether `sale-process` went unanswered. The method and account
// are the draft's (sale slice): the engine prices for them.
import { numberStyle } from '../../i18n.js';
import { ZERO, add, cmp, parseTyped, sub, type Dec } from '../../money.js';
import type { State } from '../../state.js';
import type { ErrorBody, SaleResult, SaleStatus, TransactionPaymentType } from '../../types.js';
import { field } from '../frame/state.js';
import { amountDue } from '../sale/state.js';

export const PAYMENT_TYPES: readonly TransactionPaymentType[] = [
  'cash',
  'bank-card',
  'special-account',
  'corporate-special-account',
];

/** One part of a split payment; `amount` is exact decimal text. */
export interface Tender {
  type: 'cash' | 'bank-card';
  amount: string;
}

export interface PaymentState {
  /** Made before the first attempt, kept for every retry (sync.md). */
  transactionId: string | null;
  tenders: Tender[];
  /** `sale-process` got no answer: ask `sale-status` before anything else. */
  outcomeUnknown: boolean;
}

export type PaymentField =
  | 'pin'
  | 'odometer'
  | 'odometer-unit'
  | 'vehicle-id'
  | 'tender-type'
  | 'tender-amount'
  | 'cash-given';

/** Where the payment screen shows an error that belongs to no one field. */
export type PaymentTarget = 'payment-confirm' | 'payment-account';

export const PAYMENT_FORM = {
  'odometer-unit': 'km',
  'tender-type': 'cash',
} as const satisfies Partial<Record<PaymentField, string>>;

/** The payment's fields once a sale is over. */
export const PAYMENT_FORM_CLEARED = {
  pin: '',
  odometer: '',
  'vehicle-id': '',
  'cash-given': '',
  'tender-amount': '',
} as const satisfies Partial<Record<PaymentField, string>>;

export function initialPayment(): PaymentState {
  return { transactionId: null, tenders: [], outcomeUnknown: false };
}

/** What the customer pays changed: a split taken so far no longer holds. */
export function withoutTenders(payment: PaymentState): PaymentState {
  return payment.tenders.length === 0 ? payment : { ...payment, tenders: [] };
}

export type PaymentEvent =
  | { type: 'payment-open'; transactionId: string }
  /** A method; an account payment takes the customer's account when there is exactly one. */
  | { type: 'payment-method'; method: TransactionPaymentType }
  | { type: 'payment-account'; accountId: string }
  | { type: 'tender-add' }
  | { type: 'tender-remove'; index: number }
  | { type: 'sale-done'; result: SaleResult }
  | { type: 'sale-failed'; error: ErrorBody }
  /** A fresh transaction id for a sale that has none (after a refusal): the retry's. */
  | { type: 'sale-id'; transactionId: string }
  | { type: 'sale-status'; output: SaleStatus };

// ---- selectors ----

/** Due minus the tenders taken so far; null while no calculation is there. */
export function remaining(state: State): Dec | null {
  const due = amountDue(state);
  if (due === null) return null;
  let left = due;
  for (const t of state.payment.tenders) {
    const d = parseTyped(t.amount);
    if (d) left = sub(left, d);
  }
  return left;
}

/** Change for the cash the customer handed over, when it covers the cash part. */
export function change(state: State): Dec | null {
  const given = parseTyped(field(state, 'cash-given'), numberStyle(state.settings.language));
  if (given === null) return null;
  const cashDue = cashPart(state);
  if (cashDue === null) return null;
  const c = sub(given, cashDue);
  return cmp(c, ZERO) < 0 ? null : c;
}

/** The cash part of what is due: the split's cash parts, or all of a cash sale; else null. */
export function cashPart(state: State): Dec | null {
  const { tenders } = state.payment;
  const cash = tenders.filter((t) => t.type === 'cash');
  let cashDue: Dec | null = null;
  if (cash.length > 0) {
    cashDue = ZERO;
    for (const t of cash) {
      const d = parseTyped(t.amount);
      if (d) cashDue = add(cashDue, d);
    }
  } else if (tenders.length === 0 && state.sale.draft.payment.type === 'cash') {
    cashDue = amountDue(state);
  }
  return cashDue;
}
