// The recent sales slice's reducer.
import type { Reducer, State } from '../../state.js';
import { focusOn } from '../frame/state.js';
import { withoutSelection, type RecentEvent, type RecentState } from './state.js';

function withRecent(state: State, patch: Partial<RecentState>): State {
  return { ...state, recent: { ...state.recent, ...patch } };
}

export const recent: Reducer<RecentEvent> = {
  'recent-loaded': (state, event) => {
    const { sales, next_cursor } = event.output;
    return withRecent(state, {
      sales: event.more ? [...state.recent.sales, ...sales] : sales,
      loaded: true,
      query: event.query,
      nextCursor: next_cursor,
      // a fresh search shows the sales as they are now: a copy printed before is gone
      ...(event.more ? {} : { copy: null }),
    });
  },
  'recent-select': (state, event) =>
    focusOn(withRecent(state, { selected: event.transactionId, copy: null }), 'recent-reprint'),
  'recent-close': (state) => focusOn(withoutSelection(state), 'recent-search'),
  'recent-reprinted': (state, event) =>
    withRecent(state, {
      copy: event.output,
      selected: state.recent.selected ?? event.output.transaction_id,
    }),
};
