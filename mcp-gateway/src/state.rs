//! What every request shares: the gRPC clients of core-service and the
//! settings. The gateway keeps no other state: MCP is served statelessly, so
//! any replica can answer any request (a task's work runs where it was started,
//! but its state is core-service's: `crate::tasks`).

use std::sync::Arc;

use canvas_proto::channel::CoreChannel;
use canvas_proto::client::{self, Credentials};
use canvas_proto::v1::agent_task_service_client::AgentTaskServiceClient;
use canvas_proto::v1::item_service_client::ItemServiceClient;
use canvas_proto::v1::knowledge_service_client::KnowledgeServiceClient;
use canvas_proto::v1::project_service_client::ProjectServiceClient;
use tonic::metadata::{KeyAndValueRef, MetadataMap};
use tonic::Request;

use crate::config::McpSettings;
use crate::token_check::TokenCheck;

/// Largest gRPC message sent or accepted: a 25 MiB upload plus framing,
/// matching core-service.
pub use canvas_proto::limits::MAX_MESSAGE_BYTES;

/// Shared by every request. Cloned for every request (axum's state, the tool router), so it is
/// one `Arc`, as the REST gateway's `AppState` is: a clone of the fields would copy four
/// channels and three gRPC clients' settings each time. Fields are read through `Deref`.
#[derive(Clone)]
pub struct McpState(Arc<McpShared>);

impl std::ops::Deref for McpState {
    type Target = McpShared;

    fn deref(&self) -> &McpShared {
        &self.0
    }
}

/// What [`McpState`] holds.
pub struct McpShared {
    /// The channel to core-service, kept for the readiness check.
    pub channel: CoreChannel,
    /// `WhoAmI` (the token check of requests that run no tool) and the caller's projects.
    pub projects: ProjectServiceClient<CoreChannel>,
    /// Every item tool.
    pub items: ItemServiceClient<CoreChannel>,
    /// `retrieve_knowledge`.
    pub knowledge: KnowledgeServiceClient<CoreChannel>,
    /// The state of MCP tasks (`crate::tasks`), kept by core-service so any replica answers.
    pub tasks: AgentTaskServiceClient<CoreChannel>,
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
        client::carry_context(canvas_runtime::call_context::stamp);
        let channel = channel.into();
        Self(Arc::new(McpShared {
            projects: ProjectServiceClient::new(channel.clone()),
            items: ItemServiceClient::new(channel.clone())
                .max_decoding_message_size(MAX_MESSAGE_BYTES)
                .max_encoding_message_size(MAX_MESSAGE_BYTES),
            knowledge: KnowledgeServiceClient::new(channel.clone()),
            // A task's kept result (up to `limits::tasks::MAX_RESULT_BYTES`, a `render_map` image) goes
            // both ways.
            tasks: AgentTaskServiceClient::new(channel.clone())
                .max_decoding_message_size(MAX_MESSAGE_BYTES)
                .max_encoding_message_size(MAX_MESSAGE_BYTES),
            channel,
            settings: Arc::new(settings),
        }))
    }

    /// `{web_url}/map/{projectId}?node={itemId}`: where a user sees the item.
    pub fn item_link(&self, project_id: &str, item_id: &str) -> String {
        format!("{}/map/{project_id}?node={item_id}", self.settings.web_url)
    }

    /// The caller of one request, with its `Authorization` header as sent and its token not yet
    /// checked.
    pub fn caller(&self, authorization: Option<String>) -> Caller {
        let mut served = MetadataMap::new();
        canvas_runtime::call_context::stamp(&mut served);
        Caller {
            authorization,
            resource: self.settings.resource_url.clone(),
            check: Arc::default(),
            served: Arc::new(served),
        }
    }

    /// `{web_url}/map/{projectId}`: the project's map.
    pub fn project_link(&self, project_id: &str) -> String {
        format!("{}/map/{project_id}", self.settings.web_url)
    }
}

/// The metadata that tells core-service which resource a call came through, so that an OAuth
/// access token is accepted only at the resource it was minted for.
pub const RESOURCE_METADATA: &str = client::RESOURCE;

/// The caller's `Authorization` header exactly as sent; core-service does
/// all authentication with it.
#[derive(Debug, Clone)]
pub struct Caller {
    /// Header value, forwarded unchanged as gRPC metadata `authorization`.
    pub authorization: Option<String>,
    /// This endpoint's public URL (`McpSettings::resource_url`), sent as `x-canvas-resource`.
    pub resource: String,
    /// What this request's core-service calls said of the token (see [`crate::auth`]).
    pub check: Arc<TokenCheck>,
    /// The served request's context (request id, trace context, client address) as it was where
    /// the caller was made: rmcp runs a tool in a task of its own, where canvas-runtime's
    /// task-locals are not set, and core-service must still see the request id and the address.
    pub served: Arc<MetadataMap>,
}

impl Caller {
    /// Wraps a message in a gRPC request carrying the caller's credentials (the shared client
    /// frame: a header that cannot travel as metadata is left out, so core-service answers
    /// UNAUTHENTICATED as for a missing one).
    pub fn request<T>(&self, message: T) -> Request<T> {
        self.check.sent();
        let credentials = Credentials {
            authorization: self.authorization.as_deref(),
            resource: Some(&self.resource),
            ..Credentials::default()
        };
        let mut request = client::request(message, &credentials);
        let metadata = request.metadata_mut();
        for entry in self.served.iter() {
            if let KeyAndValueRef::Ascii(key, value) = entry {
                if !metadata.contains_key(key) {
                    metadata.insert(key.clone(), value.clone());
                }
            }
        }
        request
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_call_names_the_resource() {
        let caller = Caller {
            authorization: Some("Bearer svc_at_x".into()),
            resource: "https://canvas.example/mcp".into(),
            check: Arc::default(),
            served: Arc::default(),
        };
        let request = caller.request(());
        let metadata = |name: &str| request.metadata().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
        assert_eq!(metadata(RESOURCE_METADATA).as_deref(), Some("https://canvas.example/mcp"));
        assert_eq!(metadata("authorization").as_deref(), Some("Bearer svc_at_x"));
    }
}
