// Handlers of the sale being put together: the customer, the item lines and their selection,
// and the `check-calc` that prices every change of the draft.
import { add, cmp, dec, toNumber, ZERO } from '../money.js';
import { enterMode, type Draft, type Handlers } from '../state.js';
import type { CheckItemRequest } from '../types.js';
import {
  addLine,
  clearedItemForm,
  fail,
  focusOn,
  itemFromForm,
  withDraft,
  withForm,
} from '../update.js';

// bonuses and accounts belong to the customer: a new customer, or none, starts afresh
const noCustomer = {
  bonuses: '',
  payment: { type: 'cash', accountId: null },
} satisfies Partial<Draft>;

export const customer = {
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
} satisfies Partial<Handlers>;

export const lines = {
  'item-add': (state) => {
    const mode = enterMode(state);
    if (mode === 'presets-only') return fail(state, { 'item-code': 'validation.presets-only' });
    const built = itemFromForm(state);
    if ('errors' in built) return fail(state, built.errors);
    const { lines, index } = addLine(state.sale.draft.lines, built.line);
    const next = withDraft(state, { ...state.sale.draft, lines }, { selected: index });
    return focusOn({ ...withForm(next, clearedItemForm), fieldErrors: {} }, 'item-code');
  },
  'preset-add': (state, event) => {
    const p = state.presets[event.index];
    if (!p || enterMode(state) === 'manually-only') return state;
    const line: CheckItemRequest = { code: p.code, quantity: 1 };
    if (p.title !== undefined) line.title = p.title;
    if (p.price !== undefined) line.price = p.price;
    if (p.unit !== undefined) line.unit = p.unit;
    const { lines, index } = addLine(state.sale.draft.lines, line);
    return withDraft(state, { ...state.sale.draft, lines }, { selected: index });
  },
  'line-remove': (state, event) => {
    const lines = state.sale.draft.lines.filter((_, i) => i !== event.index);
    if (lines.length === state.sale.draft.lines.length) return state;
    const selected = lines.length === 0 ? null : Math.min(event.index, lines.length - 1);
    return withDraft(state, { ...state.sale.draft, lines }, { selected });
  },
  'line-step': (state, event) => {
    const line = state.sale.draft.lines[event.index];
    if (!line || line.amount !== undefined) return state; // a prepaid line's litres are computed
    const q = add(dec(line.quantity), dec(event.delta));
    if (cmp(q, ZERO) <= 0) return state;
    const lines = state.sale.draft.lines.map((l, i) =>
      i === event.index ? { ...l, quantity: toNumber(q) } : l,
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
} satisfies Partial<Handlers>;

export const calc = {
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
} satisfies Partial<Handlers>;
