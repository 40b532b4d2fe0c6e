//! What every handler shares: gRPC clients of core-service, the account site's session frame, and
//! the idempotency headers of creating calls. How a call carries the caller's credentials is
//! `crate::caller`'s.

use std::sync::Arc;
use std::time::Duration;

use canvas_proto::channel::CoreChannel;
use canvas_proto::client::{self, Credentials};
use canvas_proto::v1::item_service_client::ItemServiceClient;
use canvas_proto::v1::o_auth_service_client::OAuthServiceClient;
use canvas_proto::v1::session_service_client::SessionServiceClient;
use canvas_runtime::GatewayArgs;
use tonic::metadata::MetadataValue;
use tonic::{Request, Response};

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

/// Wraps a message of the account site in a gRPC request carrying the session cookie's value
/// (when there is one) as `x-canvas-session`. A value that cannot travel as metadata is left out,
/// so core-service answers UNAUTHENTICATED as for a missing cookie.
pub fn with_session<T>(message: T, session: Option<&str>) -> Request<T> {
    client::request(message, &Credentials { session, ..Credentials::default() })
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
