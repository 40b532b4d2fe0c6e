//! What every handler shares: gRPC clients of core-service.

use std::time::Duration;

use canvas_proto::channel::CoreChannel;
use canvas_proto::v1::item_service_client::ItemServiceClient;
use canvas_runtime::GatewayArgs;
use tonic::metadata::MetadataValue;
use tonic::{Request, Response, Status};

use crate::error::ApiError;

/// Largest gRPC message the gateway sends or accepts (a 25 MiB upload plus
/// framing), matching core-service.
pub const MAX_MESSAGE_BYTES: usize = 32 * 1024 * 1024;

/// Shared by all handlers; cheap to clone (clients share one channel).
#[derive(Clone)]
pub struct AppState {
    /// The channel to core-service, also used by the health check.
    pub channel: CoreChannel,
    /// Item calls.
    pub items: ItemServiceClient<CoreChannel>,
    /// How long a client may take to send a request body.
    pub body_timeout: Duration,
}

impl AppState {
    /// Connects lazily: the gateway starts even when core-service is not up
    /// yet, and `/readyz` says so until it is. Every call gets the deadline of `limits`.
    pub fn connect(core_url: &str, limits: &GatewayArgs) -> anyhow::Result<Self> {
        let channel = canvas_proto::channel::core_channel(core_url).map_err(|e| anyhow::anyhow!(e))?;
        Ok(Self::from_channel(channel.with_deadline(limits.core_timeout()), limits))
    }

    pub fn from_channel(channel: impl Into<CoreChannel>, limits: &GatewayArgs) -> Self {
        let channel = channel.into();
        let items = ItemServiceClient::new(channel.clone())
            .max_decoding_message_size(MAX_MESSAGE_BYTES)
            .max_encoding_message_size(MAX_MESSAGE_BYTES);
        Self { channel, items, body_timeout: limits.body_timeout() }
    }
}

/// Wraps a message in a gRPC request carrying the client's `Authorization`
/// header unchanged; core-service does all authentication.
pub fn with_auth<T>(message: T, authorization: Option<&str>) -> Result<Request<T>, ApiError> {
    let mut request = Request::new(message);
    if let Some(value) = authorization {
        let value = MetadataValue::try_from(value).map_err(|_| {
            ApiError::new(axum::http::StatusCode::UNAUTHORIZED, "the Authorization header is not valid text")
        })?;
        request.metadata_mut().insert("authorization", value);
    }
    if let Some(id) = canvas_runtime::request_id::current().and_then(|id| MetadataValue::try_from(id).ok()) {
        request.metadata_mut().insert(canvas_runtime::request_id::HEADER, id);
    }
    canvas_runtime::trace_context::inject_grpc(request.metadata_mut());
    Ok(request)
}

/// Runs an idempotent (read-only) call, once more if the first attempt failed in transport (the
/// core-service replica it went to died or was restarted); with several `--core` addresses the
/// second attempt goes to a live replica. Never used for writes: a write whose answer was lost
/// may have been applied.
pub async fn idempotent<T, R, F, Fut>(message: T, authorization: Option<&str>, call: F) -> Result<Response<R>, ApiError>
where
    T: Clone,
    F: Fn(Request<T>) -> Fut,
    Fut: std::future::Future<Output = Result<Response<R>, Status>>,
{
    match call(with_auth(message.clone(), authorization)?).await {
        Err(status) if canvas_proto::channel::retryable(&status) => {
            tracing::warn!(code = ?status.code(), "core-service call failed in transport; retrying once");
            Ok(call(with_auth(message, authorization)?).await?)
        }
        result => Ok(result?),
    }
}
