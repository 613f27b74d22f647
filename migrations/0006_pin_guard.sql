-- 0006: wrong special-account and corporate-access PINs (docs/terminal.md, "PIN attempts").
-- Times only, per target (`special-account:ID` or `corporate-access:ID`): never the PIN
-- typed, not even hashed. Enough failures inside the window lock that target's PIN for the
-- lockout; the rows survive a restart, so pulling the plug does not reset the count.
-- Released: never edit this file (docs/store.md, "Migrations").

CREATE TABLE pin_failure (
  id     INTEGER PRIMARY KEY,
  target TEXT NOT NULL,
  at     INTEGER NOT NULL
) STRICT;

CREATE INDEX pin_failure_by_target ON pin_failure (target, at);
