// Goods from the POS catalogue (`catalog-search`): what a search by words found (the list the
// cashier picks from with the arrows and Enter, or a tap), and the quick keys by category for
// touch. A line from the catalogue carries only its code and quantity (and a label's barcode):
// the terminal fills in the catalogue's title, unit and price (docs/terminal.md, "Goods").
import type { CommandOutput } from '../../types.js';

export type CatalogOutput = CommandOutput<'catalog-search'>;
export type Good = CatalogOutput['goods'][number];
export type Scanned = NonNullable<CatalogOutput['scanned']>;
export type QuickPage = NonNullable<CatalogOutput['quick_keys']>[number];
export type EnterMode = CatalogOutput['check_item_enter_mode'];

export interface GoodsState {
  /** The goods a search by words found; null: no list open. */
  results: Good[] | null;
  /** The text that was searched (Enter on the same text picks, on another searches again). */
  query: string;
  /** More goods matched than the list shows. */
  more: boolean;
  /** The highlighted result (arrows move it, Enter picks it). */
  highlighted: number;
  quickKeys: QuickPage[];
  /** The quick-key page on show. */
  page: number;
  /**
   * How the POS takes lines, as its catalogue answered with the quick keys (null until then):
   * the check's calculation does not carry it (its `pos` is the POS's id).
   */
  mode: EnterMode | null;
}

export function initialGoods(): GoodsState {
  return {
    results: null,
    query: '',
    more: false,
    highlighted: 0,
    quickKeys: [],
    page: 0,
    mode: null,
  };
}

export type GoodsEvent =
  | { type: 'goods-results'; query: string; goods: Good[]; more: boolean }
  | { type: 'goods-highlight'; delta: 1 | -1 }
  | { type: 'goods-close' }
  /** A good to sell: the quantity typed in the item form (`fromForm`), else one. */
  | { type: 'goods-pick'; good: Good; fromForm: boolean }
  /** A scanned label whose line carries its own weight, count or price. */
  | { type: 'goods-scanned'; scanned: Scanned }
  /** Nothing in the catalogue has what was typed. */
  | { type: 'goods-unknown' }
  /** A scanned barcode no good of the catalogue has. */
  | { type: 'goods-barcode-unknown'; barcode: string }
  | { type: 'quick-keys'; pages: QuickPage[]; mode: EnterMode }
  | { type: 'quick-page'; index: number };

/** How many goods a search by words lists. */
export const SEARCH_LIMIT = 20;

/**
 * Whether typed text may be a barcode (EAN-8, UPC-A, EAN-13, GTIN-14): it is asked as one
 * first, so a weight or price label typed in carries its figures as a scan would.
 */
export function looksLikeBarcode(text: string): boolean {
  return /^(\d{8}|\d{12,14})$/.test(text);
}

/** A line of a scanned code: a plain product barcode is the good itself, a label its figures. */
export function carriesFigures(scanned: Scanned): boolean {
  return scanned.kind !== 'gtin' && scanned.kind !== 'code';
}
