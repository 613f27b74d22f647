-- 0008: cash paid into or out of the drawer outside a sale (issue 15, point 5; docs/terminal.md
-- "Cash movements"): who, when, in which shift, how much and why. The shift report lists them
-- and counts them in the cash it expects. Money is exact decimal TEXT, times epoch ms.
-- Released: never edit this file (docs/store.md, "Migrations").

CREATE TABLE cash_movement (
  id          TEXT PRIMARY KEY,
  shift_id    TEXT NOT NULL REFERENCES shift (id),
  kind        TEXT NOT NULL CHECK (kind IN ('paid-in', 'paid-out')),
  amount      TEXT NOT NULL,
  reason      TEXT NOT NULL,
  staff_id    TEXT NOT NULL,
  staff_name  TEXT,
  recorded_at INTEGER NOT NULL
) STRICT;
CREATE INDEX cash_movement_shift ON cash_movement (shift_id, recorded_at);
