// Coupon sales in flight (0017, docs/terminal.md "Coupon sales"). A row is written, and
// committed, before `coupons/sell` leaves, and deleted in the transaction that records the
// outcome (or on the central service's definite refusal). A row found later is a sale the
// central service may have applied while the till recorded nothing: it is queued under the
// same key from the sale kept here, never decided again from the till's figures.
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { CouponBatchOnSale } from '../contract/commands.js';
import { readStoredOrThrow } from './stored-json.js';

/** The sale as it was sent: enough to record it queued without the cache or a signed-in cashier. */
export const CouponAttemptSale = z.strictObject({
  customer_id: z.string(),
  batch_id: z.string(),
  /** As `coupon-sell` charges it (the contract's batch price). */
  price: CouponBatchOnSale.shape.price,
  special_account_id: z.string().nullable(),
  title: z.string(),
  /** The `coupons/sell` body sent under the key. */
  body: z.record(z.string(), z.unknown()),
  staff: z.strictObject({ id: z.string(), name: z.string().optional() }),
});
export type CouponAttemptSale = z.infer<typeof CouponAttemptSale>;

export interface CouponAttempt {
  readonly transactionId: string;
  readonly requestHash: string;
  readonly sale: CouponAttemptSale;
  readonly startedAt: number;
}

interface Raw {
  transaction_id: string;
  request_hash: string;
  sale: string;
  started_at: number;
}

const decode = (r: Raw): CouponAttempt => ({
  transactionId: r.transaction_id,
  requestHash: r.request_hash,
  sale: readStoredOrThrow(CouponAttemptSale, r.sale, `coupon_sale_attempt ${r.transaction_id}`),
  startedAt: r.started_at,
});

export function createCouponAttempts(db: Database.Database) {
  const begin = db.prepare(
    'INSERT INTO coupon_sale_attempt (transaction_id, request_hash, sale, started_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
  );
  const end = db.prepare('DELETE FROM coupon_sale_attempt WHERE transaction_id = ?');
  const one = db.prepare<[string], Raw>(
    'SELECT transaction_id, request_hash, sale, started_at FROM coupon_sale_attempt WHERE transaction_id = ?',
  );
  const open = db.prepare<[], Raw>(
    'SELECT transaction_id, request_hash, sale, started_at FROM coupon_sale_attempt ORDER BY started_at, transaction_id',
  );
  return {
    /** Before the request leaves: durable once this returns (its own commit). */
    begin(
      transactionId: string,
      requestHash: string,
      sale: CouponAttemptSale,
      nowMs: number,
    ): void {
      begin.run(transactionId, requestHash, JSON.stringify(CouponAttemptSale.parse(sale)), nowMs);
    },
    /** The outcome is recorded (inside its transaction), or the central service refused it. */
    end(transactionId: string): void {
      end.run(transactionId);
    },
    /** The attempt under this key still open, if any. */
    get(transactionId: string): CouponAttempt | null {
      const r = one.get(transactionId);
      return r ? decode(r) : null;
    },
    /** Attempts left open, oldest first. */
    open(): CouponAttempt[] {
      return open.all().map(decode);
    },
  };
}

export type CouponAttempts = ReturnType<typeof createCouponAttempts>;
