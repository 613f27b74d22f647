// The refund slice's reducer.
import { numberStyle } from '../../i18n.js';
import { typedText } from '../../money.js';
import type { Form, Reducer, State } from '../../state.js';
import { go, withForm, withMessage } from '../frame/state.js';
import {
  initialRefund,
  leftOf,
  withRefunded,
  type RefundEvent,
  type RefundState,
} from './state.js';

function withRefund(state: State, patch: Partial<RefundState>): State {
  return { ...state, refund: { ...state.refund, ...patch } };
}

export const refund: Reducer<RefundEvent> = {
  'refund-open': (state, event) => {
    const refunded =
      event.transactionId && event.refunded
        ? { transactionId: event.transactionId, lines: event.refunded }
        : null;
    const fresh = { ...initialRefund(), refunded };
    const next = withForm(
      { ...state, refund: fresh },
      { 'refund-transaction-id': event.transactionId ?? state.receipt.lastTransactionId ?? '' },
    );
    return go(next, 'refund');
  },
  'refund-loaded': (state, event) => {
    const o = event.output;
    if (o.state !== 'committed') {
      return withMessage(withRefund(state, { sale: null, cancelArmed: false }), {
        kind: 'error',
        key: 'refund.not-found',
      });
    }
    const form: Form = {};
    (o.check.check_items ?? []).forEach((_, i) => (form[`refund-qty-${i}`] = ''));
    const refunded = state.refund.refunded;
    const loaded = { ...initialRefund(), sale: o, refunded };
    return withForm(withMessage({ ...state, refund: loaded }, null), form);
  },
  'refund-all': (state) => {
    const items = state.refund.sale?.check.check_items ?? [];
    const form: Form = {};
    const num = numberStyle(state.settings.language);
    items.forEach((it, i) => {
      form[`refund-qty-${i}`] = typedText(leftOf(state.refund, i, it.quantity), num);
    });
    return withForm(state, form);
  },
  'refund-started': (state, event) =>
    withRefund(state, { refundId: state.refund.refundId ?? event.refundId }),
  'refund-done': (state, event) => {
    // what was just refunded shows as refunded already, and its quantities are not typed twice
    const refund = withRefunded(state.refund, event.lines ?? []);
    const next = withRefund(state, { ...refund, refundId: null, result: event.output });
    const typed: Form = {};
    (state.refund.sale?.check.check_items ?? []).forEach((_, i) => (typed[`refund-qty-${i}`] = ''));
    return withMessage(withForm(next, typed), { kind: 'notice', key: 'refund.done' });
  },
  'refund-failed': (state, event) => {
    const keep = event.error.code === 'unreachable';
    return withMessage(withRefund(state, { refundId: keep ? state.refund.refundId : null }), {
      kind: 'error',
      error: event.error,
    });
  },
  'cancel-arm': (state) =>
    withMessage(withRefund(state, { cancelArmed: true }), {
      kind: 'notice',
      key: 'refund.confirm-cancel',
    }),
  'cancel-disarm': (state) => withRefund(state, { cancelArmed: false }),
  'cancel-done': (state, event) =>
    withMessage(withRefund(state, { cancelled: event.output }), {
      kind: 'notice',
      key: 'refund.cancelled',
    }),
};
