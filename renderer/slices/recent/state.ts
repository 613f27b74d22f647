// Recent sales: this terminal's sales (`sales-recent`), newest first, searched by time,
// amount, card or customer; the one opened, and its receipt printed again (a COPY). Nobody
// types a transaction id: a sale is refunded or cancelled from here.
import type { State } from '../../state.js';
import type { CommandInput, RecentSale, RecentSales, Reprint } from '../../types.js';

export type RecentQuery = Omit<CommandInput<'sales-recent'>, 'cursor' | 'limit'>;

export interface RecentState {
  sales: RecentSale[];
  /** A search has answered (an empty list then means: nothing found). */
  loaded: boolean;
  /** The search the list answers: the next page asks the same. */
  query: RecentQuery;
  nextCursor: string | null;
  /** The sale opened, by its transaction id. */
  selected: string | null;
  /** The COPY printed for the sale opened. */
  copy: Reprint | null;
}

/** What the search box is read as; `auto` guesses from the text. */
export const SEARCH_BY = ['auto', 'amount', 'card', 'customer', 'time'] as const;
export type SearchBy = (typeof SEARCH_BY)[number];

export type RecentField = 'recent-search' | 'recent-by';

/** The fields' first values. */
export const RECENT_FORM = { 'recent-by': 'auto' } as const;

/** Sales a page asks for. */
export const RECENT_PAGE = 20;

export function initialRecent(): RecentState {
  return { sales: [], loaded: false, query: {}, nextCursor: null, selected: null, copy: null };
}

export type RecentEvent =
  | { type: 'recent-loaded'; output: RecentSales; query: RecentQuery; more: boolean }
  | { type: 'recent-select'; transactionId: string }
  | { type: 'recent-close' }
  | { type: 'recent-reprinted'; output: Reprint };

// ---- selectors ----

/** The sale opened, as the latest page answered it. */
export function selectedSale(state: State): RecentSale | null {
  const id = state.recent.selected;
  return id === null ? null : (state.recent.sales.find((s) => s.transaction_id === id) ?? null);
}

/** Whether any refund took something back from the sale. */
export function partlyRefunded(sale: RecentSale): boolean {
  return sale.lines.some((l) => l.refunded.quantity > 0);
}

// ---- updates ----

/** Esc on the sale opened goes back to the list. */
export function withoutSelection(state: State): State {
  return { ...state, recent: { ...state.recent, selected: null, copy: null } };
}
