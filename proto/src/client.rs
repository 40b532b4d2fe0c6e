//! The frame of a gateway's call to core-service, stated once for rest-gateway and mcp-gateway:
//! what a request carries ([`Credentials`] and the served request's context), which failures an
//! idempotent call may repeat ([`idempotent`]), and reading every page of a listing
//! ([`all_pages`]).
//!
//! The gateways hold no rule about credentials: they forward what the client sent and
//! core-service judges it. So the frame's rule is only how each credential travels, and that a
//! value that cannot travel as gRPC metadata (control characters) is left out, which core-service
//! answers as for a missing credential (UNAUTHENTICATED).

use std::future::Future;
use std::sync::OnceLock;

use tonic::metadata::{MetadataMap, MetadataValue};
use tonic::{Request, Status};

/// The client's `Authorization` header, unchanged.
pub const AUTHORIZATION: &str = "authorization";
/// An account-site session (never sent as `authorization`: core-service tells the two kinds of
/// credential apart by where they arrive).
pub const SESSION: &str = "x-canvas-session";
/// The session's CSRF value, from the page's `X-Canvas-CSRF` header: with it (and only with it)
/// core-service lets a session write.
pub const CSRF: &str = "x-canvas-csrf";
/// The public URL of the endpoint a call came through, so an OAuth access token is accepted only
/// at the resource it was minted for.
pub const RESOURCE: &str = "x-canvas-resource";
/// A creating call's `Idempotency-Key`; core-service runs the call once per caller and key.
pub const IDEMPOTENCY_KEY: &str = "idempotency-key";
/// Set to `true` on the answer of a creating call that replays an earlier one.
pub const IDEMPOTENT_REPLAYED: &str = "idempotent-replayed";

/// Who a call is made for: the credentials the client sent, each forwarded as its own metadata.
#[derive(Debug, Clone, Copy, Default)]
pub struct Credentials<'a> {
    /// The `Authorization` header as sent (`Bearer …`, `ServiceApiKey …`).
    pub authorization: Option<&'a str>,
    /// The account site's session cookie value.
    pub session: Option<&'a str>,
    /// The endpoint's public URL (MCP's resource), see [`RESOURCE`].
    pub resource: Option<&'a str>,
    /// The session's CSRF value the page sent with a write, see [`CSRF`].
    pub csrf: Option<&'a str>,
}

impl Credentials<'_> {
    /// Writes the credentials into `metadata`, leaving out any value that cannot travel.
    pub fn stamp(&self, metadata: &mut MetadataMap) {
        let all = [
            (AUTHORIZATION, self.authorization),
            (SESSION, self.session),
            (RESOURCE, self.resource),
            (CSRF, self.csrf),
        ];
        for (name, value) in all {
            if let Some(value) = value.and_then(|v| MetadataValue::try_from(v).ok()) {
                metadata.insert(name, value);
            }
        }
    }
}

/// Whether `value` can travel as gRPC metadata (no control characters); a gateway that wants to refuse
/// such a header itself, before any call, asks this.
pub fn sendable(value: &str) -> bool {
    MetadataValue::try_from(value).is_ok()
}

/// How the process writes the context of the request it serves (request id, trace context, client
/// address) into a call's metadata. That context lives in canvas-runtime's task-locals, and
/// canvas-runtime depends on this crate, so the process hands the function over once
/// ([`carry_context`]) instead of this crate calling it.
pub type ContextStamp = fn(&mut MetadataMap);

static CONTEXT: OnceLock<ContextStamp> = OnceLock::new();

/// Sets how every [`request`] of this process carries the served request's context. Each gateway
/// calls it when it builds its state; the first call wins (in one process, `canvasctl up` serving
/// both gateways, they pass the same function).
pub fn carry_context(stamp: ContextStamp) {
    let _ = CONTEXT.set(stamp);
}

/// A gRPC request of `message` carrying `credentials` and the served request's context.
pub fn request<T>(message: T, credentials: &Credentials<'_>) -> Request<T> {
    let mut request = Request::new(message);
    credentials.stamp(request.metadata_mut());
    if let Some(stamp) = CONTEXT.get() {
        stamp(request.metadata_mut());
    }
    request
}

/// The retry rule of an idempotent (read-only) call: once more when the first attempt got no
/// answer ([`crate::channel::retryable`]: the replica it went to died or was restarted; with
/// several core-service addresses the second attempt goes to a live one). Answers of
/// core-service, refusals included, are never repeated, and neither is a write: a write whose
/// answer was lost may have been applied. `attempt` builds its request anew each time (a tonic
/// request is consumed by its call).
pub async fn idempotent<R, E, F, Fut>(mut attempt: F) -> Result<R, E>
where
    E: Retryable,
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<R, E>>,
{
    match attempt().await {
        Err(failure) if failure.retryable() => attempt().await,
        result => result,
    }
}

/// A failure that may say "no answer arrived": the gRPC status itself, or a gateway's reading of
/// it.
pub trait Retryable {
    fn retryable(&self) -> bool;
}

impl Retryable for Status {
    fn retryable(&self) -> bool {
        crate::channel::retryable(self)
    }
}

/// Every item of a paged listing: `fetch(page_token)` answers one page and the next token (empty
/// after the last page). Stops early once `limit` items are read (the caller draws at most that
/// many), returning what was read, which may exceed `limit` by the rest of the last page.
pub async fn all_pages<T, E, F, Fut>(mut fetch: F, limit: Option<usize>) -> Result<Vec<T>, E>
where
    F: FnMut(String) -> Fut,
    Fut: Future<Output = Result<(Vec<T>, String), E>>,
{
    let mut items = Vec::new();
    let mut token = String::new();
    loop {
        let (page, next) = fetch(token).await?;
        items.extend(page);
        if next.is_empty() || limit.is_some_and(|limit| items.len() >= limit) {
            return Ok(items);
        }
        token = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_travel_under_their_own_names() {
        let credentials = Credentials {
            authorization: Some("Bearer svc_tk_x"),
            session: Some("s"),
            resource: Some("https://c/mcp"),
            csrf: Some("c"),
        };
        let request = request((), &credentials);
        let get = |name: &str| request.metadata().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
        assert_eq!(get(AUTHORIZATION).as_deref(), Some("Bearer svc_tk_x"));
        assert_eq!(get(SESSION).as_deref(), Some("s"));
        assert_eq!(get(RESOURCE).as_deref(), Some("https://c/mcp"));
        assert_eq!(get(CSRF).as_deref(), Some("c"));
    }

    #[test]
    fn a_value_that_cannot_travel_is_left_out() {
        let credentials = Credentials { authorization: Some("Bearer a\nb"), ..Credentials::default() };
        assert!(!sendable("Bearer a\nb"));
        assert!(request((), &credentials).metadata().get(AUTHORIZATION).is_none());
    }

    #[tokio::test]
    async fn only_a_missing_answer_is_retried_once() {
        let mut reset = Status::unknown("connection reset");
        reset.set_source(std::sync::Arc::new(std::io::Error::from(std::io::ErrorKind::ConnectionReset)));
        let mut calls = 0;
        let result: Result<(), Status> = idempotent(|| {
            calls += 1;
            let status = reset.clone();
            async move { Err(status) }
        })
        .await;
        assert!(result.is_err());
        assert_eq!(calls, 2, "one retry, not more");
        let mut calls = 0;
        let _: Result<(), Status> = idempotent(|| {
            calls += 1;
            async { Err(Status::not_found("item")) }
        })
        .await;
        assert_eq!(calls, 1, "an answer is never repeated");
    }

    #[tokio::test]
    async fn reads_every_page_or_up_to_the_limit() {
        let pages = |token: String| async move {
            let n: usize = token.parse().unwrap_or(0);
            let next = if n < 4 { (n + 1).to_string() } else { String::new() };
            Ok::<_, Status>((vec![n; 2], next))
        };
        assert_eq!(all_pages(pages, None).await.unwrap(), vec![0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
        assert_eq!(all_pages(pages, Some(3)).await.unwrap(), vec![0, 0, 1, 1]);
    }
}
