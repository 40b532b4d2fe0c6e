//! What every handler shares: gRPC clients of core-service.

use canvas_proto::v1::item_service_client::ItemServiceClient;
use tonic::metadata::MetadataValue;
use tonic::transport::{Channel, Endpoint};
use tonic::Request;

use crate::error::ApiError;

/// Largest gRPC message the gateway sends or accepts (a 25 MiB upload plus
/// framing), matching core-service.
pub const MAX_MESSAGE_BYTES: usize = 32 * 1024 * 1024;

/// Shared by all handlers; cheap to clone (clients share one channel).
#[derive(Clone)]
pub struct AppState {
    /// The channel to core-service, also used by the health check.
    pub channel: Channel,
    /// Item calls.
    pub items: ItemServiceClient<Channel>,
}

impl AppState {
    /// Connects lazily: the gateway starts even when core-service is not up
    /// yet, and `/readyz` says so until it is.
    pub fn connect(core_url: &str) -> anyhow::Result<Self> {
        let channel = Endpoint::from_shared(core_url.to_owned())?
            .connect_timeout(std::time::Duration::from_secs(5))
            .tcp_nodelay(true)
            .connect_lazy();
        Ok(Self::from_channel(channel))
    }

    pub fn from_channel(channel: Channel) -> Self {
        let items = ItemServiceClient::new(channel.clone())
            .max_decoding_message_size(MAX_MESSAGE_BYTES)
            .max_encoding_message_size(MAX_MESSAGE_BYTES);
        Self { channel, items }
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
    Ok(request)
}
