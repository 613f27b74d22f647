-- 0003: the till's own records. Shifts, the sign-in guard (failures and lockout), the
-- attention list's items and resolutions, the answers of idempotent commands, and the
-- progress of bank-card operations the payment flow writes while the unit works.
-- Money is exact decimal TEXT, times epoch milliseconds, as in 0002.
-- Released: never edit this file (docs/store.md, "Migrations").

-- A shift: opened and closed by staff. Its operations are the ledger's with seq in
-- (first_seq_after, last_seq]: the ledger's sequence is per terminal and never remade, so the
-- report needs no link written in the sale's transaction.
CREATE TABLE shift (
  id              TEXT PRIMARY KEY,
  number          INTEGER NOT NULL UNIQUE,
  opened_at       INTEGER NOT NULL,
  opened_by       TEXT NOT NULL,
  opened_by_name  TEXT,
  opening_cash    TEXT,
  first_seq_after INTEGER NOT NULL,
  closed_at       INTEGER,
  closed_by       TEXT,
  closed_by_name  TEXT,
  counted_cash    TEXT,
  last_seq        INTEGER,
  CHECK ((closed_at IS NULL) = (last_seq IS NULL))
) STRICT;
-- At most one open shift per terminal.
CREATE UNIQUE INDEX shift_one_open ON shift ((1)) WHERE closed_at IS NULL;

-- Failed sign-ins (auth codes are never stored, not even hashed: a failure is only a time).
-- Cleared by a successful sign-in; enough of them inside the window lock sign-in.
CREATE TABLE signin_failure (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL
) STRICT;

-- Items the staff must look at. Outbox refusals are mirrored here (ref = transaction id) so
-- every item has one id and one resolution, whatever its source.
CREATE TABLE attention_item (
  id               TEXT PRIMARY KEY,
  kind             TEXT NOT NULL,
  ref              TEXT NOT NULL,
  transaction_id   TEXT,
  created_at       INTEGER NOT NULL,
  message          TEXT NOT NULL,
  error            TEXT,
  details          TEXT,
  resolved_at      INTEGER,
  resolved_by      TEXT,
  resolved_by_name TEXT,
  comment          TEXT,
  UNIQUE (kind, ref)
) STRICT;
CREATE INDEX attention_open ON attention_item (created_at) WHERE resolved_at IS NULL;

-- The first answer of an idempotent command (sale-process, sale-refund, sale-cancel) by its
-- key, with the hash of its request (PIN left out): a repeat answers it, another body is 409.
CREATE TABLE command_result (
  command      TEXT NOT NULL,
  key          TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  response     TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  PRIMARY KEY (command, key)
) STRICT;

-- The payment flow's progress on each bank-card operation (src/devices/payment-flow.ts):
-- how far it got on the line and what the unit reported, so recovery after a crash can tell
-- a booked operation from one never sent. `system` (0002) holds the unit's name.
ALTER TABLE payment_journal ADD COLUMN protocol TEXT;
ALTER TABLE payment_journal ADD COLUMN phase TEXT;
ALTER TABLE payment_journal ADD COLUMN amount_cents INTEGER;
ALTER TABLE payment_journal ADD COLUMN original_receipt INTEGER;
ALTER TABLE payment_journal ADD COLUMN baseline_receipt INTEGER;
ALTER TABLE payment_journal ADD COLUMN receipt_no INTEGER;
ALTER TABLE payment_journal ADD COLUMN trace_no INTEGER;
ALTER TABLE payment_journal ADD COLUMN pan_masked TEXT;
ALTER TABLE payment_journal ADD COLUMN result_code TEXT;
ALTER TABLE payment_journal ADD COLUMN note TEXT;
CREATE INDEX payment_journal_receipts ON payment_journal (system, updated_at) WHERE receipt_no IS NOT NULL;
