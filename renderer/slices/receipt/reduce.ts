// The receipt slice's reducer: from the receipt to the next sale.
import type { Reducer } from '../../state.js';
import { go } from '../frame/state.js';
import { freshSale } from '../sale/reduce.js';
import { noReceipt, type ReceiptEvent } from './state.js';

export const receipt: Reducer<ReceiptEvent> = {
  'new-sale': (state) => go(freshSale(noReceipt(state)), 'sale'),
};
