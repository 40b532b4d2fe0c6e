-- Knowledge index: chunks of every item's text, their embeddings and a full-text index, plus the
-- work queue that keeps them in step with the items.

-- Items whose index entry is stale. Filled by a trigger on the outbox (`events`), so the queue row
-- commits in the same transaction as the change itself: nothing is missed, and after a crash the
-- indexer resumes with whatever is still queued. `generation` grows with every re-queue, so an
-- indexer only removes the row when no newer change arrived while it worked.
CREATE TABLE knowledge_queue (
    item_id      UUID PRIMARY KEY,
    project_id   UUID NOT NULL,
    generation   BIGINT NOT NULL DEFAULT 0,
    attempts     INTEGER NOT NULL DEFAULT 0,
    -- Lease of the indexer working on the row (Unix milliseconds); 0 when free.
    leased_until BIGINT NOT NULL DEFAULT 0,
    queued_at    TIMESTAMPTZ NOT NULL
);
CREATE INDEX knowledge_queue_due ON knowledge_queue (leased_until);

CREATE FUNCTION knowledge_enqueue_item() RETURNS trigger AS $$
BEGIN
    IF NEW.kind LIKE 'item.%' THEN
        INSERT INTO knowledge_queue (item_id, project_id, queued_at)
        VALUES (NEW.subject_id, NEW.project_id, NEW.occurred_at)
        ON CONFLICT (item_id) DO UPDATE
            SET generation = knowledge_queue.generation + 1, attempts = 0, leased_until = 0,
                queued_at = EXCLUDED.queued_at;
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER knowledge_queue_on_item_event AFTER INSERT ON events
FOR EACH ROW EXECUTE FUNCTION knowledge_enqueue_item();

-- Index state per item: what the API reports as the item's index status.
CREATE TABLE knowledge_items (
    item_id      UUID PRIMARY KEY,
    project_id   UUID NOT NULL,
    -- The item version the chunks were made from.
    item_version BIGINT NOT NULL,
    -- `indexed` or `failed`.
    status       TEXT NOT NULL,
    error        TEXT,
    chunk_count  INTEGER NOT NULL,
    -- Whether the text was cut at the extraction limit.
    truncated    BOOLEAN NOT NULL,
    -- Embedding model of the vectors (`none` without one); vectors of two models never mix.
    model_id     TEXT NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX knowledge_items_project ON knowledge_items (project_id);

CREATE TABLE knowledge_chunks (
    id           BIGSERIAL PRIMARY KEY,
    project_id   UUID NOT NULL,
    item_id      UUID NOT NULL,
    chunk_index  INTEGER NOT NULL,
    text         TEXT NOT NULL,
    -- Little-endian f32 values, unit length; NULL when no embedding model is configured.
    embedding    BYTEA,
    -- PostgreSQL full-text search vector of the text (the keyword leg). Words are split at every
    -- character that is not a letter or digit first, as SQLite's unicode61 tokenizer does, so URLs
    -- and file names (`example.com/ornithology`, `pelican-wingspan.png`) are searchable by their words.
    tsv          TSVECTOR GENERATED ALWAYS AS (
                     to_tsvector('english', regexp_replace(text, '[^[:alnum:]]+', ' ', 'g'))
                 ) STORED
);
CREATE INDEX knowledge_chunks_item ON knowledge_chunks (item_id);
CREATE INDEX knowledge_chunks_project ON knowledge_chunks (project_id);
CREATE INDEX knowledge_chunks_tsv ON knowledge_chunks USING GIN (tsv);

-- Items that existed before the index did.
INSERT INTO knowledge_queue (item_id, project_id, queued_at)
SELECT id, project_id, updated_at FROM items;
