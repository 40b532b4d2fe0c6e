//! The webhooks context: webhook management, the delivery side webhook-dispatcher leases from
//! (signing keys, leases, reports, test calls), and project copies (which carry webhooks over).
//!
//! Change events reach webhooks through storage's outbox (`storage::webhooks::Outbox`, run in every event's
//! transaction), so the items context never calls this one. [`WebhooksService`] holds the shared
//! [`Access`], storage, the webhook runtime (settings, test-call client, opened signing keys) and,
//! for project copies, the accounts context, reached only through its public methods.
//!
//! - [`management`]: list, get, create, replace, delete, enable, test, deliveries, project copies.
//! - [`dispatch`]: the key ring, leases, reports and test calls.
//! - [`wake`]: dispatchers woken when deliveries may be due (this replica's writes, the database).

pub mod dispatch;
pub mod management;
pub mod wake;

use std::sync::Arc;

use super::access::Access;
use super::accounts::AccountsService;
use crate::storage::Storage;
use crate::webhooks::runtime::WebhookRuntime;

/// Webhooks, their deliveries and project copies.
#[derive(Debug, Clone)]
pub struct WebhooksService {
    access: Arc<Access>,
    storage: Storage,
    /// Webhook settings, the HTTP client of test calls and opened signing keys.
    runtime: Arc<WebhookRuntime>,
    /// A project copy creates its project as the accounts context does.
    accounts: AccountsService,
}

impl WebhooksService {
    pub(crate) fn new(
        access: Arc<Access>,
        storage: Storage,
        runtime: Arc<WebhookRuntime>,
        accounts: AccountsService,
    ) -> Self {
        Self { access, storage, runtime, accounts }
    }
}
