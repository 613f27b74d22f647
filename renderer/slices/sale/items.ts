// Item lines from what the cashier typed: goods, or fuel prepaid by amount or by litres, and
// goods scanned twice merged into one line. Pure, like the reducer that uses them.
import { numberStyle, type MessageKey } from '../../i18n.js';
import { add, dec, div, toNumber, type Dec } from '../../money.js';
import { isDec, positive } from '../../requests.js';
import type { State } from '../../state.js';
import type { CheckItemRequest } from '../../types.js';
import { field, type Errors } from '../frame/state.js';
import { gradesOf } from '../forecourt/state.js';
import { amountDigits, enterMode, type ItemKind, type Line } from './state.js';

/** The line the item form describes, or the errors keyed by field name. */
export function itemFromForm(state: State): { line: CheckItemRequest } | { errors: Errors } {
  const errors: Errors = {};
  const kind = (field(state, 'item-kind') || 'goods') as ItemKind;
  const code = field(state, 'item-code').trim();
  const title = field(state, 'item-title').trim();
  if (code === '') errors['item-code'] = 'validation.required';
  // a good typed with its price is a line by hand: the terminal keeps why (docs/terminal.md)
  const reason = field(state, 'item-reason').trim();
  const num = numberStyle(state.settings.language);
  const price = positive(field(state, 'item-price'), num, kind === 'goods');
  if (!isDec(price)) errors['item-price'] = price;

  let quantity: Dec | MessageKey;
  let amount: Dec | null = null;
  if (kind === 'fuel-amount') {
    const a = positive(field(state, 'item-amount'), num);
    if (!isDec(a)) errors['item-amount'] = a;
    else amount = a;
    // litres the prepaid amount buys at the list price; the engine recalculates on discount
    quantity = isDec(a) && isDec(price) ? div(a, price, 3) : 'validation.required'; // price > 0 here
  } else {
    quantity = positive(field(state, 'item-quantity'), num);
    if (!isDec(quantity)) errors['item-quantity'] = quantity;
  }
  if (Object.keys(errors).length > 0 || !isDec(quantity) || !isDec(price)) return { errors };

  const line: CheckItemRequest = { code, quantity: toNumber(quantity), price: toNumber(price) };
  if (title !== '') line.title = title;
  if (kind === 'goods' && reason !== '') line.manual_reason = reason;
  // A price typed finer than the currency (1.659 €/l) is charged as typed, up to 3 digits;
  // left out, the engine would round it to the currency's digits.
  const priceDigits = Math.min(price.scale, 3);
  if (priceDigits > amountDigits(state.sale.calc.check)) line.price_decimal_digits = priceDigits;
  if (kind !== 'goods') line.quantity_decimal_digits = 3;
  if (kind === 'fuel-amount' && amount) {
    line.amount = toNumber(amount);
    line.quantity_recalculate_type = 'recalculate-by-amount';
  }
  return { line };
}

/**
 * The one line a `presets-only` till takes from the item form: the prepay's fuel by amount,
 * picked by one of the prepaid pump's grade buttons. Its catalogue price buys the litres, and
 * the line leaves the price to the terminal, which owns it there (docs/forecourt.md).
 */
export function presetsOnlyPrepay(state: State): { line: CheckItemRequest } | { errors: Errors } {
  const pump = state.sale.draft.prepayPump;
  const code = field(state, 'item-code').trim();
  const picked =
    pump !== null &&
    field(state, 'item-kind') === 'fuel-amount' &&
    gradesOf(state, pump).some((g) => g.code === code && g.price !== null);
  if (!picked) return { errors: { 'item-code': 'validation.presets-only' } };
  const built = itemFromForm(state);
  if ('errors' in built) return built;
  const line: CheckItemRequest = { ...built.line };
  delete line.price;
  return { line };
}

/**
 * Goods scanned twice become one line of two, as a cashier expects; anything else is a new
 * line under `key` (unique among the draft's lines).
 */
export function addLine(
  lines: Line[],
  line: CheckItemRequest,
  key: number,
): { lines: Line[]; index: number } {
  // a label's line carries its own weight or price: two labels are two lines
  const mergeable =
    line.amount === undefined &&
    line.quantity_decimal_digits === undefined &&
    line.barcode === undefined;
  const at = mergeable
    ? lines.findIndex(
        ({ item: l }) =>
          l.code === line.code &&
          l.price === line.price &&
          l.amount === undefined &&
          l.quantity_decimal_digits === undefined &&
          l.barcode === undefined &&
          (l.title ?? '') === (line.title ?? ''),
      )
    : -1;
  if (at < 0) return { lines: [...lines, { key, item: line }], index: lines.length };
  const merged = toNumber(add(dec(lines[at]!.item.quantity), dec(line.quantity)));
  return {
    lines: lines.map((l, i) => (i === at ? { ...l, item: { ...l.item, quantity: merged } } : l)),
    index: at,
  };
}

/** The item fields after a line is added: ready for the next code. */
export const clearedItemForm = {
  'item-code': '',
  'item-title': '',
  'item-price': '',
  'item-quantity': '1',
  'item-amount': '',
  'item-reason': '',
} as const;

/**
 * The item form cleared once a line is on the check. A presets-only till also goes back to
 * goods: it shows no kind to pick, so a prepay's fuel kind must not outlive its line.
 */
export function clearedFormOf(state: State): Record<string, string> {
  return enterMode(state) === 'presets-only'
    ? { ...clearedItemForm, 'item-kind': 'goods' }
    : clearedItemForm;
}
