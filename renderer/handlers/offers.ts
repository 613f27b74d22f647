// Handlers of what lowers the price: bonuses to spend, coupons, and the manual rules a
// senior cashier picks.
import { numberStyle } from '../i18n.js';
import { dec, toFixed, typedText } from '../money.js';
import { field, hasRole, type Handlers } from '../state.js';
import { fail, isDec, positive, withDraft, withForm } from '../update.js';

export const offers = {
  'bonuses-apply': (state) => {
    const text = field(state, 'bonuses').trim();
    if (text === '') return withDraft(state, { ...state.sale.draft, bonuses: '' });
    const d = positive(text, numberStyle(state.language), true);
    if (!isDec(d)) return fail(state, { bonuses: d });
    if (!state.sale.draft.customer) return fail(state, { bonuses: 'validation.customer-first' });
    return withDraft(state, { ...state.sale.draft, bonuses: toFixed(d) });
  },
  'bonuses-max': (state) => {
    const c = state.sale.draft.customer;
    if (!c) return fail(state, { bonuses: 'validation.customer-first' });
    const all = dec(c.bonuses.available);
    const text = typedText(all, numberStyle(state.language));
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
  'rule-toggle': (state, event) => {
    if (!hasRole(state, 'senior-cashier')) {
      return { ...state, message: { kind: 'error', key: 'error.role-required' } };
    }
    const ids = state.sale.draft.manualRuleIds;
    const manualRuleIds = ids.includes(event.id)
      ? ids.filter((i) => i !== event.id)
      : [...ids, event.id];
    return withDraft(state, { ...state.sale.draft, manualRuleIds });
  },
} satisfies Partial<Handlers>;
