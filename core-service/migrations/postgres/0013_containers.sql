-- Containers (docs/DECISIONS.md, "Containers"): deleting an item deletes what it holds, found by
-- its parent; this index makes that look-up, and the in-transaction check that nothing was put
-- into a container while it was being deleted, one index range per container instead of a scan
-- of the project (listings by `parent` use it too).
CREATE INDEX items_parent ON items (project_id, parent);

-- Data repairs run once by core-service after the migrations (Rust code, because a repair writes
-- change events and their webhook deliveries as any write does): the name of each repair done,
-- so it never runs twice. The first is `dangling-parents` (core-service/src/service/items/repair.rs).
CREATE TABLE data_repairs (
    name     TEXT PRIMARY KEY NOT NULL,
    done_at  TIMESTAMPTZ NOT NULL,
    summary  TEXT NOT NULL
);
