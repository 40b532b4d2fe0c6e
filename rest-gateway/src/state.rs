//! What every handler shares: gRPC clients of core-service, and how a call to it carries the
//! caller's credentials (the client frame both gateways share, `canvas_proto::client`, with this
//! gateway's two additions: the session cookie of a GET or of a write with `X-Canvas-CSRF`, and an `Authorization` header that is not
//! text refused here with 401).

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use canvas_proto::channel::CoreChannel;
use canvas_proto::client::{self, Credentials};
use canvas_proto::v1::item_service_client::ItemServiceClient;
use canvas_proto::v1::o_auth_service_client::OAuthServiceClient;
use canvas_proto::v1::session_service_client::SessionServiceClient;
use canvas_runtime::GatewayArgs;
use tonic::metadata::MetadataValue;
use tonic::{Request, Response, Status};

use crate::error::ApiError;

/// Largest gRPC message the gateway sends or accepts (a 25 MiB upload plus
/// framing), matching core-service.
pub use canvas_proto::limits::MAX_MESSAGE_BYTES;

/// The gRPC metadata that carries an account-site session to core-service (never `authorization`:
/// core-service tells the two kinds of credential apart by where they arrive).
pub const SESSION_METADATA: &str = client::SESSION;

/// Shared by all handlers. axum clones the state for every extractor and middleware of every
/// request, so it is one `Arc`: a clone of the fields would clone four channels and three gRPC
/// clients' settings each time (a twentieth of a GET's CPU in `perf`). Handlers read the fields
/// through `Deref`; the builders below change them before the router is made.
#[derive(Clone)]
pub struct AppState(Arc<SharedState>);

impl std::ops::Deref for AppState {
    type Target = SharedState;

    fn deref(&self) -> &SharedState {
        &self.0
    }
}

/// What [`AppState`] holds.
#[derive(Clone)]
pub struct SharedState {
    /// The channel to core-service, also used by the health check.
    pub channel: CoreChannel,
    /// Item calls.
    pub items: ItemServiceClient<CoreChannel>,
    /// The account site's calls: sign-in, sessions, the user's own tokens and audit records.
    pub sessions: SessionServiceClient<CoreChannel>,
    /// The OAuth authorization server's calls (metadata, clients, consent, tokens).
    pub oauth: OAuthServiceClient<CoreChannel>,
    /// How long a client may take to send a request body.
    pub body_timeout: Duration,
    /// The account site's public base URL (`--account-url`), no trailing slash. `None`: each
    /// request's own origin, with the plain-HTTP cookie names.
    pub account_url: Option<Arc<str>>,
    /// The header a trusted proxy writes the client's address in (`--client-ip-header`); `None`:
    /// the peer address.
    pub client_ip_header: Option<axum::http::HeaderName>,
}

impl AppState {
    /// Connects lazily: the gateway starts even when core-service is not up
    /// yet, and `/readyz` says so until it is. Every call gets the deadline of `limits`.
    pub fn connect(core_url: &str, limits: &GatewayArgs) -> anyhow::Result<Self> {
        let channel = canvas_proto::channel::core_channel(core_url).map_err(|e| anyhow::anyhow!(e))?;
        Ok(Self::from_channel(channel.with_deadline(limits.core_timeout()), limits))
    }

    pub fn from_channel(channel: impl Into<CoreChannel>, limits: &GatewayArgs) -> Self {
        client::carry_context(canvas_runtime::call_context::stamp);
        let channel = channel.into();
        let items = ItemServiceClient::new(channel.clone())
            .max_decoding_message_size(MAX_MESSAGE_BYTES)
            .max_encoding_message_size(MAX_MESSAGE_BYTES);
        Self(Arc::new(SharedState {
            sessions: SessionServiceClient::new(channel.clone()),
            oauth: OAuthServiceClient::new(channel.clone()),
            channel,
            items,
            body_timeout: limits.body_timeout(),
            account_url: None,
            client_ip_header: None,
        }))
    }

    /// Reads clients' addresses from `header`, written by a trusted reverse proxy.
    pub fn with_client_ip_header(mut self, header: &str) -> anyhow::Result<Self> {
        let name = axum::http::HeaderName::try_from(header.trim())
            .map_err(|_| anyhow::anyhow!("--client-ip-header '{header}' is not a header name"))?;
        canvas_runtime::client_address::trust_header(name.clone());
        Arc::make_mut(&mut self.0).client_ip_header = Some(name);
        Ok(self)
    }

    /// The account site's public base URL (`https://canvas.example`): the OAuth issuer, and
    /// whether cookies are `__Host-` and `Secure` (an `https://` URL) or plain (development).
    pub fn with_account_url(mut self, url: &str) -> Self {
        let url = url.trim().trim_end_matches('/');
        Arc::make_mut(&mut self.0).account_url = (!url.is_empty()).then(|| Arc::from(url));
        self
    }
}

/// The session cookie a request forwards (when it sent no `Authorization` header), set by
/// `account::forward_session` around the handler: a GET or HEAD request's, or a write's that
/// carries the page's `X-Canvas-CSRF` header, which travels with it.
#[derive(Debug, Clone)]
pub struct ForwardedSession {
    pub session: String,
    /// The `X-Canvas-CSRF` value of a write; `None` on reads.
    pub csrf: Option<String>,
}

tokio::task_local! {
    static FORWARDED_SESSION: ForwardedSession;
}

/// Runs `work` (a handler) with `session` forwarded by every [`with_auth`] request it makes. A
/// task-local rather than a parameter, so the REST handlers keep one signature and only the
/// middleware decides when a cookie travels (reads; writes with `X-Canvas-CSRF`).
pub async fn with_forwarded_session<F: Future>(session: ForwardedSession, work: F) -> F::Output {
    FORWARDED_SESSION.scope(session, work).await
}

/// Runs `work` (a GET or HEAD handler) with `session` forwarded, see [`with_forwarded_session`].
pub async fn with_read_session<F: Future>(session: String, work: F) -> F::Output {
    with_forwarded_session(ForwardedSession { session, csrf: None }, work).await
}

/// The request of [`with_auth`] once its header is known to travel.
fn framed<T>(message: T, authorization: Option<&str>) -> Request<T> {
    let forwarded = match authorization {
        Some(_) => None,
        None => FORWARDED_SESSION.try_with(Clone::clone).ok(),
    };
    let credentials = Credentials {
        authorization,
        session: forwarded.as_ref().map(|f| f.session.as_str()),
        csrf: forwarded.as_ref().and_then(|f| f.csrf.as_deref()),
        resource: None,
    };
    client::request(message, &credentials)
}

/// Wraps a message in a gRPC request carrying the client's `Authorization`
/// header unchanged; core-service does all authentication. Without the header, the session
/// cookie the middleware let through (see [`with_forwarded_session`]) goes as `x-canvas-session`
/// instead, with a write's `X-Canvas-CSRF` as `x-canvas-csrf`.
pub fn with_auth<T>(message: T, authorization: Option<&str>) -> Result<Request<T>, ApiError> {
    if authorization.is_some_and(|value| !client::sendable(value)) {
        return Err(ApiError::new(axum::http::StatusCode::UNAUTHORIZED, "the Authorization header is not valid text"));
    }
    Ok(framed(message, authorization))
}

/// Wraps a message of the account site in a gRPC request carrying the session cookie's value
/// (when there is one) as `x-canvas-session`. A value that cannot travel as metadata is left out,
/// so core-service answers UNAUTHENTICATED as for a missing cookie.
pub fn with_session<T>(message: T, session: Option<&str>) -> Request<T> {
    client::request(message, &Credentials { session, ..Credentials::default() })
}

/// Runs an idempotent (read-only) call under the shared retry rule ([`client::idempotent`]): once
/// more if the first attempt got no answer. Never used for writes.
pub async fn idempotent<T, R, F, Fut>(message: T, authorization: Option<&str>, call: F) -> Result<Response<R>, ApiError>
where
    T: Clone,
    F: Fn(Request<T>) -> Fut,
    Fut: std::future::Future<Output = Result<Response<R>, Status>>,
{
    let mut first = Some(with_auth(message.clone(), authorization)?);
    let reply = client::idempotent(|| {
        let request = first.take().unwrap_or_else(|| {
            tracing::warn!("core-service call failed in transport; retrying once");
            framed(message.clone(), authorization)
        });
        call(request)
    })
    .await;
    Ok(reply?)
}

/// The request header of idempotent retries (draft-ietf-httpapi-idempotency-key-header).
pub const IDEMPOTENCY_KEY: &str = "Idempotency-Key";
/// The answer header that says an answer is the replay of an earlier request's (as Stripe names it).
pub const IDEMPOTENT_REPLAYED: &str = "Idempotent-Replayed";

/// Forwards the client's `Idempotency-Key` header on a creating call, as the gRPC metadata
/// `idempotency-key`; core-service checks the key and runs the call once per caller and key. A
/// value that cannot travel as metadata is a 400 naming the header.
pub fn with_idempotency_key<T>(
    mut request: Request<T>,
    headers: &axum::http::HeaderMap,
) -> Result<Request<T>, ApiError> {
    if let Some(value) = headers.get(IDEMPOTENCY_KEY) {
        let value = value.to_str().ok().and_then(|v| MetadataValue::try_from(v).ok()).ok_or_else(|| {
            ApiError::invalid(IDEMPOTENCY_KEY, "must be 1 to 255 printable ASCII characters (a UUID, say)")
        })?;
        request.metadata_mut().insert(client::IDEMPOTENCY_KEY, value);
    }
    Ok(request)
}

/// Whether core-service answered a creating call with the stored answer of an earlier one.
pub fn replayed<T>(reply: &Response<T>) -> bool {
    reply.metadata().get(client::IDEMPOTENT_REPLAYED).is_some_and(|v| v.as_bytes() == b"true")
}

/// Adds `Idempotent-Replayed: true` to the answer of a replayed call.
pub fn mark_replayed(mut response: axum::response::Response, replayed: bool) -> axum::response::Response {
    if replayed {
        response.headers_mut().insert(IDEMPOTENT_REPLAYED, axum::http::HeaderValue::from_static("true"));
    }
    response
}
