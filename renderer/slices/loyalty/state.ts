// Loyalty at the till, for the customer identified in the sale: coupons and certificates sold
// at their batch's price (`coupon-batches`, `coupon-sell`), and bonuses added or written off
// by a manager with why (`bonus-operation`). The customer's balances are the sale's own,
// asked again after each, so every screen shows what the till now knows.
import type {
  BonusOperation,
  CouponBatchOnSale,
  CouponSale,
  CustomerSummary,
} from '../../types.js';

export interface LoyaltyState {
  /** What the till sells; null until `coupon-batches` answered. */
  batches: CouponBatchOnSale[] | null;
  /** The coupon this screen sold last (its code and QR are shown for the customer). */
  sold: CouponSale | null;
  /** The bonus operation this screen recorded last. */
  moved: BonusOperation | null;
  /**
   * The transaction id of the coupon sale being made: made at the first press on a batch,
   * kept while it has no answer (a press again after a lost answer is the same sale, made
   * once), dropped when the sale is answered.
   */
  saleKey: { batchId: string; key: string } | null;
  /** The same for the bonus operation being recorded. */
  bonusKey: string | null;
}

export type LoyaltyField = 'bonus-kind' | 'bonus-amount' | 'bonus-comment';

/** The fields' first values. */
export const LOYALTY_FORM = { 'bonus-kind': 'add' } as const;

export function initialLoyalty(): LoyaltyState {
  return { batches: null, sold: null, moved: null, saleKey: null, bonusKey: null };
}

export type LoyaltyEvent =
  | { type: 'batches-loaded'; batches: CouponBatchOnSale[] }
  | { type: 'coupon-sale-key'; batchId: string; key: string }
  | { type: 'coupon-sold'; sale: CouponSale }
  | { type: 'bonus-key'; key: string }
  | { type: 'bonus-moved'; operation: BonusOperation }
  | { type: 'customer-refreshed'; customer: CustomerSummary };

/** The key of a sale of `batchId`: the one kept for it, else null (a new one is made). */
export function saleKeyFor(state: LoyaltyState, batchId: string): string | null {
  return state.saleKey?.batchId === batchId ? state.saleKey.key : null;
}

/** The field a refusal's `path` names, where the cashier fixes it. */
export function loyaltyFieldOf(path: string | undefined): LoyaltyField | null {
  if (path === 'amount') return 'bonus-amount';
  if (path === 'comment') return 'bonus-comment';
  return null;
}
