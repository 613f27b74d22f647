// The receipt screen's actions (its refund button is the refund slice's `refund-open`).
import { send, type Performers } from '../../till.js';
import type { ReceiptEvent } from './state.js';

export type ReceiptAction = ReceiptEvent;

export const receiptActions: Performers<ReceiptAction> = {
  'new-sale': send,
};
