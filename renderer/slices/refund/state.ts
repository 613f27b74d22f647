// Refunding some lines of a processed sale, or cancelling it whole: the sale `sale-status`
// found, the refund's own id (kept across retries of the same refund), and what the refund
// or the cancellation recorded.
import type {
  ErrorBody,
  CancelResult,
  CommittedSale,
  RefundResult,
  SaleStatus,
} from '../../types.js';

export interface RefundState {
  sale: CommittedSale | null;
  /** The refund's own id, kept across retries of the same refund. */
  refundId: string | null;
  result: RefundResult | null;
  cancelled: CancelResult | null;
  /**
   * Cancel was pressed once for the sale on the screen: the next press cancels it. Loading a
   * sale disarms it, so a press meant for one sale never cancels another.
   */
  cancelArmed: boolean;
}

export type RefundField = 'refund-transaction-id' | `refund-qty-${number}` | 'refund-comment';

export function initialRefund(): RefundState {
  return { sale: null, refundId: null, result: null, cancelled: null, cancelArmed: false };
}

export type RefundEvent =
  | { type: 'refund-open'; transactionId: string | null }
  | { type: 'refund-loaded'; output: SaleStatus }
  | { type: 'refund-all' }
  | { type: 'refund-started'; refundId: string }
  | { type: 'refund-done'; output: RefundResult }
  | { type: 'refund-failed'; error: ErrorBody }
  /** The first press of Cancel: the cashier is asked to press again. */
  | { type: 'cancel-arm' }
  /** The second: the cancellation goes out. */
  | { type: 'cancel-disarm' }
  | { type: 'cancel-done'; output: CancelResult };
