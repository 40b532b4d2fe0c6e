//! `POST /api/v2/projects/{projectId}/items/bulk` and `POST /api/v2/projects/{projectId}/diagrams`
//! (beyond the spec): each is one ItemService call. Only the JSON shape is read here (which field
//! holds what, named in the error when it is the wrong kind of value); every item rule, the batch
//! size and the `ref` rule are core-service's.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use canvas_proto::json::to_proto_struct;
use canvas_proto::v1 as pb;
use canvas_vocabulary::limits::diagrams::FORMATS;
use serde_json::{json, Map, Value};

use super::items::authorization;
use super::knowledge::fold;
use crate::content_type::{JsonBody, Rejected};
use crate::error::ApiError;
use crate::respond::Format;
use crate::state::{mark_replayed, with_auth, with_idempotency_key, AppState};

/// The body as a JSON object whose member names are folded (case, `_` and `-` ignored); a member
/// not in `known` is refused, naming it (`{at}{name}`).
fn folded_object(value: Value, known: &[&str], at: &str, what: &str) -> Result<Map<String, Value>, ApiError> {
    let Value::Object(object) = value else {
        let field = if at.is_empty() { "body".to_owned() } else { at.trim_end_matches('.').to_owned() };
        return Err(ApiError::invalid(&field, "must be a JSON object"));
    };
    let mut folded = Map::new();
    for (name, value) in object {
        let key = fold(&name);
        if !known.contains(&key.as_str()) {
            return Err(ApiError::invalid(&format!("{at}{name}"), &format!("is not a field of {what}")));
        }
        folded.insert(key, value);
    }
    Ok(folded)
}

fn body_object(body: Result<JsonBody, Rejected>, known: &[&str], what: &str) -> Result<Map<String, Value>, ApiError> {
    let bytes = body?.0;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::invalid("body", &format!("a JSON object is required: {what}")));
    }
    let value = serde_json::from_slice::<Value>(&bytes)
        .map_err(|err| ApiError::invalid("body", &format!("is not valid JSON: {err}")))?;
    folded_object(value, known, "", what)
}

/// An optional string member.
fn text(map: &Map<String, Value>, key: &str, field: &str) -> Result<Option<String>, ApiError> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(ApiError::invalid(field, "must be a string")),
    }
}

/// One item of a bulk body as the gRPC message.
fn bulk_item(i: usize, value: Value) -> Result<pb::BulkItem, ApiError> {
    let at = format!("items[{i}].");
    let item = folded_object(value, &["ref", "type", "parent", "properties"], &at, "a bulk item")?;
    let properties = match item.get("properties") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(map)) => map.clone(),
        Some(_) => return Err(ApiError::invalid(&format!("{at}properties"), "must be a JSON object")),
    };
    Ok(pb::BulkItem {
        reference: text(&item, "ref", &format!("{at}ref"))?,
        item_type: text(&item, "type", &format!("{at}type"))?
            .ok_or_else(|| ApiError::invalid(&format!("{at}type"), "is required"))?,
        parent: text(&item, "parent", &format!("{at}parent"))?.unwrap_or_default(),
        properties: Some(to_proto_struct(properties)),
    })
}

/// `POST /api/v2/projects/{projectId}/items/bulk`
#[utoipa::path(
    post,
    path = "/api/v2/projects/{projectId}/items/bulk",
    tag = "items",
    operation_id = "createItems",
    summary = "Create many items at once, all or none (beyond the spec)",
    description = "Up to 1,000 items of mixed types in one transaction. Each item is `{ref?, type, parent?, \
        properties}`: `properties` exactly what the single create takes, `parent` `panel` when absent. An item \
        names another of the batch by writing `ref:<ref>` where an item id is expected (`parent`, a connector \
        end's `itemId`). One invalid item fails the whole batch: the 400 lists every offence as `items[i].…` and \
        nothing is written. On success every item, its `item.created` event (webhooks) and its index work commit \
        together; the answer lists `{ref, itemId}` in request order.",
    params(("projectId" = String, Path, format = "uuid")),
    request_body(content = crate::openapi::bulk_schemas::BulkRequest, content_type = "application/json"),
    responses((status = 200, description = "The created items, in request order.",
        body = crate::openapi::bulk_schemas::BulkResponse))
)]
pub async fn create_items(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    headers: HeaderMap,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let mut replayed = false;
    let result = async {
        let body = body_object(body, &["items"], "a bulk create ({\"items\": [...]})")?;
        let items = match body.get("items") {
            Some(Value::Array(items)) => items.clone(),
            None | Some(Value::Null) => return Err(ApiError::invalid("items", "is required")),
            Some(_) => return Err(ApiError::invalid("items", "must be an array of items")),
        };
        let items = items.into_iter().enumerate().map(|(i, item)| bulk_item(i, item)).collect::<Result<_, _>>()?;
        let request = pb::CreateItemsRequest { project_id, items };
        let request = with_idempotency_key(with_auth(request, authorization(&headers))?, &headers)?;
        let reply = state.items.clone().create_items(request).await?;
        replayed = crate::state::replayed(&reply);
        let created: Vec<Value> =
            reply.into_inner().items.into_iter().map(|c| json!({"ref": c.reference, "itemId": c.item_id})).collect();
        Ok(json!({"items": created}))
    }
    .await;
    mark_replayed(format.reply(result), replayed)
}

/// `POST /api/v2/projects/{projectId}/items/arrange`
#[utoipa::path(
    post,
    path = "/api/v2/projects/{projectId}/items/arrange",
    tag = "items",
    operation_id = "arrangeItems",
    summary = "Lay out existing items in one atomic update (beyond the spec)",
    description = "`{itemIds, style, position?: {x, y}}`: `grid` (in the order given), `layered` (along the \
        connectors between them, as a flowchart) or `tree` (from the items no connector points to). Every item \
        moves in one transaction with its `item.updated` event, or none does. Connectors are not moved: those \
        attached follow their items. Without `position` the arrangement keeps the items' top-left corner.",
    params(("projectId" = String, Path, format = "uuid")),
    request_body(content = crate::openapi::bulk_schemas::ArrangeRequest, content_type = "application/json"),
    responses((status = 200, description = "Each moved item with its new version, in the order given.",
        body = crate::openapi::bulk_schemas::ArrangeResponse))
)]
pub async fn arrange_items(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    headers: HeaderMap,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let mut replayed = false;
    let result = async {
        let body = body_object(body, &["itemids", "style", "position"], "an arrangement ({itemIds, style, position})")?;
        let item_ids = match body.get("itemids") {
            Some(Value::Array(ids)) => ids
                .iter()
                .enumerate()
                .map(|(i, id)| {
                    id.as_str()
                        .map(str::to_owned)
                        .ok_or_else(|| ApiError::invalid(&format!("itemIds[{i}]"), "must be a string"))
                })
                .collect::<Result<Vec<_>, _>>()?,
            None | Some(Value::Null) => return Err(ApiError::invalid("itemIds", "is required")),
            Some(_) => return Err(ApiError::invalid("itemIds", "must be an array of item ids")),
        };
        let (x, y) = position(&body)?;
        let request = pb::ArrangeItemsRequest {
            project_id,
            item_ids,
            style: text(&body, "style", "style")?.unwrap_or_default(),
            x,
            y,
        };
        let request = with_idempotency_key(with_auth(request, authorization(&headers))?, &headers)?;
        let reply = state.items.clone().arrange_items(request).await?;
        replayed = crate::state::replayed(&reply);
        let moved: Vec<Value> =
            reply.into_inner().items.into_iter().map(|r| json!({"itemId": r.item_id, "version": r.version})).collect();
        Ok(json!({"items": moved}))
    }
    .await;
    mark_replayed(format.reply(result), replayed)
}

/// An optional `position: {x, y}` member.
fn position(body: &Map<String, Value>) -> Result<(Option<f64>, Option<f64>), ApiError> {
    match body.get("position") {
        None | Some(Value::Null) => Ok((None, None)),
        Some(position) => {
            let point = folded_object(position.clone(), &["x", "y"], "position.", "a position")?;
            let coordinate = |key: &str| {
                point
                    .get(key)
                    .and_then(Value::as_f64)
                    .ok_or_else(|| ApiError::invalid(&format!("position.{key}"), "must be a number"))
            };
            Ok((Some(coordinate("x")?), Some(coordinate("y")?)))
        }
    }
}

/// `POST /api/v2/projects/{projectId}/diagrams`
#[utoipa::path(
    post,
    path = "/api/v2/projects/{projectId}/diagrams",
    tag = "items",
    operation_id = "createDiagram",
    summary = "Create a diagram from Mermaid, laid out automatically (beyond the spec)",
    description = "`{format: \"mermaid\", source, position?: {x, y}}`. Flowcharts (`flowchart`/`graph`, TD TB BT \
        LR RL, node shapes, edges with labels, subgraphs), `mindmap` and `sequenceDiagram` become ordinary shapes, \
        labels, connectors and containers, created all at once through the bulk path. `position` is the diagram's \
        top-left corner; without it the diagram goes right of everything on the map, overlapping nothing. \
        Unsupported syntax is a 400 naming the line and column (field `source`). The answer lists every item id \
        and maps each Mermaid node id to its shape.",
    params(("projectId" = String, Path, format = "uuid")),
    request_body(content = crate::openapi::bulk_schemas::DiagramRequest, content_type = "application/json"),
    responses((status = 200, description = "The created items.", body = crate::openapi::bulk_schemas::DiagramResponse))
)]
pub async fn create_diagram(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    headers: HeaderMap,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let mut replayed = false;
    let result = async {
        let body = body_object(body, &["format", "source", "position"], "a diagram ({format, source, position})")?;
        let source = text(&body, "source", "source")?.ok_or_else(|| ApiError::invalid("source", "is required"))?;
        let (x, y) = position(&body)?;
        let request = pb::CreateDiagramRequest {
            project_id,
            format: text(&body, "format", "format")?.unwrap_or_else(|| FORMATS[0].to_owned()),
            source,
            x,
            y,
        };
        let request = with_idempotency_key(with_auth(request, authorization(&headers))?, &headers)?;
        let reply = state.items.clone().create_diagram(request).await?;
        replayed = crate::state::replayed(&reply);
        let reply = reply.into_inner();
        let nodes: Map<String, Value> = reply.nodes.into_iter().map(|(node, id)| (node, Value::String(id))).collect();
        Ok(json!({"itemIds": reply.item_ids, "nodes": nodes}))
    }
    .await;
    mark_replayed(format.reply(result), replayed)
}
