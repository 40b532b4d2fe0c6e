//! `maxDeliveriesPerSecond`: the lease's token bucket for a webhook whose receiver takes at most
//! so many calls a second.
//!
//! The bucket holds one second of calls: a webhook that was idle gets a burst of `rate` calls,
//! then `rate` a second. Its state is one time per webhook, `paced_until`: the calls leased so far
//! have used the rate up to then. At `now` the bucket holds the time from `max(paced_until,
//! now − 1 s)` to `now` (never more than a second), times the rate, in whole calls; each call
//! leased moves `paced_until` on by `1 / rate`. The lease reads and writes it in its own
//! transaction, under the webhook row's lock on PostgreSQL and the one writer on SQLite, so every
//! replica of the dispatcher draws from the same bucket.

use chrono::{DateTime, Duration, Utc};
use uuid::Uuid;

/// The most time's worth of calls the bucket holds.
const BUCKET: Duration = Duration::seconds(1);

/// A paced webhook as the lease finds it: due deliveries, and a bucket.
#[derive(Debug, Clone, sqlx::FromRow)]
pub(super) struct Paced {
    pub id: Uuid,
    /// `max_deliveries_per_second`, 1 to 1000 (checked at the definition).
    pub rate: i32,
    pub paced_until: Option<DateTime<Utc>>,
}

impl Paced {
    /// Where the bucket's credit starts at `now`.
    fn start(&self, now: DateTime<Utc>) -> DateTime<Utc> {
        let oldest = now - BUCKET;
        self.paced_until.map_or(oldest, |until| until.max(oldest))
    }

    /// How many calls may be leased at `now`.
    pub fn room(&self, now: DateTime<Utc>) -> u32 {
        let credit = (now - self.start(now)).num_microseconds().unwrap_or(0).max(0);
        let rate = i64::from(self.rate.max(1));
        u32::try_from(credit * rate / 1_000_000).unwrap_or(u32::MAX)
    }

    /// `paced_until` once `leased` calls were taken at `now`.
    pub fn after(&self, now: DateTime<Utc>, leased: usize) -> DateTime<Utc> {
        let per_call = 1_000_000 / i64::from(self.rate.max(1));
        self.start(now) + Duration::microseconds(per_call * leased as i64)
    }
}

/// The paced webhooks with deliveries due at `$1` that a lease may call: enabled, not disabled,
/// active, not slowed down. PostgreSQL appends `FOR UPDATE OF w SKIP LOCKED`: a webhook another
/// dispatcher is leasing right now is its turn.
pub(super) const PACED_DUE: &str = "SELECT w.id, w.max_deliveries_per_second AS rate, w.paced_until FROM webhooks w \
    WHERE w.max_deliveries_per_second IS NOT NULL AND w.enabled = TRUE AND w.disabled_at IS NULL \
    AND w.inactive IS NULL AND (w.slow_down_until IS NULL OR w.slow_down_until <= $1) \
    AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.state = 'pending' \
    AND d.next_attempt_at <= $1 AND (d.lease_until IS NULL OR d.lease_until <= $1))";

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ms: i64) -> DateTime<Utc> {
        DateTime::<Utc>::UNIX_EPOCH + Duration::milliseconds(1_000_000 + ms)
    }

    fn paced(rate: i32, until: Option<DateTime<Utc>>) -> Paced {
        Paced { id: Uuid::nil(), rate, paced_until: until }
    }

    #[test]
    fn an_idle_webhook_gets_a_burst_of_one_second_then_the_rate() {
        let idle = paced(5, None);
        assert_eq!(idle.room(at(0)), 5);
        let after_burst = paced(5, Some(idle.after(at(0), 5)));
        assert_eq!(after_burst.room(at(0)), 0, "the burst used the bucket");
        assert_eq!(after_burst.room(at(199)), 0);
        assert_eq!(after_burst.room(at(200)), 1, "one call every 1/5 s");
        assert_eq!(after_burst.room(at(1000)), 5, "never more than one second of calls");
        assert_eq!(after_burst.room(at(60_000)), 5, "an hour idle is still one second of calls");
    }

    #[test]
    fn leasing_fewer_than_the_room_keeps_the_rest() {
        let idle = paced(10, None);
        let took_three = paced(10, Some(idle.after(at(0), 3)));
        assert_eq!(took_three.room(at(0)), 7);
    }

    #[test]
    fn n_calls_over_time_never_exceed_the_rate_plus_one_burst() {
        for rate in [1, 3, 7, 1000] {
            let mut bucket = paced(rate, None);
            let mut leased = 0u64;
            for step in 0..=3000 {
                let now = at(step);
                let take = bucket.room(now);
                leased += u64::from(take);
                bucket = paced(rate, Some(bucket.after(now, take as usize)));
            }
            // Three seconds at `rate`, plus the first second's burst.
            assert!(leased <= 4 * rate as u64, "rate {rate}: {leased}");
            assert!(leased >= 3 * rate as u64, "rate {rate}: {leased}");
        }
    }
}
