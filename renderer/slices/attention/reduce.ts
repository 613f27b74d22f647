// The attention slice's reducer.
import type { Reducer, State } from '../../state.js';
import { withForm, withMessage } from '../frame/state.js';
import type { AttentionEvent, AttentionState } from './state.js';

function withAttention(state: State, patch: Partial<AttentionState>): State {
  return { ...state, attention: { ...state.attention, ...patch } };
}

export const attention: Reducer<AttentionEvent> = {
  'attention-loaded': (state, event) => withAttention(state, { items: event.items, loaded: true }),
  'attention-toggle-resolved': (state) =>
    withAttention(state, { includeResolved: !state.attention.includeResolved }),
  'attention-resolved': (state, event) => {
    const { items, includeResolved } = state.attention;
    const next = includeResolved
      ? items.map((i) => (i.id === event.item.id ? event.item : i))
      : items.filter((i) => i.id !== event.item.id);
    return withForm(withAttention(state, { items: next }), {
      [`attention-comment-${event.item.id}`]: '',
    });
  },
  recovered: (state, event) =>
    withMessage(withAttention(state, { recover: event.output }), {
      kind: 'notice',
      key: 'attention.recovered',
      params: { count: event.output.recovered.length, pending: event.output.pending },
    }),
};
