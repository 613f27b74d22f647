-- 0014: the prepays this till authorised on a pump (docs/forecourt.md, "Selling a fill").
-- Once a prepay reached a pump, what was dispensed is the pump's: its completion names its
-- fill, or books nothing dispensed when the pump's release ran out with no fill, and never
-- takes figures from the caller. `pump_authorisation` forgets the pump when its fill is kept
-- or its release runs out; this row stays (the last pump it was authorised on). The index
-- finds the fill drawn on a prepay. Times epoch ms.
-- Released: never edit this file (docs/store.md, "Migrations").

CREATE TABLE prepay_pump (
  transaction_id TEXT PRIMARY KEY,
  pump           INTEGER NOT NULL CHECK (pump >= 1),
  authorised_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX pump_fill_authorisation ON pump_fill (authorisation_id);
