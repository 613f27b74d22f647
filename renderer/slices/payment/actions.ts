// Paying: opening the payment (once the running calculation lands), the method and the
// split, confirming the sale, and asking for its outcome when the answer was lost.
import { saleInput } from '../../requests.js';
import { send, type Performers } from '../../till.js';
import type { TransactionPaymentType } from '../../types.js';

export type PaymentAction =
  | { type: 'pay' }
  | { type: 'payment-method'; method: TransactionPaymentType }
  | { type: 'payment-account'; accountId: string }
  | { type: 'tender-add' }
  | { type: 'tender-remove'; index: number }
  | { type: 'sale-confirm' }
  | { type: 'sale-check-status' };

export const paymentActions: Performers<PaymentAction> = {
  pay: (till) => {
    if (till.state.sale.calc.pending) {
      till.payWhenCalculated = true;
      return;
    }
    till.dispatch({ type: 'payment-open', transactionId: till.newId() });
  },
  'payment-method': send,
  'payment-account': send,
  'tender-add': send,
  'tender-remove': send,
  'sale-confirm': async (till) => {
    if (till.state.sale.calc.pending || till.state.payment.outcomeUnknown) return;
    // after a refusal the retry is a new transaction (the refused id stays refused)
    if (till.state.payment.transactionId === null)
      till.dispatch({ type: 'sale-id', transactionId: till.newId() });
    const built = saleInput(till.state);
    if (till.invalid(built)) return;
    const pump = till.state.sale.draft.prepayPump;
    const sold = await till.run(
      'sale-process',
      built.input,
      (result) => ({ type: 'sale-done', result }),
      (error) => ({ type: 'sale-failed', error }),
    );
    // a prepay paid: its pump is released for what was paid (docs/forecourt.md)
    if (sold && pump !== null) {
      const id = built.input.transaction_id;
      const authorised = await till.run('pump-authorise', { pump, transaction_id: id }, (o) => ({
        type: 'pumps-answered',
        pumps: [o.pump],
      }));
      // refused (the pump busy or not answering): the refusal is shown, and the prepay waits
      // on the forecourt's "Prepay here" for the cashier to authorise it again
      if (!authorised) till.dispatch({ type: 'prepay-ready', transactionId: id });
    }
    await till.refreshStatus();
  },
  'sale-check-status': async (till) => {
    const id = till.state.payment.transactionId;
    if (!id) return;
    await till.run('sale-status', { transaction_id: id }, (output) => ({
      type: 'sale-status',
      output,
    }));
  },
};
