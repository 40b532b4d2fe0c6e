-- Knowledge index: chunks of every item's text, their embeddings and a full-text index, plus the
-- work queue that keeps them in step with the items.

-- Items whose index entry is stale. Filled by a trigger on the outbox (`events`), so the queue row
-- commits in the same transaction as the change itself: nothing is missed, and after a crash the
-- indexer resumes with whatever is still queued. `generation` grows with every re-queue, so an
-- indexer only removes the row when no newer change arrived while it worked.
CREATE TABLE knowledge_queue (
    item_id      BLOB PRIMARY KEY NOT NULL,
    project_id   BLOB NOT NULL,
    generation   INTEGER NOT NULL DEFAULT 0,
    attempts     INTEGER NOT NULL DEFAULT 0,
    -- Lease of the indexer working on the row (Unix milliseconds); 0 when free.
    leased_until INTEGER NOT NULL DEFAULT 0,
    queued_at    TEXT NOT NULL
);
CREATE INDEX knowledge_queue_due ON knowledge_queue (leased_until);

CREATE TRIGGER knowledge_queue_on_item_event AFTER INSERT ON events
WHEN NEW.kind LIKE 'item.%'
BEGIN
    INSERT INTO knowledge_queue (item_id, project_id, queued_at)
    VALUES (NEW.subject_id, NEW.project_id, NEW.occurred_at)
    ON CONFLICT (item_id) DO UPDATE
        SET generation = generation + 1, attempts = 0, leased_until = 0, queued_at = excluded.queued_at;
END;

-- Index state per item: what the API reports as the item's index status.
CREATE TABLE knowledge_items (
    item_id      BLOB PRIMARY KEY NOT NULL,
    project_id   BLOB NOT NULL,
    -- The item version the chunks were made from.
    item_version INTEGER NOT NULL,
    -- `indexed` or `failed`.
    status       TEXT NOT NULL,
    error        TEXT,
    chunk_count  INTEGER NOT NULL,
    -- Whether the text was cut at the extraction limit.
    truncated    BOOLEAN NOT NULL,
    -- Embedding model of the vectors (`none` without one); vectors of two models never mix.
    model_id     TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);
CREATE INDEX knowledge_items_project ON knowledge_items (project_id);

CREATE TABLE knowledge_chunks (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id   BLOB NOT NULL,
    item_id      BLOB NOT NULL,
    chunk_index  INTEGER NOT NULL,
    text         TEXT NOT NULL,
    -- Little-endian f32 values, unit length; NULL when no embedding model is configured.
    embedding    BLOB
);
CREATE INDEX knowledge_chunks_item ON knowledge_chunks (item_id);
CREATE INDEX knowledge_chunks_project ON knowledge_chunks (project_id);

-- BM25 keyword index over the chunk text (external content: the text is stored once).
CREATE VIRTUAL TABLE knowledge_fts USING fts5 (
    text, content = 'knowledge_chunks', content_rowid = 'id', tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER knowledge_chunks_fts_insert AFTER INSERT ON knowledge_chunks BEGIN
    INSERT INTO knowledge_fts (rowid, text) VALUES (NEW.id, NEW.text);
END;
CREATE TRIGGER knowledge_chunks_fts_delete AFTER DELETE ON knowledge_chunks BEGIN
    INSERT INTO knowledge_fts (knowledge_fts, rowid, text) VALUES ('delete', OLD.id, OLD.text);
END;

-- Items that existed before the index did.
INSERT INTO knowledge_queue (item_id, project_id, queued_at)
SELECT id, project_id, updated_at FROM items;
