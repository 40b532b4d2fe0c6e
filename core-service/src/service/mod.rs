//! The service layer: every operation of the product, free of any transport.
//! gRPC handlers (and nothing else) call into it with an authenticated
//! [`Principal`] and typed arguments.
//!
//! # Layout
//! - [`auth`]: token authentication and project access checks.
//! - [`accounts`]: users, tokens, projects, memberships.
//! - [`sessions`], [`sign_in_throttle`], [`my_tokens`]: the account site: sign-in, sessions,
//!   one-time links, throttling, a person's own tokens and audit records ([`account_config`]).
//! - [`oauth`], [`oauth_clients`]: the OAuth 2.1 authorization server for MCP clients.
//! - [`arrange`]: existing items laid out (grid, layered, tree) in one atomic update.
//! - [`items`]: item create, read, update, delete, list.
//! - [`bulk`]: many items created in one all-or-nothing call (beyond the spec).
//! - [`diagrams`]: Mermaid laid out and created with its record (beyond the spec);
//!   [`diagram_records`]: the record read, listed, updated in place and deleted, each write
//!   planned by [`diagram_plan`] (item placement in `diagram_shifts.rs`).
//! - [`idempotency`]: creating calls run once per caller and `Idempotency-Key`, retries replayed.
//! - [`rate_limits`]: calls per credential and per client address (429 at the gateways).
//! - [`item_filters`]: the listing's region, text and changed-since filters.
//! - [`item_locks`]: writers of one item take turns.
//! - [`item_views`]: derived properties, uploads, connector bookkeeping.
//! - [`webhooks`]: webhook management; [`webhook_dispatch`]: the delivery side (leases, reports,
//!   test calls, the signing key ring).
//! - [`knowledge`]: hybrid retrieval, the index status, and the indexer built over this core's
//!   storage (`crate::knowledge::indexer::Indexer`, which never reaches back here).

pub mod account_config;
pub mod accounts;
pub mod arrange;
pub mod auth;
pub mod bulk;
pub mod diagram_export;
pub mod diagram_plan;
pub mod diagram_records;
mod diagram_shifts;
pub mod diagrams;
pub mod idempotency;
pub mod item_filters;
pub mod item_locks;
pub mod item_views;
pub mod items;
pub mod knowledge;
pub mod my_tokens;
pub mod oauth;
pub mod oauth_clients;
pub mod rate_limits;
pub mod sessions;
pub mod sign_in_throttle;
pub mod watch;
pub mod webhook_dispatch;
pub mod webhooks;

use std::time::Duration;

use crate::blobs::BlobStore;
use canvas_vocabulary::limits::PageSize;

use crate::domain::Environment;
use crate::error::{CoreError, CoreResult};
use crate::knowledge::Knowledge;
use crate::storage::Storage;

pub use auth::Principal;

use std::sync::Arc;

use crate::webhooks::runtime::WebhookRuntime;

/// Settings the service layer needs.
#[derive(Debug, Clone)]
pub struct ServiceSettings {
    /// The environment this server runs in; tokens of another are rejected.
    pub environment: Environment,
    /// How stale a token's `last_used_at` may get before a use rewrites it.
    pub token_touch_interval: Duration,
    /// Sessions, sign-in throttling and OAuth lifetimes.
    pub accounts: account_config::AccountConfig,
}

impl Default for ServiceSettings {
    fn default() -> Self {
        Self {
            environment: Environment::Production,
            token_touch_interval: Duration::from_secs(60),
            accounts: account_config::AccountConfig::default(),
        }
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
    /// This replica's share of every caller's request budget.
    pub(crate) rate_limits: rate_limits::RateLimits,
}

impl Core {
    /// A core with keyword-only retrieval; [`Core::with_knowledge`] adds the models.
    pub fn new(storage: Storage, blobs: BlobStore, settings: ServiceSettings) -> Self {
        Self {
            storage,
            blobs,
            knowledge: Knowledge::keyword_only(),
            webhooks: Arc::new(WebhookRuntime::ephemeral()),
            item_locks: Arc::default(),
            rate_limits: rate_limits::RateLimits::new(&settings.accounts.rate_limits),
            settings,
        }
    }

    /// This replica's rate limiters (pruned periodically by the gRPC server).
    pub fn rate_limits(&self) -> &rate_limits::RateLimits {
        &self.rate_limits
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

/// The page size a client asked for: the page's default when it sent none, a 400 naming the field
/// for 0, and the page's maximum for anything larger (clamped, not refused: see docs/LIMITS.md).
pub(crate) fn page_size(requested: Option<u32>, page: PageSize) -> CoreResult<u32> {
    match requested {
        None => Ok(page.default),
        Some(n) if n < PageSize::MIN => Err(CoreError::invalid(
            page.field,
            format!("must be at least {} (at most {} are returned)", PageSize::MIN, page.max),
        )),
        Some(n) => Ok(n.min(page.max)),
    }
}

#[cfg(test)]
mod tests {
    use canvas_vocabulary::limits::ITEMS_PAGE;

    use super::*;

    #[test]
    fn page_sizes_default_refuse_zero_and_clamp() {
        assert_eq!(page_size(None, ITEMS_PAGE).ok(), Some(ITEMS_PAGE.default));
        assert_eq!(page_size(Some(1), ITEMS_PAGE).ok(), Some(1));
        assert_eq!(page_size(Some(ITEMS_PAGE.max), ITEMS_PAGE).ok(), Some(ITEMS_PAGE.max));
        assert_eq!(page_size(Some(u32::MAX), ITEMS_PAGE).ok(), Some(ITEMS_PAGE.max));
        match page_size(Some(0), ITEMS_PAGE) {
            Err(CoreError::Validation(violations)) => assert_eq!(violations[0].field, "limit"),
            other => panic!("{other:?}"),
        }
    }
}
