-- 0012: pump prices and totalizer readings (issue 16, points 4 and 6; docs/forecourt.md,
-- "Prices at the pumps" and "Totalizers at shift open and close"). Each price update sent to a
-- pump is kept, one row per nozzle, with the pump's answer (confirmed: it acknowledged the
-- block; refused: why not), so what each pump was last told is known after a restart. Each
-- nozzle's volume totalizer is kept as read at a shift's open and at its close: the wet stock's
-- pump sales are close - open. Prices and volumes are decimal text (src/money), times epoch ms.
-- Released: never edit this file (docs/store.md, "Migrations").

CREATE TABLE pump_price (
  id          TEXT PRIMARY KEY,
  update_id   TEXT NOT NULL,
  pump        INTEGER NOT NULL CHECK (pump BETWEEN 1 AND 32),
  nozzle      INTEGER NOT NULL CHECK (nozzle BETWEEN 1 AND 15),
  goods_code  TEXT NOT NULL,
  price       TEXT NOT NULL,
  outcome     TEXT NOT NULL CHECK (outcome IN ('confirmed', 'refused')),
  message     TEXT,
  sent_at     INTEGER NOT NULL,
  UNIQUE (update_id, nozzle)
) STRICT;
CREATE INDEX pump_price_pump ON pump_price (pump, sent_at);

CREATE TABLE pump_totals (
  id          TEXT PRIMARY KEY,
  shift_id    TEXT NOT NULL REFERENCES shift (id),
  moment      TEXT NOT NULL CHECK (moment IN ('open', 'close')),
  pump        INTEGER NOT NULL CHECK (pump BETWEEN 1 AND 32),
  nozzle      INTEGER NOT NULL CHECK (nozzle BETWEEN 1 AND 15),
  goods_code  TEXT NOT NULL,
  volume      TEXT NOT NULL,
  read_at     INTEGER NOT NULL,
  UNIQUE (shift_id, moment, pump, nozzle)
) STRICT;
