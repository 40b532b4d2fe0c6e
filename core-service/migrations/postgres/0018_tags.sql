-- A project's tags (PostgreSQL; docs/ITEMS.md "Tags"): a name and a colour. Items carry them by id
-- in their `tags` property; deleting a tag takes it off its items in the same transaction.
CREATE TABLE tags (
    id            UUID PRIMARY KEY,
    project_id    UUID NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    -- As the client wrote it, trimmed.
    name          TEXT NOT NULL,
    -- `name` trimmed and lower-cased: two tags of a project never share it.
    name_key      TEXT NOT NULL,
    -- `#RRGGBB`, `#AARRGGBB` or `#RGB`.
    color         TEXT NOT NULL,
    -- Bumped by every update; guards against lost updates (HTTP If-Match).
    version       BIGINT NOT NULL,
    created_by    UUID NOT NULL,
    updated_by    UUID NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX tags_project_name ON tags (project_id, name_key);
