// The small steps the reducer's handlers are made of (renderer/handlers/*.ts): patch the
// form, move the focus, change the draft (which asks for a new calculation), refuse with
// field errors, change screens, start a fresh sale. Pure, like the handlers.
import type { NumberStyle } from './format.js';
import { numberStyle, type MessageKey } from './i18n.js';
import { ZERO, add, cmp, dec, div, parseTyped, toNumber, type Dec } from './money.js';
import {
  amountDigits,
  field,
  initialState,
  type Draft,
  type ItemKind,
  type Receipt,
  type Screen,
  type State,
} from './state.js';
import type { CheckItemRequest, CommittedSale, SaleResult } from './types.js';

export type Errors = Record<string, MessageKey>;

export function withForm(state: State, patch: Record<string, string>): State {
  return { ...state, form: { ...state.form, ...patch } };
}

export function focusOn(state: State, testid: string): State {
  return { ...state, focus: { testid, seq: (state.focus?.seq ?? 0) + 1 } };
}

export function withDraft(state: State, draft: Draft, patch: Partial<State['sale']> = {}): State {
  return {
    ...state,
    sale: {
      ...state.sale,
      ...patch,
      draft,
      version: state.sale.version + 1,
      // What the customer pays may change: any split taken so far no longer holds.
      tenders: [],
    },
  };
}

export function fail(state: State, errors: Errors): State {
  const first = Object.keys(errors)[0];
  const next = { ...state, fieldErrors: errors };
  return first ? focusOn(next, first) : next;
}

/** A positive decimal (or zero when allowed) typed in `num`'s style; the error key otherwise. */
export function positive(text: string, num: NumberStyle, allowZero = false): Dec | MessageKey {
  if (text.trim() === '') return 'validation.required';
  const d = parseTyped(text, num);
  if (d === null) return 'validation.number';
  const sign = cmp(d, ZERO);
  if (sign < 0 || (sign === 0 && !allowZero)) return 'validation.positive';
  return d;
}

export function isDec(v: Dec | MessageKey): v is Dec {
  return typeof v === 'object';
}

/** The line the item form describes, or the errors keyed by field name. */
export function itemFromForm(state: State): { line: CheckItemRequest } | { errors: Errors } {
  const errors: Errors = {};
  const kind = (field(state, 'item-kind') || 'goods') as ItemKind;
  const code = field(state, 'item-code').trim();
  const title = field(state, 'item-title').trim();
  if (code === '') errors['item-code'] = 'validation.required';
  const num = numberStyle(state.language);
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

/** Goods scanned twice become one line of two, as a cashier expects. */
export function addLine(
  lines: CheckItemRequest[],
  line: CheckItemRequest,
): { lines: CheckItemRequest[]; index: number } {
  const mergeable = line.amount === undefined && line.quantity_decimal_digits === undefined;
  const at = mergeable
    ? lines.findIndex(
        (l) =>
          l.code === line.code &&
          l.price === line.price &&
          l.amount === undefined &&
          l.quantity_decimal_digits === undefined &&
          (l.title ?? '') === (line.title ?? ''),
      )
    : -1;
  if (at < 0) return { lines: [...lines, line], index: lines.length };
  const merged = toNumber(add(dec(lines[at]!.quantity), dec(line.quantity)));
  return { lines: lines.map((l, i) => (i === at ? { ...l, quantity: merged } : l)), index: at };
}

export const clearedItemForm = {
  'item-code': '',
  'item-title': '',
  'item-price': '',
  'item-quantity': '1',
  'item-amount': '',
};

export function resetSale(state: State): State {
  const fresh = initialState(state.language).sale;
  return {
    ...state,
    sale: {
      ...fresh,
      // the calc seq keeps rising, so an answer to the old sale can never land on the new one
      calc: { ...fresh.calc, seq: state.sale.calc.seq },
      version: state.sale.version + 1,
      lastTransactionId: state.sale.lastTransactionId,
    },
    form: {
      ...state.form,
      ...clearedItemForm,
      'customer-id': '',
      'customer-otp': '',
      bonuses: '',
      'coupon-code': '',
      pin: '',
      odometer: '',
      'vehicle-id': '',
      'cash-given': '',
      'tender-amount': '',
    },
    fieldErrors: {},
  };
}

/** Where a signed-in person lands: a sale when a shift is open, else the shift screen. */
export function home(state: State): Screen {
  return state.status?.shift ? 'sale' : 'shift-open';
}

const screenFocus: Partial<Record<Screen, string>> = {
  'sign-in': 'sign-in-code',
  'shift-open': 'shift-opening-cash',
  sale: 'item-code',
  payment: 'payment-confirm',
  receipt: 'receipt-new-sale',
  refund: 'refund-transaction-id',
  report: 'report-refresh',
  attention: 'attention-refresh',
  settings: 'settings-language',
};

export function go(state: State, screen: Screen): State {
  const next = { ...state, screen, fieldErrors: {} };
  const target = screenFocus[screen];
  return target ? focusOn(next, target) : next;
}

export function receiptOf(result: SaleResult): Receipt {
  return {
    transactionId: result.transaction_id,
    subtype: result.subtype,
    check: result.check,
    warnings: result.warnings,
    payments: result.payments,
    sync: result.sync,
    receiptPrinted: result.receipt_printed,
    ...(result.cash ? { cash: result.cash } : {}),
    ...(result.receipt ? { preview: result.receipt } : {}),
  };
}

export function committedReceipt(sale: CommittedSale): Receipt {
  return {
    transactionId: sale.transaction_id,
    subtype: sale.subtype,
    check: sale.check,
    warnings: [],
    payments: [],
    sync: sale.sync,
    receiptPrinted: null,
  };
}

/** A committed sale: a fresh sale behind it, its receipt on the screen. */
export function showReceipt(state: State, receipt: Receipt): State {
  const next = resetSale({ ...state, message: null });
  return go(
    { ...next, sale: { ...next.sale, receipt, lastTransactionId: receipt.transactionId } },
    'receipt',
  );
}
