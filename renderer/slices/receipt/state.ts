// The receipt of the sale just committed, and the id of the last sale (the refund screen
// offers it).
import type { State } from '../../state.js';
import type { CheckResponse, CommittedSale, SaleResult, Warning } from '../../types.js';

export interface Receipt {
  transactionId: string;
  subtype: SaleResult['subtype'];
  check: CheckResponse;
  warnings: Warning[];
  payments: SaleResult['payments'];
  sync: SaleResult['sync'];
  receiptPrinted: boolean | null;
  /** The cash handed over and the change, as the terminal recorded them. */
  cash?: SaleResult['cash'];
  /** The receipt as printed: the ESC/POS bytes sent, decoded by the terminal. */
  preview?: SaleResult['receipt'];
}

export interface ReceiptState {
  receipt: Receipt | null;
  lastTransactionId: string | null;
}

export function initialReceipt(): ReceiptState {
  return { receipt: null, lastTransactionId: null };
}

export type ReceiptEvent = { type: 'new-sale' };

export function receiptOf(result: SaleResult): Receipt {
  return {
    transactionId: result.transaction_id,
    subtype: result.subtype,
    check: result.check,
    warnings: result.warnings,
    payments: result.payments,
    sync: result.sync,
    receiptPrinted: result.receipt_printed,
    ...(result.cash ? { cash: result.cash } : {}),
    ...(result.receipt ? { preview: result.receipt } : {}),
  };
}

/** A sale `sale-status` found committed: what the terminal stored of it. */
export function committedReceipt(sale: CommittedSale): Receipt {
  return {
    transactionId: sale.transaction_id,
    subtype: sale.subtype,
    check: sale.check,
    warnings: [],
    payments: [],
    sync: sale.sync,
    receiptPrinted: null,
  };
}

export function withReceipt(state: State, receipt: Receipt): State {
  return { ...state, receipt: { receipt, lastTransactionId: receipt.transactionId } };
}

export function noReceipt(state: State): State {
  return { ...state, receipt: { ...state.receipt, receipt: null } };
}
