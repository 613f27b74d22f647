// The `bonus-operation` input from the bonus form: add or write off, an amount > 0 and why,
// for the customer identified in the sale, under the key kept for it.
import { numberStyle } from '../../i18n.js';
import { toNumber } from '../../money.js';
import { isDec, positive, type Built } from '../../requests.js';
import type { State } from '../../state.js';
import type { CommandInput } from '../../types.js';
import { field, type Errors } from '../frame/state.js';

export function bonusOperationInput(state: State): Built<CommandInput<'bonus-operation'>> {
  const kind = field(state, 'bonus-kind') === 'write-off' ? 'write-off' : 'add';
  const amount = positive(field(state, 'bonus-amount'), numberStyle(state.settings.language));
  const comment = field(state, 'bonus-comment').trim();
  const customer = state.sale.draft.customer;
  const key = state.loyalty.bonusKey;
  const errors: Errors = {};
  if (!isDec(amount)) errors['bonus-amount'] = amount;
  if (comment === '') errors['bonus-comment'] = 'loyalty.comment-required';
  if (!isDec(amount) || comment === '' || !customer || !key) return { errors };
  return {
    input: {
      transaction_id: key,
      customer_id: customer.id,
      kind,
      amount: toNumber(amount),
      comment,
    },
  };
}
