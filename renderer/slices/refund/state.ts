// Refunding some lines of a processed sale, or cancelling it whole: the sale `sale-status`
// found, the refund's own id (kept across retries of the same refund), and what the refund
// or the cancellation recorded.
import { ZERO, add, cmp, dec, sub, toNumber, type Dec } from '../../money.js';
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
  /** What refunds already took back per line, when the sale came from the recent sales. */
  refunded: { transactionId: string; lines: readonly RefundedLine[] } | null;
}

/** A line's quantity the refunds recorded here already took back. */
export interface RefundedLine {
  index: number;
  quantity: number;
}

/** The quantity refunds already took back from line `index` (0 when none is known). */
export function refundedOf(state: RefundState, index: number): number {
  const r = state.refunded;
  if (!r || r.transactionId !== state.sale?.transaction_id) return 0;
  return r.lines.find((l) => l.index === index)?.quantity ?? 0;
}

/** What was refunded of the sale once `lines` are refunded too (unknown stays unknown). */
export function withRefunded(state: RefundState, lines: readonly RefundedLine[]): RefundState {
  const r = state.refunded;
  if (!r || r.transactionId !== state.sale?.transaction_id) return state;
  const indexes = [...new Set([...r.lines, ...lines].map((l) => l.index))];
  const sum = (index: number) =>
    [...r.lines, ...lines]
      .filter((l) => l.index === index)
      .reduce((total, l) => add(total, dec(l.quantity)), ZERO);
  const merged = indexes.map((index) => ({ index, quantity: toNumber(sum(index)) }));
  return { ...state, refunded: { transactionId: r.transactionId, lines: merged } };
}

/** Whether the screen knows what was refunded of the sale loaded. */
export function knowsRefunded(state: RefundState): boolean {
  return state.refunded !== null && state.refunded.transactionId === state.sale?.transaction_id;
}

/** What is left to refund of a line that sold `sold`. */
export function leftOf(state: RefundState, index: number, sold: number): Dec {
  const left = sub(dec(sold), dec(refundedOf(state, index)));
  return cmp(left, ZERO) < 0 ? ZERO : left;
}

export type RefundField = 'refund-transaction-id' | `refund-qty-${number}` | 'refund-comment';

export function initialRefund(): RefundState {
  return {
    sale: null,
    refundId: null,
    result: null,
    cancelled: null,
    cancelArmed: false,
    refunded: null,
  };
}

export type RefundEvent =
  | { type: 'refund-open'; transactionId: string | null; refunded?: readonly RefundedLine[] }
  | { type: 'refund-loaded'; output: SaleStatus }
  | { type: 'refund-all' }
  | { type: 'refund-started'; refundId: string }
  /** `lines`: what the refund sent (absent: not known here). */
  | { type: 'refund-done'; output: RefundResult; lines?: readonly RefundedLine[] }
  | { type: 'refund-failed'; error: ErrorBody }
  /** The first press of Cancel: the cashier is asked to press again. */
  | { type: 'cancel-arm' }
  /** The second: the cancellation goes out. */
  | { type: 'cancel-disarm' }
  | { type: 'cancel-done'; output: CancelResult };

/** One way the money of a refund or a cancellation goes back to the customer. */
export interface GiveBack {
  key: 'refund.give-cash' | 'refund.to-card' | 'refund.to-account';
  amount: Dec;
  /** The masked card it went back to. */
  card?: string;
}

const ACCOUNT_TYPES: readonly string[] = ['special-account', 'corporate-special-account'];

/**
 * How the money goes back, as the terminal says it paid it back (the answer's `paid_back`,
 * part by part): a card part credits the card of the answer's card operation in turn, an
 * account part the account the sale was paid from, a cash part is given from the drawer.
 */
export function giveBack(done: RefundResult | CancelResult): GiveBack[] {
  const cards = done.payments.map((p) => p.card);
  let card = 0;
  return done.paid_back.map((part): GiveBack => {
    const amount = dec(part.amount);
    if (part.type === 'bank-card') {
      const masked = cards[card++];
      return { key: 'refund.to-card', amount, ...(masked ? { card: masked } : {}) };
    }
    return {
      key: ACCOUNT_TYPES.includes(part.type) ? 'refund.to-account' : 'refund.give-cash',
      amount,
    };
  });
}
