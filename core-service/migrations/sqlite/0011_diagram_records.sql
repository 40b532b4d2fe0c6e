-- Diagram records (SQLite): a diagram created from text remembers its source and which item
-- draws which Mermaid element, so an edited source updates the items in place
-- (docs/diagrams/records.md).
CREATE TABLE diagrams (
    id            BLOB PRIMARY KEY NOT NULL,
    project_id    BLOB NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    -- `flowchart`, `mindmap` or `sequence`.
    kind          TEXT NOT NULL,
    format        TEXT NOT NULL,
    -- The source as last written.
    source        TEXT NOT NULL,
    -- Where the layout's top-left corner was put on the map.
    origin_x      REAL NOT NULL,
    origin_y      REAL NOT NULL,
    -- Bumped by every update; guards against lost updates (HTTP If-Match).
    version       INTEGER NOT NULL,
    created_by    BLOB NOT NULL,
    updated_by    BLOB NOT NULL,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
);
CREATE INDEX diagrams_project ON diagrams (project_id, id);

-- The element map: one row per item the diagram drew. No foreign key to `items`: an item a
-- person deleted on the map leaves its row, and readers skip it.
CREATE TABLE diagram_elements (
    diagram_id    BLOB NOT NULL REFERENCES diagrams (id) ON DELETE CASCADE,
    -- `node:A`, `subgraph:S`, `edge:A->B#0`, … (canvas_diagram::elements).
    element       TEXT NOT NULL,
    -- `shape`, `label`, `title`, `connector` or `note`.
    part          TEXT NOT NULL,
    item_id       BLOB NOT NULL,
    item_type     TEXT NOT NULL,
    -- Creation order within the diagram.
    ordinal       INTEGER NOT NULL,
    -- The properties the diagram last wrote (item ids resolved): what tells a person's change on
    -- the map from the source's.
    planned       TEXT NOT NULL,
    PRIMARY KEY (diagram_id, element, part)
);
CREATE INDEX diagram_elements_item ON diagram_elements (item_id);
