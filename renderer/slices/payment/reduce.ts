// The payment slice's reducer: opening the payment, the method and the split, and the answer
// of `sale-process` or `sale-status` (a committed sale shows its receipt).
import { numberStyle } from '../../i18n.js';
import { cmp, dec, toFixed, typedText } from '../../money.js';
import { isDec, positive } from '../../requests.js';
import type { Reducer, State } from '../../state.js';
import { fail, field, go, withForm, withMessage } from '../frame/state.js';
import { committedReceipt, receiptOf, withReceipt, type Receipt } from '../receipt/state.js';
import { freshSale, withDraft } from '../sale/reduce.js';
import { accountsFor, canPay, isAccountPayment } from '../sale/state.js';
import { remaining, type PaymentEvent, type PaymentState, type Tender } from './state.js';

function withPayment(state: State, patch: Partial<PaymentState>): State {
  return { ...state, payment: { ...state.payment, ...patch } };
}

/** A committed sale: a fresh sale behind it, its receipt on the screen. */
function showReceipt(state: State, receipt: Receipt): State {
  return go(withReceipt(freshSale(withMessage(state, null)), receipt), 'receipt');
}

export const payment: Reducer<PaymentEvent> = {
  'payment-open': (state, event) => {
    if (!canPay(state) || state.sale.calc.pending) return state;
    const transactionId = state.payment.transactionId ?? event.transactionId;
    const amount = state.sale.calc.check?.amount_to_pay;
    const next = withForm(withPayment(state, { transactionId }), {
      'tender-amount':
        amount === undefined ? '' : typedText(dec(amount), numberStyle(state.settings.language)),
      'cash-given': '',
    });
    return go(next, 'payment');
  },
  'payment-method': (state, { method }) => {
    const accounts = accountsFor(state.sale.draft.customer, method);
    const only = isAccountPayment(method) && accounts.length === 1 ? accounts[0]! : null;
    const next = withDraft(state, {
      ...state.sale.draft,
      payment: { type: method, accountId: only?.id ?? null },
    });
    return withForm(next, { 'tender-type': method === 'bank-card' ? 'bank-card' : 'cash' });
  },
  'payment-account': (state, { accountId }) => {
    const { type } = state.sale.draft.payment;
    if (!isAccountPayment(type)) return state;
    return withDraft(state, { ...state.sale.draft, payment: { type, accountId } });
  },
  'tender-add': (state) => {
    const type = field(state, 'tender-type') === 'bank-card' ? 'bank-card' : 'cash';
    const num = numberStyle(state.settings.language);
    const amount = positive(field(state, 'tender-amount'), num);
    if (!isDec(amount)) return fail(state, { 'tender-amount': amount });
    const left = remaining(state);
    if (left !== null && cmp(amount, left) > 0) {
      return fail(state, { 'tender-amount': 'validation.over-remaining' });
    }
    const tender: Tender = { type, amount: toFixed(amount) };
    const next = {
      ...withPayment(state, { tenders: [...state.payment.tenders, tender] }),
      fieldErrors: {},
    };
    const rest = remaining(next);
    return withForm(next, { 'tender-amount': rest === null ? '' : typedText(rest, num) });
  },
  'tender-remove': (state, event) =>
    withPayment(state, { tenders: state.payment.tenders.filter((_, i) => i !== event.index) }),
  'sale-done': (state, event) => showReceipt(state, receiptOf(event.result)),
  'sale-failed': (state, event) => {
    if (event.error.code === 'unreachable') {
      // The sale may have been committed: ask before trying again, with the same id.
      return withMessage(withPayment(state, { outcomeUnknown: true }), {
        kind: 'warning',
        key: 'payment.outcome-unknown',
      });
    }
    // Recorded, but its stored figures cannot be shown: the goods are sold, so the sale
    // ends here; confirming again would sell them twice.
    if (event.error.code === 'sale-unreadable')
      return withMessage(freshSale(state), { kind: 'error', error: event.error });
    // A definite refusal: the next attempt is a new transaction (a changed body under the
    // same id would be an idempotency conflict).
    return withMessage(withPayment(state, { transactionId: null, outcomeUnknown: false }), {
      kind: 'error',
      error: event.error,
    });
  },
  'sale-id': (state, event) =>
    state.payment.transactionId === null
      ? withPayment(state, { transactionId: event.transactionId })
      : state,
  'sale-status': (state, event) => {
    const o = event.output;
    if (o.state === 'committed') return showReceipt(state, committedReceipt(o));
    // A voided id is spent: confirming again sells under a new transaction id.
    const voided = o.state === 'voided';
    return withMessage(
      withPayment(state, { outcomeUnknown: false, ...(voided ? { transactionId: null } : {}) }),
      { kind: 'notice', key: voided ? 'payment.voided' : 'payment.not-committed' },
    );
  },
};
