//! Diagram records (beyond the spec): `GET .../diagrams`, `GET`/`PUT`/`DELETE
//! .../diagrams/{diagramId}`, and `GET .../items/export`. Each is one ItemService call; the
//! update body is read by the type that writes its schema (`crate::bodies::diagrams`).
//! A record's `ETag` is its version, as an item's, and `If-Match` guards `PUT` and `DELETE`.

use axum::extract::{Path, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use canvas_proto::v1 as pb;
use canvas_vocabulary::limits::diagrams::FORMATS;
use serde_json::{json, Map, Value};

use super::items::{count_parameter, expected_versions, region, rfc3339};
use crate::bodies::diagrams::DiagramUpdateRequest;
use crate::bodies::parse;
use crate::caller::Caller;
use crate::conditional::{conditional_read, item_tag, not_modified, tagged, write_conditions};
use crate::content_type::{JsonBody, Rejected};
use crate::error::ApiError;
use crate::respond::{query_value, Format};
use crate::state::AppState;

/// The REST shape of a record; a listing's records (`listed`) come without their element map,
/// which is left out rather than shown empty.
fn record_json(record: pb::DiagramRecord, listed: bool) -> Value {
    let elements: Vec<Value> = record
        .elements
        .into_iter()
        .map(|e| json!({"element": e.element, "part": e.part, "itemId": e.item_id, "itemType": e.item_type}))
        .collect();
    let mut body = Map::new();
    body.insert("diagramId".into(), json!(record.diagram_id));
    body.insert("projectId".into(), json!(record.project_id));
    body.insert("kind".into(), json!(record.kind));
    body.insert("format".into(), json!(record.format));
    body.insert("source".into(), json!(record.source));
    body.insert("version".into(), json!(record.version));
    body.insert("position".into(), json!({"x": record.x, "y": record.y}));
    if !listed {
        body.insert("elements".into(), Value::Array(elements));
    }
    if !record.drawn.is_empty() {
        body.insert("mermaid".into(), json!(record.drawn));
    }
    body.insert("createdAt".into(), json!(rfc3339(record.created_at)));
    body.insert("updatedAt".into(), json!(rfc3339(record.updated_at)));
    Value::Object(body)
}

fn written_json(reply: pb::DiagramWriteResponse) -> (Value, i64) {
    let nodes: Map<String, Value> = reply.nodes.into_iter().map(|(node, id)| (node, Value::String(id))).collect();
    let body = json!({
        "diagramId": reply.diagram_id,
        "version": reply.version,
        "itemIds": reply.item_ids,
        "nodes": nodes,
        "created": reply.created,
        "updated": reply.updated,
        "deleted": reply.deleted,
    });
    (body, reply.version)
}

/// `format=mermaid` (the only text format), or a 400 naming `format`.
fn text_format(query: &str) -> Result<Option<String>, ApiError> {
    match query_value(query, "format") {
        None => Ok(None),
        Some(raw) if FORMATS.iter().any(|f| f.eq_ignore_ascii_case(raw.trim())) => Ok(Some(raw.trim().to_lowercase())),
        Some(_) => Err(ApiError::invalid("format", &format!("must be one of: {}", FORMATS.join(", ")))),
    }
}

/// `GET /api/v2/projects/{projectId}/diagrams`
#[utoipa::path(
    get,
    path = "/api/v2/projects/{projectId}/diagrams",
    tag = "items",
    operation_id = "listDiagrams",
    summary = "List a project's diagram records (beyond the spec)",
    description = "Every diagram created from text, oldest first, with its source and version (without the element \
        map: read one record for it).",
    params(
        ("projectId" = String, Path, format = "uuid"),
        ("limit" = Option<u32>, Query, description = "Page size."),
        ("cursor" = Option<String>, Query, description = "`NextCursor` of the previous page."),
    ),
    responses((status = 200, description = "One page of records.", body = crate::bodies::diagrams::DiagramPage))
)]
pub async fn list(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    RawQuery(query): RawQuery,
    caller: Caller,
    headers: HeaderMap,
) -> Response {
    let result = async {
        let query = query.unwrap_or_default();
        let request = pb::ListDiagramsRequest {
            project_id,
            page_size: count_parameter(&query, "limit")?,
            page_token: query_value(&query, "cursor").unwrap_or_default(),
        };
        let reply = caller
            .idempotent(request, |r| {
                let mut client = state.items.clone();
                async move { client.list_diagrams(r).await }
            })
            .await?
            .into_inner();
        let diagrams: Vec<Value> = reply.diagrams.into_iter().map(|record| record_json(record, true)).collect();
        let next = if reply.next_page_token.is_empty() { Value::Null } else { Value::String(reply.next_page_token) };
        Ok(json!({"diagrams": diagrams, "nextCursor": next}))
    }
    .await;
    not_modified(&headers, format.reply_tagged(result))
}

/// `GET /api/v2/projects/{projectId}/diagrams/{diagramId}`
#[utoipa::path(
    get,
    path = "/api/v2/projects/{projectId}/diagrams/{diagramId}",
    tag = "items",
    operation_id = "getDiagram",
    summary = "Read a diagram record, or the diagram as it is now as Mermaid (beyond the spec)",
    description = "The source as last written, the version (also the `ETag`) and the element map: which item draws \
        which part of which Mermaid element (`node:A`, `subgraph:S`, `edge:A->B#0`, …), leaving out items people \
        deleted. With `format=mermaid`, `Mermaid` holds the diagram as it is now on the map: texts people changed, \
        deleted items gone, connectors people drew between its items added.",
    params(
        ("projectId" = String, Path, format = "uuid"),
        ("diagramId" = String, Path, format = "uuid"),
        ("format" = Option<String>, Query, description = "`mermaid`: also write the diagram as it is now."),
        ("If-None-Match" = Option<String>, Header, description = "ETags (weak comparison) or `*`: a 304 while the record has one."),
        ("If-Match" = Option<String>, Header, description = "ETags (strong comparison) or `*`: a 412 unless the record has one."),
        ("If-Unmodified-Since" = Option<String>, Header, description = "An HTTP-date: a 412 if the record changed after it."),
        ("If-Modified-Since" = Option<String>, Header, description = "An HTTP-date: a 304 unless the record changed after it."),
    ),
    responses((status = 200, description = "The record.", body = crate::bodies::diagrams::DiagramRecord,
        headers(("ETag" = String, description = "The record's version."))))
)]
pub async fn get(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, diagram_id)): Path<(String, String)>,
    RawQuery(query): RawQuery,
    caller: Caller,
    headers: HeaderMap,
) -> Response {
    let result = async {
        let as_drawn = text_format(&query.unwrap_or_default())?.is_some();
        let request = pb::GetDiagramRequest { project_id, diagram_id, as_drawn };
        let reply = caller
            .idempotent(request, |r| {
                let mut client = state.items.clone();
                async move { client.get_diagram(r).await }
            })
            .await?
            .into_inner();
        let (version, modified) = (reply.version, reply.updated_at.map(|t| t.seconds));
        Ok((record_json(reply, false), version, modified))
    }
    .await;
    let tag = result.as_ref().ok().map(|(_, version, _)| item_tag(*version, format.msgpack.is_some()));
    let (modified, casing) = (result.as_ref().ok().and_then(|(_, _, modified)| *modified), format.casing);
    let response = tagged(format.reply(result.map(|(body, _, _)| body)), tag);
    conditional_read(&headers, response, modified, casing)
}

/// `PUT /api/v2/projects/{projectId}/diagrams/{diagramId}`
#[utoipa::path(
    put,
    path = "/api/v2/projects/{projectId}/diagrams/{diagramId}",
    tag = "items",
    operation_id = "updateDiagram",
    summary = "Update a diagram in place from an edited source (beyond the spec)",
    description = "`{source, format?, kind?}`. A source of another diagram kind than the record's is a 400 naming \
        `source` unless `kind` names it (then the record changes kind). In one transaction: elements the new source keeps keep their items (ids, \
        a person's moves, and any property a person changed unless the source changed that very property); new \
        elements are created beside their neighbours; removed ones are deleted with their connectors (people's \
        connectors attached to them are detached, as by a single delete). Every item change has its own event. \
        Unsupported syntax is a 400 naming line and column, and changes nothing. Concurrent updates are applied \
        one after another; with `If-Match` an update applies only to the version it names (else 412).",
    params(
        ("projectId" = String, Path, format = "uuid"),
        ("diagramId" = String, Path, format = "uuid"),
        ("If-Match" = Option<String>, Header, description = "The record's ETag(s): update only that version."),
        ("If-None-Match" = Option<String>, Header, description = "ETags (weak comparison) or `*`: a 412 if the record has one."),
        ("If-Unmodified-Since" = Option<String>, Header, description = "An HTTP-date: a 412 if the record changed after it \
            (ignored with If-Match)."),
    ),
    request_body(content = crate::bodies::diagrams::DiagramUpdateRequest, content_type = "application/json"),
    responses((status = 200, description = "What changed.", body = crate::bodies::diagrams::DiagramWriteResponse,
        headers(("ETag" = String, description = "The record's new version."))))
)]
pub async fn update(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, diagram_id)): Path<(String, String)>,
    caller: Caller,
    headers: HeaderMap,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let result = async {
        let body: DiagramUpdateRequest = parse(body, "a diagram update ({source, format})")?;
        if let Some(language) = body.format.as_deref() {
            if !FORMATS.iter().any(|f| f.eq_ignore_ascii_case(language.trim())) {
                return Err(ApiError::invalid("format", &format!("must be one of: {}", FORMATS.join(", "))));
            }
        }
        let request = pb::UpdateDiagramRequest {
            project_id,
            diagram_id,
            source: body.source,
            expected_version: None,
            expected_versions: expected_versions(&headers)?,
            preconditions: write_conditions(&headers)?,
            kind: body.kind,
            ask_above: None,
        };
        let reply = state.items.clone().update_diagram(caller.request(request)?).await?;
        Ok(written_json(reply.into_inner()))
    }
    .await;
    let tag = result.as_ref().ok().map(|(_, version)| item_tag(*version, format.msgpack.is_some()));
    tagged(format.reply(result.map(|(body, _)| body)), tag)
}

/// `DELETE /api/v2/projects/{projectId}/diagrams/{diagramId}?keepItems=`
#[utoipa::path(
    delete,
    path = "/api/v2/projects/{projectId}/diagrams/{diagramId}",
    tag = "items",
    operation_id = "deleteDiagram",
    summary = "Delete a diagram record and its items (beyond the spec)",
    description = "Deletes the record and, in the same transaction, every item it still has (people's connectors \
        attached to them are detached, as by a single delete). With `keepItems=true` the items stay as ordinary \
        items and only the record goes.",
    params(
        ("projectId" = String, Path, format = "uuid"),
        ("diagramId" = String, Path, format = "uuid"),
        ("keepItems" = Option<bool>, Query, description = "Keep the items (default false)."),
        ("If-Match" = Option<String>, Header, description = "The record's ETag(s): delete only that version."),
        ("If-None-Match" = Option<String>, Header, description = "ETags (weak comparison) or `*`: a 412 if the record has one."),
        ("If-Unmodified-Since" = Option<String>, Header, description = "An HTTP-date: a 412 if the record changed after it \
            (ignored with If-Match)."),
    ),
    responses((status = 200, description = "What was deleted.", body = crate::bodies::diagrams::DiagramWriteResponse))
)]
pub async fn delete(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, diagram_id)): Path<(String, String)>,
    RawQuery(query): RawQuery,
    caller: Caller,
    headers: HeaderMap,
) -> Response {
    let result = async {
        let keep_items = match query_value(&query.unwrap_or_default(), "keepItems") {
            None => false,
            Some(raw) => match raw.trim().to_ascii_lowercase().as_str() {
                "true" => true,
                "false" => false,
                _ => return Err(ApiError::invalid("keepItems", "must be true or false")),
            },
        };
        let request = pb::DeleteDiagramRequest {
            project_id,
            diagram_id,
            keep_items,
            expected_version: None,
            expected_versions: expected_versions(&headers)?,
            preconditions: write_conditions(&headers)?,
            ask_above: None,
        };
        let reply = state.items.clone().delete_diagram(caller.request(request)?).await?;
        Ok(written_json(reply.into_inner()).0)
    }
    .await;
    format.reply(result)
}

/// `GET /api/v2/projects/{projectId}/items/export?format=mermaid&region=`
#[utoipa::path(
    get,
    path = "/api/v2/projects/{projectId}/items/export",
    tag = "items",
    operation_id = "exportItems",
    summary = "Write part of the map as a Mermaid flowchart (beyond the spec)",
    description = "Shapes and sticky notes become nodes, connectors attached at both ends links, containers \
        subgraphs. `region` takes the items the listing's `region` takes; without it the whole map is written.",
    params(
        ("projectId" = String, Path, format = "uuid"),
        ("format" = Option<String>, Query, description = "`mermaid` (the default)."),
        ("region" = Option<String>, Query, description = "Only items whose drawn box meets this rectangle of the map, \
            written `x,y,width,height` (as the item listing's `region`)."),
        ("frame" = Option<String>, Query, format = "uuid", description = "Only this frame and what it holds (beyond \
            the spec), written as a subgraph titled as the frame. Anything that is not a frame of the project is a \
            400 naming `frame`."),
    ),
    responses((status = 200, description = "The text.", body = crate::bodies::diagrams::ExportedText))
)]
pub async fn export(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    RawQuery(query): RawQuery,
    caller: Caller,
    headers: HeaderMap,
) -> Response {
    let result = async {
        let query = query.unwrap_or_default();
        let request = pb::ExportItemsRequest {
            project_id,
            format: text_format(&query)?.unwrap_or_else(|| FORMATS[0].to_owned()),
            region: query_value(&query, "region").map(|raw| region(&raw)).transpose()?,
            frame: query_value(&query, canvas_vocabulary::limits::frames::FILTER),
        };
        let reply = caller
            .idempotent(request, |r| {
                let mut client = state.items.clone();
                async move { client.export_items(r).await }
            })
            .await?
            .into_inner();
        Ok(json!({"format": reply.format, "text": reply.text}))
    }
    .await;
    not_modified(&headers, format.reply_tagged(result))
}
