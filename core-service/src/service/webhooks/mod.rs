//! The webhooks context: webhook management, the delivery side webhook-dispatcher leases from
//! (signing keys, leases, reports, test calls), and project copies (which carry webhooks over).
//!
//! Change events reach webhooks through storage's outbox (`storage::outbox`, run in every event's
//! transaction), so the items context never calls this one. [`WebhooksService`] holds the shared
//! [`Access`], its store (`storage::WebhooksStore`), the webhook runtime (settings, test-call client, opened signing keys) and,
//! for project copies, the accounts and items contexts, reached only through their public methods.
//!
//! - [`management`]: list, get, create, replace, delete, enable, test, deliveries, project copies.
//! - [`recovery`]: failed deliveries of a time window sent again, once and in order.
//! - [`dispatch`]: the key ring, leases, reports and test calls.
//! - [`wake`]: dispatchers woken when deliveries may be due (this replica's writes, the database).

pub mod archive_hooks;
pub mod dispatch;
pub mod management;
pub mod recovery;
pub mod wake;

use std::sync::Arc;

use super::access::Access;
use super::accounts::AccountsService;
use super::items::ItemsService;
use crate::storage::WebhooksStore;
use crate::webhooks::runtime::WebhookRuntime;

/// Webhooks, their deliveries and project copies.
#[derive(Debug, Clone)]
pub struct WebhooksService {
    access: Arc<Access>,
    store: WebhooksStore,
    /// Webhook settings, the HTTP client of test calls and opened signing keys.
    runtime: Arc<WebhookRuntime>,
    /// A project copy creates its project as the accounts context does.
    accounts: AccountsService,
    /// A project copy reads and writes the items as the items context does.
    items: ItemsService,
}

impl WebhooksService {
    pub(crate) fn new(
        access: Arc<Access>,
        store: WebhooksStore,
        runtime: Arc<WebhookRuntime>,
        accounts: AccountsService,
        items: ItemsService,
    ) -> Self {
        Self { access, store, runtime, accounts, items }
    }
}
