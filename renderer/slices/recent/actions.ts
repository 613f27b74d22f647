// Recent sales: search (and the next page), open one, print its receipt again (a COPY), and
// refund or cancel it on the refund screen, which gets the sale's id and what was refunded.
import { send, type Performers, type Till } from '../../till.js';
import { recentQuery } from './query.js';
import { RECENT_PAGE, selectedSale, type RecentEvent } from './state.js';

export type RecentAction =
  | { type: 'recent-search' }
  | { type: 'recent-more' }
  | Extract<RecentEvent, { type: 'recent-select' | 'recent-close' }>
  | { type: 'recent-reprint' }
  | { type: 'recent-refund' };

async function search(till: Till, more: boolean): Promise<void> {
  const built = more ? { input: till.state.recent.query } : recentQuery(till.state, till.now());
  if (till.invalid(built)) return;
  const cursor = more ? till.state.recent.nextCursor : null;
  if (more && cursor === null) return;
  const input = { ...built.input, limit: RECENT_PAGE, ...(cursor ? { cursor } : {}) };
  await till.run('sales-recent', input, (output) => ({
    type: 'recent-loaded',
    output,
    query: built.input,
    more,
  }));
}

export const recentActions: Performers<RecentAction> = {
  'recent-search': (till) => search(till, false),
  'recent-more': (till) => search(till, true),
  'recent-select': send,
  'recent-close': send,
  'recent-reprint': async (till) => {
    const id = till.state.recent.selected;
    if (!id) return;
    await till.run('receipt-reprint', { transaction_id: id }, (output) => ({
      type: 'recent-reprinted',
      output,
    }));
  },
  'recent-refund': async (till) => {
    const sale = selectedSale(till.state);
    if (!sale) return;
    const refunded = sale.lines.map((l) => ({ index: l.index, quantity: l.refunded.quantity }));
    await till.perform({ type: 'refund-open', transactionId: sale.transaction_id, refunded });
  },
};
