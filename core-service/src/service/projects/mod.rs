//! The projects context: a project as one file (docs/ARCHIVE.md). An export writes a project's
//! items, diagram records, files, members and webhook definitions into one versioned zip archive,
//! streamed as it is written; an import reads such an archive into a new project, with new ids
//! and every reference among them remapped, all or nothing.
//!
//! [`ProjectsService`] composes the contexts whose data a project spans, reached only through
//! their public methods: accounts (the project, its members by login), items (items, files,
//! diagram records; their rules applied there, as for a create) and webhooks (definitions). It
//! has no store of its own: every row it writes or reads is its context's.
//!
//! - [`export`]: who may export, the snapshot, the archive written on a thread and streamed;
//!   `entries`: its JSON entries, written and compressed before the first byte.
//! - [`container`]: an archive read back with every check of its container (size, entries, names,
//!   zip bombs, the manifest and its version), before any line of it is judged.
//! - [`import`]: who may import, the spooled upload, the items' rules, the writes, and the
//!   project removed again if a write fails after it was created.
//! - [`mentions`]: the open threads mentioning the caller across their projects.

pub mod container;
mod entries;
pub mod export;
pub mod import;
pub mod mentions;

use std::sync::Arc;

use super::access::Access;
use super::accounts::AccountsService;
use super::items::ItemsService;
use super::webhooks::WebhooksService;

/// Projects exported to and imported from archives.
#[derive(Debug, Clone)]
pub struct ProjectsService {
    access: Arc<Access>,
    /// The project row and its members (by login).
    accounts: AccountsService,
    /// Items, files and diagram records, checked by the items context's rules.
    items: ItemsService,
    /// Webhook definitions.
    webhooks: WebhooksService,
}

impl ProjectsService {
    pub(crate) fn new(
        access: Arc<Access>,
        accounts: AccountsService,
        items: ItemsService,
        webhooks: WebhooksService,
    ) -> Self {
        Self { access, accounts, items, webhooks }
    }
}
