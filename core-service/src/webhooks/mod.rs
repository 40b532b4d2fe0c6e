//! Webhook rules that need no I/O of their own: the definition and its
//! validation, the event kinds, the retry and automatic-disable policy,
//! signing keys (ES256) and their encryption at rest, and the bytes of a
//! delivery. The operations that use them live in `service::webhooks`
//! (management) and `service::webhook_dispatch` (leases, reports, test calls, keys).
//!
//! # Layout
//! - [`definition`]: parsing and validating a definition by its REST names.
//! - [`settings`]: configuration (flags and environment variables).
//! - [`retry`]: when the next attempt happens and when a webhook is disabled.
//! - [`keys`]: key generation, sealing with the configured secret, signing.
//! - [`body`]: the JSON body of a delivery and of a test ping.
//! - [`runtime`]: the key ring and settings one process shares, lease and report types (the
//!   operations behind the dispatcher's RPCs are `service::webhook_dispatch`).

pub mod body;
pub mod definition;
pub mod keys;
pub mod retry;
pub mod runtime;
pub mod settings;

pub use definition::Definition;
pub use settings::{WebhookConfig, WebhookSettings};

/// Every event kind a webhook can select, in bit order of [`event_bit`] (shared with the gateways,
/// which document them).
pub use canvas_vocabulary::limits::webhooks::EVENT_KINDS;

/// The bit of an event kind in a webhook's `event_mask`: the fan-out inside
/// the event's transaction selects webhooks with one integer test that both
/// databases evaluate alike. Unknown kinds have no bit (0) and reach nobody.
pub fn event_bit(kind: &str) -> i64 {
    EVENT_KINDS.iter().position(|k| *k == kind).map(|i| 1i64 << i).unwrap_or(0)
}

/// The mask of a list of (valid) kinds.
pub fn event_mask<'a>(kinds: impl IntoIterator<Item = &'a str>) -> i64 {
    kinds.into_iter().map(event_bit).fold(0, |mask, bit| mask | bit)
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
        assert_eq!(mask, 0b11_1111);
        assert_eq!(event_bit("item.updated"), 2);
        assert_eq!(event_bit("ping"), 0);
        assert_eq!(event_mask(["user.added", "item.created"]), 0b1001);
    }
}
