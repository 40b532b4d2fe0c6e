//! `/api/v2/projects/{projectId}/item…` and the item listing: translate each
//! call into one ItemService call. No item rule lives here: names are passed
//! as sent and core-service validates them.

use axum::extract::{Path, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use canvas_proto::json::{from_proto_struct, from_proto_value, to_proto_struct};
use canvas_proto::v1 as pb;
use serde_json::{json, Map, Value};

use crate::bodies::items::{WrappedChanges, WRAPPED_UPDATE};
use crate::caller::Caller;
use crate::conditional::{conditional_read, if_match, item_tag, not_modified, tagged, write_conditions};
use crate::content_type::{JsonBody, Rejected};
use crate::error::ApiError;
use crate::respond::{query_value, Format};
use crate::state::{mark_replayed, with_idempotency_key, AppState};

/// A count query parameter (`limit`) as sent: None when absent. Only what cannot be a count at all
/// (`abc`, `-1`, `2.5`) is refused here; the range, default and ceiling are core-service's.
pub(crate) fn count_parameter(query: &str, name: &str) -> Result<Option<u32>, ApiError> {
    query_value(query, name)
        .map(|raw| {
            canvas_proto::json::count_text(&raw).ok_or_else(|| ApiError::invalid(name, "must be a whole number"))
        })
        .transpose()
}

/// Parses a JSON object body; the error says what is wrong with it.
fn json_object(body: Result<JsonBody, Rejected>) -> Result<Map<String, Value>, ApiError> {
    let bytes = body?.0;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::invalid("body", "a JSON object with the item properties is required"));
    }
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ApiError::invalid("body", "must be a JSON object")),
        Err(err) => Err(ApiError::invalid("body", &format!("is not valid JSON: {err}"))),
    }
}

/// `{itemId}` and the item's version for the `ETag` header.
fn item_ref(reply: tonic::Response<pb::ItemRef>) -> (Value, i64) {
    let reply = reply.into_inner();
    (json!({"itemId": reply.item_id}), reply.version)
}

/// The versions an `If-Match` list accepts, for core-service to compare (`crate::conditional`).
pub(crate) fn expected_versions(headers: &HeaderMap) -> Result<Option<pb::ExpectedVersions>, ApiError> {
    Ok(if_match(headers)?.map(|versions| pb::ExpectedVersions { versions }))
}

/// Renders an answer with the item's ETag (its version, `crate::conditional::item_tag`).
fn reply_with_etag(format: Format, result: Result<(Value, i64), ApiError>) -> Response {
    let tag = result.as_ref().ok().map(|(_, version)| item_tag(*version, format.msgpack.is_some()));
    tagged(format.reply(result.map(|(body, _)| body)), tag)
}

/// The REST shape of an item: its identity, then every property.
pub fn item_json(item: pb::Item) -> Result<Value, ApiError> {
    let mut body = Map::new();
    body.insert("itemId".into(), Value::String(item.item_id));
    body.insert("itemType".into(), Value::String(item.item_type));
    body.insert("projectId".into(), Value::String(item.project_id));
    body.insert("parent".into(), Value::String(item.parent));
    // JSON text when asked for (`properties_as_json`), else a Struct. Core-service writes an
    // object; anything else is its bug, a 500, never an item shown without its properties.
    let properties = match item.properties {
        Some(properties) => from_proto_struct(properties),
        None => serde_json::from_slice::<Map<String, Value>>(&item.properties_json).map_err(ApiError::internal)?,
    };
    for (key, value) in properties {
        body.insert(key, value);
    }
    body.insert("createdAt".into(), Value::String(rfc3339(item.created_at)));
    body.insert("updatedAt".into(), Value::String(rfc3339(item.updated_at)));
    Ok(Value::Object(body))
}

pub(crate) fn rfc3339(ts: Option<prost_types::Timestamp>) -> String {
    ts.and_then(|t| chrono::DateTime::from_timestamp(t.seconds, t.nanos.max(0) as u32))
        .map(|at| at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
        .unwrap_or_default()
}

/// `POST /{parent}/{itemType}`
pub async fn create(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, parent, item_type)): Path<(String, String, String)>,
    caller: Caller,
    headers: HeaderMap,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let mut replayed = false;
    let result = async {
        let properties = json_object(body)?;
        let request = pb::CreateItemRequest {
            project_id,
            parent,
            item_type,
            properties: Some(to_proto_struct(properties)),
            file: None,
        };
        let request = with_idempotency_key(caller.request(request)?, &headers)?;
        let reply = state.items.clone().create_item(request).await?;
        replayed = crate::state::replayed(&reply);
        Ok(item_ref(reply))
    }
    .await;
    mark_replayed(reply_with_etag(format, result), replayed)
}

/// `GET /{itemId}`
#[utoipa::path(
    get,
    path = "/api/v2/projects/{projectId}/item/{itemId}",
    tag = "items",
    operation_id = "getItem",
    summary = "Read an item with all its properties",
    params(
        ("projectId" = String, Path, format = "uuid"),
        ("itemId" = String, Path, format = "uuid"),
        ("If-None-Match" = Option<String>, Header, description = "ETags the client holds (weak comparison) or `*`: \
            a 304 without a body while the item still has one of them."),
        ("If-Match" = Option<String>, Header, description = "ETags (strong comparison) or `*`: a 412 unless the item has one."),
        ("If-Unmodified-Since" = Option<String>, Header, description = "An HTTP-date: a 412 if the item changed after it \
            (ignored with If-Match)."),
        ("If-Modified-Since" = Option<String>, Header, description = "An HTTP-date: a 304 unless the item changed after it \
            (ignored with If-None-Match)."),
    ),
    responses(
        (status = 200, description = "The item. `ETag` holds its version, for `If-Match` on PATCH and DELETE.",
            body = ref("#/components/schemas/Item"),
            headers(("ETag" = String, description = "The item's version as a strong entity tag, e.g. `\"7\"` \
                (`\"7-msgpack\"` for the MessagePack representation)."))),
        (status = 304, description = "Not modified: `If-None-Match` named the current ETag. No body.",
            headers(("ETag" = String, description = "The current ETag."))),
    )
)]
pub async fn get(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, item_id)): Path<(String, String)>,
    caller: Caller,
    headers: HeaderMap,
) -> Response {
    let result = async {
        let request = pb::GetItemRequest { project_id, item_id, properties_as_json: true };
        let item = caller
            .idempotent(request, |r| {
                let mut client = state.items.clone();
                async move { client.get_item(r).await }
            })
            .await?
            .into_inner();
        let (version, modified) = (item.version, item.updated_at.map(|t| t.seconds));
        Ok(((item_json(item)?, version), modified))
    }
    .await;
    let (modified, casing) = (result.as_ref().ok().and_then(|(_, modified)| *modified), format.casing);
    let response = reply_with_etag(format, result.map(|(answer, _)| answer));
    conditional_read(&headers, response, modified, casing)
}

/// `GET /{itemId}/{property}`: the bare value (`content` is the file).
#[utoipa::path(
    get,
    path = "/api/v2/projects/{projectId}/item/{itemId}/{property}",
    tag = "items",
    operation_id = "getItemProperty",
    summary = "Read one property",
    description = "The bare value as JSON. Names are case-insensitive: `position`, `size`, `scale`, `angle` and the \
        type's own (e.g. `text`, `fontSize`, `cornerRadius`, `startPoint`, `url`, `fileName`); anything else is a 400 \
        listing the readable names. `content` is the uploaded file (see `getItemContent`).",
    params(
        ("projectId" = String, Path, format = "uuid"),
        ("itemId" = String, Path, format = "uuid"),
        ("property" = String, Path, description = "A property name, case-insensitive."),
        ("If-None-Match" = Option<String>, Header, description = "ETags the client holds (weak comparison) or `*`: \
            a 304 without a body while the value is unchanged."),
    ),
    responses(
        (status = 200, description = "The value.", body = ref("#/components/schemas/PropertyValue"),
            headers(("ETag" = String, description = "A weak entity tag of this representation."))),
        (status = 304, description = "Not modified: `If-None-Match` named the current ETag. No body.",
            headers(("ETag" = String, description = "The current ETag."))),
    )
)]
pub async fn get_property(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, item_id, property)): Path<(String, String, String)>,
    caller: Caller,
    headers: HeaderMap,
) -> Response {
    if property.eq_ignore_ascii_case("content") {
        return super::files::content(state, format, project_id, item_id, &caller).await;
    }
    let result = async {
        let request = pb::GetItemPropertyRequest { project_id, item_id, property };
        let reply = caller
            .idempotent(request, |r| {
                let mut client = state.items.clone();
                async move { client.get_item_property(r).await }
            })
            .await?;
        Ok(reply.into_inner().value.map(from_proto_value).unwrap_or(Value::Null))
    }
    .await;
    not_modified(&headers, format.reply_tagged(result))
}

/// `PATCH /{itemType}/{itemId}`. Connector bodies arrive wrapped as
/// `{"properties": {...}}` (REST framing, unwrapped here); every other type
/// sends the changed properties at the top level.
pub async fn update(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, item_type, item_id)): Path<(String, String, String)>,
    caller: Caller,
    headers: HeaderMap,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let result = async {
        let mut properties = json_object(body)?;
        let parent = if item_type.trim().eq_ignore_ascii_case(WRAPPED_UPDATE) {
            let wrapped = unwrap_connector_body(properties)?;
            properties = wrapped.properties;
            wrapped.parent
        } else {
            // Beside the properties (REST framing): where the item goes, for core-service to check.
            let key = properties.keys().find(|name| canvas_vocabulary::names::fold_name(name) == "parent").cloned();
            match key.and_then(|key| properties.remove(&key)) {
                Some(Value::String(parent)) => Some(parent),
                Some(Value::Null) | None => None,
                Some(_) => return Err(ApiError::invalid("parent", "must be panel, inbox or an item id")),
            }
        };
        let request = pb::UpdateItemRequest {
            parent,
            project_id,
            item_type,
            item_id: item_id.clone(),
            properties: Some(to_proto_struct(properties)),
            expected_version: None,
            expected_versions: expected_versions(&headers)?,
            preconditions: write_conditions(&headers)?,
        };
        let reply = state.items.clone().update_item(caller.request(request)?).await?;
        Ok(item_ref(reply))
    }
    .await;
    reply_with_etag(format, result)
}

/// The changes of a connector PATCH, read by the type that writes its schema (`ConnectorPatch`).
fn unwrap_connector_body(body: Map<String, Value>) -> Result<WrappedChanges, ApiError> {
    // Changes sent bare are the likely mistake: say so, rather than naming the first of them.
    if !body.keys().any(|name| canvas_vocabulary::names::fold_name(name) == "properties") {
        return Err(ApiError::invalid(
            "properties",
            "a connector update must wrap the changed properties: {\"properties\": {...}}",
        ));
    }
    crate::bodies::from_value(Value::Object(body))
}

/// `DELETE /{itemId}`
#[utoipa::path(
    delete,
    path = "/api/v2/projects/{projectId}/item/{itemId}",
    tag = "items",
    operation_id = "deleteItem",
    summary = "Delete an item (connectors attached to it are detached)",
    params(("projectId" = String, Path, format = "uuid"), ("itemId" = String, Path, format = "uuid")),
    responses((status = 200, description = "The deleted item's id.", body = ref("#/components/schemas/ItemRef")))
)]
pub async fn delete(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, item_id)): Path<(String, String)>,
    caller: Caller,
    headers: HeaderMap,
) -> Response {
    let result = async {
        let request = pb::DeleteItemRequest {
            project_id,
            item_id,
            expected_version: None,
            expected_versions: expected_versions(&headers)?,
            preconditions: write_conditions(&headers)?,
            ask_above: None,
        };
        let reply = state.items.clone().delete_item(caller.request(request)?).await?;
        Ok(item_ref(reply).0)
    }
    .await;
    format.reply(result)
}

/// `region=x,y,width,height`: four numbers (their rules are core-service's).
pub(crate) fn region(raw: &str) -> Result<pb::Region, ApiError> {
    let numbers: Vec<f64> =
        raw.split(',').map(|n| n.trim().parse::<f64>()).collect::<Result<_, _>>().unwrap_or_default();
    match numbers[..] {
        [x, y, width, height] => Ok(pb::Region { x, y, width, height }),
        _ => Err(ApiError::invalid("region", "must be four numbers: x,y,width,height")),
    }
}

/// An RFC 3339 time, as the item's `updatedAt`.
pub(crate) fn timestamp(raw: &str) -> Result<prost_types::Timestamp, ApiError> {
    let at = chrono::DateTime::parse_from_rfc3339(raw.trim())
        .map_err(|_| ApiError::invalid("changedSince", "must be an RFC 3339 time such as 2026-11-23T10:00:00Z"))?;
    Ok(prost_types::Timestamp { seconds: at.timestamp(), nanos: at.timestamp_subsec_nanos() as i32 })
}

/// `GET /api/v2/projects/{projectId}/items?type=&parent=&limit=&cursor=&region=&text=&changedSince=&tag=&frame=`
#[utoipa::path(
    get,
    path = "/api/v2/projects/{projectId}/items",
    tag = "items",
    operation_id = "listItems",
    summary = "List a project's items in creation order",
    params(
        ("projectId" = String, Path, format = "uuid"),
        ("type" = Option<String>, Query, description = "Only items of this type."),
        ("parent" = Option<String>, Query, description = "Only items with this parent (`panel`, `inbox` or an item id)."),
        ("limit" = Option<u32>, Query, description = "Page size."),
        ("cursor" = Option<String>, Query, description = "`NextCursor` of the previous page."),
        ("region" = Option<String>, Query, description = "Only items whose drawn box meets this rectangle of the map, \
            written `x,y,width,height` (top-left corner and size, map units; edges count). An auto-sized label counts \
            as its position."),
        ("text" = Option<String>, Query, description = "Only items whose text contains this, ignoring case: a label's or \
            sticky note's text (HTML reduced to text), a web item's url, a file's name."),
        ("changedSince" = Option<String>, Query, format = DateTime, description = "Only items created or changed at or \
            after this time (RFC 3339)."),
        ("tag" = Option<String>, Query, description = "Only items carrying this tag: its id, or its name ignoring case \
            (beyond the spec). A tag the project does not have is a 400 naming `tag`."),
        ("frame" = Option<String>, Query, format = "uuid", description = "Only what this frame holds, at any depth \
            (beyond the spec): the frame's id. Anything that is not a frame of the project is a 400 naming `frame`."),
        ("If-None-Match" = Option<String>, Header, description = "ETags the client holds (weak comparison) or `*`: \
            a 304 without a body while the page is unchanged."),
    ),
    responses(
        (status = 200, description = "One page of items.", body = ref("#/components/schemas/ItemPage"),
            headers(("ETag" = String, description = "A weak entity tag of this page as rendered."))),
        (status = 304, description = "Not modified: `If-None-Match` named the current ETag. No body.",
            headers(("ETag" = String, description = "The current ETag."))),
    )
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
        let page_size = count_parameter(&query, "limit")?;
        let request = pb::ListItemsRequest {
            project_id,
            item_type: query_value(&query, "type").unwrap_or_default(),
            parent: query_value(&query, "parent").unwrap_or_default(),
            page_size,
            page_token: query_value(&query, "cursor").unwrap_or_default(),
            region: query_value(&query, "region").map(|raw| region(&raw)).transpose()?,
            text_contains: query_value(&query, "text").unwrap_or_default(),
            changed_since: query_value(&query, "changedSince").map(|raw| timestamp(&raw)).transpose()?,
            tag: query_value(&query, canvas_vocabulary::limits::tags::FILTER).unwrap_or_default(),
            frame: query_value(&query, canvas_vocabulary::limits::frames::FILTER).unwrap_or_default(),
        };
        let reply = caller
            .idempotent(request, |r| {
                let mut client = state.items.clone();
                async move { client.list_items(r).await }
            })
            .await?
            .into_inner();
        let items = reply.items.into_iter().map(item_json).collect::<Result<Vec<Value>, _>>()?;
        let next = if reply.next_page_token.is_empty() { Value::Null } else { Value::String(reply.next_page_token) };
        Ok(json!({"items": items, "nextCursor": next}))
    }
    .await;
    not_modified(&headers, format.reply_tagged(result))
}
