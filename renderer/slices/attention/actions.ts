// The attention screen's actions: load the list, resolve an item (managers), recover card
// payments whose outcome the terminal does not know.
import { resolveInput } from '../../requests.js';
import type { Performers } from '../../till.js';

export type AttentionAction =
  | { type: 'attention-load' }
  | { type: 'attention-toggle-resolved' }
  | { type: 'attention-resolve'; id: string }
  | { type: 'payment-recover' };

export const attentionActions: Performers<AttentionAction> = {
  'attention-load': (till) => till.loadAttention(),
  'attention-toggle-resolved': (till) => {
    till.dispatch({ type: 'attention-toggle-resolved' });
    return till.loadAttention();
  },
  'attention-resolve': async (till, { id }) => {
    await till.run('attention-resolve', resolveInput(till.state, id), (o) => ({
      type: 'attention-resolved',
      item: o.item,
    }));
    await till.refreshStatus();
  },
  'payment-recover': async (till) => {
    await till.run('payment-recover', {}, (output) => ({ type: 'recovered', output }));
  },
};
