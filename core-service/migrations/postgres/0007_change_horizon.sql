-- Change records become final by transaction visibility instead of by age (0006 waited ten
-- seconds by the database clock, so every retrieval re-read the last ten seconds of changes:
-- thousands of rows during an import).
--
-- Each record keeps the id of the transaction that wrote it. A reader reads its project's
-- records whose transaction id is at or above its floor, and moves the floor to the `xmin` of
-- the snapshot it read with: every transaction below `xmin` has ended, so each record it wrote
-- was either visible to that read or will never exist, while a transaction still running has an
-- id at or above `xmin` and is read again next time. The re-read is then the records of the
-- transactions that were in flight, not of the last seconds. (64-bit ids, `xid8`: no wraparound.)
ALTER TABLE knowledge_changes ADD COLUMN txid BIGINT NOT NULL DEFAULT 0;
CREATE INDEX knowledge_changes_project_txid ON knowledge_changes (project_id, txid);

CREATE OR REPLACE FUNCTION knowledge_record_change() RETURNS trigger AS $$
DECLARE
    changed RECORD;
BEGIN
    IF TG_OP = 'DELETE' THEN
        changed := OLD;
    ELSE
        changed := NEW;
    END IF;
    INSERT INTO knowledge_changes (item_id, project_id, seq, changed_at, txid)
    VALUES (changed.item_id, changed.project_id, nextval('knowledge_change_seq'), clock_timestamp(),
            pg_current_xact_id()::text::bigint)
    ON CONFLICT (item_id) DO UPDATE
        SET seq = EXCLUDED.seq, changed_at = EXCLUDED.changed_at, txid = EXCLUDED.txid;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
