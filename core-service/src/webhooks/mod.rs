//! Webhook rules that need no I/O of their own: the definition and its
//! validation, the event kinds, the retry and automatic-disable policy,
//! signing keys (ES256) and their encryption at rest, and the bytes of a
//! delivery. The operations that use them live in `service::webhooks::management`
//! (management) and `service::webhooks::dispatch` (leases, reports, test calls, keys).
//!
//! # Layout
//! - [`definition`]: parsing and validating a definition by its REST names.
//! - [`settings`]: configuration (flags and environment variables).
//! - [`retry`]: when the next attempt happens and when a webhook is disabled.
//! - [`keys`]: key generation, sealing with the configured secret, signing.
//! - [`body`]: the JSON body of a delivery and of a test ping.
//! - [`runtime`]: the key ring and settings one process shares, lease and report types (the
//!   operations behind the dispatcher's RPCs are `service::webhooks::dispatch`).

pub mod body;
pub mod definition;
pub mod keys;
pub mod retry;
pub mod runtime;
pub mod settings;

pub use definition::Definition;
pub use settings::{WebhookConfig, WebhookSettings};

/// Every event kind a webhook can select, in the bit order of `EventKind` (shared with the
/// gateways, which document them).
pub use canvas_vocabulary::limits::webhooks::EVENT_KINDS;

use crate::domain::EventKind;

/// The `event_mask` of a definition's kinds, one [`EventKind::bit`] each. The definition's own
/// validation has refused every name that is not a kind, so none is dropped here.
pub fn event_mask<'a>(kinds: impl IntoIterator<Item = &'a str>) -> i64 {
    kinds.into_iter().filter_map(EventKind::parse).fold(0, |mask, kind| mask | kind.bit())
}

/// Why a webhook that is enabled is never called.
pub mod inactive {
    /// Carried over by a project copy; a PUT re-saves (and reactivates) it.
    pub const COPIED: &str = "copiedFromOtherProject";
    /// The stored definition no longer passes validation (for instance the
    /// destination rules changed); a valid PUT or a DELETE resolves it.
    pub const INVALID: &str = "invalidDefinition";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_own_bit() {
        let mask = event_mask(EVENT_KINDS);
        assert_eq!(mask, 0b1111_1111_1111);
        assert_eq!(event_mask([EventKind::UserAdded.as_str(), EventKind::ItemCreated.as_str()]), 0b1001);
    }
}
