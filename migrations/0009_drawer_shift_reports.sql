-- 0009: the cash drawer opened on request (`drawer-open`: who, when, in which shift, why, and
-- whether the printer took the pulse) and the shift reports kept (an X report printed during
-- the shift, the Z report of its close), so past shifts' reports are listed and reprinted
-- (issue 15, point 5; docs/terminal.md "The cash drawer" and "Shift reports kept"). The report
-- is the `shift-report` answer's JSON, read back through its schema; times epoch ms.
-- Released: never edit this file (docs/store.md, "Migrations").

CREATE TABLE drawer_opening (
  id          TEXT PRIMARY KEY,
  shift_id    TEXT NOT NULL REFERENCES shift (id),
  staff_id    TEXT NOT NULL,
  staff_name  TEXT,
  reason      TEXT,
  pulse_sent  INTEGER NOT NULL CHECK (pulse_sent IN (0, 1)),
  opened_at   INTEGER NOT NULL
) STRICT;
CREATE INDEX drawer_opening_shift ON drawer_opening (shift_id, opened_at);

CREATE TABLE shift_report (
  id          TEXT PRIMARY KEY,
  shift_id    TEXT NOT NULL REFERENCES shift (id),
  kind        TEXT NOT NULL CHECK (kind IN ('x', 'z')),
  report      TEXT NOT NULL,
  printed     INTEGER NOT NULL CHECK (printed IN (0, 1)),
  created_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX shift_report_shift ON shift_report (shift_id, created_at);
