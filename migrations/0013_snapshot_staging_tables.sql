-- 0013: a full snapshot stages into one table per cache entity, each a twin of its live
-- table (the same columns, types, NOT NULL, primary key and indexes), so the swap is SQL
-- alone: the live table emptied and the staged rows copied in with one INSERT ... SELECT *,
-- which SQLite runs by its transfer path (rows and index entries copied as they are, without
-- decoding them or sorting again) only when both sides match like this (docs/sync.md,
-- "Snapshot memory and speed"). A migration that changes a cache table changes its twin the
-- same way (test/store/snapshot-staging.test.ts compares them and checks the path taken).
-- The single staging table goes; a snapshot that was paging starts again from its first page.
-- Released: never edit this file (docs/store.md, "Migrations").

DROP TABLE snapshot_staging;
DELETE FROM sync_state WHERE key = 'snapshot';

CREATE TABLE staged_loyalty (
  id         TEXT PRIMARY KEY,
  data       TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE staged_rule (
  id                TEXT PRIMARY KEY,
  loyalty_id        TEXT,
  active            INTEGER NOT NULL,
  automatic         INTEGER NOT NULL,
  all_pos           INTEGER NOT NULL,
  coupon_batch_code TEXT,
  data              TEXT NOT NULL,
  updated_at        INTEGER NOT NULL
) STRICT;
CREATE INDEX staged_rule_by_loyalty ON staged_rule (loyalty_id, all_pos);

CREATE TABLE staged_pos (
  id         TEXT PRIMARY KEY,
  loyalty_id TEXT,
  data       TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE staged_customer (
  id          TEXT PRIMARY KEY,
  type        TEXT NOT NULL,
  access_type TEXT,
  phone       TEXT,
  email       TEXT,
  external_id TEXT,
  qr_code     TEXT,
  data        TEXT NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX staged_customer_by_phone ON staged_customer (phone) WHERE phone IS NOT NULL;
CREATE INDEX staged_customer_by_email ON staged_customer (email) WHERE email IS NOT NULL;
CREATE INDEX staged_customer_by_external_id ON staged_customer (external_id) WHERE external_id IS NOT NULL;
CREATE INDEX staged_customer_by_qr_code ON staged_customer (qr_code) WHERE qr_code IS NOT NULL;

CREATE TABLE staged_card (
  id          TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL,
  code        TEXT NOT NULL,
  data        TEXT NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX staged_card_by_code ON staged_card (code);
CREATE INDEX staged_card_by_customer ON staged_card (customer_id);

CREATE TABLE staged_bonus_lot (
  id          TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL,
  data        TEXT NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX staged_bonus_lot_by_customer ON staged_bonus_lot (customer_id);

CREATE TABLE staged_special_account (
  id          TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL,
  data        TEXT NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX staged_special_account_by_customer ON staged_special_account (customer_id);

CREATE TABLE staged_corporate_access (
  id                 TEXT PRIMARY KEY,
  customer_id        TEXT NOT NULL,
  special_account_id TEXT,
  data               TEXT NOT NULL,
  updated_at         INTEGER NOT NULL
) STRICT;
CREATE INDEX staged_corporate_access_by_customer ON staged_corporate_access (customer_id);

CREATE TABLE staged_vehicle (
  id          TEXT PRIMARY KEY,
  customer_id TEXT,
  qr_code     TEXT,
  tag         TEXT,
  avi_id      TEXT,
  data        TEXT NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX staged_vehicle_by_qr_code ON staged_vehicle (qr_code) WHERE qr_code IS NOT NULL;
CREATE INDEX staged_vehicle_by_tag ON staged_vehicle (tag) WHERE tag IS NOT NULL;
CREATE INDEX staged_vehicle_by_avi_id ON staged_vehicle (avi_id) WHERE avi_id IS NOT NULL;
CREATE INDEX staged_vehicle_by_customer ON staged_vehicle (customer_id) WHERE customer_id IS NOT NULL;

CREATE TABLE staged_coupon (
  id          TEXT PRIMARY KEY,
  code        TEXT NOT NULL,
  customer_id TEXT,
  data        TEXT NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX staged_coupon_by_code ON staged_coupon (code);
CREATE INDEX staged_coupon_by_customer ON staged_coupon (customer_id) WHERE customer_id IS NOT NULL;

CREATE TABLE staged_coupon_batch (
  id         TEXT PRIMARY KEY,
  code       TEXT,
  data       TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX staged_coupon_batch_by_code ON staged_coupon_batch (code) WHERE code IS NOT NULL;

CREATE TABLE staged_additional_service (
  id         TEXT PRIMARY KEY,
  code       TEXT,
  data       TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE staged_additional_cost (
  id         TEXT PRIMARY KEY,
  loyalty_id TEXT,
  data       TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX staged_additional_cost_by_loyalty ON staged_additional_cost (loyalty_id);

CREATE TABLE staged_staff (
  id         TEXT PRIMARY KEY,
  suspended  INTEGER NOT NULL,
  data       TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE staged_business_settings (
  id         TEXT PRIMARY KEY,
  data       TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE staged_customer_stats (
  id          TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL,
  data        TEXT NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX staged_customer_stats_by_customer ON staged_customer_stats (customer_id);
