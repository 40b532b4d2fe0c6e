//! The webhooks context's store: definitions, deliveries and attempts (`definitions.rs`), the
//! dispatchers' leases, reports and signing keys (`dispatch.rs`), and the wake-up when deliveries
//! are due (`wake.rs`). Deliveries are written by the outbox (`storage::outbox`) in each event's
//! transaction, not here.

mod definitions;
mod dispatch;
mod wake;

pub use definitions::{AttemptRow, LeasedRow, WebhookRow};
pub use dispatch::{AttemptOutcome, SigningKeyRow};
pub(in crate::storage) use wake::EnqueuedCounter;
pub use wake::{DueListener, DUE_CHANNEL};

context_store!(
    /// Webhooks, deliveries, attempts and signing keys: what `WebhooksService` runs.
    WebhooksStore
);
