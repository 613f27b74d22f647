-- 0016: a snapshot is swapped in by renaming its staging twins, not by copying them
-- (docs/sync.md, "Apply speed", third round): at the swap each live table is dropped, its
-- twin renamed in its place, the live table's indexes created again from their own SQL
-- (sorted once, under the names they always had) and an empty twin made from the twin's
-- SQL, all in the last page's transaction. Every row is written once. The twins keep their
-- columns and primary key (staging upserts by id) and lose their other indexes: an index
-- kept up row by row while staging costs more than one built by sorting at the swap, far
-- more when its keys arrive in no order (phones, e-mails), and its name would move to the
-- live table with the rename. A snapshot staged so far stays staged.
-- Released: never edit this file (docs/store.md, "Migrations").

DROP INDEX staged_rule_by_loyalty;
DROP INDEX staged_customer_by_phone;
DROP INDEX staged_customer_by_email;
DROP INDEX staged_customer_by_external_id;
DROP INDEX staged_customer_by_qr_code;
DROP INDEX staged_card_by_code;
DROP INDEX staged_card_by_customer;
DROP INDEX staged_bonus_lot_by_customer;
DROP INDEX staged_special_account_by_customer;
DROP INDEX staged_corporate_access_by_customer;
DROP INDEX staged_vehicle_by_qr_code;
DROP INDEX staged_vehicle_by_tag;
DROP INDEX staged_vehicle_by_avi_id;
DROP INDEX staged_vehicle_by_customer;
DROP INDEX staged_coupon_by_code;
DROP INDEX staged_coupon_by_customer;
DROP INDEX staged_coupon_batch_by_code;
DROP INDEX staged_additional_cost_by_loyalty;
DROP INDEX staged_customer_stats_by_customer;
