//! The service layer: every operation of the product, free of any transport.
//! gRPC handlers (and nothing else) call into it with an authenticated
//! [`Principal`] and typed arguments.
//!
//! # Layout
//! - [`auth`]: token authentication and project access checks.
//! - [`accounts`]: users, tokens, projects, memberships.
//! - [`items`]: item create, read, update, delete, list.
//! - [`item_locks`]: writers of one item take turns.
//! - [`item_views`]: derived properties, uploads, connector bookkeeping.
//! - [`webhooks`]: webhook management (the delivery side is in
//!   `crate::webhooks::dispatch`).
//! - [`knowledge`]: hybrid retrieval and the index status (the indexer is `crate::knowledge`).

pub mod accounts;
pub mod auth;
pub mod item_locks;
pub mod item_views;
pub mod items;
pub mod knowledge;
pub mod watch;
pub mod webhooks;

use std::time::Duration;

use crate::blobs::BlobStore;
use crate::domain::Environment;
use crate::knowledge::Knowledge;
use crate::storage::Storage;

pub use auth::Principal;

use std::sync::Arc;

use crate::webhooks::dispatch::WebhookRuntime;

/// Settings the service layer needs.
#[derive(Debug, Clone)]
pub struct ServiceSettings {
    /// The environment this server runs in; tokens of another are rejected.
    pub environment: Environment,
    /// How stale a token's `last_used_at` may get before a use rewrites it.
    pub token_touch_interval: Duration,
}

impl Default for ServiceSettings {
    fn default() -> Self {
        Self { environment: Environment::Production, token_touch_interval: Duration::from_secs(60) }
    }
}

/// The whole product behind one handle, shared by every gRPC service.
#[derive(Debug, Clone)]
pub struct Core {
    /// Where everything but file content is stored.
    pub(crate) storage: Storage,
    /// Uploaded file content, addressed by hash.
    pub(crate) blobs: BlobStore,
    /// Environment and tuning.
    pub(crate) settings: ServiceSettings,
    /// The embedding model, agent configurations and the indexer's wake-up.
    pub(crate) knowledge: Knowledge,
    /// Webhook settings, the HTTP client of test calls and opened signing keys.
    pub(crate) webhooks: Arc<WebhookRuntime>,
    /// Serialises writers of one item within this replica.
    pub(crate) item_locks: Arc<item_locks::ItemLocks>,
}

impl Core {
    /// A core with keyword-only retrieval; [`Core::with_knowledge`] adds the models.
    pub fn new(storage: Storage, blobs: BlobStore, settings: ServiceSettings) -> Self {
        Self {
            storage,
            blobs,
            settings,
            knowledge: Knowledge::keyword_only(),
            webhooks: Arc::new(WebhookRuntime::ephemeral()),
            item_locks: Arc::default(),
        }
    }

    /// Installs the configured webhook settings (`build` does this).
    pub fn with_webhooks(mut self, settings: crate::webhooks::WebhookSettings) -> anyhow::Result<Self> {
        self.webhooks = Arc::new(WebhookRuntime::new(settings)?);
        Ok(self)
    }

    /// Uses `knowledge` (embedding model, agents) for indexing and retrieval.
    pub fn with_knowledge(mut self, knowledge: Knowledge) -> Self {
        self.knowledge = knowledge;
        self
    }

    /// The embedding model, splitter and agents in use.
    pub fn knowledge(&self) -> &Knowledge {
        &self.knowledge
    }

    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    pub fn settings(&self) -> &ServiceSettings {
        &self.settings
    }
}

/// Clamps a requested page size into `1..=max`, with `default` for 0.
pub(crate) fn page_size(requested: u32, default: u32, max: u32) -> u32 {
    if requested == 0 {
        default
    } else {
        requested.min(max)
    }
}
