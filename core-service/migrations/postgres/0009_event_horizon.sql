-- Live change streams (`WatchService`) follow a project's events by transaction visibility
-- instead of a five-second grace window, as 0007 did for retrieval's change records.
--
-- `events.seq` is taken at insert, not at commit, so a transaction that took a lower seq can
-- commit after one with a higher seq. A follower that moved past a seq after five seconds lost
-- any record whose transaction ran longer (a write waiting its turn on a busy item, a large bulk
-- create under load). Each event now keeps the id of the transaction that wrote it; a follower
-- reads the records with `txid` at or above its floor and moves the floor to the `xmin` of a
-- snapshot taken before that read: every transaction below it has ended.
--
-- The column is added with a constant default (no table rewrite), then given the volatile
-- default for new rows. Rows written before this migration keep 0: they committed long ago.
ALTER TABLE events ADD COLUMN txid BIGINT NOT NULL DEFAULT 0;
ALTER TABLE events ALTER COLUMN txid SET DEFAULT (pg_current_xact_id()::text::bigint);
CREATE INDEX events_project_txid ON events (project_id, txid);
