-- 0011: tanks and wet stock (issue 16, points 5 and 6; docs/forecourt.md "Tanks and wet
-- stock"). Every tank reading is kept (the poller's gauge readings and the attendant's manual
-- dips), so the stock at a shift's open and close can be found afterwards; deliveries with the
-- volume before and after and the quantity on the delivery note. Volumes are decimal text
-- (src/money), times epoch ms.
-- Released: never edit this file (docs/store.md, "Migrations").

CREATE TABLE tank_reading (
  id           TEXT PRIMARY KEY,
  tank         INTEGER NOT NULL CHECK (tank BETWEEN 1 AND 99),
  source       TEXT NOT NULL CHECK (source IN ('gauge', 'dip')),
  product_code TEXT,
  volume       TEXT NOT NULL,
  water        TEXT,
  temperature  TEXT,
  ullage       TEXT,
  staff_id     TEXT,
  read_at      INTEGER NOT NULL
) STRICT;
CREATE INDEX tank_reading_tank ON tank_reading (tank, read_at);

CREATE TABLE tank_delivery (
  id             TEXT PRIMARY KEY,
  tank           INTEGER NOT NULL CHECK (tank BETWEEN 1 AND 99),
  shift_id       TEXT REFERENCES shift (id),
  source         TEXT NOT NULL CHECK (source IN ('gauge', 'entered')),
  volume_before  TEXT NOT NULL,
  volume_after   TEXT NOT NULL,
  note_quantity  TEXT NOT NULL,
  staff_id       TEXT,
  recorded_at    INTEGER NOT NULL
) STRICT;
CREATE INDEX tank_delivery_tank ON tank_delivery (tank, recorded_at);

CREATE TABLE wetstock_report (
  id          TEXT PRIMARY KEY,
  shift_id    TEXT NOT NULL REFERENCES shift (id),
  report      TEXT NOT NULL,
  created_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX wetstock_report_shift ON wetstock_report (shift_id, created_at);
