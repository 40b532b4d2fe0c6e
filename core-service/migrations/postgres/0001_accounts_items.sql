-- Accounts, projects, items and the change-event outbox (PostgreSQL).

CREATE TABLE users (
    id            UUID PRIMARY KEY,
    name          TEXT NOT NULL,
    system_admin  BOOLEAN NOT NULL DEFAULT FALSE,
    created_at    TIMESTAMPTZ NOT NULL
);

CREATE TABLE api_tokens (
    id            UUID PRIMARY KEY,
    user_id       UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash    BYTEA NOT NULL UNIQUE,
    environment   INTEGER NOT NULL,
    name          TEXT NOT NULL DEFAULT '',
    created_at    TIMESTAMPTZ NOT NULL,
    last_used_at  TIMESTAMPTZ,
    revoked_at    TIMESTAMPTZ
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);

CREATE TABLE projects (
    id            UUID PRIMARY KEY,
    name          TEXT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL
);

CREATE TABLE memberships (
    project_id    UUID NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    user_id       UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role          INTEGER NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (project_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id);

CREATE TABLE items (
    id            UUID PRIMARY KEY,
    project_id    UUID NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    item_type     TEXT NOT NULL,
    parent        TEXT NOT NULL,
    properties    JSONB NOT NULL,
    version       BIGINT NOT NULL,
    created_by    UUID NOT NULL,
    updated_by    UUID NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL
);
CREATE INDEX items_project ON items (project_id, id);

-- The transactional outbox: one row per change, written in the transaction
-- of the change itself. Consumers track how far they have read by `seq`.
CREATE TABLE events (
    seq           BIGSERIAL PRIMARY KEY,
    id            UUID NOT NULL UNIQUE,
    project_id    UUID NOT NULL,
    kind          TEXT NOT NULL,
    subject_id    UUID NOT NULL,
    subject_type  TEXT NOT NULL,
    actor_user_id UUID NOT NULL,
    occurred_at   TIMESTAMPTZ NOT NULL,
    payload       JSONB NOT NULL
);
CREATE INDEX events_project ON events (project_id, seq);
