// The `cash-movement` input from the cash form: an amount > 0 and a reason.
import { numberStyle } from '../../i18n.js';
import { toNumber } from '../../money.js';
import { isDec, positive, type Built } from '../../requests.js';
import type { State } from '../../state.js';
import type { CommandInput } from '../../types.js';
import type { Errors } from '../frame/state.js';
import { field } from '../frame/state.js';
import type { CashKind } from './state.js';

export function cashMovementInput(state: State): Built<CommandInput<'cash-movement'>> {
  const kind: CashKind = field(state, 'cash-kind') === 'paid-out' ? 'paid-out' : 'paid-in';
  const amount = positive(field(state, 'cash-amount'), numberStyle(state.settings.language));
  const reason = field(state, 'cash-reason').trim();
  const errors: Errors = {};
  if (!isDec(amount)) errors['cash-amount'] = amount;
  if (reason === '') errors['cash-reason'] = 'cash.reason-required';
  if (!isDec(amount) || reason === '') return { errors };
  const key = state.cash.key;
  return {
    input: { kind, amount: toNumber(amount), reason, ...(key ? { idempotency_key: key } : {}) },
  };
}
