//! The webhooks context's store: definitions, deliveries and attempts (`definitions.rs`), the
//! dispatchers' leases and signing keys (`dispatch.rs`), their reports of each attempt
//! (`attempts.rs`), recoveries of failed deliveries (`recoveries.rs`), the operational events of give-ups and disables (`operational.rs`), what the account site shows managers (`alerts.rs`), the pace of `maxDeliveriesPerSecond` (`pace.rs`), and the wake-up when deliveries
//! are due (`wake.rs`). Deliveries are written by the outbox (`storage::outbox`) in each event's
//! transaction, not here.

mod alerts;
mod attempts;
mod definitions;
mod dispatch;
mod operational;
mod pace;
mod recoveries;
mod wake;

pub use alerts::WebhookAlertRow;
pub use attempts::{AttemptOutcome, Recorded, SlowDown};
pub use definitions::{AttemptRow, LeasedRow, WebhookRow};
pub use dispatch::SigningKeyRow;
pub use recoveries::{NewRecovery, RecoveryProgress, RecoveryRow, Started};
pub(in crate::storage) use wake::EnqueuedCounter;
pub use wake::{DueListener, DUE_CHANNEL};

context_store!(
    /// Webhooks, deliveries, attempts and signing keys: what `WebhooksService` runs.
    WebhooksStore
);
