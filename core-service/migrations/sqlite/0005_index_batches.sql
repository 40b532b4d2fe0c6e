-- Knowledge index at the model's batch speed (issue 14): live changes before background work, the
-- fingerprints that let unchanged text skip the model, and the indexes progress counts need.

-- 0: a live change (an item was written); 1: background work (a re-index for a new embedding
-- model). Leases take live rows first, so edits stay retrievable within a second while a re-index
-- of everything runs behind them.
ALTER TABLE knowledge_queue ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;
DROP INDEX knowledge_queue_due;
CREATE INDEX knowledge_queue_order ON knowledge_queue (priority, queued_at);
CREATE INDEX knowledge_queue_project ON knowledge_queue (project_id);

-- A live change of an item queued for background work makes it live.
DROP TRIGGER knowledge_queue_on_item_event;
CREATE TRIGGER knowledge_queue_on_item_event AFTER INSERT ON events
WHEN NEW.kind LIKE 'item.%'
BEGIN
    INSERT INTO knowledge_queue (item_id, project_id, queued_at)
    VALUES (NEW.subject_id, NEW.project_id, NEW.occurred_at)
    ON CONFLICT (item_id) DO UPDATE
        SET generation = generation + 1, attempts = 0, leased_until = 0, queued_at = excluded.queued_at,
            priority = 0;
END;

-- SHA-256 of what the item's text is made from (inline text, file name and content key, relation
-- sentence) and of the chunking settings: an item whose fingerprint and model are unchanged (it was
-- moved or restyled) only has its version recorded. NULL: unknown (indexed before this migration).
ALTER TABLE knowledge_items ADD COLUMN source_hash BLOB;
CREATE INDEX knowledge_items_model ON knowledge_items (model_id);

-- SHA-256 of the chunk's text: a chunk whose text is already stored with a vector of the same model
-- (any item, any project) reuses that vector instead of calling the model. NULL before this migration.
ALTER TABLE knowledge_chunks ADD COLUMN text_hash BLOB;
CREATE INDEX knowledge_chunks_text_hash ON knowledge_chunks (text_hash);
