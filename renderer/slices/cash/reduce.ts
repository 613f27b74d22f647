// The cash slice's reducer: a movement recorded clears the form and says what moved.
import { formatAmount } from '../../format.js';
import { numberStyle } from '../../i18n.js';
import type { Reducer } from '../../state.js';
import { focusOn, withForm, withMessage } from '../frame/state.js';
import type { CashEvent } from './state.js';

export const cash: Reducer<CashEvent> = {
  'cash-key': (state, event) => ({ ...state, cash: { ...state.cash, key: event.key } }),
  'cash-moved': (state, event) => {
    const m = event.movement;
    const num = numberStyle(state.settings.language);
    const next = withForm(
      { ...state, cash: { last: m, key: null } },
      { 'cash-amount': '', 'cash-reason': '' },
    );
    const said = withMessage(next, {
      kind: 'notice',
      key: m.kind === 'paid-in' ? 'cash.paid-in-done' : 'cash.paid-out-done',
      params: { amount: formatAmount(m.amount, 2, num), reason: m.reason },
    });
    return focusOn(said, 'cash-amount');
  },
};
