-- 0002: the write side. What this terminal did (the ledger), what it still has to tell the
-- central service (the outbox) and the bank-card operations a restart must reconcile.
-- A sale, its ledger effects and its outbox row are written in one transaction; the foreign
-- keys below make a row that lost its operation impossible.
-- Money and bonus amounts are exact decimal TEXT ('12.50'), summed in TypeScript (src/money).
-- Released: never edit this file (docs/store.md, "Migrations").

-- The spine: one row per operation this terminal made, with its UUIDv7 (the Idempotency-Key)
-- and the per-terminal sequence number, never remade.
CREATE TABLE ledger_operation (
  id          TEXT PRIMARY KEY,
  seq         INTEGER NOT NULL UNIQUE,
  kind        TEXT NOT NULL CHECK (kind IN ('check', 'cancellation', 'bonus-operation', 'bank-card-payment')),
  subtype     TEXT NOT NULL CHECK (subtype IN ('online', 'offline')),
  customer_id TEXT,
  local_date  TEXT NOT NULL,
  sync_status TEXT NOT NULL CHECK (sync_status IN ('unconfirmed', 'confirmed', 'rejected')),
  created_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX ledger_operation_by_customer ON ledger_operation (customer_id, local_date) WHERE customer_id IS NOT NULL;

-- Processed checks as they were stored: a refund is computed from this, never recalculated.
CREATE TABLE ledger_check (
  operation_id            TEXT PRIMARY KEY REFERENCES ledger_operation (id),
  transaction_type        TEXT NOT NULL,
  original_transaction_id TEXT,
  pos_id                  TEXT,
  amount_to_pay           TEXT NOT NULL,
  currency                TEXT,
  check_json              TEXT NOT NULL,
  cancelled_by            TEXT
) STRICT;
CREATE INDEX ledger_check_by_original ON ledger_check (original_transaction_id) WHERE original_transaction_id IS NOT NULL;

-- A cancellation has its own id (its Idempotency-Key) and names the check it cancels, once.
CREATE TABLE ledger_cancellation (
  operation_id   TEXT PRIMARY KEY REFERENCES ledger_operation (id),
  transaction_id TEXT NOT NULL UNIQUE,
  comment        TEXT
) STRICT;

-- Bonus movements: redeem (spent on a check), add (credited), return (a cancel gives back),
-- write-off (taken back); amounts in bonuses.
CREATE TABLE ledger_bonus_op (
  operation_id TEXT NOT NULL REFERENCES ledger_operation (id),
  idx          INTEGER NOT NULL,
  customer_id  TEXT NOT NULL,
  kind         TEXT NOT NULL CHECK (kind IN ('redeem', 'add', 'return', 'write-off')),
  amount       TEXT NOT NULL,
  PRIMARY KEY (operation_id, idx)
) STRICT;

CREATE TABLE ledger_payment (
  operation_id TEXT NOT NULL REFERENCES ledger_operation (id),
  idx          INTEGER NOT NULL,
  payment_type TEXT NOT NULL,
  payment_id   TEXT,
  amount       TEXT NOT NULL,
  currency     TEXT,
  PRIMARY KEY (operation_id, idx)
) STRICT;

-- Special-account movements; `access_id` for a corporate access.
CREATE TABLE ledger_account_op (
  operation_id TEXT NOT NULL REFERENCES ledger_operation (id),
  idx          INTEGER NOT NULL,
  account_id   TEXT NOT NULL,
  access_id    TEXT,
  direction    TEXT NOT NULL CHECK (direction IN ('debit', 'credit')),
  amount       TEXT NOT NULL,
  currency     TEXT,
  PRIMARY KEY (operation_id, idx)
) STRICT;

CREATE TABLE ledger_coupon (
  operation_id TEXT NOT NULL REFERENCES ledger_operation (id),
  code         TEXT NOT NULL,
  action       TEXT NOT NULL CHECK (action IN ('redeem', 'emit', 'reopen', 'cancel')),
  PRIMARY KEY (operation_id, code, action)
) STRICT;

-- Odometer readings taken here, so an offline sale cannot go below the last one.
CREATE TABLE ledger_odometer (
  operation_id TEXT NOT NULL REFERENCES ledger_operation (id),
  vehicle_id   TEXT NOT NULL,
  value        TEXT NOT NULL,
  unit         TEXT NOT NULL,
  PRIMARY KEY (operation_id, vehicle_id)
) STRICT;
CREATE INDEX ledger_odometer_by_vehicle ON ledger_odometer (vehicle_id, unit);

-- What this terminal spent (or sold, for stats) and the cached figures do not show yet:
-- available = cached - pending. A row lives while its operation is unconfirmed, and after
-- confirmation (`confirmed_at`) until a pull brings the record that reflects it; a rejection
-- drops it. Kinds: bonuses (amount in bonuses), account (money), stats (amount, quantity,
-- visits on `local_date`), coupon (a code redeemed here).
CREATE TABLE pending (
  id           INTEGER PRIMARY KEY,
  operation_id TEXT NOT NULL REFERENCES ledger_operation (id),
  kind         TEXT NOT NULL CHECK (kind IN ('bonuses', 'account', 'stats', 'coupon')),
  customer_id  TEXT,
  account_id   TEXT,
  access_id    TEXT,
  coupon_code  TEXT,
  amount       TEXT,
  quantity     TEXT,
  visits       INTEGER,
  local_date   TEXT NOT NULL,
  confirmed_at INTEGER
) STRICT;
CREATE INDEX pending_by_operation ON pending (operation_id);
CREATE INDEX pending_by_customer ON pending (customer_id, kind) WHERE customer_id IS NOT NULL;
CREATE INDEX pending_by_account ON pending (account_id) WHERE account_id IS NOT NULL;
CREATE INDEX pending_by_access ON pending (access_id) WHERE access_id IS NOT NULL;
CREATE INDEX pending_by_coupon ON pending (coupon_code) WHERE coupon_code IS NOT NULL;

-- Writes still owed to the central service, oldest first. Rows are never deleted: done and
-- rejected rows stay as the record of what was sent; payloads are never rewritten.
CREATE TABLE outbox (
  id              INTEGER PRIMARY KEY,
  transaction_id  TEXT NOT NULL UNIQUE REFERENCES ledger_operation (id),
  seq             INTEGER NOT NULL,
  operation       TEXT NOT NULL,
  payload         TEXT NOT NULL,
  payload_version INTEGER NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('queued', 'sending', 'done', 'rejected')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  last_error      TEXT,
  response        TEXT,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  resolved_at     INTEGER,
  resolved_by     TEXT
) STRICT;
CREATE INDEX outbox_due ON outbox (next_attempt_at, id) WHERE status = 'queued';
CREATE INDEX outbox_sending ON outbox (id) WHERE status = 'sending';
CREATE INDEX outbox_attention ON outbox (id) WHERE status = 'rejected' AND resolved_at IS NULL;

-- Bank-card operations with the acquirer's terminal: written `inprocess` before the device is
-- asked, settled after; a restart reconciles what is still `inprocess`.
CREATE TABLE payment_journal (
  id             TEXT PRIMARY KEY,
  transaction_id TEXT,
  operation_type TEXT NOT NULL CHECK (operation_type IN ('purchase', 'authorize', 'completion', 'refund', 'cancel')),
  system         TEXT,
  amount         TEXT NOT NULL,
  currency       TEXT NOT NULL,
  status         TEXT NOT NULL CHECK (status IN ('inprocess', 'success', 'fail', 'canceled', 'error', 'authorized')),
  request        TEXT,
  response       TEXT,
  created_at     INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL
) STRICT;
CREATE INDEX payment_journal_inprocess ON payment_journal (created_at) WHERE status = 'inprocess';
CREATE INDEX payment_journal_by_transaction ON payment_journal (transaction_id) WHERE transaction_id IS NOT NULL;
