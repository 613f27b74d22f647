// The loyalty slice's reducer: what was sold or moved is said on the message line with the
// numbers that matter, the key it went under is dropped, and the customer's balances are
// replaced by the till's new ones (the sale is priced again: what can be spent changed).
import { formatAmount } from '../../format.js';
import { numberStyle } from '../../i18n.js';
import type { Reducer } from '../../state.js';
import { focusOn, withForm, withMessage } from '../frame/state.js';
import { withDraft } from '../sale/reduce.js';
import { bonusDigits } from '../sale/state.js';
import type { LoyaltyEvent } from './state.js';

export const loyalty: Reducer<LoyaltyEvent> = {
  'batches-loaded': (state, event) => ({
    ...state,
    loyalty: { ...state.loyalty, batches: event.batches },
  }),
  'coupon-sale-key': (state, event) => ({
    ...state,
    loyalty: { ...state.loyalty, saleKey: { batchId: event.batchId, key: event.key } },
  }),
  'coupon-sold': (state, event) => {
    const s = event.sale;
    const num = numberStyle(state.settings.language);
    const next = { ...state, loyalty: { ...state.loyalty, sold: s, saleKey: null } };
    return withMessage(next, {
      kind: 'notice',
      key: s.coupon ? 'loyalty.sold' : 'loyalty.sold-queued',
      params: { code: s.coupon?.code ?? '', amount: formatAmount(s.price.amount, 2, num) },
    });
  },
  'bonus-key': (state, event) => ({
    ...state,
    loyalty: { ...state.loyalty, bonusKey: event.key },
  }),
  'bonus-moved': (state, event) => {
    const o = event.operation;
    const num = numberStyle(state.settings.language);
    const digits = bonusDigits(state.sale.calc.check);
    const next = withForm(
      { ...state, loyalty: { ...state.loyalty, moved: o, bonusKey: null } },
      { 'bonus-amount': '', 'bonus-comment': '' },
    );
    const said = withMessage(next, {
      kind: 'notice',
      key: o.kind === 'add' ? 'loyalty.added' : 'loyalty.written-off',
      params: {
        amount: formatAmount(o.amount, digits, num),
        balance: formatAmount(o.balance, digits, num),
      },
    });
    return focusOn(said, 'bonus-amount');
  },
  'customer-refreshed': (state, event) =>
    state.sale.draft.customer?.id === event.customer.id
      ? withDraft(state, { ...state.sale.draft, customer: event.customer })
      : state,
};
