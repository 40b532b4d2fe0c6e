-- Comment threads on an item or a point of the map (SQLite; docs/COMMENTS.md). A thread's
-- first comment has the thread's id; replies follow it in `comments`.
CREATE TABLE comment_threads (
    id                   BLOB PRIMARY KEY NOT NULL,
    project_id           BLOB NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    -- The item it is on. Deferred: an item delete detaches its threads in its own transaction
    -- (after deleting the item), so the check runs at commit, where no thread may name a gone item.
    item_id              BLOB REFERENCES items (id) DEFERRABLE INITIALLY DEFERRED,
    -- The item it was on, once that item was deleted.
    former_item_id       BLOB,
    -- The point it is on (a thread on a point, or one whose item was deleted); NULL on an item.
    x                    REAL,
    y                    REAL,
    resolved_at          TEXT,
    resolved_by          BLOB,
    -- Bumped by every change of the thread or its comments.
    version              INTEGER NOT NULL,
    created_by           BLOB NOT NULL,
    created_at           TEXT NOT NULL,
    updated_at           TEXT NOT NULL,
    CHECK ((x IS NULL) = (y IS NULL))
);
CREATE INDEX comment_threads_project ON comment_threads (project_id, id);
CREATE INDEX comment_threads_item ON comment_threads (item_id) WHERE item_id IS NOT NULL;

CREATE TABLE comments (
    id                   BLOB PRIMARY KEY NOT NULL,
    thread_id            BLOB NOT NULL REFERENCES comment_threads (id) ON DELETE CASCADE,
    project_id           BLOB NOT NULL,
    author_user_id       BLOB NOT NULL,
    -- Plain text or HTML under the label rule.
    text                 TEXT NOT NULL,
    -- The ids of the members it mentions, a JSON array of strings.
    mentions             TEXT NOT NULL,
    created_at           TEXT NOT NULL,
    updated_at           TEXT NOT NULL,
    edited_at            TEXT
);
CREATE INDEX comments_thread ON comments (thread_id, id);

-- The knowledge index also holds open comment threads (docs/COMMENTS.md "Knowledge"), keyed by the
-- thread's id: each `comment.*` event queues its thread (`payload.threadId`, text, stored as the
-- 16 bytes every id is) as `item.*` events queue their item. The indexer reads a key that names no
-- item as a thread.
CREATE TRIGGER knowledge_queue_on_comment_event AFTER INSERT ON events
WHEN NEW.kind LIKE 'comment.%'
BEGIN
    INSERT INTO knowledge_queue (item_id, project_id, queued_at)
    VALUES (unhex(replace(json_extract(NEW.payload, '$.threadId'), '-', '')), NEW.project_id, NEW.occurred_at)
    ON CONFLICT (item_id) DO UPDATE
        SET generation = generation + 1, attempts = 0, leased_until = 0, queued_at = excluded.queued_at,
            priority = 0;
END;
