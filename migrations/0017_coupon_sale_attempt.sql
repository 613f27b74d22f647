-- 0017: coupon sales sent to the central service, before the answer is recorded. A till
-- killed while `coupons/sell` is in flight has no record of the sale, yet the central service
-- may have applied it (debited the customer, made the coupon); the row written and committed
-- before sending keeps the key, the request's hash and the sale as it was sent, so the next
-- start queues it under the same key (docs/terminal.md, "Coupon sales"), and a resend of the
-- key never decides it again from the till's figures. Deleted in the transaction that records
-- the outcome, or on the central service's definite refusal.
-- Released: never edit this file (docs/store.md, "Migrations").

CREATE TABLE coupon_sale_attempt (
  transaction_id TEXT PRIMARY KEY,
  request_hash   TEXT NOT NULL,
  sale           TEXT NOT NULL,
  started_at     INTEGER NOT NULL
) STRICT;
