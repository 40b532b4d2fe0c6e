//! The accounts context: users, API tokens, projects and memberships, the account site (sign-in,
//! sessions, one-time links, a person's own tokens and audit records) and the OAuth 2.1
//! authorization server for MCP clients.
//!
//! [`AccountsService`] holds the shared [`Access`], its store (`storage::AccountsStore`) and the settings; its fields are
//! private to this module. Sessions and OAuth access tokens are *read* by [`Access`] (every
//! context authenticates through it); this context opens, ends and mints them.
//!
//! - [`users_projects`]: users, tokens, projects, memberships, the first administrator.
//! - [`sessions`], [`sign_in_throttle`], [`my_tokens`]: the account site; [`account_config`]: its
//!   settings with their defaults.
//! - [`oauth`], [`oauth_clients`], [`client_documents`]: the OAuth 2.1 authorization server.

pub mod account_config;
pub mod archive_members;
pub mod client_documents;
pub mod my_tokens;
pub mod oauth;
pub mod oauth_clients;
pub mod sessions;
pub mod sign_in_throttle;
pub mod users_projects;

use std::sync::Arc;

use super::access::Access;
use super::ServiceSettings;
use crate::storage::AccountsStore;

/// Accounts, the account site and OAuth.
#[derive(Debug, Clone)]
pub struct AccountsService {
    access: Arc<Access>,
    store: AccountsStore,
    /// The environment tokens are minted for; session, throttle and OAuth lifetimes.
    settings: ServiceSettings,
    /// The client of calls to URLs strangers choose (the webhooks'): fetches Client ID Metadata
    /// Documents under the webhook destination rules.
    outbound: webhook_client::WebhookClient,
    /// Until when each fetched metadata document may be used again without a fetch.
    documents: Arc<client_documents::DocumentMemory>,
}

impl AccountsService {
    pub(crate) fn new(
        access: Arc<Access>,
        store: AccountsStore,
        settings: ServiceSettings,
        outbound: webhook_client::WebhookClient,
    ) -> Self {
        Self { access, store, settings, outbound, documents: Arc::default() }
    }

    /// The account site's settings (session lifetimes for the cookie, the OAuth resources).
    pub fn config(&self) -> &account_config::AccountConfig {
        &self.settings.accounts
    }
}
