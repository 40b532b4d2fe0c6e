//! When the next attempt of a delivery happens, and when a failing webhook is
//! disabled automatically.
//!
//! Defaults follow the best-known delivery services: the first attempt at
//! once, retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (8 attempts
//! over about 27.5 hours), each delay with ±20 % jitter so a receiver that
//! comes back is not hit by every queued delivery in the same second.
//!
//! A receiver that answers 429 Too Many Requests with `Retry-After` asks to be called more slowly
//! ([`slow_down`]): the webhook gets no call until then, and the attempt is neither counted against
//! the schedule's attempts nor as a failure in a row, for as long as the whole schedule would have
//! lasted from the delivery's creation ([`RetryPolicy::span`]); after that a 429 is an ordinary
//! failed attempt, so no delivery is kept for ever. A 429 without `Retry-After` names no pace and
//! is an ordinary failed attempt too.

use std::time::Duration;

/// The longest `Retry-After` honoured: a receiver cannot park deliveries for
/// days with one header.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(3600);

/// The shortest slow-down: a `Retry-After: 0` must not turn into a call in a tight loop.
pub const MIN_SLOW_DOWN: Duration = Duration::from_secs(1);

/// How long a receiver's 429 with `Retry-After: asked` holds its webhook's calls: `asked`, at least
/// [`MIN_SLOW_DOWN`] and at most [`MAX_RETRY_AFTER`].
pub fn slow_down(asked: Duration) -> Duration {
    asked.clamp(MIN_SLOW_DOWN, MAX_RETRY_AFTER)
}

/// Relative jitter applied to each scheduled delay.
pub const JITTER: f64 = 0.2;

/// The retry schedule.
#[derive(Debug, Clone, PartialEq)]
pub struct RetryPolicy {
    /// Delay before retry n (n = 1 …); attempts = retries + 1.
    delays: Vec<Duration>,
}

impl RetryPolicy {
    pub fn new(delays: Vec<Duration>) -> Self {
        Self { delays }
    }

    /// Attempts a delivery gets before it is given up.
    pub fn max_attempts(&self) -> u32 {
        self.delays.len() as u32 + 1
    }

    /// How long the schedule can last from a delivery's first attempt to its last, with the
    /// longest jitter: while a delivery is younger than this, a 429 with `Retry-After` is a
    /// slow-down rather than a failed attempt.
    pub fn span(&self) -> Duration {
        self.delays.iter().sum::<Duration>().mul_f64(1.0 + JITTER)
    }

    /// The delay after failed attempt `attempt` (1-based), or None when that
    /// was the last one. `retry_after` (from a 429/503) can lengthen the
    /// delay, up to [`MAX_RETRY_AFTER`], never shorten it. `unit` in [0, 1)
    /// draws the jitter.
    pub fn next_delay(&self, attempt: u32, retry_after: Option<Duration>, unit: f64) -> Option<Duration> {
        let base = *self.delays.get(attempt.checked_sub(1)? as usize)?;
        let factor = 1.0 + JITTER * (2.0 * unit.clamp(0.0, 1.0) - 1.0);
        let jittered = base.mul_f64(factor);
        Some(match retry_after {
            Some(asked) => jittered.max(asked.min(MAX_RETRY_AFTER)),
            None => jittered,
        })
    }
}

/// Automatic disable: at least `failures` failed attempts in a row AND the
/// first of them at least `span` ago. Both must hold, so neither a burst of
/// failures in a short outage nor one slow failure a week disables anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DisableRule {
    /// Consecutive failed attempts needed.
    pub failures: u32,
    /// How long the failures must have lasted.
    pub span: Duration,
}

impl DisableRule {
    pub fn applies(&self, consecutive_failures: u32, failing_for: Duration) -> bool {
        consecutive_failures >= self.failures && failing_for >= self.span
    }
}

/// Parses `5s,5m,30m,2h` (also `500ms` and `0s`) into delays.
pub fn parse_schedule(raw: &str) -> anyhow::Result<Vec<Duration>> {
    raw.split(',').map(str::trim).filter(|p| !p.is_empty()).map(parse_duration).collect()
}

fn parse_duration(text: &str) -> anyhow::Result<Duration> {
    let split = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let n: u64 = number.parse().map_err(|_| anyhow::anyhow!("'{text}' is not a duration like 5s, 5m or 2h"))?;
    let secs = match unit {
        "ms" => return Ok(Duration::from_millis(n)),
        "s" | "" => n,
        "m" => n * 60,
        "h" => n * 3600,
        "d" => n * 86_400,
        _ => anyhow::bail!("'{text}' has an unknown unit (ms, s, m, h or d)"),
    };
    Ok(Duration::from_secs(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn default_policy() -> RetryPolicy {
        RetryPolicy::new(parse_schedule("5s,5m,30m,2h,5h,10h,10h").unwrap())
    }

    #[test]
    fn the_default_schedule_spans_more_than_a_day() {
        let policy = default_policy();
        assert_eq!(policy.max_attempts(), 8);
        let total: Duration = (1..8).map(|n| policy.next_delay(n, None, 0.5).unwrap()).sum();
        assert_eq!(total, Duration::from_secs(5 + 300 + 1800 + 7200 + 18_000 + 36_000 + 36_000));
        assert!(total > Duration::from_secs(86_400));
        assert_eq!(policy.next_delay(8, None, 0.5), None, "the eighth attempt is the last");
    }

    #[test]
    fn jitter_stays_within_twenty_percent() {
        let policy = default_policy();
        assert_eq!(policy.next_delay(2, None, 0.0), Some(Duration::from_secs(240)));
        assert_eq!(policy.next_delay(2, None, 1.0), Some(Duration::from_secs(360)));
    }

    #[test]
    fn retry_after_lengthens_within_bounds_and_never_shortens() {
        let policy = default_policy();
        let first = policy.next_delay(1, Some(Duration::from_secs(120)), 0.5).unwrap();
        assert_eq!(first, Duration::from_secs(120));
        let capped = policy.next_delay(1, Some(Duration::from_secs(86_400)), 0.5).unwrap();
        assert_eq!(capped, MAX_RETRY_AFTER);
        let kept = policy.next_delay(3, Some(Duration::from_secs(1)), 0.5).unwrap();
        assert_eq!(kept, Duration::from_secs(1800));
    }

    #[test]
    fn a_slow_down_lasts_what_was_asked_within_bounds() {
        assert_eq!(slow_down(Duration::ZERO), MIN_SLOW_DOWN, "Retry-After: 0 is not a tight loop");
        assert_eq!(slow_down(Duration::from_secs(30)), Duration::from_secs(30));
        assert_eq!(slow_down(Duration::from_secs(86_400)), MAX_RETRY_AFTER);
    }

    #[test]
    fn the_span_is_the_whole_schedule_with_the_longest_jitter() {
        let span = default_policy().span();
        let longest: Duration = (1..8).map(|n| default_policy().next_delay(n, None, 1.0).unwrap()).sum();
        assert_eq!(span, longest);
        assert_eq!(RetryPolicy::new(Vec::new()).span(), Duration::ZERO, "no retries: a 429 is a failure at once");
    }

    #[test]
    fn disable_needs_both_count_and_time() {
        let rule = DisableRule { failures: 5, span: Duration::from_secs(3600) };
        assert!(!rule.applies(100, Duration::from_secs(60)));
        assert!(!rule.applies(4, Duration::from_secs(7200)));
        assert!(rule.applies(5, Duration::from_secs(3600)));
    }

    #[test]
    fn schedules_parse_units() {
        assert_eq!(
            parse_schedule("500ms, 1s,2m,1h").unwrap(),
            [Duration::from_millis(500), Duration::from_secs(1), Duration::from_secs(120), Duration::from_secs(3600)]
        );
        assert!(parse_schedule("5x").is_err());
    }
}
