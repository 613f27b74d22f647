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
}

export type RefundField =
  'refund-transaction-id' | `refund-qty-${number}` | 'refund-comment' | 'cancel-armed';

export function initialRefund(): RefundState {
  return { sale: null, refundId: null, result: null, cancelled: null };
}

export type RefundEvent =
  | { type: 'refund-open'; transactionId: string | null }
  | { type: 'refund-loaded'; output: SaleStatus }
  | { type: 'refund-all' }
  | { type: 'refund-started'; refundId: string }
  | { type: 'refund-done'; output: RefundResult }
  | { type: 'refund-failed'; error: ErrorBody }
  | { type: 'cancel-done'; output: CancelResult };
