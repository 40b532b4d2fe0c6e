-- Comment threads on an item or a point of the map (PostgreSQL; docs/COMMENTS.md). A thread's
-- first comment has the thread's id; replies follow it in `comments`.
CREATE TABLE comment_threads (
    id                   UUID PRIMARY KEY,
    project_id           UUID NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    -- The item it is on. Deferred: an item delete detaches its threads in its own transaction
    -- (after deleting the item), so the check runs at commit, where no thread may name a gone item.
    item_id              UUID REFERENCES items (id) DEFERRABLE INITIALLY DEFERRED,
    -- The item it was on, once that item was deleted.
    former_item_id       UUID,
    -- The point it is on (a thread on a point, or one whose item was deleted); NULL on an item.
    x                    DOUBLE PRECISION,
    y                    DOUBLE PRECISION,
    resolved_at          TIMESTAMPTZ,
    resolved_by          UUID,
    -- Bumped by every change of the thread or its comments.
    version              BIGINT NOT NULL,
    created_by           UUID NOT NULL,
    created_at           TIMESTAMPTZ NOT NULL,
    updated_at           TIMESTAMPTZ NOT NULL,
    CHECK ((x IS NULL) = (y IS NULL))
);
CREATE INDEX comment_threads_project ON comment_threads (project_id, id);
CREATE INDEX comment_threads_item ON comment_threads (item_id) WHERE item_id IS NOT NULL;

CREATE TABLE comments (
    id                   UUID PRIMARY KEY,
    thread_id            UUID NOT NULL REFERENCES comment_threads (id) ON DELETE CASCADE,
    project_id           UUID NOT NULL,
    author_user_id       UUID NOT NULL,
    -- Plain text or HTML under the label rule.
    text                 TEXT NOT NULL,
    -- The ids of the members it mentions, a JSON array of strings.
    mentions             JSONB NOT NULL,
    created_at           TIMESTAMPTZ NOT NULL,
    updated_at           TIMESTAMPTZ NOT NULL,
    edited_at            TIMESTAMPTZ
);
CREATE INDEX comments_thread ON comments (thread_id, id);

-- The knowledge index also holds open comment threads (docs/COMMENTS.md "Knowledge"), keyed by the
-- thread's id: each `comment.*` event queues its thread (`payload.threadId`) as `item.*` events
-- queue their item. The indexer reads a key that names no item as a thread.
CREATE OR REPLACE FUNCTION knowledge_enqueue_item() RETURNS trigger AS $$
DECLARE
    key UUID;
BEGIN
    IF NEW.kind LIKE 'item.%' THEN
        key := NEW.subject_id;
    ELSIF NEW.kind LIKE 'comment.%' THEN
        key := (NEW.payload->>'threadId')::uuid;
    ELSE
        RETURN NULL;
    END IF;
    INSERT INTO knowledge_queue (item_id, project_id, queued_at)
    VALUES (key, NEW.project_id, NEW.occurred_at)
    ON CONFLICT (item_id) DO UPDATE
        SET generation = knowledge_queue.generation + 1, attempts = 0, leased_until = 0,
            queued_at = EXCLUDED.queued_at, priority = 0;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
