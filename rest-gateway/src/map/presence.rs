//! Presence on the live web map: who else has the project's map open, their cursors and
//! selections, relayed from core-service's `PresenceService` (which keeps it in memory; nothing
//! is written to the database).
//!
//! - `POST /api/v2/projects/{projectId}/presence` with `{clientId, cursor: {x, y} | null,
//!   selection: [itemId…], leaving, viewport: {x, y, width, height} | null, summon}` answers 204. It is a write: an API token, or the session
//!   cookie beside the page's `X-Canvas-CSRF` header.
//! - `GET /api/v2/projects/{projectId}/presence` is a stream of server-sent events: one
//!   `presence` per client present at the start (data `{clientId, userId, name, colour, cursor,
//!   selection, viewport, summons, at}`, `at` in Unix milliseconds), then a `presence` per announcement and a `left`
//!   (data `{clientId}`) per client that left. Like the change stream (`changes.rs`) it ends
//!   after [`super::changes::MAX_STREAM`] (the client reconnects and gets the present clients again).

use std::convert::Infallible;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::sse::Event;
use axum::response::{IntoResponse, Response};
use canvas_proto::v1 as pb;
use canvas_proto::v1::presence_service_client::PresenceServiceClient;
use futures_util::StreamExt;
use serde_json::json;

use super::changes::{error_event, event_stream};
use crate::bodies::parse;
use crate::bodies::presence::PresenceAnnouncement;
use crate::caller::Caller;
use crate::content_type::{JsonBody, Rejected};
use crate::error::ApiError;
use crate::respond::Format;
use crate::state::AppState;

/// `POST /api/v2/projects/{projectId}/presence`
#[utoipa::path(
    post,
    path = "/api/v2/projects/{projectId}/presence",
    tag = "map",
    operation_id = "announcePresence",
    summary = "Say where this open map's cursor is and what it has selected",
    description = "`{clientId, cursor: {x, y} | null, selection: [itemId…], leaving, viewport: {x, y, width, \
        height} | null, summon}`. Followers of the project's presence see it at once, on every replica; nothing is \
        written to the database. A client not heard from for 30 s has left, as has one that sends `leaving: true`. \
        `viewport` is the part of the map it shows (others can follow it); `summon: true` asks every other open map \
        to follow it (\"bring everyone here\", needs `viewport`). Needs the Viewer role or above. A client id is \
        held by the person who first announced it until it leaves (409 for another person).",
    params(("projectId" = String, Path, format = "uuid")),
    request_body(content = PresenceAnnouncement, content_type = "application/json"),
    responses((status = 204, description = "Announced."))
)]
pub async fn announce(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    caller: Caller,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let result = async {
        let body: PresenceAnnouncement =
            parse(body, "a presence ({clientId, cursor, selection, leaving, viewport, summon})")?;
        let message = pb::AnnounceRequest {
            project_id,
            client_id: body.client_id,
            cursor: body.cursor.map(|c| pb::PresenceCursor { x: c.x, y: c.y }),
            selection: body.selection,
            leaving: body.leaving,
            viewport: body.viewport.map(|v| pb::PresenceViewport { x: v.x, y: v.y, width: v.width, height: v.height }),
            summon: body.summon,
        };
        PresenceServiceClient::new(state.channel.clone()).announce(caller.request(message)?).await?;
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
        viewport: {x, y, width, height} | null, summons, at}`, `at` in Unix ms; `summons` is true only on the \
        announcement that asked everyone to follow), one per client present at the start, then one per announcement; `left` (data \
        `{clientId}`) when a client closes the map or is not heard from for 30 s. A stream ends after 300 s.",
    params(("projectId" = String, Path, format = "uuid")),
    responses((status = 200, description = "The event stream.", content_type = "text/event-stream", body = String))
)]
pub async fn stream_presence(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    caller: Caller,
) -> Response {
    let request = match caller.request(pb::FollowPresenceRequest { project_id }) {
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
                    "viewport": event.viewport.map(|v| json!({"x": v.x, "y": v.y, "width": v.width, "height": v.height})),
                    "summons": event.summons,
                    "at": event.at_unix_ms,
                })
                .to_string(),
            ),
            Err(status) => error_event(status),
        })
    });
    event_stream(events)
}
