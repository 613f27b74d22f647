// Paying cash in or out of the drawer; the X report is loaded again to show it. A refusal
// that names a field puts the focus there (its words are the message line's).
import type { Event } from '../../state.js';
import type { Performers } from '../../till.js';
import { cashMovementInput } from './input.js';
import { cashFieldOf } from './state.js';

export type CashAction = { type: 'cash-move' } | { type: 'drawer-open' };

export const cashActions: Performers<CashAction> = {
  'cash-move': async (till) => {
    if (till.state.cash.key === null) till.dispatch({ type: 'cash-key', key: till.newId() });
    const built = cashMovementInput(till.state);
    if (till.invalid(built)) return;
    const ok = await till.run(
      'cash-movement',
      built.input,
      (o) => ({ type: 'cash-moved', movement: o.movement }),
      (error) => {
        till.dispatch({ type: 'failed', error });
        const at = cashFieldOf(error.path);
        return { type: 'focus', testid: at ?? 'cash-amount' };
      },
    );
    if (ok) await till.loadReport();
  },
  // The drawer on request (a till that must give change outside a sale): journalled with who.
  'drawer-open': async (till) => {
    const ok = await till.run('drawer-open', {}, (o): Event =>
      o.opening.pulse_sent
        ? { type: 'notice', key: 'cash.drawer-opened' }
        : { type: 'notice', key: 'cash.drawer-not-sent' },
    );
    if (ok) await till.loadReport();
  },
};
