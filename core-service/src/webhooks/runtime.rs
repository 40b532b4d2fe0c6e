//! Webhook state one core-service process shares between its operations (settings, the client of
//! test calls, the opened signing keys), the lease and report types of the dispatcher's RPCs, and
//! their limits, and the wake-up of the dispatchers' streams. The operations themselves are
//! `service::webhooks::dispatch`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::watch;
use uuid::Uuid;
use webhook_client::{Call, Outcome, WebhookClient};

use super::WebhookSettings;

/// How long an old key stays published after the new one starts signing:
/// longer than a lease (calls signed just before the switch are still being
/// sent), receivers' timestamp tolerance (300 s) and key cache (300 s).
pub const RETIRE_GRACE: Duration = Duration::from_secs(3600);

/// Default and bounds of a lease.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(60);
pub const LEASE_BOUNDS: (u64, u64) = (5, 300);
/// The batch limits of leases and reports, stated once in the contract (the dispatcher keeps to
/// the same constants).
pub use canvas_proto::limits::{MAX_LEASE_BATCH, MAX_REPORT_BATCH, MAX_SKIPPED_WEBHOOKS};

/// How long a replica signs from the key ring it read, at most. A rotation adds its key a delay
/// before it signs (at least `MIN_ROTATION_DELAY` outside development) and retires the old key
/// only after that, so a ring a second old still names a published key that may sign now (a
/// key added by this replica clears it); if it names none, it is read again.
pub const KEY_RING_FRESH: Duration = Duration::from_secs(1);
/// The spec's test-call limit: 10 per minute and user.
pub const TEST_CALLS_PER_MINUTE: u32 = 10;

/// Webhook state shared by the operations of one core-service process.
pub struct WebhookRuntime {
    /// Parsed configuration.
    pub settings: WebhookSettings,
    /// The client of test calls: the dispatcher's rules and code.
    pub client: WebhookClient,
    /// Private keys opened so far, by kid (opening costs a decryption).
    opened: Mutex<HashMap<String, super::keys::Signer>>,
    /// The key ring as last read, and when: every lease signs, and reading the ring each time
    /// was one more database round trip per lease (docs/PERFORMANCE.md, "Inside a lease").
    /// Kept [`KEY_RING_FRESH`]; cleared when this replica adds a key.
    key_ring: Mutex<Option<KeyRing>>,
    /// Wakes the dispatchers' `WatchDue` streams when deliveries may be due.
    pub due: DueSignal,
}

impl std::fmt::Debug for WebhookRuntime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebhookRuntime").field("settings", &self.settings).finish_non_exhaustive()
    }
}

/// The key ring as read, and when.
pub(crate) type KeyRing = (std::time::Instant, Vec<crate::storage::SigningKeyRow>);

impl WebhookRuntime {
    /// The key ring as last read ([`KEY_RING_FRESH`]). A panic elsewhere while it was held
    /// leaves a whole value (each write replaces it at once), so a poisoned lock is used as is.
    pub(crate) fn key_ring(&self) -> std::sync::MutexGuard<'_, Option<KeyRing>> {
        self.key_ring.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The opened keys by kid. As with the ring, a poisoned lock holds whole entries (each insert
    /// is one call), so it is used as is: the lease path never panics on it.
    pub(crate) fn opened(&self) -> std::sync::MutexGuard<'_, HashMap<String, super::keys::Signer>> {
        self.opened.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn new(settings: WebhookSettings) -> anyhow::Result<Self> {
        let client = WebhookClient::new(&settings.client)?;
        Ok(Self {
            settings,
            client,
            opened: Mutex::new(HashMap::new()),
            key_ring: Mutex::new(None),
            due: DueSignal::default(),
        })
    }

    /// Runtime for cores built without configuration (unit tests).
    pub fn ephemeral() -> Self {
        Self::new(WebhookSettings::ephemeral()).expect("default webhook settings build a client")
    }
}

/// "Deliveries may be due": a counter the dispatchers' streams follow (a `watch`, so bursts
/// coalesce and a slow stream never holds up a writer), and a second one of this replica's own
/// writes, which on PostgreSQL are passed on to the other replicas.
#[derive(Debug, Clone)]
pub struct DueSignal {
    due: Arc<watch::Sender<u64>>,
    written_here: Arc<watch::Sender<u64>>,
    /// Names this replica in its notifications, so it ignores its own.
    pub replica: Arc<str>,
}

impl Default for DueSignal {
    fn default() -> Self {
        Self {
            due: Arc::new(watch::channel(0).0),
            written_here: Arc::new(watch::channel(0).0),
            replica: Uuid::new_v4().to_string().into(),
        }
    }
}

impl DueSignal {
    /// A change committed in this process may have enqueued deliveries (called after the commit).
    pub fn written(&self) {
        self.wake();
        self.written_here.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// Deliveries may be due (a write anywhere, told by the database).
    pub fn wake(&self) {
        self.due.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// Follows [`DueSignal::wake`]: what a `WatchDue` stream waits on.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.due.subscribe()
    }

    /// Follows [`DueSignal::written`] only: what is passed on to other replicas.
    pub fn written_here(&self) -> watch::Receiver<u64> {
        self.written_here.subscribe()
    }
}

/// One leased delivery, signed and ready to send.
#[derive(Debug, Clone)]
pub struct LeasedCall {
    pub delivery_id: Uuid,
    pub webhook_id: Uuid,
    /// URL, headers and the exact signed bytes.
    pub call: Call,
    /// 1 for the first attempt.
    pub attempt: u32,
    /// Echoed in the report; a report under another token is ignored.
    pub lease_token: Uuid,
}

/// What the dispatcher reports about one attempt.
#[derive(Debug, Clone)]
pub struct DeliveryReport {
    pub delivery_id: Uuid,
    pub lease_token: Uuid,
    pub attempt: u32,
    /// The receiver's answer and the time it took.
    pub outcome: Outcome,
}
