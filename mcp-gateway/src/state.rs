//! What every request shares: the gRPC clients of core-service and the
//! settings. The gateway keeps no other state: MCP is served statelessly, so
//! any replica can answer any request.

use std::sync::Arc;

use canvas_proto::channel::CoreChannel;
use canvas_proto::v1::item_service_client::ItemServiceClient;
use canvas_proto::v1::knowledge_service_client::KnowledgeServiceClient;
use canvas_proto::v1::project_service_client::ProjectServiceClient;
use tonic::metadata::MetadataValue;
use tonic::Request;

use crate::config::McpSettings;

/// Largest gRPC message sent or accepted: a 25 MiB upload plus framing,
/// matching core-service.
pub use canvas_proto::limits::MAX_MESSAGE_BYTES;

/// Shared by every request; cheap to clone (the clients share one channel).
#[derive(Clone)]
pub struct McpState {
    /// The channel to core-service, kept for the readiness check.
    pub channel: CoreChannel,
    /// `WhoAmI` (the per-request token check) and the caller's projects.
    pub projects: ProjectServiceClient<CoreChannel>,
    /// Every item tool.
    pub items: ItemServiceClient<CoreChannel>,
    /// `retrieve_knowledge`.
    pub knowledge: KnowledgeServiceClient<CoreChannel>,
    /// Links, host allow-list, realm and body limit.
    pub settings: Arc<McpSettings>,
}

impl McpState {
    /// Connects lazily: the gateway starts even when core-service is not up
    /// yet; requests then fail with a clear "unreachable" error until it is. Every call gets the
    /// deadline of `settings.limits`.
    pub fn connect(core_url: &str, settings: McpSettings) -> anyhow::Result<Self> {
        let channel = canvas_proto::channel::core_channel(core_url).map_err(|e| anyhow::anyhow!(e))?;
        Ok(Self::from_channel(channel.with_deadline(settings.limits.core_timeout()), settings))
    }

    pub fn from_channel(channel: impl Into<CoreChannel>, settings: McpSettings) -> Self {
        let channel = channel.into();
        Self {
            projects: ProjectServiceClient::new(channel.clone()),
            items: ItemServiceClient::new(channel.clone())
                .max_decoding_message_size(MAX_MESSAGE_BYTES)
                .max_encoding_message_size(MAX_MESSAGE_BYTES),
            knowledge: KnowledgeServiceClient::new(channel.clone()),
            channel,
            settings: Arc::new(settings),
        }
    }

    /// `{web_url}/map/{projectId}?node={itemId}`: where a user sees the item.
    pub fn item_link(&self, project_id: &str, item_id: &str) -> String {
        format!("{}/map/{project_id}?node={item_id}", self.settings.web_url)
    }

    /// The caller of one request, with its `Authorization` header as sent.
    pub fn caller(&self, authorization: Option<String>) -> Caller {
        Caller { authorization, resource: self.settings.resource_url.clone() }
    }

    /// `{web_url}/map/{projectId}`: the project's map.
    pub fn project_link(&self, project_id: &str) -> String {
        format!("{}/map/{project_id}", self.settings.web_url)
    }
}

/// The metadata that tells core-service which resource a call came through, so that an OAuth
/// access token is accepted only at the resource it was minted for.
pub const RESOURCE_METADATA: &str = "x-canvas-resource";

/// The caller's `Authorization` header exactly as sent; core-service does
/// all authentication with it.
#[derive(Debug, Clone)]
pub struct Caller {
    /// Header value, forwarded unchanged as gRPC metadata `authorization`.
    pub authorization: Option<String>,
    /// This endpoint's public URL (`McpSettings::resource_url`), sent as `x-canvas-resource`.
    pub resource: String,
}

impl Caller {
    /// Wraps a message in a gRPC request carrying the caller's credentials.
    /// A header that cannot travel as metadata (not visible ASCII) is left
    /// out, so core-service answers UNAUTHENTICATED as for a missing one.
    pub fn request<T>(&self, message: T) -> Request<T> {
        let mut request = Request::new(message);
        if let Some(value) = self.authorization.as_deref().and_then(|v| MetadataValue::try_from(v).ok()) {
            request.metadata_mut().insert("authorization", value);
        }
        if let Ok(resource) = MetadataValue::try_from(self.resource.as_str()) {
            request.metadata_mut().insert(RESOURCE_METADATA, resource);
        }
        if let Some(id) = canvas_runtime::request_id::current().and_then(|id| MetadataValue::try_from(id).ok()) {
            request.metadata_mut().insert(canvas_runtime::request_id::HEADER, id);
        }
        canvas_runtime::trace_context::inject_grpc(request.metadata_mut());
        canvas_runtime::client_address::inject_grpc(request.metadata_mut());
        request
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_call_names_the_resource() {
        let caller =
            Caller { authorization: Some("Bearer svc_at_x".into()), resource: "https://canvas.example/mcp".into() };
        let request = caller.request(());
        let metadata = |name: &str| request.metadata().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
        assert_eq!(metadata(RESOURCE_METADATA).as_deref(), Some("https://canvas.example/mcp"));
        assert_eq!(metadata("authorization").as_deref(), Some("Bearer svc_at_x"));
    }
}
