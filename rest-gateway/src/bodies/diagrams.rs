//! Bodies of the diagram records and the map export (beyond the spec). The request type is also
//! what `routes::diagrams` deserialises the body with ([`super::parse`]), so the schema is the
//! parser; the answers are written by `routes::diagrams` with these names (shown in the default
//! PascalCase, as every answer schema).

use canvas_vocabulary::limits::diagrams::FORMATS;
use serde::{Deserialize, Serialize};
use utoipa::openapi::schema::{Object, ObjectBuilder, Type};
use utoipa::ToSchema;

/// `PUT .../diagrams/{diagramId}`.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, expecting = "a diagram update {format, source, kind}")]
pub struct DiagramUpdateRequest {
    /// `mermaid` (the default; a diagram keeps its language).
    #[serde(default)]
    #[schema(schema_with = diagram_format)]
    pub format: Option<String>,
    /// The new source. Its items are updated in place: kept elements keep their items, people's
    /// changes on the map stay unless the source changed that very property (docs/diagrams/records.md).
    pub source: String,
    /// The kind the new source is (`flowchart`, `sequence`, `mindmap`, `class`, `er`, `state`):
    /// needed only to change the diagram's kind; a source of another kind without it is a 400
    /// naming `source`.
    #[serde(default)]
    pub kind: Option<String>,
}

fn diagram_format() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(FORMATS.to_vec()))
        .default(Some(FORMATS[0].into()))
        .description(Some("The diagram language."))
        .build()
}

/// Which item draws which part of a Mermaid element.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct DiagramElement {
    /// `node:A`, `subgraph:S`, `edge:A->B#0` (the first edge from A to B), `participant:A`, …
    pub element: String,
    /// `shape`, `label`, `title`, `connector` or `note`.
    pub part: String,
    #[schema(format = "uuid")]
    pub item_id: String,
    pub item_type: String,
}

/// A diagram record.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct DiagramRecord {
    #[schema(format = "uuid")]
    pub diagram_id: String,
    #[schema(format = "uuid")]
    pub project_id: String,
    /// `flowchart`, `mindmap`, `sequence`, …
    pub kind: String,
    /// `mermaid`.
    pub format: String,
    /// The source as last written.
    pub source: String,
    /// Bumped by every update; also the `ETag`.
    pub version: i64,
    /// Top-left corner of the layout on the map.
    pub position: DiagramPoint,
    /// The items the diagram still has, in creation order (those people deleted are left out).
    pub elements: Vec<DiagramElement>,
    /// With `?format=mermaid`: the diagram as Mermaid. While the map shows exactly what the source
    /// last drew, the source itself (so sending it back changes nothing); once people changed its
    /// items, the diagram written from the map in its own kind (people's text changes, deleted
    /// items gone, connectors people drew between its items).
    pub mermaid: Option<String>,
    #[schema(format = DateTime)]
    pub created_at: String,
    #[schema(format = DateTime)]
    pub updated_at: String,
}

/// A point of the map.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct DiagramPoint {
    pub x: f64,
    pub y: f64,
}

/// A diagram record as a listing shows it: without its element map and its Mermaid.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct DiagramListed {
    #[schema(format = "uuid")]
    pub diagram_id: String,
    #[schema(format = "uuid")]
    pub project_id: String,
    /// `flowchart`, `mindmap`, `sequence`, `class`, `er` or `state`.
    pub kind: String,
    /// `mermaid`.
    pub format: String,
    /// The source as last written.
    pub source: String,
    /// Bumped by every update; also the record's `ETag`.
    pub version: i64,
    /// Top-left corner of the layout on the map.
    pub position: DiagramPoint,
    #[schema(format = DateTime)]
    pub created_at: String,
    #[schema(format = DateTime)]
    pub updated_at: String,
}

/// A page of diagram records.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct DiagramPage {
    pub diagrams: Vec<DiagramListed>,
    /// The `cursor` of the next page; null at the end.
    pub next_cursor: Option<String>,
}

/// What an update or delete of a diagram did.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct DiagramWriteResponse {
    #[schema(format = "uuid")]
    pub diagram_id: String,
    /// The record's version after the write (a delete: the version deleted).
    pub version: i64,
    /// Every item of the diagram after the write, in creation order.
    pub item_ids: Vec<String>,
    /// Mermaid node or participant id → its shape (ids keep their spelling whatever `jsonCasing`
    /// says).
    pub nodes: std::collections::BTreeMap<String, String>,
    /// Items created.
    pub created: Vec<String>,
    /// Items changed.
    pub updated: Vec<String>,
    /// Items deleted.
    pub deleted: Vec<String>,
}

/// Part of the map written as text.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ExportedText {
    /// `mermaid`.
    pub format: String,
    /// A Mermaid flowchart: shapes and notes as nodes, attached connectors as links, containers as
    /// subgraphs.
    pub text: String,
}
