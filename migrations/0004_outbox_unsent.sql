-- 0004: the oldest row not yet delivered, without walking the delivered history. Rows are
-- never deleted, so `status IN ('queued', 'sending') ORDER BY id` would otherwise scan every
-- done row before the first unsent one. Serves outbox.oldestUnsent (the pusher's gate after a
-- restart, `sync status`).
-- Released: never edit this file (docs/store.md, "Migrations").

CREATE INDEX outbox_unsent ON outbox (id) WHERE status IN ('queued', 'sending');
