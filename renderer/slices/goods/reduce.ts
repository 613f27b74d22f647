// The goods slice's reducer: the search list and its highlight, the quick-key pages, and a
// catalogue good (picked, typed by code, scanned or tapped) becoming a line of the draft
// through the sale's own updates (`withDraft`, `addLine`).
import { numberStyle } from '../../i18n.js';
import { isDec, positive } from '../../requests.js';
import { dec, toFixed, toNumber, type Dec } from '../../money.js';
import type { Reducer, State } from '../../state.js';
import type { CheckItemRequest } from '../../types.js';
import { fail, field, focusOn, withForm, withMessage } from '../frame/state.js';
import { addLine, clearedFormOf } from '../sale/items.js';
import { withDraft } from '../sale/reduce.js';
import { enterMode } from '../sale/state.js';
import type { MessageKey } from '../../i18n.js';
import { type Good, type GoodsEvent, type GoodsState } from './state.js';

const closed = (g: GoodsState): GoodsState => ({ ...g, results: null, query: '', highlighted: 0 });

/** Whether a quantity has no fraction (its exact text has no digit but 0 after the point). */
function whole(q: Dec): boolean {
  return !/\.\d*[1-9]/.test(toFixed(q));
}

/** The quantity the item form asks for this good, or why it cannot be sold so. */
function formQuantity(state: State, good: Good): Dec | MessageKey {
  const q = positive(field(state, 'item-quantity') || '1', numberStyle(state.settings.language));
  if (!isDec(q)) return q;
  return good.whole_number === 1 && !whole(q) ? 'validation.whole-number' : q;
}

/** The draft with `item` added (merged with the same good's line), the form ready again. */
function withLine(state: State, item: CheckItemRequest): State {
  const key = state.sale.version; // only ever rises: no two lines of a draft share one
  const { lines, index } = addLine(state.sale.draft.lines, item, key);
  const next = withDraft(state, { ...state.sale.draft, lines }, { selected: index });
  const ready = withForm(next, clearedFormOf(state));
  return focusOn({ ...ready, goods: closed(state.goods), fieldErrors: {} }, 'item-code');
}

export const goods: Reducer<GoodsEvent> = {
  'goods-results': (state, event) => ({
    ...state,
    goods: {
      ...state.goods,
      results: event.goods,
      query: event.query,
      more: event.more,
      highlighted: 0,
    },
  }),
  'goods-highlight': (state, event) => {
    const n = state.goods.results?.length ?? 0;
    if (n === 0) return state;
    const highlighted = Math.max(0, Math.min(n - 1, state.goods.highlighted + event.delta));
    return { ...state, goods: { ...state.goods, highlighted } };
  },
  'goods-close': (state) => focusOn({ ...state, goods: closed(state.goods) }, 'item-code'),
  'goods-pick': (state, event) => {
    const q = event.fromForm ? formQuantity(state, event.good) : dec(1);
    if (!isDec(q)) return fail(state, { 'item-quantity': q });
    return withLine(state, { code: event.good.code, quantity: toNumber(q) });
  },
  'goods-scanned': (state, event) => withLine(state, { ...event.scanned.line }),
  'goods-unknown': (state) => {
    const byHand = enterMode(state) !== 'presets-only';
    const key = byHand ? 'goods.unknown-by-hand' : 'goods.unknown';
    return fail({ ...state, goods: closed(state.goods) }, { 'item-code': key });
  },
  'goods-barcode-unknown': (state, event) =>
    withMessage(state, {
      kind: 'warning',
      key: 'goods.unknown-barcode',
      params: { barcode: event.barcode },
    }),
  'quick-keys': (state, event) => ({
    ...state,
    goods: { ...state.goods, quickKeys: event.pages, page: 0, mode: event.mode },
  }),
  'quick-page': (state, event) => ({ ...state, goods: { ...state.goods, page: event.index } }),
};
