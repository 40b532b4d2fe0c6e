//! `GET /api/v2/projects/{projectId}/render.svg` and `render.png`: the
//! project map drawn by `canvas-render`.
//!
//! Query parameters (all optional): `itemIds` (comma-separated: only these
//! items), `x`, `y`, `width`, `height` (the region in map units; all four or
//! none), `scale` (pixels per map unit, default 1) and `frame` (a frame and
//! what it holds, fitted to the frame). The gateway only
//! translates: it lists the items and fetches image/SVG content through
//! core-service with the caller's token, so access is checked exactly as for
//! every other call, and the drawing itself is a pure function.

use std::collections::{HashMap, HashSet};

use axum::body::Body;
use axum::extract::{Path, RawQuery, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use canvas_proto::failure::CallFailure;
use canvas_proto::v1 as pb;
use canvas_render::{Content, Drawing, Rect, RenderError, RenderOptions};
// Items are read in the service's largest pages.
use canvas_vocabulary::limits::ITEMS_PAGE;
use futures_util::{stream, StreamExt};
use serde_json::Value;

use crate::caller::Caller;
use crate::error::ApiError;
use crate::respond::{query_value, Format};
use crate::routes::items::item_json;
use crate::state::AppState;

/// The query of both drawings as sent (names case-insensitive); [`options`] reads it and
/// `canvas_render` owns the rules. Also the parameters of the OpenAPI document.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
struct RenderParams {
    /// Only these items (comma-separated ids).
    item_ids: Option<String>,
    /// Region left edge in map units (give x, y, width and height, or none).
    x: Option<f64>,
    /// Region top edge in map units.
    y: Option<f64>,
    /// Region width in map units.
    width: Option<f64>,
    /// Region height in map units.
    height: Option<f64>,
    /// Pixels per map unit (default 1).
    scale: Option<f64>,
    /// Only this frame (its id) and what it holds, fitted to the frame unless a region is given.
    frame: Option<String>,
}

/// Image and SVG contents fetched at once.
const CONTENT_CONCURRENCY: usize = 8;
/// Total bytes of image/SVG content embedded in one drawing; later items draw as placeholders.
const CONTENT_BUDGET: usize = 64 * 1024 * 1024;

/// `render.svg`
#[utoipa::path(
    get,
    path = "/api/v2/projects/{projectId}/render.svg",
    tag = "map",
    operation_id = "renderSvg",
    summary = "The project map drawn as SVG",
    params(("projectId" = String, Path, format = "uuid"), RenderParams),
    responses((status = 200, description = "The drawing.", content_type = "image/svg+xml", body = String))
)]
pub async fn svg(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    RawQuery(query): RawQuery,
    caller: Caller,
) -> Response {
    match draw(&state, project_id, query.unwrap_or_default(), &caller).await {
        Ok(drawing) => image_response("image/svg+xml; charset=utf-8", drawing.svg.into_bytes()),
        Err(err) => format.error(err),
    }
}

/// `render.png`
#[utoipa::path(
    get,
    path = "/api/v2/projects/{projectId}/render.png",
    tag = "map",
    operation_id = "renderPng",
    summary = "The project map drawn as PNG",
    params(("projectId" = String, Path, format = "uuid"), RenderParams),
    responses((status = 200, description = "The drawing.", content_type = "image/png", body = Vec<u8>))
)]
pub async fn png(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    RawQuery(query): RawQuery,
    caller: Caller,
) -> Response {
    let result = async {
        let drawing = draw(&state, project_id, query.unwrap_or_default(), &caller).await?;
        // Refuse oversized requests before spending time on them.
        canvas_render::png::check_size(drawing.width, drawing.height).map_err(render_error)?;
        tokio::task::spawn_blocking(move || canvas_render::render_png(&drawing))
            .await
            .map_err(ApiError::internal)?
            .map_err(render_error)
    }
    .await;
    match result {
        Ok(bytes) => image_response("image/png", bytes),
        Err(err) => format.error(err),
    }
}

fn image_response(content_type: &'static str, bytes: Vec<u8>) -> Response {
    let mut response = (StatusCode::OK, Body::from(bytes)).into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    // A private project's picture: never kept by shared caches.
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("private, no-store"));
    headers.insert("x-content-type-options", HeaderValue::from_static("nosniff"));
    // Opened directly, the SVG may show its embedded pictures and nothing else.
    headers.insert(
        "content-security-policy",
        HeaderValue::from_static("default-src 'none'; img-src data:; style-src 'unsafe-inline'"),
    );
    response
}

fn render_error(err: RenderError) -> ApiError {
    match err {
        RenderError::InvalidScale(_) => ApiError::invalid("scale", &err.to_string()),
        RenderError::InvalidRegion => ApiError::invalid("region", &err.to_string()),
        RenderError::TooLarge { .. } => ApiError::invalid("scale", &err.to_string()),
        RenderError::Rasterise(_) => ApiError::internal(err),
        RenderError::Unrasterisable => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, err.to_string()),
    }
}

/// Parses the query into render options; each error names its parameter.
pub fn options(query: &str) -> Result<RenderOptions, ApiError> {
    let number = |name: &str| -> Result<Option<f64>, ApiError> {
        match query_value(query, name) {
            None => Ok(None),
            Some(raw) => match raw.trim().parse::<f64>() {
                Ok(n) if n.is_finite() => Ok(Some(n)),
                _ => Err(ApiError::invalid(name, "must be a number")),
            },
        }
    };
    let params = RenderParams {
        item_ids: query_value(query, "itemIds"),
        x: number("x")?,
        y: number("y")?,
        width: number("width")?,
        height: number("height")?,
        scale: number("scale")?,
        frame: query_value(query, "frame").map(|f| f.trim().to_ascii_lowercase()).filter(|f| !f.is_empty()),
    };
    let region = match (params.x, params.y, params.width, params.height) {
        (None, None, None, None) => None,
        (Some(x), Some(y), Some(width), Some(height)) => Some(Rect { x, y, width, height }),
        _ => return Err(ApiError::invalid("region", "give all of x, y, width and height, or none of them")),
    };
    let item_ids = params.item_ids.map(|raw| {
        raw.split(',').map(|id| id.trim().to_ascii_lowercase()).filter(|id| !id.is_empty()).collect::<HashSet<_>>()
    });
    if item_ids.as_ref().is_some_and(HashSet::is_empty) {
        return Err(ApiError::invalid("itemIds", "must list at least one item id (comma-separated)"));
    }
    let scale = params.scale.unwrap_or(RenderOptions::default().scale);
    Ok(RenderOptions { item_ids, region, scale, frame: params.frame })
}

/// Lists the items, fetches the content the drawing embeds, and draws.
async fn draw(state: &AppState, project_id: String, query: String, caller: &Caller) -> Result<Drawing, ApiError> {
    let options = options(&query)?;
    let items = match (&options.frame, &options.item_ids) {
        // A frame: what it holds (core-service's listing, which refuses anything but a frame of
        // the project, naming `frame`) and the frame itself.
        (Some(frame), _) => {
            let mut items = list_pages(state, &project_id, caller, frame).await?;
            items.extend(fetch_by_id(state, &project_id, caller, &HashSet::from([frame.clone()])).await?);
            items
        }
        // A few named items (the live map redrawing what changed): read each by id, so the cost
        // follows the change, not the size of the map; with the containers above them, which
        // say which frame clips them (read, not drawn).
        (None, Some(ids)) if ids.len() <= BY_ID_MAX => {
            with_containers(state, &project_id, caller, fetch_by_id(state, &project_id, caller, ids).await?).await?
        }
        _ => list_all(state, &project_id, caller).await?,
    };
    let contents = fetch_contents(state, &project_id, caller, &items, &options).await?;
    tokio::task::spawn_blocking(move || canvas_render::render_svg(&items, &contents, &options))
        .await
        .map_err(ApiError::internal)?
        .map_err(render_error)
}

/// Most items `itemIds` reads one by one; more are filtered from the whole listing.
const BY_ID_MAX: usize = 200;

/// The named items, read by id (a few at once). An id that names no item (deleted since the
/// caller saw it) is left out of the drawing, as the listing would leave it out; every other
/// refusal (no access, no such project) is the answer.
async fn fetch_by_id(
    state: &AppState,
    project_id: &str,
    caller: &Caller,
    ids: &HashSet<String>,
) -> Result<Vec<Value>, ApiError> {
    let mut requests = Vec::with_capacity(ids.len());
    for id in ids {
        let request =
            pb::GetItemRequest { project_id: project_id.to_owned(), item_id: id.clone(), properties_as_json: true };
        requests.push(caller.request(request)?);
    }
    let mut replies = stream::iter(requests)
        .map(|request| {
            let mut client = state.items.clone();
            async move { client.get_item(request).await }
        })
        .buffered(CONTENT_CONCURRENCY);
    let mut items = Vec::with_capacity(ids.len());
    while let Some(reply) = replies.next().await {
        match reply {
            Ok(item) => items.push(item_json(item.into_inner())?),
            Err(status) => match item_refusal(&status) {
                Some(ItemRefusal::Missing) => {}
                Some(ItemRefusal::NotAnId(rule)) => return Err(ApiError::invalid("itemIds", &rule)),
                None => return Err(status.into()),
            },
        }
    }
    Ok(items)
}

/// How reading one of the named items was refused, when it concerns that item alone.
enum ItemRefusal {
    /// No such item (not "no such project", which is the caller's answer).
    Missing,
    /// The id is not an item id: core-service's rule, reported under the query parameter.
    NotAnId(String),
}

fn item_refusal(status: &tonic::Status) -> Option<ItemRefusal> {
    let CallFailure::Refused(refusal) = canvas_proto::failure::classify(status) else { return None };
    match refusal.reason {
        pb::ErrorReason::NotFound if refusal.resource.as_ref().is_some_and(|(kind, _)| kind == "item") => {
            Some(ItemRefusal::Missing)
        }
        pb::ErrorReason::ValidationFailed => {
            refusal.violations.into_iter().find(|v| v.field == "itemId").map(|v| ItemRefusal::NotAnId(v.description))
        }
        _ => None,
    }
}

/// Containers followed up from the named items: a label in a shape in a frame is two steps.
const CONTAINER_STEPS: usize = 4;

/// `items` and the containers above them (their `parent` items, and theirs), read by id.
async fn with_containers(
    state: &AppState,
    project_id: &str,
    caller: &Caller,
    mut items: Vec<Value>,
) -> Result<Vec<Value>, ApiError> {
    let mut known: HashSet<String> = items.iter().filter_map(|i| i["itemId"].as_str().map(str::to_owned)).collect();
    let mut from = 0;
    for _ in 0..CONTAINER_STEPS {
        let parents: HashSet<String> = items[from..]
            .iter()
            .filter_map(|i| i["parent"].as_str())
            .filter(|p| !matches!(*p, "panel" | "inbox") && !known.contains(*p))
            .map(str::to_owned)
            .collect();
        if parents.is_empty() {
            break;
        }
        from = items.len();
        known.extend(parents.iter().cloned());
        items.extend(fetch_by_id(state, project_id, caller, &parents).await?);
    }
    Ok(items)
}

/// Every item of the project, page by page, as REST item JSON.
pub async fn list_all(state: &AppState, project_id: &str, caller: &Caller) -> Result<Vec<Value>, ApiError> {
    list_pages(state, project_id, caller, "").await
}

/// Every item of the project (or of `frame`, when not empty), page by page, as REST item JSON.
async fn list_pages(state: &AppState, project_id: &str, caller: &Caller, frame: &str) -> Result<Vec<Value>, ApiError> {
    let page = |page_token: String| async move {
        let request = pb::ListItemsRequest {
            project_id: project_id.to_owned(),
            page_size: Some(ITEMS_PAGE.max),
            page_token,
            frame: frame.to_owned(),
            ..Default::default()
        };
        let page = state.items.clone().list_items(caller.request(request)?).await?.into_inner();
        let items = page.items.into_iter().map(item_json).collect::<Result<Vec<Value>, ApiError>>()?;
        Ok::<_, ApiError>((items, page.next_page_token))
    };
    canvas_proto::client::all_pages(page, None).await
}

/// The stored bytes of the image and SVG items that will be drawn, within
/// [`CONTENT_BUDGET`]. An item whose content cannot be read draws as a placeholder.
async fn fetch_contents(
    state: &AppState,
    project_id: &str,
    caller: &Caller,
    items: &[Value],
    options: &RenderOptions,
) -> Result<HashMap<String, Content>, ApiError> {
    let wanted: Vec<String> = items
        .iter()
        .filter(|item| matches!(item["itemType"].as_str(), Some("image" | "svg")))
        .filter_map(|item| item["itemId"].as_str())
        .filter(|id| options.item_ids.as_ref().is_none_or(|ids| ids.contains(*id)))
        .map(str::to_owned)
        .collect();
    let mut requests = Vec::with_capacity(wanted.len());
    for id in wanted {
        let request = pb::GetItemContentRequest { project_id: project_id.to_owned(), item_id: id.clone() };
        requests.push((id, caller.request(request)?));
    }
    let mut fetched = stream::iter(requests)
        .map(|(id, request)| {
            let mut client = state.items.clone();
            async move { (id, client.get_item_content(request).await) }
        })
        .buffered(CONTENT_CONCURRENCY);
    let mut contents = HashMap::new();
    let mut budget = CONTENT_BUDGET;
    while let Some((id, reply)) = fetched.next().await {
        match reply {
            Ok(reply) => {
                let content = reply.into_inner();
                if content.content.len() <= budget {
                    budget -= content.content.len();
                    contents.insert(id, Content { mime_type: content.mime_type, bytes: content.content });
                }
            }
            Err(status) => tracing::debug!(item = %id, code = ?status.code(), "item content not drawn"),
        }
    }
    Ok(contents)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_parameters_become_options_or_name_what_is_wrong() {
        let options = options("itemIds=A,b&scale=0.5&x=1&y=2&width=3&height=4").unwrap();
        assert_eq!(options.scale, 0.5);
        assert_eq!(options.region, Some(Rect { x: 1.0, y: 2.0, width: 3.0, height: 4.0 }));
        assert_eq!(options.item_ids.unwrap(), HashSet::from(["a".to_owned(), "b".to_owned()]));
        assert_eq!(super::options("x=1").unwrap_err().fields[0].field, "region");
        assert_eq!(super::options("scale=big").unwrap_err().fields[0].field, "scale");
        assert_eq!(super::options("itemIds=,").unwrap_err().fields[0].field, "itemIds");
    }
}
