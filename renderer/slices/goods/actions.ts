// The goods actions: Enter in the item form (a code or barcode adds its good, words open the
// list, a typed price is a line by hand), picking from the list, a quick key, and a scanned
// goods barcode. Each asks `catalog-search`; its answers come back as the slice's events.
import { field } from '../frame/state.js';
import { addLine } from '../sale/items.js';
import { enterMode } from '../sale/state.js';
import { numberStyle } from '../../i18n.js';
import { toNumber } from '../../money.js';
import { calcCheck, isDec, positive } from '../../requests.js';
import { send, type Performers, type Till } from '../../till.js';
import type { MessageKey } from '../../i18n.js';
import type { State } from '../../state.js';
import type { CheckRequest, CommandInput, ErrorBody } from '../../types.js';
import {
  carriesFigures,
  looksLikeBarcode,
  SEARCH_LIMIT,
  type CatalogOutput,
  type GoodsEvent,
} from './state.js';

export type GoodsAction =
  | { type: 'item-enter' }
  | { type: 'goods-choose'; index: number }
  | { type: 'quick-key'; page: number; index: number }
  | { type: 'scan-goods'; barcode: string }
  | { type: 'quick-keys-load' }
  | Extract<GoodsEvent, { type: 'goods-highlight' | 'goods-close' | 'quick-page' }>;

/** `catalog-search`, its answer or null (a refusal is on the message line). */
async function search(
  till: Till,
  input: CommandInput<'catalog-search'>,
  quiet = false,
): Promise<CatalogOutput | null> {
  let answer: CatalogOutput | null = null;
  const onError = quiet ? (_e: ErrorBody) => undefined : undefined;
  await till.run('catalog-search', input, (out) => void (answer = out), onError);
  return answer;
}

/** A barcode's good: a plain product code sells at the form's quantity, a label as it says. */
function scannedEvent(out: CatalogOutput, fromForm: boolean): GoodsEvent | null {
  const good = out.goods[0];
  if (!out.scanned || !good) return null;
  if (carriesFigures(out.scanned)) return { type: 'goods-scanned', scanned: out.scanned };
  return { type: 'goods-pick', good, fromForm };
}

/**
 * The check with `text` added as the good it would be if it is a code, as `goods-pick` adds
 * it; null when the guess is not worth a calculation: a whole quantity only (a fraction of a
 * whole-number good is refused before any calculation), and no one-time password on the check
 * (a guess must not spend one of its attempts).
 */
export function guessedCheck(state: State, text: string): CheckRequest | null {
  const draft = state.sale.draft;
  if (draft.identity?.cardotppassword) return null;
  const q = positive(field(state, 'item-quantity') || '1', numberStyle(state.settings.language));
  if (!isDec(q) || !Number.isInteger(toNumber(q))) return null;
  const { lines } = addLine(draft.lines, { code: text, quantity: toNumber(q) }, -1);
  return calcCheck({ ...draft, lines });
}

/** Enter on a code, a barcode or words. */
async function enterGoods(till: Till, text: string): Promise<void> {
  if (looksLikeBarcode(text)) {
    const out = await search(till, { barcode: text }, true);
    const event = out && scannedEvent(out, true);
    if (event) return till.dispatch(event);
  } else {
    // Typed text is most often a good's code: its check's calculation starts beside the
    // search, so a code costs one round trip, not two (words waste one calculation).
    const guess = guessedCheck(till.state, text);
    if (guess) till.prefetchCalc(guess);
  }
  const out = await search(till, { query: text, limit: SEARCH_LIMIT });
  const first = out?.goods[0];
  if (out && first && (out.match === 'code' || out.match === 'barcode'))
    return till.dispatch({ type: 'goods-pick', good: first, fromForm: true });
  till.prefetchCalc(null); // not a code: the guess's answer is never to be taken later
  if (!out) return;
  if (!first) return till.dispatch({ type: 'goods-unknown' });
  till.dispatch({ type: 'goods-results', query: text, goods: out.goods, more: out.more });
}

/** Why the reason for a line by hand will not do (3 to 200 characters), or null. */
export function reasonError(state: State): MessageKey | null {
  if (enterMode(state) === 'presets-only') return null; // the sale refuses the line itself
  const reason = field(state, 'item-reason').trim();
  if (reason === '') return 'validation.reason-required';
  return reason.length < 3 ? 'validation.min3' : null;
}

export const goodsActions: Performers<GoodsAction> = {
  'item-enter': async (till) => {
    const state = till.state;
    const kind = field(state, 'item-kind') || 'goods';
    const price = field(state, 'item-price').trim();
    // fuel prepays and a price typed by hand are the sale's own line; by hand, with a reason
    if (kind === 'goods' && price !== '') {
      const reason = reasonError(state);
      if (reason) return till.dispatch({ type: 'invalid', errors: { 'item-reason': reason } });
    }
    if (kind !== 'goods' || price !== '') return till.dispatch({ type: 'item-add' });
    const text = field(state, 'item-code').trim();
    const g = state.goods;
    if (g.results && g.results.length > 0 && text === g.query)
      return till.perform({ type: 'goods-choose', index: g.highlighted });
    if (text === '')
      return till.dispatch({ type: 'invalid', errors: { 'item-code': 'validation.required' } });
    await enterGoods(till, text);
  },
  'goods-choose': (till, { index }) => {
    const good = till.state.goods.results?.[index];
    if (good) till.dispatch({ type: 'goods-pick', good, fromForm: true });
  },
  'quick-key': (till, { page, index }) => {
    const good = till.state.goods.quickKeys[page]?.goods[index];
    if (good) till.dispatch({ type: 'goods-pick', good, fromForm: false });
  },
  'scan-goods': async (till, { barcode }) => {
    const out = await search(till, { barcode });
    if (!out) return;
    const event = scannedEvent(out, false);
    if (event) return till.dispatch(event);
    till.dispatch({ type: 'goods-barcode-unknown', barcode });
  },
  'quick-keys-load': async (till) => {
    if (enterMode(till.state) === 'manually-only') return;
    const out = await search(till, { quick_keys: true, limit: 1 }, true);
    if (out)
      till.dispatch({
        type: 'quick-keys',
        pages: out.quick_keys ?? [],
        mode: out.check_item_enter_mode,
      });
  },
  'goods-highlight': send,
  'goods-close': send,
  'quick-page': send,
};
