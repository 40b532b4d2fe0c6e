//! What the lease loop did, summed over a second and logged at debug level (target
//! `webhook_dispatcher::rounds`): how many leases, how long they took, what they brought, how
//! many skipped or limited webhooks they named, and how many deliveries were handed back. It is
//! how an operator (or `bench/webhooks-load`) sees why deliveries wait: a lease that takes long
//! because it steps over a backlog, or deliveries leased only to be handed back.

use std::time::{Duration, Instant};

/// Sums since the last log line.
pub struct Rounds {
    since: Instant,
    leases: u32,
    lease_time: Duration,
    slowest: Duration,
    leased: usize,
    asked: usize,
    skipped: usize,
    limited: usize,
    handed_back: usize,
    from_waiting: usize,
}

/// How often the sums are logged (and reset).
const EVERY: Duration = Duration::from_secs(1);

impl Default for Rounds {
    fn default() -> Self {
        Self {
            since: Instant::now(),
            leases: 0,
            lease_time: Duration::ZERO,
            slowest: Duration::ZERO,
            leased: 0,
            asked: 0,
            skipped: 0,
            limited: 0,
            handed_back: 0,
            from_waiting: 0,
        }
    }
}

impl Rounds {
    /// One lease call: how long it took, what it asked for and what it got.
    pub fn lease(&mut self, took: Duration, asked: usize, leased: usize, skipped: usize, limited: usize) {
        self.leases += 1;
        self.lease_time += took;
        self.slowest = self.slowest.max(took);
        self.asked += asked;
        self.leased += leased;
        self.skipped += skipped;
        self.limited += limited;
    }

    pub fn handed_back(&mut self, count: usize) {
        self.handed_back += count;
    }

    pub fn started_from_waiting(&mut self, count: usize) {
        self.from_waiting += count;
    }

    /// Logs and resets the sums once a second has passed (only when debug logging is on for this
    /// module, so the loop pays nothing otherwise).
    pub fn maybe_log(&mut self) {
        if self.since.elapsed() < EVERY || !tracing::enabled!(tracing::Level::DEBUG) {
            return;
        }
        if self.leases > 0 || self.handed_back > 0 || self.from_waiting > 0 {
            tracing::debug!(
                leases = self.leases,
                lease_ms_total = self.lease_time.as_secs_f64() * 1000.0,
                lease_ms_slowest = self.slowest.as_secs_f64() * 1000.0,
                asked = self.asked,
                leased = self.leased,
                skipped_named = self.skipped,
                limited_named = self.limited,
                handed_back = self.handed_back,
                started_from_waiting = self.from_waiting,
                "lease rounds in the last second"
            );
        }
        *self = Self::default();
    }
}
