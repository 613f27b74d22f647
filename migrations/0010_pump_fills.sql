-- 0010: the forecourt's fills (issue 16; docs/forecourt.md, "Fills"): each fill a pump
-- finished, with the pump's own volume, amount and unit price, kept until it is sold (a
-- postpay sale or a prepay's completion names it), or recorded as a drive-off. A fill is known
-- by its nozzle's volume totalizer after it (`totals_after`): read again after a restart, the
-- same fill is the same row, so it is sold exactly once. Beside them, the prepay each pump is
-- authorised for until its fill is kept (`pump_authorisation`), so a restart mid-fill still
-- knows whose fill it is. Decimals are exact text (src/money); times epoch ms.
-- Released: never edit this file (docs/store.md, "Migrations").

CREATE TABLE pump_fill (
  id               TEXT PRIMARY KEY,
  pump             INTEGER NOT NULL CHECK (pump >= 1),
  nozzle           INTEGER NOT NULL CHECK (nozzle >= 1),
  grade            TEXT NOT NULL,
  volume           TEXT NOT NULL,
  amount           TEXT NOT NULL,
  unit_price       TEXT NOT NULL,
  totals_after     TEXT NOT NULL,
  -- the prepay's pump authorisation (sale-process, transaction_type preauthorization), if any
  authorisation_id TEXT,
  state            TEXT NOT NULL CHECK (state IN ('unpaid', 'sold', 'drive-off')),
  -- the sale or completion that sold it
  transaction_id   TEXT,
  finished_at      INTEGER NOT NULL,
  resolved_at      INTEGER,
  resolved_by      TEXT,
  UNIQUE (pump, nozzle, totals_after)
) STRICT;
CREATE INDEX pump_fill_open ON pump_fill (state, pump, finished_at);
CREATE INDEX pump_fill_transaction ON pump_fill (transaction_id);

CREATE TABLE pump_authorisation (
  pump           INTEGER PRIMARY KEY CHECK (pump >= 1),
  transaction_id TEXT NOT NULL,
  authorised_at  INTEGER NOT NULL
) STRICT;
