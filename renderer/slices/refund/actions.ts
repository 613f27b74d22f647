// Refunds and cancellations: load the sale by its id, refund the quantities typed, or cancel
// it whole (a destructive press: the first arms, the second cancels).
import { cancelInput, refundInput, saleStatusInput } from '../../requests.js';
import { send, type Performers } from '../../till.js';
import type { RefundEvent } from './state.js';

export type RefundAction =
  | Extract<RefundEvent, { type: 'refund-open' }>
  | { type: 'refund-load' }
  | { type: 'refund-all' }
  | { type: 'refund-submit' }
  | { type: 'cancel-submit' };

export const refundActions: Performers<RefundAction> = {
  'refund-open': async (till, action) => {
    till.dispatch(action);
    if (action.transactionId) await till.perform({ type: 'refund-load' });
  },
  'refund-load': async (till) => {
    const built = saleStatusInput(till.state);
    if (till.invalid(built)) return;
    await till.run('sale-status', built.input, (output) => ({ type: 'refund-loaded', output }));
  },
  'refund-all': send,
  'refund-submit': async (till) => {
    till.dispatch({ type: 'refund-started', refundId: till.newId() });
    const id = till.state.refund.refundId;
    if (!id) return;
    const built = refundInput(till.state, id);
    if (till.invalid(built)) return;
    await till.run(
      'sale-refund',
      built.input,
      (output) => ({ type: 'refund-done', output, lines: built.input.lines }),
      (error) => ({ type: 'refund-failed', error }),
    );
    await till.refreshStatus();
  },
  'cancel-submit': async (till) => {
    if (!till.state.refund.cancelArmed) return till.dispatch({ type: 'cancel-arm' });
    till.dispatch({ type: 'cancel-disarm' });
    const built = cancelInput(till.state);
    if (till.invalid(built)) return;
    await till.run('sale-cancel', built.input, (output) => ({ type: 'cancel-done', output }));
    await till.refreshStatus();
  },
};
