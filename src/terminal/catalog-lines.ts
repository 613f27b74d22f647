// A check's lines against the POS catalogue (docs/terminal.md, "Goods"). A good the catalogue
// lists takes its title, category, unit, price and `whole_number` from it; a scanned label's
// weight, count or price is the line's. The POS's `check_item_enter_mode` decides the rest:
// `presets-only` sells catalogue goods at catalogue figures (a figure the caller sends is
// refused, naming it); the other modes also take a line entered by hand, with a reason
// (`manual_reason`): a good the catalogue does not list, or a catalogue good at another price.
import type { CheckItemRequest } from '../contract/check-request.js';
import type { ErrorResponse } from '../contract/commands.js';
import type { EngineCheckItem } from '../contract/engine.js';
import { dec, eq } from '../money/index.js';
import type { CatalogItem } from '../contract/catalog.js';
import { parseGoodsBarcode, type GoodsBarcode } from '../devices/barcode.js';
import { labelFigures, wholeNumber, type PosCatalog } from './catalog.js';
import { refuse } from './command-map.js';

/** A line entered by hand and why (kept in the check's `external_additional_info`). */
export interface ManualLine {
  line: number;
  code: string;
  reason: string;
}

type Line = Omit<CheckItemRequest, 'barcode' | 'manual_reason'>;

/** What the catalogue owns of a good's line at a `presets-only` POS. */
const CATALOGUE_OWNED = ['price', 'title', 'category', 'unit', 'whole_number'] as const;

const invalid = (path: string, message: string, details?: Record<string, unknown>) =>
  refuse('invalid-input', message, path, details);

const nameOf = (item: CatalogItem) => item.title ?? item.code;

/** The good a scanned code names, which must be the line's own. */
function scannedGood(
  cat: PosCatalog,
  barcode: string,
  code: string,
  at: string,
): { item: CatalogItem; label: GoodsBarcode } | ErrorResponse {
  const parsed = parseGoodsBarcode(barcode);
  if (!parsed.ok) return invalid(`${at}.barcode`, parsed.message);
  const item = cat.byBarcode(parsed.value);
  if (!item)
    return refuse(
      cat.mode === 'presets-only' ? 'item-not-preset' : 'goods-not-found',
      'no good in the catalogue has this barcode',
      `${at}.barcode`,
    );
  if (item.code !== code)
    return invalid(
      `${at}.code`,
      `this barcode is ${nameOf(item)}'s (${item.code}), not ${code}'s`,
      {
        expected: item.code,
      },
    );
  return { item, label: parsed.value };
}

/** A label's figures stand: a quantity or price sent must be the label's. */
function labelDisagrees(line: Line, label: GoodsBarcode, at: string): ErrorResponse | null {
  const { quantity, price } = labelFigures(label);
  if (quantity !== null && price === null && !eq(dec(line.quantity), dec(quantity)))
    return invalid(`${at}.quantity`, `the label says ${quantity}: the quantity is the label's`, {
      expected: quantity,
    });
  if (price !== null && line.price !== undefined && !eq(dec(line.price), dec(price)))
    return invalid(`${at}.price`, `the label's price is ${price}: the price is the label's`, {
      expected: price,
    });
  return null;
}

/** A `presets-only` POS: catalogue goods at catalogue figures, nothing by hand. */
function presetsOnly(
  line: Line,
  item: CatalogItem | undefined,
  reason: string | undefined,
  at: string,
): ErrorResponse | null {
  if (!item)
    return refuse(
      'item-not-preset',
      `this till sells only preset goods; ${line.code} is not one`,
      `${at}.code`,
    );
  if (reason !== undefined)
    return invalid(
      `${at}.manual_reason`,
      'this till sells catalogue goods only: no line is entered by hand',
    );
  const sent = CATALOGUE_OWNED.find((key) => line[key] !== undefined);
  if (sent === undefined) return null;
  const price = item.price === undefined ? '' : ` (${nameOf(item)} costs ${item.price})`;
  return invalid(
    `${at}.${sent}`,
    `this till sells at the catalogue's figures${price}: leave the ${sent.replace('_', ' ')} out`,
  );
}

/** Another mode: a line by hand needs a reason, and a good the catalogue lacks its price. */
function byHandAllowed(
  line: Line,
  item: CatalogItem | undefined,
  reason: string | undefined,
  at: string,
): ErrorResponse | null {
  if (!item) {
    if (reason === undefined)
      return invalid(
        `${at}.manual_reason`,
        `${line.code} is not in the catalogue: pick a good from it, or say why this line is entered by hand`,
      );
    if (line.price === undefined && line.amount === undefined)
      return invalid(`${at}.price`, 'a line entered by hand needs its price');
    return null;
  }
  const other =
    line.price !== undefined && item.price !== undefined && !eq(dec(line.price), dec(item.price));
  if (other && reason === undefined)
    return invalid(
      `${at}.manual_reason`,
      `${nameOf(item)} costs ${item.price} in the catalogue: say why it sells at ${line.price}`,
      { catalogue_price: item.price },
    );
  return null;
}

/** A catalogue good without a price sells by its label (or, where allowed, a typed price). */
function unpriced(item: CatalogItem, cat: PosCatalog, at: string): ErrorResponse {
  return cat.mode === 'presets-only'
    ? invalid(`${at}.barcode`, `${nameOf(item)} is priced by its label: scan the label`)
    : invalid(
        `${at}.price`,
        `${nameOf(item)} has no catalogue price: scan its label or enter the price`,
      );
}

/** The line with the catalogue's figures where the caller left them out, a label's over all. */
function filled(line: Line, item: CatalogItem | undefined, label: GoodsBarcode | null): Line {
  const labelPrice = label ? labelFigures(label).price : null;
  if (!item) return line;
  return {
    ...line,
    ...(line.title === undefined && item.title !== undefined ? { title: item.title } : {}),
    ...(line.category === undefined && item.category !== undefined
      ? { category: item.category }
      : {}),
    ...(line.unit === undefined && item.unit !== undefined ? { unit: item.unit } : {}),
    // Whole pieces are the catalogue's word: a fraction of one is refused (engine.md 31).
    ...(wholeNumber(item) === 1 ? { whole_number: 1 as const } : {}),
    ...(labelPrice !== null
      ? { price: labelPrice }
      : line.price === undefined && item.price !== undefined
        ? { price: item.price }
        : {}),
  };
}

/**
 * The check's lines as the engine gets them, and the lines entered by hand. A completion's
 * lines are its authorisation's (checked then): they are only filled, never refused here.
 */
export function catalogLines(
  items: readonly CheckItemRequest[],
  cat: PosCatalog,
  completion: boolean,
): { items: EngineCheckItem[]; manual: ManualLine[] } | { error: ErrorResponse } {
  const out: EngineCheckItem[] = [];
  const manual: ManualLine[] = [];
  for (const [i, it] of items.entries()) {
    const at = `check.check_items[${i}]`;
    const { barcode, manual_reason: reason, ...line } = it;
    let item = cat.byCode(line.code);
    let label: GoodsBarcode | null = null;
    if (barcode !== undefined) {
      const scanned = scannedGood(cat, barcode, line.code, at);
      if ('error' in scanned) return { error: scanned };
      ({ item, label } = scanned);
    }
    if (!completion) {
      const wrong =
        (cat.mode === 'presets-only'
          ? presetsOnly(line, item, reason, at)
          : byHandAllowed(line, item, reason, at)) ??
        (label && labelDisagrees(line, label, at));
      if (wrong) return { error: wrong };
    }
    const sold = filled(line, item, label);
    if (!completion && item && sold.price === undefined && sold.amount === undefined)
      return { error: unpriced(item, cat, at) };
    if (reason !== undefined) manual.push({ line: i, code: line.code, reason });
    out.push(sold as EngineCheckItem);
  }
  return { items: out, manual };
}
