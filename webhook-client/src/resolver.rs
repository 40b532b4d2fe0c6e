//! A DNS resolver that drops disallowed addresses before reqwest connects.
//!
//! reqwest connects only to the addresses its resolver returns, so filtering
//! here checks the address actually connected to: a name that resolved to a
//! public address when the webhook was saved and to `127.0.0.1` now (DNS
//! rebinding) is refused at the moment of the call.

use std::net::SocketAddr;
use std::sync::Arc;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};

use crate::policy::DestinationPolicy;

/// Resolves with the system resolver, then applies the policy.
#[derive(Debug, Clone)]
pub struct PolicingResolver {
    /// The rules every resolved address must pass.
    policy: Arc<DestinationPolicy>,
}

impl PolicingResolver {
    pub fn new(policy: Arc<DestinationPolicy>) -> Self {
        Self { policy }
    }
}

/// The error a call fails with when every address of a name is refused.
#[derive(Debug)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

impl Resolve for PolicingResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let policy = self.policy.clone();
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let resolved: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let mut allowed = Vec::with_capacity(resolved.len());
            let mut first_refusal = None;
            for addr in resolved {
                match policy.refusal(addr.ip()) {
                    None => allowed.push(addr),
                    Some(kind) => {
                        first_refusal.get_or_insert_with(|| {
                            format!("destination refused: {host} resolves to {} ({kind})", addr.ip())
                        });
                    }
                }
            }
            if allowed.is_empty() {
                let message = first_refusal.unwrap_or_else(|| format!("{host} has no address"));
                return Err(Box::new(Refused(message)) as Box<dyn std::error::Error + Send + Sync>);
            }
            Ok(Box::new(allowed.into_iter()) as Addrs)
        })
    }
}
