-- Diagram records (PostgreSQL): a diagram created from text remembers its source and which item
-- draws which Mermaid element, so an edited source updates the items in place
-- (docs/diagrams/records.md).
CREATE TABLE diagrams (
    id            UUID PRIMARY KEY,
    project_id    UUID NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    -- `flowchart`, `mindmap` or `sequence`.
    kind          TEXT NOT NULL,
    format        TEXT NOT NULL,
    -- The source as last written.
    source        TEXT NOT NULL,
    -- Where the layout's top-left corner was put on the map.
    origin_x      DOUBLE PRECISION NOT NULL,
    origin_y      DOUBLE PRECISION NOT NULL,
    -- Bumped by every update; guards against lost updates (HTTP If-Match).
    version       BIGINT NOT NULL,
    created_by    UUID NOT NULL,
    updated_by    UUID NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL
);
CREATE INDEX diagrams_project ON diagrams (project_id, id);

-- The element map: one row per item the diagram drew. No foreign key to `items`: an item a
-- person deleted on the map leaves its row, and readers skip it.
CREATE TABLE diagram_elements (
    diagram_id    UUID NOT NULL REFERENCES diagrams (id) ON DELETE CASCADE,
    -- `node:A`, `subgraph:S`, `edge:A->B#0`, … (canvas_diagram::elements).
    element       TEXT NOT NULL,
    -- `shape`, `label`, `title`, `connector` or `note`.
    part          TEXT NOT NULL,
    item_id       UUID NOT NULL,
    item_type     TEXT NOT NULL,
    -- Creation order within the diagram.
    ordinal       BIGINT NOT NULL,
    -- The properties the diagram last wrote (item ids resolved): what tells a person's change on
    -- the map from the source's.
    planned       JSONB NOT NULL,
    PRIMARY KEY (diagram_id, element, part)
);
CREATE INDEX diagram_elements_item ON diagram_elements (item_id);
