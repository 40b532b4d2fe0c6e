//! `POST /api/v2/projects/{projectId}/items/bulk`, `POST .../diagrams` and `POST .../items/arrange`
//! (beyond the spec): each is one ItemService call. The bodies are read
//! by the types that write their schemas (`crate::bodies::bulk`, through `crate::bodies::parse`),
//! so a wrong kind of value is a 400 naming the field; every item rule, the batch size and the
//! `ref` rule are core-service's.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use canvas_proto::json::to_proto_struct;
use canvas_proto::v1 as pb;
use canvas_vocabulary::limits::diagrams::FORMATS;
use serde_json::{json, Map, Value};

use crate::bodies::bulk::{ArrangeRequest, BulkItem, BulkRequest, DiagramRequest};
use crate::bodies::parse;
use crate::caller::Caller;
use crate::content_type::{JsonBody, Rejected};
use crate::respond::Format;
use crate::state::{mark_replayed, with_idempotency_key, AppState};

/// One item of a bulk body as the gRPC message; its properties are core-service's to check.
fn bulk_item(item: BulkItem) -> pb::BulkItem {
    pb::BulkItem {
        reference: item.reference,
        item_type: item.item_type,
        parent: item.parent.unwrap_or_default(),
        properties: Some(to_proto_struct(item.properties.unwrap_or_default())),
    }
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
    request_body(content = crate::bodies::bulk::BulkRequest, content_type = "application/json"),
    responses((status = 200, description = "The created items, in request order.",
        body = crate::bodies::bulk::BulkResponse))
)]
pub async fn create_items(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    caller: Caller,
    headers: HeaderMap,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let mut replayed = false;
    let result = async {
        let body: BulkRequest = parse(body, "a bulk create ({\"items\": [...]})")?;
        let items = body.items.into_iter().map(bulk_item).collect();
        let request = pb::CreateItemsRequest { project_id, items, task_id: None };
        let request = with_idempotency_key(caller.request(request)?, &headers)?;
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
    request_body(content = crate::bodies::bulk::ArrangeRequest, content_type = "application/json"),
    responses((status = 200, description = "Each moved item with its new version, in the order given.",
        body = crate::bodies::bulk::ArrangeResponse))
)]
pub async fn arrange_items(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    caller: Caller,
    headers: HeaderMap,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let mut replayed = false;
    let result = async {
        let body: ArrangeRequest = parse(body, "an arrangement ({itemIds, style, position})")?;
        let request = pb::ArrangeItemsRequest {
            project_id,
            item_ids: body.item_ids,
            style: body.style,
            x: body.position.as_ref().map(|p| p.x),
            y: body.position.as_ref().map(|p| p.y),
            ask_above: None,
        };
        let request = with_idempotency_key(caller.request(request)?, &headers)?;
        let reply = state.items.clone().arrange_items(request).await?;
        replayed = crate::state::replayed(&reply);
        let moved: Vec<Value> =
            reply.into_inner().items.into_iter().map(|r| json!({"itemId": r.item_id, "version": r.version})).collect();
        Ok(json!({"items": moved}))
    }
    .await;
    mark_replayed(format.reply(result), replayed)
}

/// `POST /api/v2/projects/{projectId}/diagrams`
#[utoipa::path(
    post,
    path = "/api/v2/projects/{projectId}/diagrams",
    tag = "items",
    operation_id = "createDiagram",
    summary = "Create a diagram from Mermaid, laid out automatically (beyond the spec)",
    description = "`{format: \"mermaid\", source, position?: {x, y}}`. The diagram (the Mermaid kinds are listed \
        below) becomes ordinary shapes, labels, connectors and containers, created all at once through the bulk \
        path. `position` is the diagram's \
        top-left corner; without it the diagram goes right of everything on the map, overlapping nothing. \
        `frame` (beyond the spec) draws it inside that frame: its outer items become the frame's, it starts 40 \
        units in from the frame's top-left corner unless `position` is given, and the frame grows to hold it. \
        Unsupported syntax is a 400 naming the line and column (field `source`). The answer lists every item id \
        and maps each Mermaid node id to its shape.",
    params(("projectId" = String, Path, format = "uuid")),
    request_body(content = crate::bodies::bulk::DiagramRequest, content_type = "application/json"),
    responses((status = 200, description = "The created items.", body = crate::bodies::bulk::DiagramResponse))
)]
pub async fn create_diagram(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    caller: Caller,
    headers: HeaderMap,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let mut replayed = false;
    let result = async {
        let body: DiagramRequest = parse(body, "a diagram ({format, source, position})")?;
        let request = pb::CreateDiagramRequest {
            project_id,
            format: body.format.unwrap_or_else(|| FORMATS[0].to_owned()),
            source: body.source,
            x: body.position.as_ref().map(|p| p.x),
            y: body.position.as_ref().map(|p| p.y),
            task_id: None,
            frame: body.frame,
        };
        let request = with_idempotency_key(caller.request(request)?, &headers)?;
        let reply = state.items.clone().create_diagram(request).await?;
        replayed = crate::state::replayed(&reply);
        let reply = reply.into_inner();
        let nodes: Map<String, Value> = reply.nodes.into_iter().map(|(node, id)| (node, Value::String(id))).collect();
        Ok(json!({"itemIds": reply.item_ids, "nodes": nodes, "diagramId": reply.diagram_id}))
    }
    .await;
    mark_replayed(format.reply(result), replayed)
}
