//! Request rate limits: every authenticated call spends from its credential's budget (an API token,
//! an OAuth grant, which is one client acting for one person, or a session), and every call whose
//! credentials fail spends from its client address's budget (an IPv6 address's /64, [`address_key`]).
//! A person's credentials are bounded in number (`fair_share.rs`), so are their keys here. Over budget, a call is refused with
//! [`CoreError::TooManyRequests`], which the gateways answer 429 with `Retry-After` and the
//! `RateLimit-Policy` / `RateLimit` fields of draft-ietf-httpapi-ratelimit-headers.
//!
//! The algorithm is GCRA (`governor`): a budget of `requests` refills evenly over `window_secs`,
//! so a client may burst the whole budget and then proceed at `requests / window` per second.
//! State lives in each replica's memory and costs a hash look-up per call. With several core-service
//! replicas, the budget is split: each enforces its share (`requests / replicas`, see
//! [`RateLimitConfig::replicas`]); the gateways spread calls round-robin, so a client meets about the
//! whole budget across them. The spec's own limit on webhook test calls (10 a minute, 503) is separate
//! (`service/webhooks/management.rs`).

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

use crate::error::{CoreError, CoreResult};

/// The rate-limit policy; each default is stated once, here, and shown by `canvasctl config table`.
#[derive(Debug, Clone, clap::Args)]
pub struct RateLimitConfig {
    /// Calls one credential (API token, OAuth grant, session) may make per window; 0 turns the
    /// limit off.
    #[arg(long = "rate-limit-requests", env = "CANVAS_RATE_LIMIT_REQUESTS", default_value_t = RateLimitConfig::REQUESTS)]
    pub requests: u32,

    /// Calls with missing or failing credentials one client address may make per window; 0 turns
    /// the limit off.
    #[arg(long = "rate-limit-anonymous-requests", env = "CANVAS_RATE_LIMIT_ANONYMOUS_REQUESTS",
          default_value_t = RateLimitConfig::ANONYMOUS_REQUESTS)]
    pub anonymous_requests: u32,

    /// The window both budgets refill over, in seconds.
    #[arg(long = "rate-limit-window-secs", env = "CANVAS_RATE_LIMIT_WINDOW_SECS", default_value_t = RateLimitConfig::WINDOW_SECS,
          value_parser = clap::value_parser!(u32).range(1..=86_400))]
    pub window_secs: u32,

    /// How many core-service replicas share the budgets: each enforces `requests / replicas` (at
    /// least 1), since the gateways spread every client's calls evenly over the replicas.
    #[arg(long = "rate-limit-replicas", env = "CANVAS_RATE_LIMIT_REPLICAS", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub replicas: u32,
}

impl RateLimitConfig {
    /// 3,000 calls a minute: 50 a second sustained, with bursts of the whole budget; ahead of what an
    /// agent or a person at the map makes, and a scripted import should use the bulk create.
    pub const REQUESTS: u32 = 3000;
    /// 300 a minute: a client whose credentials fail gets this many answers before it must wait.
    pub const ANONYMOUS_REQUESTS: u32 = 300;
    pub const WINDOW_SECS: u32 = 60;

    /// No limits at all (benchmarks' baseline, tests that flood on purpose).
    pub fn off() -> Self {
        Self { requests: 0, anonymous_requests: 0, ..Self::default() }
    }
}

impl Default for RateLimitConfig {
    fn default() -> Self {
        Self {
            requests: Self::REQUESTS,
            anonymous_requests: Self::ANONYMOUS_REQUESTS,
            window_secs: Self::WINDOW_SECS,
            replicas: 1,
        }
    }
}

type Keyed<K> = RateLimiter<K, DefaultKeyedStateStore<K>, DefaultClock, StateInformationMiddleware>;

/// One budget: its quota as announced, and the per-key limiter of this replica's share.
#[derive(Debug)]
struct Budget<K: std::hash::Hash + Eq + Clone> {
    /// The policy's name in `RateLimit-Policy` and `RateLimit`.
    name: &'static str,
    /// The whole budget per window, as announced to clients.
    requests: u32,
    window_secs: u32,
    limiter: Keyed<K>,
}

impl<K: std::hash::Hash + Eq + Clone> Budget<K> {
    fn new(name: &'static str, requests: u32, config: &RateLimitConfig) -> Option<Self> {
        let share = NonZeroU32::new((requests / config.replicas).max(1))?;
        NonZeroU32::new(requests)?;
        let period = Duration::from_secs(u64::from(config.window_secs)) / share.get();
        let quota = Quota::with_period(period.max(Duration::from_nanos(1)))?.allow_burst(share);
        let limiter = RateLimiter::dashmap_with_clock(quota, DefaultClock::default())
            .with_middleware::<StateInformationMiddleware>();
        Some(Self { name, requests, window_secs: config.window_secs, limiter })
    }

    /// Spends one call of `key`'s budget, or says how long until the next is allowed.
    fn spend(&self, key: &K) -> CoreResult<()> {
        match self.limiter.check_key(key) {
            Ok(_) => Ok(()),
            Err(not_until) => {
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                let retry_after_secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
                Err(CoreError::TooManyRequests {
                    message: format!(
                        "rate limit exceeded: at most {} calls per {} s {}; try again in {retry_after_secs} s",
                        self.requests,
                        self.window_secs,
                        if self.name == CREDENTIAL_POLICY {
                            "per credential"
                        } else {
                            "per client address without valid credentials"
                        },
                    ),
                    retry_after_secs: retry_after_secs.max(1),
                    policy: format!("\"{}\";q={};w={}", self.name, self.requests, self.window_secs),
                    state: format!("\"{}\";r=0;t={}", self.name, retry_after_secs.max(1)),
                })
            }
        }
    }
}

/// The policy name of the per-credential budget.
pub const CREDENTIAL_POLICY: &str = "credential";
/// The policy name of the per-address budget of calls without valid credentials.
pub const ANONYMOUS_POLICY: &str = "anonymous";

/// The key of an address's budget: an IPv4 address itself (also when written as IPv4-mapped
/// IPv6), an IPv6 address by its /64 prefix. One IPv6 host is normally given a whole /64 (RFC 6177,
/// SLAAC), so keying by the full address would give one client 2^64 budgets, and one entry each
/// in this replica's memory.
pub fn address_key(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let [a, b, c, d, ..] = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(a, b, c, d, 0, 0, 0, 0))
            }
        },
    }
}

/// This replica's rate limiters. Cheap to share.
#[derive(Debug, Clone, Default)]
pub struct RateLimits {
    credentials: Option<Arc<Budget<uuid::Uuid>>>,
    addresses: Option<Arc<Budget<IpAddr>>>,
}

impl RateLimits {
    pub fn new(config: &RateLimitConfig) -> Self {
        Self {
            credentials: Budget::new(CREDENTIAL_POLICY, config.requests, config).map(Arc::new),
            addresses: Budget::new(ANONYMOUS_POLICY, config.anonymous_requests, config).map(Arc::new),
        }
    }

    /// Spends one call of the credential's budget (an API token, OAuth grant or session id).
    pub fn spend_credential(&self, credential: uuid::Uuid) -> CoreResult<()> {
        self.credentials.as_ref().map_or(Ok(()), |budget| budget.spend(&credential))
    }

    /// Spends one call of a client address's budget of failed authentications; `None` (a caller
    /// that did not say, such as an internal component) spends nothing.
    pub fn spend_anonymous(&self, address: Option<IpAddr>) -> CoreResult<()> {
        match (&self.addresses, address) {
            (Some(budget), Some(address)) => budget.spend(&address_key(address)),
            _ => Ok(()),
        }
    }

    /// Forgets keys whose budget is full again, so memory follows the active clients only.
    pub fn prune(&self) {
        if let Some(budget) = &self.credentials {
            budget.limiter.retain_recent();
            budget.limiter.shrink_to_fit();
        }
        if let Some(budget) = &self.addresses {
            budget.limiter.retain_recent();
            budget.limiter.shrink_to_fit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(requests: u32, replicas: u32) -> RateLimitConfig {
        RateLimitConfig { requests, anonymous_requests: requests, window_secs: 60, replicas }
    }

    #[test]
    fn a_credential_gets_its_budget_then_a_refusal_with_the_policy() {
        let limits = RateLimits::new(&small(5, 1));
        let (a, b) = (uuid::Uuid::new_v4(), uuid::Uuid::new_v4());
        for _ in 0..5 {
            limits.spend_credential(a).unwrap();
        }
        match limits.spend_credential(a) {
            Err(CoreError::TooManyRequests { retry_after_secs, policy, state, .. }) => {
                assert_eq!(policy, "\"credential\";q=5;w=60");
                assert!((1..=12).contains(&retry_after_secs), "{retry_after_secs}");
                assert_eq!(state, format!("\"credential\";r=0;t={retry_after_secs}"));
            }
            other => panic!("{other:?}"),
        }
        // Another credential has its own budget.
        limits.spend_credential(b).unwrap();
    }

    #[test]
    fn replicas_split_the_budget_and_zero_turns_it_off() {
        let limits = RateLimits::new(&small(6, 3));
        let a = uuid::Uuid::new_v4();
        assert!(limits.spend_credential(a).is_ok() && limits.spend_credential(a).is_ok());
        assert!(limits.spend_credential(a).is_err(), "each of 3 replicas allows 2 of 6");
        let off = RateLimits::new(&RateLimitConfig::off());
        for _ in 0..10_000 {
            off.spend_credential(a).unwrap();
            off.spend_anonymous(Some(IpAddr::from([127, 0, 0, 1]))).unwrap();
        }
    }

    #[test]
    fn an_ipv6_client_has_one_budget_per_64_prefix() {
        let limits = RateLimits::new(&small(2, 1));
        let host = |last: u16| Some(IpAddr::from([0x2001, 0xdb8, 1, 2, 0xa, 0xb, 0xc, last]));
        limits.spend_anonymous(host(1)).unwrap();
        limits.spend_anonymous(host(2)).unwrap();
        assert!(limits.spend_anonymous(host(3)).is_err(), "every address of one /64 spends one budget");
        let neighbour = Some(IpAddr::from([0x2001, 0xdb8, 1, 3, 0, 0, 0, 1]));
        limits.spend_anonymous(neighbour).expect("another /64 has its own budget");
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        assert_eq!(address_key(mapped), IpAddr::from([192, 0, 2, 7]), "IPv4-mapped is the IPv4 address");
    }

    #[test]
    fn an_address_is_limited_only_when_known() {
        let limits = RateLimits::new(&small(1, 1));
        let address = Some(IpAddr::from([192, 0, 2, 1]));
        limits.spend_anonymous(address).unwrap();
        assert!(limits.spend_anonymous(address).is_err());
        for _ in 0..10 {
            limits.spend_anonymous(None).unwrap();
        }
    }
}
