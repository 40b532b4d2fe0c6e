-- Retrieval reads each project's chunks into memory (BM25 and the vector graph, computed in Rust
-- so both backends rank alike, with each project's own statistics). The tsvector is no longer read.
ALTER TABLE knowledge_chunks DROP COLUMN tsv;
-- Loading a project pages through its chunks in id order.
CREATE INDEX knowledge_chunks_project_id ON knowledge_chunks (project_id, id);
DROP INDEX knowledge_chunks_project;

-- The latest change of each item's chunks, so every replica's in-memory index catches up with
-- the database before it answers: a retrieval reads the changes of its project above the point
-- its replica has seen (one indexed range read) and reloads those items' chunks. Filled by a
-- trigger, so no code path can change chunks without being seen. One row per item: a change
-- moves the row to a new `seq`. A sequence value is taken when the trigger runs, not at commit,
-- so a smaller `seq` can become visible after a larger one: readers re-read the changes of the
-- last seconds (`changed_at`, taken with the value) until they are final.
CREATE SEQUENCE knowledge_change_seq;
CREATE TABLE knowledge_changes (
    item_id    UUID PRIMARY KEY,
    project_id UUID NOT NULL,
    seq        BIGINT NOT NULL,
    changed_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX knowledge_changes_project ON knowledge_changes (project_id, seq);

CREATE FUNCTION knowledge_record_change() RETURNS trigger AS $$
DECLARE
    changed RECORD;
BEGIN
    IF TG_OP = 'DELETE' THEN
        changed := OLD;
    ELSE
        changed := NEW;
    END IF;
    INSERT INTO knowledge_changes (item_id, project_id, seq, changed_at)
    VALUES (changed.item_id, changed.project_id, nextval('knowledge_change_seq'), clock_timestamp())
    ON CONFLICT (item_id) DO UPDATE SET seq = EXCLUDED.seq, changed_at = EXCLUDED.changed_at;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER knowledge_chunks_changed AFTER INSERT OR UPDATE OR DELETE ON knowledge_chunks
FOR EACH ROW EXECUTE FUNCTION knowledge_record_change();
