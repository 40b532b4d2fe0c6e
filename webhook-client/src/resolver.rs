//! A DNS resolver that drops disallowed addresses before reqwest connects.
//!
//! reqwest connects only to the addresses its resolver returns, so filtering
//! here checks the address actually connected to: a name that resolved to a
//! public address when the webhook was saved and to `127.0.0.1` now (DNS
//! rebinding) is refused at the moment of the call.

use std::net::SocketAddr;
use std::sync::Arc;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};

use crate::policy::{DestinationPolicy, Refusal};

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

/// Resolves `host` with the system resolver, then applies the policy: the addresses that may be
/// called, or the [`Refusal`] (as the error) when every address is refused.
pub async fn resolve(
    policy: &DestinationPolicy,
    host: &str,
) -> Result<Vec<SocketAddr>, Box<dyn std::error::Error + Send + Sync>> {
    let resolved: Vec<SocketAddr> = tokio::net::lookup_host((host, 0)).await?.collect();
    if resolved.is_empty() {
        return Err(format!("{host} has no address").into());
    }
    policy.screen(host, resolved).map_err(|refusal: Refusal| Box::new(refusal) as _)
}

impl Resolve for PolicingResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let policy = self.policy.clone();
        Box::pin(async move {
            let allowed = resolve(&policy, name.as_str()).await?;
            Ok(Box::new(allowed.into_iter()) as Addrs)
        })
    }
}
