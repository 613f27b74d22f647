// The sandbox central service's own schema. It is a sandbox, not the terminal: one schema
// version, created when the file is new, no migrations (a newer sandbox starts a new file).
export const CENTRAL_SCHEMA_VERSION = 1;

export const CENTRAL_SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- Every cacheable record of the change feed, tombstones included. seq is the feed order:
-- each upsert or delete takes the next number, so deltas are "seq > cursor".
CREATE TABLE IF NOT EXISTS records (
  entity  TEXT NOT NULL,
  id      TEXT NOT NULL,
  data    TEXT,
  deleted INTEGER NOT NULL DEFAULT 0,
  seq     INTEGER NOT NULL,
  PRIMARY KEY (entity, id)
);
CREATE UNIQUE INDEX IF NOT EXISTS records_by_seq ON records (seq);

-- The idempotency store: a key is unique forever (sync.md), never a cache with a lifetime.
CREATE TABLE IF NOT EXISTS idempotency (
  key         TEXT PRIMARY KEY,
  terminal_id TEXT NOT NULL,
  operation   TEXT NOT NULL,
  body_hash   TEXT NOT NULL,
  status      INTEGER NOT NULL,
  response    TEXT NOT NULL,
  created     TEXT NOT NULL
);

-- Processed checks as the engine returned them, and every other write that moved value.
CREATE TABLE IF NOT EXISTS transactions (
  n              INTEGER PRIMARY KEY AUTOINCREMENT,
  transaction_id TEXT NOT NULL UNIQUE,
  terminal_id    TEXT NOT NULL,
  operation      TEXT NOT NULL,
  customer_id    TEXT,
  subtype        TEXT,
  body           TEXT NOT NULL,
  cancelled      INTEGER NOT NULL DEFAULT 0,
  created        TEXT NOT NULL
);

-- Special-account spending by local date, so day and month usage follow the calendar.
CREATE TABLE IF NOT EXISTS account_usage (
  account_id     TEXT NOT NULL,
  local_date     TEXT NOT NULL,
  amount         TEXT NOT NULL,
  transaction_id TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS account_usage_by_account ON account_usage (account_id, local_date);

CREATE TABLE IF NOT EXISTS terminals (
  id           TEXT PRIMARY KEY,
  api_key_hash TEXT NOT NULL,
  business_id  TEXT NOT NULL,
  pos_id       TEXT NOT NULL,
  loyalty_id   TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS tokens (
  token       TEXT PRIMARY KEY,
  terminal_id TEXT NOT NULL,
  staff_id    TEXT,
  expires_ms  INTEGER NOT NULL
);
`;
