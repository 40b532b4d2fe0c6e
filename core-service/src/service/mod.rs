//! The service layer: every operation of the product, free of any transport, split by context.
//! gRPC handlers (and nothing else) call into it with an authenticated [`Principal`] and typed
//! arguments, through the context's service: `core.items().create_item(…)`.
//!
//! # Layout
//! - [`access`]: authentication (API tokens, sessions, OAuth access tokens), project roles and
//!   rate limits: one [`Access`] every service holds; it reaches no service.
//! - [`items`]: [`ItemsService`], items, uploads, bulk, diagrams, arrangements, the change
//!   stream, per-item write turns and idempotent creating calls; diagrams with their records
//!   (`items/diagram_records.rs`: read, listed, updated in place, deleted; each write planned by
//!   `diagram_plan.rs`, placed by `diagram_shifts.rs`, read back by `diagram_export.rs`).
//! - [`accounts`]: [`AccountsService`], users, tokens, projects, memberships, the account site
//!   and the OAuth 2.1 authorization server.
//! - [`retrieval`]: [`RetrievalService`], hybrid retrieval, the index status, and the indexer
//!   built over the same storage (`crate::knowledge::indexer::Indexer`, which never reaches back).
//! - [`webhooks`]: [`WebhooksService`], webhook management, the delivery side and project copies.
//! - [`projects`]: [`ProjectsService`], a project exported as one archive and imported as a new
//!   project; it composes accounts, items and webhooks and has no store of its own.
//!
//! [`Core`], the root, only builds the services and hands them out. A service's fields are
//! private to its module; a service that needs another context is given that context's service
//! at construction and calls its public methods (webhooks → accounts, for project copies).
//! Change events reach webhooks and the indexer through storage's outbox, not through calls.

pub mod access;
pub mod accounts;
pub mod items;
pub(crate) mod notifications;
pub mod projects;
pub mod retrieval;
pub mod webhooks;

// The paths configuration is declared under (`canvasctl`, the tests).
pub use access::rate_limits;
pub use accounts::account_config;

use std::sync::Arc;
use std::time::Duration;

use crate::blobs::BlobStore;
use canvas_vocabulary::limits::PageSize;

use crate::domain::Environment;
use crate::error::{CoreError, CoreResult};
use crate::knowledge::Knowledge;
use crate::storage::{Storage, Stores};
use crate::webhooks::runtime::WebhookRuntime;

pub use access::{Access, Principal};
pub use accounts::AccountsService;
pub use items::ItemsService;
pub use projects::ProjectsService;
pub use retrieval::RetrievalService;
pub use webhooks::WebhooksService;

/// Settings the service layer needs.
#[derive(Debug, Clone)]
pub struct ServiceSettings {
    /// The environment this server runs in; tokens of another are rejected.
    pub environment: Environment,
    /// How stale a token's `last_used_at` may get before a use rewrites it.
    pub token_touch_interval: Duration,
    /// Sessions, sign-in throttling and OAuth lifetimes.
    pub accounts: account_config::AccountConfig,
    /// How long a token or role read from the database is answered again without a read
    /// (`access::cache`); zero reads on every request.
    pub access_memory: Duration,
}

impl Default for ServiceSettings {
    fn default() -> Self {
        Self {
            environment: Environment::Production,
            token_touch_interval: Duration::from_secs(60),
            accounts: account_config::AccountConfig::default(),
            access_memory: access::cache::TRUSTED_FOR,
        }
    }
}

/// What the services are built from; kept so the `with_*` steps can rebuild them.
#[derive(Debug, Clone)]
struct Parts {
    storage: Storage,
    stores: Stores,
    blobs: BlobStore,
    settings: ServiceSettings,
    knowledge: Knowledge,
    webhooks: Arc<WebhookRuntime>,
}

/// The root of the service layer: it builds the context services and hands them out, and holds
/// nothing else. Its methods are a short fixed list (checked by
/// `architecture::the_service_root_only_hands_out_services`); an operation belongs on a service.
#[derive(Debug, Clone)]
pub struct Core {
    parts: Parts,
    access: Arc<Access>,
    items: ItemsService,
    accounts: AccountsService,
    retrieval: RetrievalService,
    webhooks: WebhooksService,
    projects: ProjectsService,
}

impl Core {
    /// A core with keyword-only retrieval; [`Core::with_knowledge`] adds the models.
    pub fn new(storage: Storage, blobs: BlobStore, settings: ServiceSettings) -> Self {
        Self::assemble(Parts {
            stores: Stores::new(&storage),
            storage,
            blobs,
            settings,
            knowledge: Knowledge::keyword_only(),
            webhooks: Arc::new(WebhookRuntime::ephemeral()),
        })
    }

    /// Builds every service over `parts`: one shared [`Access`], then each context, handed the
    /// contexts it reaches.
    fn assemble(parts: Parts) -> Self {
        let Parts { stores, blobs, settings, knowledge, webhooks, .. } = parts.clone();
        let Stores { items, accounts, retrieval, webhooks: webhook_store } = stores;
        let access = Access::new(accounts.clone(), settings.clone());
        let items = ItemsService::new(access.clone(), items, blobs.clone(), knowledge.clone(), webhooks.due.clone());
        let accounts = AccountsService::new(access.clone(), accounts, settings, webhooks.client.clone());
        let retrieval = RetrievalService::new(access.clone(), retrieval, blobs, knowledge);
        let webhooks = WebhooksService::new(access.clone(), webhook_store, webhooks, accounts.clone(), items.clone());
        let projects = ProjectsService::new(access.clone(), accounts.clone(), items.clone(), webhooks.clone());
        Self { parts, access, items, accounts, retrieval, webhooks, projects }
    }

    /// Installs the configured webhook settings (`build` does this, before serving).
    pub fn with_webhooks(self, settings: crate::webhooks::WebhookSettings) -> anyhow::Result<Self> {
        Ok(Self::assemble(Parts { webhooks: Arc::new(WebhookRuntime::new(settings)?), ..self.parts }))
    }

    /// Uses `knowledge` (embedding model, agents) for indexing and retrieval (before serving).
    pub fn with_knowledge(self, knowledge: Knowledge) -> Self {
        Self::assemble(Parts { knowledge, ..self.parts })
    }

    /// Authentication, roles and rate limits.
    pub fn access(&self) -> &Access {
        &self.access
    }

    pub fn items(&self) -> &ItemsService {
        &self.items
    }

    pub fn accounts(&self) -> &AccountsService {
        &self.accounts
    }

    pub fn retrieval(&self) -> &RetrievalService {
        &self.retrieval
    }

    pub fn webhooks(&self) -> &WebhooksService {
        &self.webhooks
    }

    /// Projects as files: export and import (docs/ARCHIVE.md).
    pub fn projects(&self) -> &ProjectsService {
        &self.projects
    }

    /// The database, for what belongs to no context: health, gauges, closing at shutdown.
    pub fn storage(&self) -> &Storage {
        &self.parts.storage
    }

    /// Each context's store, for tests and benches that check or seed rows directly; the services
    /// are each handed only their own.
    pub fn stores(&self) -> &Stores {
        &self.parts.stores
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
