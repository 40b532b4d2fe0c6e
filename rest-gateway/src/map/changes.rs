//! `GET /api/v2/projects/{projectId}/changes`: the project's changes as
//! server-sent events, relayed from core-service's `WatchProject` stream.
//!
//! Events: `ready` once the watch is live (data: `{"seq"}`, the resume point),
//! then one `change` per change (data: `{eventId, seq, kind, itemId,
//! itemType, threadId, occurredAt}`; the SSE `id` is the seq; a comment's
//! change names the comment in `itemId`, `comment` in `itemType`, and its
//! thread in `threadId`, null for every other change). A client resumes with
//! `?after=SEQ` or the `Last-Event-ID` header. Access errors are answered
//! before the stream starts, as problem+json like every other call.
//!
//! A stream ends when core-service ends it (its shutdown, a revoked role) or
//! after [`MAX_STREAM`]: a client reconnects with its last seq. The bound also
//! keeps a standalone gateway's graceful shutdown from waiting on streams for
//! longer than that.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Path, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use canvas_proto::v1 as pb;
use canvas_proto::v1::watch_service_client::WatchServiceClient;
use futures_util::{Stream, StreamExt};
use serde_json::json;

use crate::caller::Caller;
use crate::error::ApiError;
use crate::respond::{query_value, Format};
use crate::state::AppState;

/// Longest life of one event stream.
pub const MAX_STREAM: Duration = Duration::from_secs(300);

/// `GET /api/v2/projects/{projectId}/changes`
#[utoipa::path(
    get,
    path = "/api/v2/projects/{projectId}/changes",
    tag = "map",
    operation_id = "streamChanges",
    summary = "The project's changes as server-sent events",
    description = "Events: `ready` (data `{seq}`), then one `change` per change (data `{eventId, seq, kind, \
        itemId, itemType, threadId, occurredAt}`, SSE id = seq; a comment's change: `itemId` the comment, `itemType` \
        `comment`, `threadId` its thread). Resume with `after` or `Last-Event-ID`. A stream ends after 300 s.",
    params(
        ("projectId" = String, Path, format = "uuid"),
        ("after" = Option<i64>, Query, minimum = 0, description = "Resume after this seq (0: from the project's first change). Without it, only changes from now on."),
        ("Last-Event-ID" = Option<String>, Header, description = "Resume after this seq (SSE reconnection)."),
    ),
    responses((status = 200, description = "The event stream.", content_type = "text/event-stream", body = String))
)]
pub async fn stream_changes(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    RawQuery(query): RawQuery,
    caller: Caller,
    headers: HeaderMap,
) -> Response {
    let resume = query_value(query.as_deref().unwrap_or_default(), "after")
        .or_else(|| headers.get("last-event-id").and_then(|v| v.to_str().ok()).map(str::to_owned));
    let after = match resume.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(raw) => match raw.parse::<i64>() {
            Ok(n) if n >= 0 => Some(n),
            _ => return format.error(ApiError::invalid("after", "must be a whole number >= 0 (a change's seq)")),
        },
    };
    let request = match caller.request(pb::WatchProjectRequest { project_id, after }) {
        Ok(request) => request,
        Err(err) => return format.error(err),
    };
    let mut client = WatchServiceClient::new(state.channel.clone());
    let changes = match client.watch_project(request).await {
        Ok(reply) => reply.into_inner(),
        Err(status) => return format.error(ApiError::from(status)),
    };
    let events = changes.map(|message| -> Result<Event, Infallible> {
        Ok(match message {
            Ok(change) if change.kind == "watch.started" => {
                Event::default().event("ready").data(json!({"seq": change.seq}).to_string())
            }
            Ok(change) => Event::default().event("change").id(change.seq.to_string()).data(
                json!({
                    "eventId": change.event_id,
                    "seq": change.seq,
                    "kind": change.kind,
                    "itemId": change.subject_id,
                    "itemType": change.subject_type,
                    "threadId": change.thread_id,
                    "occurredAt": change.occurred_at.map(|t| t.seconds * 1000 + i64::from(t.nanos) / 1_000_000),
                })
                .to_string(),
            ),
            Err(status) => error_event(status),
        })
    });
    event_stream(events)
}

/// The `error` event that ends a stream core-service ended with a refusal (data `{status,
/// detail}`).
pub(crate) fn error_event(status: tonic::Status) -> Event {
    let error = ApiError::from(status);
    Event::default().event("error").data(json!({"status": error.status.as_u16(), "detail": error.detail}).to_string())
}

/// The server-sent events answer of `events`: ended after [`MAX_STREAM`], a keep-alive every 15 s,
/// never cached nor buffered by proxies.
pub(crate) fn event_stream<S>(events: S) -> Response
where
    S: Stream<Item = Result<Event, Infallible>> + Send + 'static,
{
    let events = events.take_until(tokio::time::sleep(MAX_STREAM));
    let mut response = Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))).into_response();
    response.headers_mut().insert("cache-control", axum::http::HeaderValue::from_static("no-store"));
    // Tell buffering proxies (nginx) to pass events through at once.
    response.headers_mut().insert("x-accel-buffering", axum::http::HeaderValue::from_static("no"));
    response
}
