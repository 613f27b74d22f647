// The sale screen's actions: identifying the customer runs a command; everything else is an
// event the reducer takes as it is (the controller prices the changed draft).
import { identifyInput } from '../../requests.js';
import { send, type Performers } from '../../till.js';
import { loadForecourt } from '../forecourt/actions.js';
import type { SaleEvent } from './state.js';

/** The events a sale screen's control sends as they are (not the terminal's answers). */
type AsIs = Exclude<
  SaleEvent,
  { type: 'presets' | 'customer-identified' | 'calc-started' | 'calc-done' }
>;

export type SaleAction = { type: 'identify' } | AsIs;

export const saleActions: Performers<SaleAction> = {
  identify: async (till) => {
    const built = identifyInput(till.state);
    if (till.invalid(built)) return;
    const input = built.input;
    const identity = {
      id: input.id,
      id_type: input.id_type,
      ...(input.cardotppassword ? { cardotppassword: input.cardotppassword } : {}),
    };
    await till.run('customer-identify', input, (output) => ({
      type: 'customer-identified',
      output,
      identity,
    }));
  },
  'customer-clear': send,
  'item-add': send,
  'preset-add': send,
  'line-remove': send,
  'line-step': send,
  'line-select': send,
  'select-step': send,
  'bonuses-apply': send,
  'bonuses-max': send,
  'bonuses-clear': send,
  'coupon-add': send,
  'coupon-remove': send,
  'rule-toggle': send,
  'rules-all': send,
  'void-sale': send,
  'fill-added': send,
  'fill-remove': send,
  // The pump's grades are asked again: a price the catalogue changed since the forecourt was
  // loaded would have its line refused (a catalogue good at another price).
  'prepay-for': async (till, action) => {
    till.dispatch(action);
    if (action.pump !== null) await loadForecourt(till);
  },
  'prepay-grade': send,
};
