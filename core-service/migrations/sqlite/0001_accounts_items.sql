-- Accounts, projects, items and the change-event outbox (SQLite).
-- Ids are UUIDs stored as 16-byte BLOBs; times are RFC 3339 text in UTC.

CREATE TABLE users (
    id            BLOB PRIMARY KEY NOT NULL,
    name          TEXT NOT NULL,
    system_admin  INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT NOT NULL
);

CREATE TABLE api_tokens (
    id            BLOB PRIMARY KEY NOT NULL,
    user_id       BLOB NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash    BLOB NOT NULL UNIQUE,
    environment   INTEGER NOT NULL,
    name          TEXT NOT NULL DEFAULT '',
    created_at    TEXT NOT NULL,
    last_used_at  TEXT,
    revoked_at    TEXT
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);

CREATE TABLE projects (
    id            BLOB PRIMARY KEY NOT NULL,
    name          TEXT NOT NULL,
    created_at    TEXT NOT NULL
);

CREATE TABLE memberships (
    project_id    BLOB NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    user_id       BLOB NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role          INTEGER NOT NULL,
    created_at    TEXT NOT NULL,
    PRIMARY KEY (project_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id);

CREATE TABLE items (
    id            BLOB PRIMARY KEY NOT NULL,
    project_id    BLOB NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    item_type     TEXT NOT NULL,
    parent        TEXT NOT NULL,
    properties    TEXT NOT NULL,
    version       INTEGER NOT NULL,
    created_by    BLOB NOT NULL,
    updated_by    BLOB NOT NULL,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
);
CREATE INDEX items_project ON items (project_id, id);

-- The transactional outbox: one row per change, written in the transaction
-- of the change itself. Consumers (webhooks, the knowledge index) track how
-- far they have read by `seq`.
CREATE TABLE events (
    seq           INTEGER PRIMARY KEY AUTOINCREMENT,
    id            BLOB NOT NULL UNIQUE,
    project_id    BLOB NOT NULL,
    kind          TEXT NOT NULL,
    subject_id    BLOB NOT NULL,
    subject_type  TEXT NOT NULL,
    actor_user_id BLOB NOT NULL,
    occurred_at   TEXT NOT NULL,
    payload       TEXT NOT NULL
);
CREATE INDEX events_project ON events (project_id, seq);
