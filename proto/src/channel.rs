//! The client side of core-service for every other component: one lazily connected channel over
//! one or several core-service addresses, and the retry rule for idempotent calls.
//!
//! With several addresses (`http://core-a:50051,http://core-b:50051`), or a name whose every
//! address is a replica (`dns:///core-service-headless:50051`, [`crate::discovery`]), calls go
//! round-robin over the replicas, except those placed by project ([`crate::placement`]), which go
//! to the project's replica; one whose call fails in transport is skipped until its health check
//! answers again ([`CoreChannel`]). A call already sent to a replica that dies fails; [`retryable`] says
//! whether repeating it (which then goes to another replica) is safe for an idempotent call.
//!
//! In one process (`canvasctl up`) the gateways call core-service's gRPC services directly
//! ([`CoreChannel::in_process`]): the same protobuf messages, metadata and status details, but no
//! HTTP/2 framing, no loopback socket and no hop between tasks, which on the GET path cost about
//! as much as core-service's own work.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tonic::transport::{Channel, Endpoint};
use tonic::Status;

use crate::discovery::Discovery;

/// Time allowed to open a connection to one replica.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// The path every replica's health is probed on while it is marked down.
const PROBE_PATH: &str = "/grpc.health.v1.Health/Check";
/// How often a replica marked down is probed.
const PROBE_INTERVAL: Duration = Duration::from_millis(500);

/// core-service's gRPC services called in this process: tonic's `Routes` of every service,
/// behind the same layers as the network server.
pub type LocalService = tower::util::BoxCloneSyncService<
    http::Request<tonic::body::Body>,
    http::Response<tonic::body::Body>,
    std::convert::Infallible,
>;

/// The error of a call through [`CoreChannel`]: tonic's transport error, or the deadline of an
/// in-process call ([`tonic::TimeoutExpired`], as tonic's own channel reports it).
pub type CallError = Box<dyn std::error::Error + Send + Sync>;

/// How calls reach one replica.
#[derive(Clone)]
enum Link {
    /// Over the network, a lazily connected HTTP/2 channel.
    Remote(Channel),
    /// In this process.
    Local(LocalService),
}

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Remote(channel) => f.debug_tuple("Remote").field(channel).finish(),
            Self::Local(_) => f.write_str("Local"),
        }
    }
}

/// One core-service replica.
#[derive(Debug)]
struct Replica {
    /// Its URL as configured: its name in the placement ranking.
    name: String,
    /// How its calls get there.
    channel: Link,
    /// Set when a call failed in transport; cleared by a successful health probe. While set the
    /// replica gets no calls (unless every replica is down).
    down: AtomicBool,
}

/// The replicas of a channel: fixed at start, or those a name resolves to now.
#[derive(Clone)]
enum Replicas {
    Fixed(Arc<[Arc<Replica>]>),
    Discovered(Arc<Discovery<Replica>>),
}

impl std::fmt::Debug for Replicas {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Fixed(replicas) => f.debug_tuple("Fixed").field(replicas).finish(),
            Self::Discovered(discovery) => f.debug_tuple("Discovered").field(&discovery.url()).finish(),
        }
    }
}

impl Replicas {
    async fn now(&self) -> Arc<[Arc<Replica>]> {
        match self {
            Self::Fixed(replicas) => replicas.clone(),
            Self::Discovered(discovery) => discovery.replicas().await,
        }
    }
}

/// Calls spread round-robin over core-service replicas, skipping those whose last call failed in
/// transport until their gRPC health check answers again. Unlike a plain balancer, a replica that
/// died stops receiving calls after its first failure instead of failing a share of them forever.
/// Cheap to clone; usable wherever a tonic `Channel` is (`XServiceClient::new(core.clone())`).
#[derive(Debug, Clone)]
pub struct CoreChannel {
    replicas: Replicas,
    next: Arc<AtomicUsize>,
    /// The deadline of a call that does not set its own (`grpc-timeout`): enforced on this side
    /// (the call fails as timed out, see [`crate::failure::CallFailure::TimedOut`]) and sent to
    /// core-service, which stops working on a call nobody waits for. It bounds the time until
    /// the answer starts, so a server stream (the change stream) may run longer.
    deadline: Option<Duration>,
}

impl From<Channel> for CoreChannel {
    fn from(channel: Channel) -> Self {
        Self::single(Link::Remote(channel))
    }
}

impl CoreChannel {
    /// core-service in this process: every call goes straight to `service`. Deadlines are kept
    /// here as tonic's channel keeps them (the call fails as timed out and its work is dropped).
    pub fn in_process(service: LocalService) -> Self {
        Self::single(Link::Local(service))
    }

    /// One core-service, reached through `link`.
    fn single(link: Link) -> Self {
        let replica = Replica { name: String::new(), channel: link, down: AtomicBool::new(false) };
        Self { replicas: Replicas::Fixed(Arc::from(vec![Arc::new(replica)])), next: Arc::default(), deadline: None }
    }

    /// The same replicas with a deadline on every call that sets none.
    pub fn with_deadline(mut self, deadline: Duration) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// The replicas to try for one call, in order: those up first, then those down (when every
    /// replica is down, one may have come back before its probe noticed). A call placed by
    /// project follows the project's ranking; any other starts at the next replica round-robin.
    fn order(&self, replicas: &[Arc<Replica>], placement: Option<&[u8]>) -> Vec<usize> {
        let count = replicas.len();
        let candidates: Vec<usize> = match placement {
            Some(key) => crate::placement::ranked(key, replicas.iter().map(|r| r.name.as_str())),
            None => {
                let start = self.next.fetch_add(1, Ordering::Relaxed);
                (0..count).map(|offset| (start + offset) % count).collect()
            }
        };
        let (up, down): (Vec<usize>, Vec<usize>) =
            candidates.into_iter().partition(|&i| !replicas[i].down.load(Ordering::Relaxed));
        up.into_iter().chain(down).collect()
    }

    /// Marks `replica` (one of `count`) down and probes it until it serves again. A replica found
    /// by name may have been replaced: the name is resolved again soon, and the probe stops once
    /// the replica is no longer among those the name resolves to.
    fn mark_down(&self, replica: &Arc<Replica>, count: usize) {
        if let Replicas::Discovered(discovery) = &self.replicas {
            discovery.refresh_soon();
        }
        if count < 2 || replica.down.swap(true, Ordering::AcqRel) {
            return;
        }
        let (this, replica) = (self.clone(), replica.clone());
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(PROBE_INTERVAL).await;
                let Link::Remote(channel) = &replica.channel else { return };
                if probe(channel.clone()).await {
                    replica.down.store(false, Ordering::Release);
                    return;
                }
                if !this.replicas.now().await.iter().any(|known| Arc::ptr_eq(known, &replica)) {
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
    type Error = CallError;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        // Each call waits for its own replica's readiness below.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut request: http::Request<tonic::body::Body>) -> Self::Future {
        if let Some(deadline) = self.deadline {
            if !request.headers().contains_key(GRPC_TIMEOUT) {
                request.headers_mut().insert(GRPC_TIMEOUT, grpc_timeout_value(deadline));
            }
        }
        let this = self.clone();
        Box::pin(async move {
            let replicas = this.replicas.now().await;
            match replicas.len() {
                0 => return Err(nothing_resolved(&this.replicas)),
                1 if matches!(this.replicas, Replicas::Fixed(_)) => return send(&replicas[0].channel, request).await,
                _ => {}
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
            let placement = parts.headers.get(crate::placement::PLACEMENT).map(|value| value.as_bytes());
            let mut last = None;
            for index in this.order(&replicas, placement) {
                let mut attempt = http::Request::from_parts(
                    parts.clone(),
                    tonic::body::Body::new(http_body_util::Full::new(bytes.clone())),
                );
                *attempt.extensions_mut() = parts.extensions.clone();
                match send(&replicas[index].channel, attempt).await {
                    Ok(response) => return Ok(response),
                    Err(error) => {
                        // A reset of this call's stream says nothing about the replica: only a
                        // connection that is really gone marks it down.
                        if !crate::failure::stream_reset(error.as_ref()) {
                            this.mark_down(&replicas[index], replicas.len());
                        }
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

/// The error of a call made before a `dns:///` name resolved to any replica: the connection was
/// never opened, as when it is refused, so the call fails as unreachable and may be repeated.
fn nothing_resolved(replicas: &Replicas) -> CallError {
    let name = match replicas {
        Replicas::Discovered(discovery) => discovery.url(),
        Replicas::Fixed(_) => "the configured URLs".to_owned(),
    };
    Box::new(std::io::Error::new(
        std::io::ErrorKind::ConnectionRefused,
        format!("no core-service replica is known yet: {name} resolved to no address"),
    ))
}

/// The gRPC deadline header; tonic's channel enforces it on this side, its server on the other.
const GRPC_TIMEOUT: &str = "grpc-timeout";

/// `grpc-timeout` in milliseconds (the format allows at most 8 digits per unit).
fn grpc_timeout_value(deadline: Duration) -> http::HeaderValue {
    let millis = deadline.as_millis().clamp(1, 99_999_999);
    http::HeaderValue::from_str(&format!("{millis}m")).expect("digits and a unit are a valid header value")
}

async fn send(
    link: &Link,
    request: http::Request<tonic::body::Body>,
) -> Result<http::Response<tonic::body::Body>, CallError> {
    match link {
        Link::Remote(channel) => {
            let mut channel = channel.clone();
            std::future::poll_fn(|cx| tower_service::Service::poll_ready(&mut channel, cx)).await?;
            Ok(tower_service::Service::call(&mut channel, request).await?)
        }
        Link::Local(service) => {
            let deadline =
                request.headers().get(GRPC_TIMEOUT).and_then(|value| value.to_str().ok()).and_then(parse_grpc_timeout);
            let call = caught(tower::ServiceExt::oneshot(service.clone(), request));
            let answered = match deadline {
                Some(deadline) => tokio::time::timeout(deadline, call).await.map_err(|_| tonic::TimeoutExpired(()))?,
                None => call.await,
            };
            Ok(match answered {
                Ok(answer) => answer.unwrap_or_else(|never| match never {}),
                // Over the network a handler's panic ends only its stream and the caller answers
                // with an error; in process it must not take the caller's connection down either.
                Err(()) => Status::internal("core-service failed on this call").into_http(),
            })
        }
    }
}

/// Runs `future`, turning a panic while it is polled into `Err(())`.
async fn caught<F: Future>(future: F) -> Result<F::Output, ()> {
    let mut future = std::pin::pin!(future);
    std::future::poll_fn(|cx| {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| future.as_mut().poll(cx))) {
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(_) => Poll::Ready(Err(())),
        }
    })
    .await
}

/// A `grpc-timeout` value (an integer of at most 8 digits and a unit, `H`, `M`, `S`, `m`, `u` or
/// `n`) as a duration; `None` for anything else. core-service reads callers' deadlines with it too.
pub fn parse_grpc_timeout(text: &str) -> Option<Duration> {
    let unit_at = text.len().checked_sub(1).filter(|at| text.is_char_boundary(*at))?;
    let (digits, unit) = text.split_at(unit_at);
    if digits.is_empty() || digits.len() > 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let amount: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(amount * 3600),
        "M" => Duration::from_secs(amount * 60),
        "S" => Duration::from_secs(amount),
        "m" => Duration::from_millis(amount),
        "u" => Duration::from_micros(amount),
        "n" => Duration::from_nanos(amount),
        _ => return None,
    })
}

/// Whether the call failed before any byte reached a replica (the connection was refused or
/// could not be opened), which makes repeating it elsewhere safe.
fn never_connected(error: &CallError) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error.as_ref());
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

/// A channel to the comma-separated core-service URLs, or to every address of one
/// `dns:///host:port` name ([`crate::discovery`]); connects on first use, so a component starts
/// before core-service is up (and reports not ready until it is).
pub fn core_channel(core_urls: &str) -> Result<CoreChannel, String> {
    let urls: Vec<&str> = core_urls.split(',').map(str::trim).filter(|url| !url.is_empty()).collect();
    if let Some(named) = urls.iter().find(|url| url.starts_with("dns:")) {
        if urls.len() > 1 {
            return Err(format!(
                "core-service URL '{named}': a dns:/// name stands for every replica and is given alone, not beside other URLs"
            ));
        }
        let target = crate::discovery::dns_target(named)?;
        return Ok(discovered_channel(target, crate::discovery::system_resolver(), crate::discovery::REFRESH_EVERY));
    }
    let replicas = urls
        .iter()
        .map(|url| remote_replica(url).map(Arc::new).map_err(|e| format!("core-service URL '{url}': {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    if replicas.is_empty() {
        return Err("at least one core-service URL is required".to_owned());
    }
    Ok(CoreChannel { replicas: Replicas::Fixed(Arc::from(replicas)), next: Arc::default(), deadline: None })
}

/// A channel over the addresses `resolve` gives for `target` (`host:port`), resolved again
/// `every` (and soon after a failure) as [`crate::discovery`] says.
pub fn discovered_channel(target: String, resolve: crate::discovery::Resolve, every: Duration) -> CoreChannel {
    let make = |name: &str| remote_replica(name).expect("an http:// URL of an IP address and a port is valid");
    let discovery = Discovery::new(target, resolve, make, replica_name, every);
    CoreChannel { replicas: Replicas::Discovered(Arc::new(discovery)), next: Arc::default(), deadline: None }
}

fn replica_name(replica: &Replica) -> &str {
    &replica.name
}

/// A replica at `url`, connected on first use.
fn remote_replica(url: &str) -> Result<Replica, tonic::transport::Error> {
    Endpoint::from_shared(url.to_owned()).map(|e| Replica {
        name: url.to_owned(),
        channel: Link::Remote(e.connect_timeout(CONNECT_TIMEOUT).tcp_nodelay(true).connect_lazy()),
        down: AtomicBool::new(false),
    })
}

/// Whether a failed call may be repeated, if it is idempotent: no answer arrived (the replica
/// went away, the connection was reset), as the client-side error itself says. Answers of
/// core-service, refusals such as rate limits included, are never repeated.
pub fn retryable(status: &Status) -> bool {
    matches!(crate::failure::classify(status), crate::failure::CallFailure::Unreachable { .. })
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
        let mut reset = Status::unknown("h2 protocol error: connection reset");
        reset.set_source(std::sync::Arc::new(std::io::Error::from(std::io::ErrorKind::ConnectionReset)));
        assert!(retryable(&reset));
        // The same words from the wire are an answer, not a transport failure.
        assert!(!retryable(&Status::unavailable("error trying to connect: connection refused")));
        assert!(!retryable(&Status::not_found("item")));
    }

    #[test]
    fn grpc_timeouts_are_read_in_every_unit_and_nonsense_is_ignored() {
        let parse = parse_grpc_timeout;
        assert_eq!(parse("1500m"), Some(Duration::from_millis(1500)));
        assert_eq!(parse("2S"), Some(Duration::from_secs(2)));
        assert_eq!(parse("1H"), Some(Duration::from_secs(3600)));
        assert_eq!(parse("3M"), Some(Duration::from_secs(180)));
        assert_eq!(parse("7u"), Some(Duration::from_micros(7)));
        assert_eq!(parse("9n"), Some(Duration::from_nanos(9)));
        assert_eq!(parse("5000u"), Some(Duration::from_millis(5)));
        for nonsense in ["", "m", "123456789m", "12x", "-1m", "1.5S", "ünm", "1ü", "1 S"] {
            assert_eq!(parse(nonsense), None, "{nonsense}");
        }
        assert_eq!(parse(grpc_timeout_value(Duration::from_secs(30)).to_str().unwrap()), Some(Duration::from_secs(30)));
    }

    /// A health service answering SERVING after its delay.
    struct SlowHealth(Duration);

    impl tonic::server::UnaryService<HealthCheckRequest> for SlowHealth {
        type Response = HealthCheckResponse;
        type Future = Pin<Box<dyn Future<Output = Result<tonic::Response<HealthCheckResponse>, Status>> + Send>>;

        fn call(&mut self, _request: tonic::Request<HealthCheckRequest>) -> Self::Future {
            let delay = self.0;
            Box::pin(async move {
                tokio::time::sleep(delay).await;
                Ok(tonic::Response::new(HealthCheckResponse { status: 1 }))
            })
        }
    }

    /// An in-process core whose health check answers after `delay`, served by tonic's own server
    /// code as the generated services are.
    fn slow_local_core(delay: Duration) -> CoreChannel {
        let service = tower::service_fn(move |request: http::Request<tonic::body::Body>| async move {
            assert_eq!(request.uri().path(), PROBE_PATH);
            let codec = tonic_prost::ProstCodec::<HealthCheckResponse, HealthCheckRequest>::default();
            Ok::<_, std::convert::Infallible>(tonic::server::Grpc::new(codec).unary(SlowHealth(delay), request).await)
        });
        CoreChannel::in_process(LocalService::new(service))
    }

    async fn check(channel: CoreChannel, timeout: Option<Duration>) -> Result<i32, Status> {
        let mut grpc = tonic::client::Grpc::new(channel);
        grpc.ready().await.unwrap();
        let codec = tonic_prost::ProstCodec::<HealthCheckRequest, HealthCheckResponse>::default();
        let path = http::uri::PathAndQuery::from_static(PROBE_PATH);
        let mut request = tonic::Request::new(HealthCheckRequest { service: String::new() });
        if let Some(timeout) = timeout {
            request.set_timeout(timeout);
        }
        grpc.unary(request, path, codec).await.map(|reply| reply.into_inner().status)
    }

    #[tokio::test]
    async fn an_in_process_call_answers_and_its_deadline_is_kept_like_over_the_network() {
        assert_eq!(check(slow_local_core(Duration::ZERO), None).await.unwrap(), 1);
        let late = check(slow_local_core(Duration::from_secs(5)), Some(Duration::from_millis(50))).await.unwrap_err();
        assert_eq!(crate::failure::classify(&late), crate::failure::CallFailure::TimedOut, "{late:?}");
        // The channel's own deadline, for calls that set none.
        let channel = slow_local_core(Duration::from_secs(5)).with_deadline(Duration::from_millis(50));
        let late = check(channel, None).await.unwrap_err();
        assert_eq!(crate::failure::classify(&late), crate::failure::CallFailure::TimedOut, "{late:?}");
        assert!(!retryable(&late), "a deadline is not a transport failure to repeat");
    }

    #[tokio::test]
    async fn a_panic_in_process_is_an_internal_error_of_that_call_only() {
        let service = tower::service_fn(|request: http::Request<tonic::body::Body>| async move {
            if request.headers().contains_key("x-panic") {
                panic!("a handler's bug");
            }
            let codec = tonic_prost::ProstCodec::<HealthCheckResponse, HealthCheckRequest>::default();
            Ok::<_, std::convert::Infallible>(
                tonic::server::Grpc::new(codec).unary(SlowHealth(Duration::ZERO), request).await,
            )
        });
        let channel = CoreChannel::in_process(LocalService::new(service));
        let mut grpc = tonic::client::Grpc::new(channel.clone());
        grpc.ready().await.unwrap();
        let codec = tonic_prost::ProstCodec::<HealthCheckRequest, HealthCheckResponse>::default();
        let mut request = tonic::Request::new(HealthCheckRequest { service: String::new() });
        request.metadata_mut().insert("x-panic", "1".parse().unwrap());
        let path = http::uri::PathAndQuery::from_static(PROBE_PATH);
        let failed = grpc.unary(request, path, codec).await.unwrap_err();
        assert_eq!(failed.code(), tonic::Code::Internal, "{failed:?}");
        assert_eq!(check(channel, None).await.unwrap(), 1, "the next call is served");
    }

    #[tokio::test]
    async fn a_refused_connection_is_retryable() {
        // Port 1 on loopback: nothing listens, the connection is refused.
        let mut grpc = tonic::client::Grpc::new(core_channel("http://127.0.0.1:1").unwrap());
        grpc.ready().await.expect("CoreChannel is always ready; each call connects");
        let codec = tonic_prost::ProstCodec::<HealthCheckRequest, HealthCheckResponse>::default();
        let path = http::uri::PathAndQuery::from_static(PROBE_PATH);
        let request = tonic::Request::new(HealthCheckRequest { service: String::new() });
        let status = grpc.unary(request, path, codec).await.unwrap_err();
        assert!(retryable(&status), "{status:?}");
    }
}
