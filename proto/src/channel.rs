//! The client side of core-service for every other component: one lazily connected channel over
//! one or several core-service addresses, and the retry rule for idempotent calls.
//!
//! With several addresses (`http://core-a:50051,http://core-b:50051`) calls go round-robin over
//! the replicas; one whose call fails in transport is skipped until its health check answers
//! again ([`CoreChannel`]). A call already sent to a replica that dies fails; [`retryable`] says
//! whether repeating it (which then goes to another replica) is safe for an idempotent call.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tonic::transport::{Channel, Endpoint};
use tonic::{Code, Status};

/// Time allowed to open a connection to one replica.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// The path every replica's health is probed on while it is marked down.
const PROBE_PATH: &str = "/grpc.health.v1.Health/Check";
/// How often a replica marked down is probed.
const PROBE_INTERVAL: Duration = Duration::from_millis(500);

/// One core-service replica.
#[derive(Debug)]
struct Replica {
    /// Its lazily connected channel.
    channel: Channel,
    /// Set when a call failed in transport; cleared by a successful health probe. While set the
    /// replica gets no calls (unless every replica is down).
    down: AtomicBool,
}

/// Calls spread round-robin over core-service replicas, skipping those whose last call failed in
/// transport until their gRPC health check answers again. Unlike a plain balancer, a replica that
/// died stops receiving calls after its first failure instead of failing a share of them forever.
/// Cheap to clone; usable wherever a tonic `Channel` is (`XServiceClient::new(core.clone())`).
#[derive(Debug, Clone)]
pub struct CoreChannel {
    replicas: Arc<[Replica]>,
    next: Arc<AtomicUsize>,
}

impl From<Channel> for CoreChannel {
    fn from(channel: Channel) -> Self {
        Self { replicas: Arc::from(vec![Replica { channel, down: AtomicBool::new(false) }]), next: Arc::default() }
    }
}

impl CoreChannel {
    /// The replica for the next call: the next one that is up, else the next one at all.
    fn pick(&self) -> usize {
        let count = self.replicas.len();
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        (0..count)
            .map(|offset| (start + offset) % count)
            .find(|&i| !self.replicas[i].down.load(Ordering::Relaxed))
            .unwrap_or(start % count)
    }

    /// Marks replica `index` down and probes it until it serves again.
    fn mark_down(&self, index: usize) {
        if self.replicas.len() < 2 || self.replicas[index].down.swap(true, Ordering::AcqRel) {
            return;
        }
        let this = self.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(PROBE_INTERVAL).await;
                if probe(this.replicas[index].channel.clone()).await {
                    this.replicas[index].down.store(false, Ordering::Release);
                    return;
                }
            }
        });
    }
}

/// True when the replica answers its overall health check as SERVING.
async fn probe(channel: Channel) -> bool {
    let mut grpc = tonic::client::Grpc::new(channel);
    if tokio::time::timeout(PROBE_INTERVAL, grpc.ready()).await.map_or(true, |r| r.is_err()) {
        return false;
    }
    let codec = tonic_prost::ProstCodec::<HealthCheckRequest, HealthCheckResponse>::default();
    let path = http::uri::PathAndQuery::from_static(PROBE_PATH);
    let call = grpc.unary(tonic::Request::new(HealthCheckRequest { service: String::new() }), path, codec);
    matches!(tokio::time::timeout(PROBE_INTERVAL * 2, call).await, Ok(Ok(reply)) if reply.get_ref().status == 1)
}

/// `grpc.health.v1.HealthCheckRequest`, declared here so this crate needs no health dependency.
#[derive(Clone, PartialEq, prost::Message)]
struct HealthCheckRequest {
    #[prost(string, tag = "1")]
    service: String,
}

/// `grpc.health.v1.HealthCheckResponse` (status 1 = SERVING).
#[derive(Clone, PartialEq, prost::Message)]
struct HealthCheckResponse {
    #[prost(int32, tag = "1")]
    status: i32,
}

impl tower_service::Service<http::Request<tonic::body::Body>> for CoreChannel {
    type Response = http::Response<tonic::body::Body>;
    type Error = tonic::transport::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        // Each call waits for its own replica's readiness below.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<tonic::body::Body>) -> Self::Future {
        let this = self.clone();
        Box::pin(async move {
            if this.replicas.len() == 1 {
                return send(&this.replicas[0].channel, request).await;
            }
            // Our calls are unary: keep the request's bytes, so a call that could not even connect
            // (it never reached a replica, so repeating it is safe, writes included) goes to the next.
            let (parts, body) = request.into_parts();
            let bytes = match http_body_util::BodyExt::collect(body).await {
                Ok(collected) => collected.to_bytes(),
                Err(status) => {
                    let response = status.into_http();
                    return Ok(response);
                }
            };
            let mut last = None;
            for _ in 0..this.replicas.len() {
                let index = this.pick();
                let mut attempt = http::Request::from_parts(
                    parts.clone(),
                    tonic::body::Body::new(http_body_util::Full::new(bytes.clone())),
                );
                *attempt.extensions_mut() = parts.extensions.clone();
                match send(&this.replicas[index].channel, attempt).await {
                    Ok(response) => return Ok(response),
                    Err(error) => {
                        this.mark_down(index);
                        if !never_connected(&error) {
                            return Err(error);
                        }
                        last = Some(error);
                    }
                }
            }
            Err(last.expect("at least one replica was tried"))
        })
    }
}

async fn send(
    channel: &Channel,
    request: http::Request<tonic::body::Body>,
) -> Result<http::Response<tonic::body::Body>, tonic::transport::Error> {
    let mut channel = channel.clone();
    std::future::poll_fn(|cx| tower_service::Service::poll_ready(&mut channel, cx)).await?;
    tower_service::Service::call(&mut channel, request).await
}

/// Whether the call failed before any byte reached a replica (the connection was refused or
/// could not be opened), which makes repeating it elsewhere safe.
fn never_connected(error: &tonic::transport::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(current) = source {
        if let Some(io) = current.downcast_ref::<std::io::Error>() {
            if matches!(io.kind(), std::io::ErrorKind::ConnectionRefused | std::io::ErrorKind::AddrNotAvailable) {
                return true;
            }
        }
        if current.to_string().contains("tcp connect error") {
            return true;
        }
        source = current.source();
    }
    false
}

/// A channel to the comma-separated core-service URLs; connects on first use, so a component
/// starts before core-service is up (and reports not ready until it is).
pub fn core_channel(core_urls: &str) -> Result<CoreChannel, String> {
    let replicas = core_urls
        .split(',')
        .map(str::trim)
        .filter(|url| !url.is_empty())
        .map(|url| {
            Endpoint::from_shared(url.to_owned())
                .map(|e| Replica {
                    channel: e.connect_timeout(CONNECT_TIMEOUT).tcp_nodelay(true).connect_lazy(),
                    down: AtomicBool::new(false),
                })
                .map_err(|e| format!("core-service URL '{url}': {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if replicas.is_empty() {
        return Err("at least one core-service URL is required".to_owned());
    }
    Ok(CoreChannel { replicas: Arc::from(replicas), next: Arc::default() })
}

/// Whether a failed call may be repeated, if it is idempotent: the transport failed (the replica
/// went away, the connection was reset) rather than core-service answering. Domain refusals such
/// as rate limits carry error details and are not repeated.
pub fn retryable(status: &Status) -> bool {
    match status.code() {
        Code::Unavailable => status.details().is_empty(),
        Code::Unknown | Code::Cancelled => status.details().is_empty() && !status.message().is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn one_or_several_urls() {
        assert!(core_channel("http://127.0.0.1:1").is_ok());
        assert!(core_channel("http://127.0.0.1:1, http://127.0.0.1:2").is_ok());
        assert!(core_channel(" , ").is_err());
        assert!(core_channel("not a url").is_err());
    }

    #[test]
    fn only_transport_failures_are_retryable() {
        assert!(retryable(&Status::unavailable("error trying to connect: connection refused")));
        assert!(retryable(&Status::unknown("h2 protocol error: connection reset")));
        assert!(!retryable(&Status::not_found("item")));
        assert!(!retryable(&Status::with_details(Code::Unavailable, "rate limited", vec![1, 2, 3].into())));
    }
}
