// Handlers of the screens beside the sale: refunds and cancellations, the attention list,
// the shift report and its closing, payment recovery.
import { numberStyle } from '../i18n.js';
import { dec, typedText } from '../money.js';
import type { Handlers, State } from '../state.js';
import { go, withForm } from '../update.js';

const noRefund: State['refund'] = { sale: null, refundId: null, result: null, cancelled: null };

export const refund = {
  'refund-open': (state, event) => {
    const next = withForm(
      { ...state, refund: noRefund },
      { 'refund-transaction-id': event.transactionId ?? state.sale.lastTransactionId ?? '' },
    );
    return go(next, 'refund');
  },
  'refund-loaded': (state, event) => {
    const o = event.output;
    if (o.state !== 'committed') {
      return {
        ...state,
        refund: { ...state.refund, sale: null },
        message: { kind: 'error', key: 'refund.not-found' },
      };
    }
    const form: Record<string, string> = {};
    (o.check.check_items ?? []).forEach((_, i) => (form[`refund-qty-${i}`] = ''));
    return withForm({ ...state, refund: { ...noRefund, sale: o }, message: null }, form);
  },
  'refund-all': (state) => {
    const items = state.refund.sale?.check.check_items ?? [];
    const form: Record<string, string> = {};
    const num = numberStyle(state.language);
    items.forEach((it, i) => (form[`refund-qty-${i}`] = typedText(dec(it.quantity), num)));
    return withForm(state, form);
  },
  'refund-started': (state, event) => ({
    ...state,
    refund: { ...state.refund, refundId: state.refund.refundId ?? event.refundId },
  }),
  'refund-done': (state, event) => ({
    ...state,
    refund: { ...state.refund, refundId: null, result: event.output },
    message: { kind: 'notice', key: 'refund.done' },
  }),
  'refund-failed': (state, event) => {
    const keep = event.error.code === 'unreachable';
    return {
      ...state,
      refund: { ...state.refund, refundId: keep ? state.refund.refundId : null },
      message: { kind: 'error', error: event.error },
    };
  },
  'cancel-done': (state, event) => ({
    ...state,
    refund: { ...state.refund, cancelled: event.output },
    message: { kind: 'notice', key: 'refund.cancelled' },
  }),
} satisfies Partial<Handlers>;

export const attention = {
  'attention-loaded': (state, event) => ({
    ...state,
    attention: { ...state.attention, items: event.items, loaded: true },
  }),
  'attention-toggle-resolved': (state) => ({
    ...state,
    attention: { ...state.attention, includeResolved: !state.attention.includeResolved },
  }),
  'attention-resolved': (state, event) => {
    const items = state.attention.includeResolved
      ? state.attention.items.map((i) => (i.id === event.item.id ? event.item : i))
      : state.attention.items.filter((i) => i.id !== event.item.id);
    return withForm(
      { ...state, attention: { ...state.attention, items } },
      { [`attention-comment-${event.item.id}`]: '' },
    );
  },
  recovered: (state, event) => ({
    ...state,
    recover: event.output,
    message: {
      kind: 'notice',
      key: 'attention.recovered',
      params: { count: event.output.recovered.length, pending: event.output.pending },
    },
  }),
} satisfies Partial<Handlers>;

export const report = {
  'report-loaded': (state, event) => ({
    ...state,
    report: { report: event.report, closed: false },
  }),
  'shift-closed': (state, event) => {
    const status = state.status ? { ...state.status, shift: null } : null;
    return withForm(
      {
        ...state,
        status,
        report: { report: event.report, closed: true },
        message: { kind: 'notice', key: 'report.closed' },
      },
      { 'counted-cash': '' },
    );
  },
} satisfies Partial<Handlers>;
