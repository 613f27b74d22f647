// Handlers of paying and of the sale's outcome: the payment screen, the method and the split,
// the answer of `sale-process` or `sale-status`, and starting over.
import { numberStyle } from '../i18n.js';
import { cmp, dec, toFixed, typedText } from '../money.js';
import {
  canPay,
  field,
  isAccountPayment,
  remaining,
  type Handlers,
  type State,
  type Tender,
} from '../state.js';
import {
  committedReceipt,
  fail,
  focusOn,
  go,
  isDec,
  positive,
  receiptOf,
  resetSale,
  showReceipt,
  withDraft,
  withForm,
} from '../update.js';

export const payment = {
  'payment-open': (state, event) => {
    if (!canPay(state) || state.sale.calc.pending) return state;
    const transactionId = state.sale.transactionId ?? event.transactionId;
    const amount = state.sale.calc.check?.amount_to_pay;
    const next = withForm(
      { ...state, sale: { ...state.sale, transactionId } },
      {
        'tender-amount':
          amount === undefined ? '' : typedText(dec(amount), numberStyle(state.language)),
        'cash-given': '',
      },
    );
    return go(next, 'payment');
  },
  'payment-method': (state, event) => {
    const accountId = isAccountPayment(event.method) ? (event.accountId ?? null) : null;
    const payment = { type: event.method, accountId };
    const next = withDraft(state, { ...state.sale.draft, payment });
    return withForm(next, { 'tender-type': event.method === 'bank-card' ? 'bank-card' : 'cash' });
  },
  'tender-add': (state) => {
    const type = field(state, 'tender-type') === 'bank-card' ? 'bank-card' : 'cash';
    const num = numberStyle(state.language);
    const amount = positive(field(state, 'tender-amount'), num);
    if (!isDec(amount)) return fail(state, { 'tender-amount': amount });
    const left = remaining(state);
    if (left !== null && cmp(amount, left) > 0) {
      return fail(state, { 'tender-amount': 'validation.over-remaining' });
    }
    const tenders = [...state.sale.tenders, { type, amount: toFixed(amount) } satisfies Tender];
    const next: State = { ...state, sale: { ...state.sale, tenders }, fieldErrors: {} };
    const rest = remaining(next);
    return withForm(next, { 'tender-amount': rest === null ? '' : typedText(rest, num) });
  },
  'tender-remove': (state, event) => {
    const tenders = state.sale.tenders.filter((_, i) => i !== event.index);
    return { ...state, sale: { ...state.sale, tenders } };
  },
} satisfies Partial<Handlers>;

export const outcome = {
  'sale-done': (state, event) => showReceipt(state, receiptOf(event.result)),
  'sale-failed': (state, event) => {
    if (event.error.code === 'unreachable') {
      // The sale may have been committed: ask before trying again, with the same id.
      return {
        ...state,
        sale: { ...state.sale, outcomeUnknown: true },
        message: { kind: 'warning', key: 'payment.outcome-unknown' },
      };
    }
    // Recorded, but its stored figures cannot be shown: the goods are sold, so the sale
    // ends here; confirming again would sell them twice.
    if (event.error.code === 'sale-unreadable')
      return { ...resetSale(state), message: { kind: 'error', error: event.error } };
    // A definite refusal: the next attempt is a new transaction (a changed body under the
    // same id would be an idempotency conflict).
    return {
      ...state,
      sale: { ...state.sale, transactionId: null, outcomeUnknown: false },
      message: { kind: 'error', error: event.error },
    };
  },
  'sale-id': (state, event) =>
    state.sale.transactionId === null
      ? { ...state, sale: { ...state.sale, transactionId: event.transactionId } }
      : state,
  'sale-status': (state, event) => {
    const o = event.output;
    if (o.state === 'committed') return showReceipt(state, committedReceipt(o));
    // A voided id is spent: confirming again sells under a new transaction id.
    const voided = o.state === 'voided';
    return {
      ...state,
      sale: { ...state.sale, outcomeUnknown: false, ...(voided ? { transactionId: null } : {}) },
      message: { kind: 'notice', key: voided ? 'payment.voided' : 'payment.not-committed' },
    };
  },
  'void-sale': (state) => focusOn(resetSale(state), 'item-code'),
  'new-sale': (state) =>
    go(resetSale({ ...state, sale: { ...state.sale, receipt: null } }), 'sale'),
} satisfies Partial<Handlers>;
