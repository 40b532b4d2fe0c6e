//! Replicas found by name: `--core dns:///core-service-headless:50051` (gRPC's own name syntax)
//! makes every address the name resolves to a replica of [`crate::channel::CoreChannel`], and
//! resolves it again as replicas come and go.
//!
//! Why: behind a Kubernetes ClusterIP Service one HTTP/2 connection stays on one pod, so each
//! gateway pod would send every call to one core pod, and placement by project
//! ([`crate::placement`]) would have one replica to choose from. The headless Service
//! `core-service-headless` answers with the address of every ready core pod instead; this module
//! turns those answers into the channel's replicas.
//!
//! - Each address is a replica named `http://<ip>:<port>`: gateways resolving the same Service
//!   see the same names, so they rank projects alike.
//! - The name is resolved on first use, again every [`REFRESH_EVERY`] in the background (a call
//!   never waits for it), and soon after a replica fails in transport (its pod may have been
//!   replaced). A replica still in the answer keeps its connection and its health state.
//! - An answer that fails or is empty keeps the replicas known before (a DNS hiccup must not
//!   empty the channel); with none known yet a call fails as unreachable (`Unavailable`,
//!   retryable), as a refused connection does.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, PoisonError, RwLock};
use std::time::{Duration, Instant};

/// How often the name is resolved again while calls are made. Kubernetes updates a headless
/// Service's records within seconds of a pod becoming ready or going away; a replica that went
/// away is also skipped at its first failed call, without waiting for this.
pub const REFRESH_EVERY: Duration = Duration::from_secs(5);

/// The scheme of a name to resolve, as gRPC clients write it (an empty authority: the system's
/// resolver).
pub const DNS_SCHEME: &str = "dns:///";

/// Resolves `host:port` to addresses; the system resolver, or a stand-in in tests.
pub type Resolve =
    Arc<dyn Fn(String) -> Pin<Box<dyn Future<Output = std::io::Result<Vec<SocketAddr>>> + Send>> + Send + Sync>;

/// The system's resolver (`getaddrinfo`, on a blocking thread).
pub fn system_resolver() -> Resolve {
    Arc::new(|target: String| Box::pin(async move { Ok(tokio::net::lookup_host(target).await?.collect::<Vec<_>>()) }))
}

/// The `host:port` of a `dns:///host:port` URL; an error naming what is wrong otherwise.
pub fn dns_target(url: &str) -> Result<String, String> {
    let rest = url.strip_prefix(DNS_SCHEME).ok_or_else(|| {
        format!("core-service URL '{url}': a name to resolve is written dns:///host:port (no DNS server between the slashes)")
    })?;
    let Some((host, port)) = rest.rsplit_once(':') else {
        return Err(format!(
            "core-service URL '{url}': dns:///host:port needs the port (core-service listens on 50051)"
        ));
    };
    if host.is_empty() || host.contains('/') || port.parse::<u16>().map_or(true, |p| p == 0) {
        return Err(format!("core-service URL '{url}': expected dns:///host:port with a port from 1 to 65535"));
    }
    Ok(rest.to_owned())
}

/// What a [`Discovery`] knows: the replicas of the last good answer, and when it was asked.
struct Known<R> {
    replicas: Arc<[Arc<R>]>,
    asked: Option<Instant>,
}

/// The replicas a name resolves to, kept fresh. `R` is the channel's replica; `make` builds one
/// for a new address's name.
pub(crate) struct Discovery<R> {
    target: String,
    resolve: Resolve,
    make: Box<dyn Fn(&str) -> R + Send + Sync>,
    name_of: fn(&R) -> &str,
    known: RwLock<Known<R>>,
    refreshing: AtomicBool,
    every: Duration,
}

impl<R: Send + Sync + 'static> Discovery<R> {
    pub(crate) fn new(
        target: String,
        resolve: Resolve,
        make: impl Fn(&str) -> R + Send + Sync + 'static,
        name_of: fn(&R) -> &str,
        every: Duration,
    ) -> Self {
        Self {
            target,
            resolve,
            make: Box::new(make),
            name_of,
            known: RwLock::new(Known { replicas: Arc::from(Vec::new()), asked: None }),
            refreshing: AtomicBool::new(false),
            every,
        }
    }

    /// The `dns:///host:port` this resolves, for errors and logs.
    pub(crate) fn url(&self) -> String {
        format!("{DNS_SCHEME}{}", self.target)
    }

    /// The replicas to call now. Resolves first when none is known; otherwise starts a
    /// background refresh when the last answer is older than the refresh interval.
    pub(crate) async fn replicas(self: &Arc<Self>) -> Arc<[Arc<R>]> {
        let (replicas, asked) = {
            let known = self.known.read().unwrap_or_else(PoisonError::into_inner);
            (known.replicas.clone(), known.asked)
        };
        if replicas.is_empty() {
            self.refresh().await;
            return self.known.read().unwrap_or_else(PoisonError::into_inner).replicas.clone();
        }
        if asked.is_none_or(|at| at.elapsed() >= self.every) {
            self.refresh_soon();
        }
        replicas
    }

    /// Resolves again in the background, unless a refresh is already running.
    pub(crate) fn refresh_soon(self: &Arc<Self>) {
        if self.refreshing.swap(true, Ordering::AcqRel) {
            return;
        }
        let this = self.clone();
        tokio::spawn(async move {
            this.resolve_now().await;
            this.refreshing.store(false, Ordering::Release);
        });
    }

    /// Resolves now (callers waiting for the first answer).
    async fn refresh(&self) {
        self.resolve_now().await;
    }

    async fn resolve_now(&self) {
        let answer = (self.resolve)(self.target.clone()).await;
        let mut addresses = match answer {
            Ok(addresses) => addresses,
            Err(error) => {
                tracing::warn!(name = %self.url(), %error, "core-service replicas could not be resolved; keeping those known");
                Vec::new()
            }
        };
        addresses.sort();
        addresses.dedup();
        let mut known = self.known.write().unwrap_or_else(PoisonError::into_inner);
        known.asked = Some(Instant::now());
        if addresses.is_empty() {
            return;
        }
        let names: Vec<String> = addresses.iter().map(|address| format!("http://{address}")).collect();
        let unchanged = names.len() == known.replicas.len()
            && names.iter().zip(known.replicas.iter()).all(|(name, r)| name == (self.name_of)(r));
        if unchanged {
            return;
        }
        let replicas: Vec<Arc<R>> = names
            .iter()
            .map(|name| {
                known
                    .replicas
                    .iter()
                    .find(|r| (self.name_of)(r) == name)
                    .cloned()
                    .unwrap_or_else(|| Arc::new((self.make)(name)))
            })
            .collect();
        tracing::info!(name = %self.url(), replicas = ?names, "core-service replicas resolved");
        known.replicas = Arc::from(replicas);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_dns_urls_with_a_port() {
        assert_eq!(dns_target("dns:///core-service-headless:50051").unwrap(), "core-service-headless:50051");
        assert_eq!(dns_target("dns:///10.0.0.7:50051").unwrap(), "10.0.0.7:50051");
        for (url, says) in [
            ("dns:///core-service-headless", "needs the port"),
            ("dns://8.8.8.8/core:50051", "no DNS server between the slashes"),
            ("dns:///:50051", "expected dns:///host:port"),
            ("dns:///core:0", "expected dns:///host:port"),
            ("dns:///core:http", "expected dns:///host:port"),
            ("dns:///a/b:50051", "expected dns:///host:port"),
        ] {
            let error = dns_target(url).unwrap_err();
            assert!(error.contains(says), "{url}: {error}");
        }
    }
}
