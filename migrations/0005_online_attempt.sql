-- 0005: sales sent to the central service online first, before the answer is recorded. A
-- till killed while such a request is in flight has no record of the sale, yet the server
-- may have applied it; the row written before sending tells the next start to void that id
-- (docs/sync.md, "Online attempts"). Deleted when the outcome is recorded.
-- Released: never edit this file (docs/store.md, "Migrations").

CREATE TABLE online_attempt (
  transaction_id TEXT PRIMARY KEY,
  started_at     INTEGER NOT NULL
) STRICT;
