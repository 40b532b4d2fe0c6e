//! Presence on the live web map: who else has the project's map open, their cursors and
//! selections, relayed from core-service's `PresenceService` (which keeps it in memory; nothing
//! is written to the database).
//!
//! - `POST /api/v2/projects/{projectId}/presence` with `{clientId, cursor: {x, y} | null,
//!   selection: [itemId…], leaving}` answers 204. It is a write: an API token, or the session
//!   cookie beside the page's `X-Canvas-CSRF` header.
//! - `GET /api/v2/projects/{projectId}/presence` is a stream of server-sent events: one
//!   `presence` per client present at the start (data `{clientId, userId, name, colour, cursor,
//!   selection, at}`, `at` in Unix milliseconds), then a `presence` per announcement and a `left`
//!   (data `{clientId}`) per client that left. Like the change stream (`changes.rs`) it ends
//!   after [`super::changes::MAX_STREAM`] (the client reconnects and gets the present clients again).

use std::convert::Infallible;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::Event;
use axum::response::{IntoResponse, Response};
use canvas_proto::v1 as pb;
use canvas_proto::v1::presence_service_client::PresenceServiceClient;
use futures_util::StreamExt;
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use super::changes::{error_event, event_stream};
use crate::content_type::{JsonBody, Rejected};
use crate::error::ApiError;
use crate::respond::Format;
use crate::routes::body::parse;
use crate::routes::items::authorization;
use crate::state::{with_auth, AppState};

/// `POST .../presence`: what one open map says about itself.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, expecting = "a presence {clientId, cursor, selection, leaving}")]
pub struct PresenceAnnouncement {
    /// The open map's own id, kept while it is open: 1 to 64 characters of `A-Z a-z 0-9 _ -`.
    #[schema(min_length = 1, max_length = 64, pattern = "^[A-Za-z0-9_-]{1,64}$")]
    pub client_id: String,
    /// Where the pointer is on the map; `null` or absent when it is off the map.
    #[serde(default)]
    pub cursor: Option<PresenceCursor>,
    /// The selected items (at most 200).
    #[serde(default)]
    #[schema(max_items = 200)]
    pub selection: Vec<String>,
    /// The map is being closed: the client leaves at once.
    #[serde(default)]
    pub leaving: bool,
}

/// A point of the map.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, expecting = "a point {x, y}")]
pub struct PresenceCursor {
    pub x: f64,
    pub y: f64,
}

/// `POST /api/v2/projects/{projectId}/presence`
#[utoipa::path(
    post,
    path = "/api/v2/projects/{projectId}/presence",
    tag = "map",
    operation_id = "announcePresence",
    summary = "Say where this open map's cursor is and what it has selected",
    description = "`{clientId, cursor: {x, y} | null, selection: [itemId…], leaving}`. Followers of the project's \
        presence see it at once, on every replica; nothing is written to the database. A client not heard from \
        for 30 s has left, as has one that sends `leaving: true`. Needs the Viewer role or above. A client id is \
        held by the person who first announced it until it leaves (409 for another person).",
    params(("projectId" = String, Path, format = "uuid")),
    request_body(content = PresenceAnnouncement, content_type = "application/json"),
    responses((status = 204, description = "Announced."))
)]
pub async fn announce(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    headers: HeaderMap,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let result = async {
        let body: PresenceAnnouncement = parse(body, "a presence ({clientId, cursor, selection, leaving})")?;
        let message = pb::AnnounceRequest {
            project_id,
            client_id: body.client_id,
            cursor: body.cursor.map(|c| pb::PresenceCursor { x: c.x, y: c.y }),
            selection: body.selection,
            leaving: body.leaving,
        };
        PresenceServiceClient::new(state.channel.clone())
            .announce(with_auth(message, authorization(&headers))?)
            .await?;
        Ok::<_, ApiError>(())
    }
    .await;
    match result {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(err) => format.error(err),
    }
}

/// `GET /api/v2/projects/{projectId}/presence`
#[utoipa::path(
    get,
    path = "/api/v2/projects/{projectId}/presence",
    tag = "map",
    operation_id = "streamPresence",
    summary = "Who has the project's map open, as server-sent events",
    description = "Events: `presence` (data `{clientId, userId, name, colour, cursor: {x, y} | null, selection, \
        at}`, `at` in Unix ms), one per client present at the start, then one per announcement; `left` (data \
        `{clientId}`) when a client closes the map or is not heard from for 30 s. A stream ends after 300 s.",
    params(("projectId" = String, Path, format = "uuid")),
    responses((status = 200, description = "The event stream.", content_type = "text/event-stream", body = String))
)]
pub async fn stream_presence(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let request = match with_auth(pb::FollowPresenceRequest { project_id }, authorization(&headers)) {
        Ok(request) => request,
        Err(err) => return format.error(err),
    };
    let mut client = PresenceServiceClient::new(state.channel.clone());
    let presence = match client.follow_presence(request).await {
        Ok(reply) => reply.into_inner(),
        Err(status) => return format.error(ApiError::from(status)),
    };
    let events = presence.map(|message| -> Result<Event, Infallible> {
        Ok(match message {
            Ok(event) if event.left => {
                Event::default().event("left").data(json!({"clientId": event.client_id}).to_string())
            }
            Ok(event) => Event::default().event("presence").data(
                json!({
                    "clientId": event.client_id,
                    "userId": event.user_id,
                    "name": event.name,
                    "colour": event.colour,
                    "cursor": event.cursor.map(|c| json!({"x": c.x, "y": c.y})),
                    "selection": event.selection,
                    "at": event.at_unix_ms,
                })
                .to_string(),
            ),
            Err(status) => error_event(status),
        })
    });
    event_stream(events)
}
