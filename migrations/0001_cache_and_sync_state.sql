-- 0001: the read side. A cache table per change-feed entity (sync.md), each holding the
-- record as validated JSON text (`data`) plus the columns a till looks records up by; the
-- sync cursor; quarantined records; the staging area of a full snapshot.
-- No foreign keys between cache tables: the feed may deliver a card before its customer, and
-- referential integrity of the platform's data is the central service's.
-- Released: never edit this file (docs/store.md, "Migrations").

CREATE TABLE loyalty (
  id         TEXT PRIMARY KEY,
  data       TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE pos (
  id         TEXT PRIMARY KEY,
  loyalty_id TEXT,
  data       TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

-- Rules by loyalty and POS: a rule with an empty POS list (`all_pos` = 1) holds at every POS;
-- the others are listed in rule_pos.
CREATE TABLE rule (
  id                TEXT PRIMARY KEY,
  loyalty_id        TEXT,
  active            INTEGER NOT NULL,
  automatic         INTEGER NOT NULL,
  all_pos           INTEGER NOT NULL,
  coupon_batch_code TEXT,
  data              TEXT NOT NULL,
  updated_at        INTEGER NOT NULL
) STRICT;
CREATE INDEX rule_by_loyalty ON rule (loyalty_id, all_pos);

CREATE TABLE rule_pos (
  pos_id  TEXT NOT NULL,
  rule_id TEXT NOT NULL REFERENCES rule (id) ON DELETE CASCADE,
  PRIMARY KEY (pos_id, rule_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX rule_pos_by_rule ON rule_pos (rule_id);

-- Identifiers are stored normalised (phone: digits only; e-mail: trimmed, lower case).
CREATE TABLE customer (
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
CREATE INDEX customer_by_phone ON customer (phone) WHERE phone IS NOT NULL;
CREATE INDEX customer_by_email ON customer (email) WHERE email IS NOT NULL;
CREATE INDEX customer_by_external_id ON customer (external_id) WHERE external_id IS NOT NULL;
CREATE INDEX customer_by_qr_code ON customer (qr_code) WHERE qr_code IS NOT NULL;

CREATE TABLE card (
  id          TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL,
  code        TEXT NOT NULL,
  data        TEXT NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX card_by_code ON card (code);
CREATE INDEX card_by_customer ON card (customer_id);

-- Promotional bonus lots (the regular balance is on the customer record).
CREATE TABLE bonus_lot (
  id          TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL,
  data        TEXT NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX bonus_lot_by_customer ON bonus_lot (customer_id);

CREATE TABLE special_account (
  id          TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL,
  data        TEXT NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX special_account_by_customer ON special_account (customer_id);

CREATE TABLE corporate_access (
  id                 TEXT PRIMARY KEY,
  customer_id        TEXT NOT NULL,
  special_account_id TEXT,
  data               TEXT NOT NULL,
  updated_at         INTEGER NOT NULL
) STRICT;
CREATE INDEX corporate_access_by_customer ON corporate_access (customer_id);

-- `tag` is the vehicle's `vehicle_id` (QR code or tag of vehicle or equipment).
CREATE TABLE vehicle (
  id          TEXT PRIMARY KEY,
  customer_id TEXT,
  qr_code     TEXT,
  tag         TEXT,
  avi_id      TEXT,
  data        TEXT NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX vehicle_by_qr_code ON vehicle (qr_code) WHERE qr_code IS NOT NULL;
CREATE INDEX vehicle_by_tag ON vehicle (tag) WHERE tag IS NOT NULL;
CREATE INDEX vehicle_by_avi_id ON vehicle (avi_id) WHERE avi_id IS NOT NULL;
CREATE INDEX vehicle_by_customer ON vehicle (customer_id) WHERE customer_id IS NOT NULL;

CREATE TABLE coupon (
  id          TEXT PRIMARY KEY,
  code        TEXT NOT NULL,
  customer_id TEXT,
  data        TEXT NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX coupon_by_code ON coupon (code);
CREATE INDEX coupon_by_customer ON coupon (customer_id) WHERE customer_id IS NOT NULL;

CREATE TABLE coupon_batch (
  id         TEXT PRIMARY KEY,
  code       TEXT,
  data       TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX coupon_batch_by_code ON coupon_batch (code) WHERE code IS NOT NULL;

CREATE TABLE additional_service (
  id         TEXT PRIMARY KEY,
  code       TEXT,
  data       TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE additional_cost (
  id         TEXT PRIMARY KEY,
  loyalty_id TEXT,
  data       TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX additional_cost_by_loyalty ON additional_cost (loyalty_id);

-- Staff carry `auth_code_hash` (salted scrypt), never a clear code.
CREATE TABLE staff (
  id         TEXT PRIMARY KEY,
  suspended  INTEGER NOT NULL,
  data       TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE business_settings (
  id         TEXT PRIMARY KEY,
  data       TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE customer_stats (
  id          TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL,
  data        TEXT NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX customer_stats_by_customer ON customer_stats (customer_id);

-- Sync state: the change-feed cursor, the last pull, snapshot progress (key/value, JSON values).
CREATE TABLE sync_state (
  key        TEXT PRIMARY KEY,
  value      TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

-- Records that failed validation: kept and counted, never blocking the rest of a page.
CREATE TABLE quarantine (
  id          INTEGER PRIMARY KEY,
  entity      TEXT NOT NULL,
  record_id   TEXT,
  op          TEXT NOT NULL,
  data        TEXT,
  error       TEXT NOT NULL,
  cursor      TEXT,
  received_at INTEGER NOT NULL
) STRICT;
CREATE INDEX quarantine_by_record ON quarantine (entity, record_id);

-- A full snapshot loads here page by page and is swapped into the cache in one transaction.
CREATE TABLE snapshot_staging (
  entity TEXT NOT NULL,
  id     TEXT NOT NULL,
  data   TEXT NOT NULL,
  PRIMARY KEY (entity, id)
) STRICT;
