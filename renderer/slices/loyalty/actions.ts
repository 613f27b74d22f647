// Loyalty at the till: the batches on sale are asked for when the screen opens; a coupon
// sale and a bonus operation each go under a key made at the first press and kept until
// answered (a retry after a lost answer is the same operation). After either, the
// customer is identified again, so the sale's balances are what the till now knows.
import type { Event } from '../../state.js';
import type { Performers, Till } from '../../till.js';
import { bonusOperationInput } from './input.js';
import { loyaltyFieldOf, saleKeyFor } from './state.js';

export type LoyaltyAction =
  { type: 'loyalty-open' } | { type: 'coupon-buy'; batchId: string } | { type: 'bonus-move' };

/** The identified customer asked for again; the sale keeps its lines and bonuses typed. */
async function refreshCustomer(till: Till): Promise<void> {
  const identity = till.state.sale.draft.identity;
  if (!identity) return;
  await till.run('customer-identify', identity, (o) => ({
    type: 'customer-refreshed',
    customer: o.customer,
  }));
}

export const loyaltyActions: Performers<LoyaltyAction> = {
  'loyalty-open': async (till) => {
    till.dispatch({ type: 'navigate', screen: 'loyalty' });
    await till.run('coupon-batches', {}, (o) => ({ type: 'batches-loaded', batches: o.batches }));
  },
  'coupon-buy': async (till, { batchId }) => {
    const customer = till.state.sale.draft.customer;
    if (!customer) return;
    const key = saleKeyFor(till.state.loyalty, batchId) ?? till.newId();
    till.dispatch({ type: 'coupon-sale-key', batchId, key });
    const input = { transaction_id: key, customer_id: customer.id, batch_id: batchId };
    const ok = await till.run('coupon-sell', input, (sale): Event => ({
      type: 'coupon-sold',
      sale,
    }));
    if (ok) await refreshCustomer(till);
  },
  'bonus-move': async (till) => {
    if (till.state.loyalty.bonusKey === null)
      till.dispatch({ type: 'bonus-key', key: till.newId() });
    const built = bonusOperationInput(till.state);
    if (till.invalid(built)) return;
    const ok = await till.run(
      'bonus-operation',
      built.input,
      (operation) => ({ type: 'bonus-moved', operation }),
      (error) => {
        till.dispatch({ type: 'failed', error });
        return { type: 'focus', testid: loyaltyFieldOf(error.path) ?? 'bonus-amount' };
      },
    );
    if (ok) await refreshCustomer(till);
  },
};
