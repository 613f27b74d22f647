-- 0007: cash at the till (issue 12, docs/terminal.md "Money at the till").
-- `cash_tender`: what the customer handed over for the cash part of a sale and the change
-- given back. Written before the sale is recorded (keyed by its transaction id, so a crash
-- between the two cannot lose it) and read only beside a ledger operation of that id; a
-- refused sale's row is deleted.
-- `cash_prepay`: cash taken for a fuel prepay when the pump is authorised. It is in the
-- drawer from then on, though nothing is sold until the completion: the shift that took it
-- expects it, and the shift of the completion (the ledger operation naming it in
-- `preliminary_transaction_id`) gives the change back.
-- Released: never edit this file (docs/store.md, "Migrations").

CREATE TABLE cash_tender (
  transaction_id TEXT PRIMARY KEY,
  given          TEXT NOT NULL,
  change         TEXT NOT NULL
) STRICT;

CREATE TABLE cash_prepay (
  authorisation_id TEXT PRIMARY KEY,
  shift_id         TEXT NOT NULL REFERENCES shift (id),
  amount           TEXT NOT NULL,
  taken_at         INTEGER NOT NULL
) STRICT;
CREATE INDEX cash_prepay_shift ON cash_prepay (shift_id);
