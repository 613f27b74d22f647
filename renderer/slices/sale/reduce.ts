// The sale slice's reducer: the customer, the item lines and their selection, what lowers
// the price (bonuses, coupons, the manual rules a senior cashier picks), and the `check-calc`
// that prices every change of the draft. `withDraft` and `freshSale` are what the other
// slices change the sale with.
import { numberStyle } from '../../i18n.js';
import { add, cmp, dec, toFixed, toNumber, typedText, ZERO } from '../../money.js';
import { isDec, positive } from '../../requests.js';
import type { Reducer, State } from '../../state.js';
import type { CheckItemRequest } from '../../types.js';
import { fail, field, focusOn, go, hasRole, withForm, withMessage } from '../frame/state.js';
import { PAYMENT_FORM_CLEARED, initialPayment, withoutTenders } from '../payment/state.js';
import { addLine, clearedFormOf, itemFromForm, presetsOnlyPrepay } from './items.js';
import { enterMode, initialSale, type Draft, type SaleEvent, type SaleState } from './state.js';

/**
 * A changed draft: a new version (the controller prices it) and, as what the customer pays
 * may change, no split taken so far.
 */
export function withDraft(state: State, draft: Draft, patch: Partial<SaleState> = {}): State {
  return {
    ...state,
    sale: { ...state.sale, ...patch, draft, version: state.sale.version + 1 },
    payment: withoutTenders(state.payment),
  };
}

/** A fresh sale: an empty draft, no payment, their fields cleared; the presets stay. */
export function freshSale(state: State): State {
  const fresh = initialSale();
  return {
    ...state,
    sale: {
      ...fresh,
      presets: state.sale.presets,
      // the calc seq keeps rising, so an answer to the old sale can never land on the new one
      calc: { ...fresh.calc, seq: state.sale.calc.seq },
      version: state.sale.version + 1,
    },
    payment: initialPayment(),
    form: {
      ...state.form,
      ...clearedFormOf(state),
      'customer-id': '',
      'customer-otp': '',
      bonuses: '',
      'coupon-code': '',
      ...PAYMENT_FORM_CLEARED,
    },
    fieldErrors: {},
  };
}

/**
 * A key for a new line: the draft's version before the change, which only ever rises (a
 * fresh sale too moves it), so no two lines of a draft share one.
 */
function newKey(state: State): number {
  return state.sale.version;
}

// bonuses and accounts belong to the customer: a new customer, or none, starts afresh
const noCustomer = {
  bonuses: '',
  payment: { type: 'cash', accountId: null },
} satisfies Partial<Draft>;

// One object literal: a second handler for an event type does not compile.
export const sale: Reducer<SaleEvent> = {
  // ---- the customer ----
  'customer-identified': (state, event) => {
    const draft: Draft = {
      ...state.sale.draft,
      ...noCustomer,
      identity: event.identity,
      customer: event.output.customer,
      customerSource: event.output.source,
    };
    return focusOn(
      withForm(withDraft(state, draft), { 'customer-id': '', 'customer-otp': '', bonuses: '' }),
      'item-code',
    );
  },
  'customer-clear': (state) =>
    withDraft(state, {
      ...state.sale.draft,
      ...noCustomer,
      identity: null,
      customer: null,
      customerSource: null,
    }),

  // ---- the lines ----
  presets: (state, event) => ({ ...state, sale: { ...state.sale, presets: event.presets } }),
  'item-add': (state) => {
    const built =
      enterMode(state) === 'presets-only' ? presetsOnlyPrepay(state) : itemFromForm(state);
    if ('errors' in built) return fail(state, built.errors);
    const { lines, index } = addLine(state.sale.draft.lines, built.line, newKey(state));
    const next = withDraft(state, { ...state.sale.draft, lines }, { selected: index });
    return focusOn({ ...withForm(next, clearedFormOf(state)), fieldErrors: {} }, 'item-code');
  },
  'preset-add': (state, event) => {
    const p = state.sale.presets[event.index];
    if (!p || enterMode(state) === 'manually-only') return state;
    const line: CheckItemRequest = { code: p.code, quantity: 1 };
    if (p.title !== undefined) line.title = p.title;
    if (p.price !== undefined) line.price = p.price;
    if (p.unit !== undefined) line.unit = p.unit;
    const { lines, index } = addLine(state.sale.draft.lines, line, newKey(state));
    return withDraft(state, { ...state.sale.draft, lines }, { selected: index });
  },
  'line-remove': (state, event) => {
    const lines = state.sale.draft.lines.filter((_, i) => i !== event.index);
    if (lines.length === state.sale.draft.lines.length) return state;
    const selected = lines.length === 0 ? null : Math.min(event.index, lines.length - 1);
    return withDraft(state, { ...state.sale.draft, lines }, { selected });
  },
  'line-step': (state, event) => {
    const line = state.sale.draft.lines[event.index]?.item;
    if (!line || line.amount !== undefined) return state; // a prepaid line's litres are computed
    const q = add(dec(line.quantity), dec(event.delta));
    if (cmp(q, ZERO) <= 0) return state;
    const lines = state.sale.draft.lines.map((l, i) =>
      i === event.index ? { ...l, item: { ...l.item, quantity: toNumber(q) } } : l,
    );
    return withDraft(state, { ...state.sale.draft, lines }, { selected: event.index });
  },
  'line-select': (state, event) => ({ ...state, sale: { ...state.sale, selected: event.index } }),
  'select-step': (state, event) => {
    const n = state.sale.draft.lines.length;
    if (n === 0) return state;
    const cur = state.sale.selected;
    const first = event.delta > 0 ? 0 : n - 1;
    const selected = cur === null ? first : Math.max(0, Math.min(n - 1, cur + event.delta));
    return { ...state, sale: { ...state.sale, selected } };
  },
  'void-sale': (state) => focusOn(freshSale(state), 'item-code'),

  // ---- what lowers the price ----
  'bonuses-apply': (state) => {
    const text = field(state, 'bonuses').trim();
    if (text === '') return withDraft(state, { ...state.sale.draft, bonuses: '' });
    const d = positive(text, numberStyle(state.settings.language), true);
    if (!isDec(d)) return fail(state, { bonuses: d });
    if (!state.sale.draft.customer) return fail(state, { bonuses: 'validation.customer-first' });
    return withDraft(state, { ...state.sale.draft, bonuses: toFixed(d) });
  },
  'bonuses-max': (state) => {
    const c = state.sale.draft.customer;
    if (!c) return fail(state, { bonuses: 'validation.customer-first' });
    const all = dec(c.bonuses.available);
    const text = typedText(all, numberStyle(state.settings.language));
    return withDraft(withForm(state, { bonuses: text }), {
      ...state.sale.draft,
      bonuses: toFixed(all),
    });
  },
  'bonuses-clear': (state) =>
    withDraft(withForm(state, { bonuses: '' }), { ...state.sale.draft, bonuses: '' }),
  'coupon-add': (state) => {
    const code = field(state, 'coupon-code').trim();
    if (code === '') return fail(state, { 'coupon-code': 'validation.required' });
    const next = withForm(state, { 'coupon-code': '' });
    if (state.sale.draft.coupons.includes(code)) return next; // a code listed twice is one coupon
    return withDraft(next, { ...state.sale.draft, coupons: [...state.sale.draft.coupons, code] });
  },
  'coupon-remove': (state, event) =>
    withDraft(state, {
      ...state.sale.draft,
      coupons: state.sale.draft.coupons.filter((c) => c !== event.code),
    }),
  'rules-all': (state, event) => ({ ...state, sale: { ...state.sale, allRules: event.show } }),
  'fill-added': (state, event) => {
    const { draft } = state.sale;
    const fills = [...draft.fills.filter((f) => f.id !== event.fill.id), event.fill];
    return go(withDraft(state, { ...draft, fills }), 'sale');
  },
  'fill-remove': (state, event) =>
    withDraft(state, {
      ...state.sale.draft,
      fills: state.sale.draft.fills.filter((f) => f.id !== event.id),
    }),
  'prepay-for': (state, event) => {
    const next = go(withDraft(state, { ...state.sale.draft, prepayPump: event.pump }), 'sale');
    // a presets-only till picks no kind: the fuel kind comes with a grade button only
    return enterMode(state) === 'presets-only' ? withForm(next, { 'item-kind': 'goods' }) : next;
  },
  // The price is the catalogue's, shown in the cashier's number style as if typed; the amount
  // to prepay is what is left to type.
  'prepay-grade': (state, event) => {
    const price = typedText(dec(event.price), numberStyle(state.settings.language));
    const form = { 'item-kind': 'fuel-amount', 'item-code': event.code, 'item-price': price };
    return focusOn(withForm(state, form), 'item-amount');
  },
  'rule-toggle': (state, event) => {
    if (!hasRole(state, 'senior-cashier')) {
      return withMessage(state, { kind: 'error', key: 'error.role-required' });
    }
    const ids = state.sale.draft.manualRuleIds;
    const manualRuleIds = ids.includes(event.id)
      ? ids.filter((i) => i !== event.id)
      : [...ids, event.id];
    return withDraft(state, { ...state.sale.draft, manualRuleIds });
  },

  // ---- the calculation ----
  'calc-started': (state, event) => ({
    ...state,
    sale: { ...state.sale, calc: { ...state.sale.calc, seq: event.seq, pending: true } },
  }),
  'calc-done': (state, event) => {
    if (event.seq !== state.sale.calc.seq) return state; // a stale answer: a newer calc is on its way
    const r = event.result;
    const calc =
      'error' in r
        ? { ...state.sale.calc, pending: false, error: r.error, warnings: [] }
        : { seq: event.seq, pending: false, check: r.check, warnings: r.warnings, error: null };
    return { ...state, sale: { ...state.sale, calc } };
  },
};
