-- Retrieval reads each project's chunks into memory (BM25 and the vector graph, computed in Rust
-- so both backends rank alike, with each project's own statistics). FTS5 is no longer read.
DROP TRIGGER knowledge_chunks_fts_insert;
DROP TRIGGER knowledge_chunks_fts_delete;
DROP TABLE knowledge_fts;

-- The latest change of each item's chunks, so every replica's in-memory index catches up with
-- the database before it answers: a retrieval reads the changes of its project above the point
-- its replica has seen (one indexed range read) and reloads those items' chunks. Filled by
-- triggers, so no code path can change chunks without being seen. One row per item: a change
-- moves the row to a new `seq`.
CREATE TABLE knowledge_changes (
    item_id    BLOB PRIMARY KEY NOT NULL,
    project_id BLOB NOT NULL,
    -- Grows with every change; SQLite's single writer makes it commit in order.
    seq        INTEGER NOT NULL,
    -- When the change was written (database clock), to know when it is final.
    changed_at TEXT NOT NULL
);
CREATE UNIQUE INDEX knowledge_changes_seq ON knowledge_changes (seq);
CREATE INDEX knowledge_changes_project ON knowledge_changes (project_id, seq);

CREATE TRIGGER knowledge_chunks_change_insert AFTER INSERT ON knowledge_chunks BEGIN
    INSERT INTO knowledge_changes (item_id, project_id, seq, changed_at)
    VALUES (NEW.item_id, NEW.project_id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM knowledge_changes),
            strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    ON CONFLICT (item_id) DO UPDATE SET seq = excluded.seq, changed_at = excluded.changed_at;
END;
CREATE TRIGGER knowledge_chunks_change_update AFTER UPDATE ON knowledge_chunks BEGIN
    INSERT INTO knowledge_changes (item_id, project_id, seq, changed_at)
    VALUES (NEW.item_id, NEW.project_id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM knowledge_changes),
            strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    ON CONFLICT (item_id) DO UPDATE SET seq = excluded.seq, changed_at = excluded.changed_at;
END;
CREATE TRIGGER knowledge_chunks_change_delete AFTER DELETE ON knowledge_chunks BEGIN
    INSERT INTO knowledge_changes (item_id, project_id, seq, changed_at)
    VALUES (OLD.item_id, OLD.project_id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM knowledge_changes),
            strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    ON CONFLICT (item_id) DO UPDATE SET seq = excluded.seq, changed_at = excluded.changed_at;
END;
