//! Replicas found by name (`dns:///host:port`): real gRPC servers on loopback stand for the pods
//! a headless Service lists, a stand-in resolver for its DNS answers (the one part that cannot
//! run here), and the checks are what a gateway sees: which replica answered each call.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use canvas_proto::channel::{discovered_channel, retryable, CoreChannel};
use canvas_proto::discovery::Resolve;
use canvas_proto::placement::{place_by_project, ranked};
use tonic_health::pb::{HealthCheckRequest, HealthCheckResponse};

const HEALTH_CHECK: &str = "/grpc.health.v1.Health/Check";

struct Serving;

impl tonic::server::UnaryService<HealthCheckRequest> for Serving {
    type Response = HealthCheckResponse;
    type Future = Pin<Box<dyn Future<Output = Result<tonic::Response<HealthCheckResponse>, tonic::Status>> + Send>>;

    fn call(&mut self, _request: tonic::Request<HealthCheckRequest>) -> Self::Future {
        Box::pin(async { Ok(tonic::Response::new(HealthCheckResponse { status: 1 })) })
    }
}

/// A replica: the gRPC health service, counting the calls it answers.
#[derive(Clone)]
struct Counted(Arc<AtomicUsize>);

impl tonic::server::NamedService for Counted {
    const NAME: &'static str = "grpc.health.v1.Health";
}

impl tower_service::Service<http::Request<tonic::body::Body>> for Counted {
    type Response = http::Response<tonic::body::Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<tonic::body::Body>) -> Self::Future {
        self.0.fetch_add(1, Ordering::SeqCst);
        Box::pin(async move {
            let codec = tonic_prost::ProstCodec::<HealthCheckResponse, HealthCheckRequest>::default();
            Ok(tonic::server::Grpc::new(codec).unary(Serving, request).await)
        })
    }
}

struct Replica {
    address: SocketAddr,
    calls: Arc<AtomicUsize>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Replica {
    async fn start() -> Replica {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let calls = Arc::new(AtomicUsize::new(0));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let service = Counted(calls.clone());
        tokio::spawn(async move {
            tonic::transport::Server::builder()
                .add_service(service)
                .serve_with_incoming_shutdown(tokio_stream::wrappers::TcpListenerStream::new(listener), async {
                    let _ = stopped.await;
                })
                .await
                .unwrap();
        });
        Replica { address, calls, stop: Some(stop) }
    }

    fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }

    fn name(&self) -> String {
        format!("http://{}", self.address)
    }
}

/// What the stand-in DNS answers now.
#[derive(Clone)]
struct Answers(Arc<Mutex<Result<Vec<SocketAddr>, String>>>);

impl Default for Answers {
    fn default() -> Self {
        Self(Arc::new(Mutex::new(Ok(Vec::new()))))
    }
}

impl Answers {
    fn set(&self, answer: Result<Vec<SocketAddr>, String>) {
        *self.0.lock().unwrap() = answer;
    }

    fn resolver(&self) -> Resolve {
        let answers = self.0.clone();
        Arc::new(move |target: String| {
            assert_eq!(target, "core-service-headless:50051");
            let answer = answers.lock().unwrap().clone();
            Box::pin(async move { answer.map_err(std::io::Error::other) })
        })
    }
}

async fn check(channel: &CoreChannel, project: Option<&str>) -> Result<i32, tonic::Status> {
    let mut grpc = tonic::client::Grpc::new(channel.clone());
    grpc.ready().await.unwrap();
    let codec = tonic_prost::ProstCodec::<HealthCheckRequest, HealthCheckResponse>::default();
    let mut request = tonic::Request::new(HealthCheckRequest { service: String::new() });
    if let Some(project) = project {
        place_by_project(&mut request, project);
    }
    let path = http::uri::PathAndQuery::from_static(HEALTH_CHECK);
    grpc.unary(request, path, codec).await.map(|reply| reply.into_inner().status)
}

const REFRESH: Duration = Duration::from_millis(100);

/// Makes one call after the refresh interval (which starts a refresh) and waits for it to end.
async fn let_it_resolve_again(channel: &CoreChannel) {
    tokio::time::sleep(REFRESH + Duration::from_millis(50)).await;
    check(channel, None).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_follow_what_the_name_resolves_to() {
    let (a, mut b) = (Replica::start().await, Replica::start().await);
    let answers = Answers::default();
    answers.set(Ok(vec![a.address]));
    let channel = discovered_channel("core-service-headless:50051".into(), answers.resolver(), REFRESH);

    for _ in 0..6 {
        assert_eq!(check(&channel, None).await.unwrap(), 1);
    }
    assert_eq!((a.calls(), b.calls()), (6, 0), "one pod listed: every call goes to it");

    // A second pod becomes ready: calls spread over both.
    answers.set(Ok(vec![b.address, a.address]));
    let_it_resolve_again(&channel).await;
    let before = (a.calls(), b.calls());
    for _ in 0..20 {
        check(&channel, None).await.unwrap();
    }
    let (to_a, to_b) = (a.calls() - before.0, b.calls() - before.1);
    assert_eq!(to_a + to_b, 20);
    assert!(to_a >= 8 && to_b >= 8, "round-robin over both pods: {to_a} and {to_b}");

    // A placed call goes to the project's replica, ranked by the replicas' names (their
    // addresses), so every gateway resolving the same Service picks the same one.
    let mut names = [a.name(), b.name()];
    names.sort();
    for project in ["project-1", "project-2", "project-3", "project-4"] {
        let first = ranked(project.as_bytes(), names.iter().map(String::as_str))[0];
        let expected = if names[first] == a.name() { &a } else { &b };
        let before = expected.calls();
        for _ in 0..5 {
            check(&channel, Some(project)).await.unwrap();
        }
        assert_eq!(expected.calls() - before, 5, "{project} always goes to {}", names[first]);
    }

    // A DNS failure or an empty answer keeps the replicas known.
    answers.set(Err("SERVFAIL".into()));
    let_it_resolve_again(&channel).await;
    answers.set(Ok(Vec::new()));
    let_it_resolve_again(&channel).await;
    let before = (a.calls(), b.calls());
    for _ in 0..10 {
        check(&channel, None).await.unwrap();
    }
    assert!(a.calls() > before.0 && b.calls() > before.1, "both pods still called");

    // The second pod goes away: once the name no longer lists it, no call reaches it and none
    // fails.
    answers.set(Ok(vec![a.address]));
    let_it_resolve_again(&channel).await;
    b.stop.take().unwrap().send(()).unwrap();
    let (before_a, before_b) = (a.calls(), b.calls());
    for _ in 0..10 {
        assert_eq!(check(&channel, None).await.unwrap(), 1);
    }
    assert_eq!((a.calls() - before_a, b.calls() - before_b), (10, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_gone_before_the_name_says_so_is_skipped_and_the_name_resolved_again() {
    let (a, mut b) = (Replica::start().await, Replica::start().await);
    let answers = Answers::default();
    answers.set(Ok(vec![a.address, b.address]));
    // An interval longer than the test: only the failure makes it resolve again.
    let channel =
        discovered_channel("core-service-headless:50051".into(), answers.resolver(), Duration::from_secs(600));
    for _ in 0..4 {
        check(&channel, None).await.unwrap();
    }
    assert!(a.calls() > 0 && b.calls() > 0);

    b.stop.take().unwrap().send(()).unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    answers.set(Ok(vec![a.address]));
    // Calls may meet the closed connection once; after that the replica is down or gone.
    let mut failed = 0;
    for _ in 0..10 {
        if check(&channel, None).await.is_err() {
            failed += 1;
        }
    }
    assert!(failed <= 1, "{failed} calls failed after the pod went away");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let before = a.calls();
    for _ in 0..10 {
        assert_eq!(check(&channel, None).await.unwrap(), 1);
    }
    assert_eq!(a.calls() - before, 10, "the remaining pod answers every call");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn before_the_name_resolves_calls_fail_as_unreachable_and_then_succeed() {
    let answers = Answers::default();
    answers.set(Ok(Vec::new()));
    let channel = discovered_channel("core-service-headless:50051".into(), answers.resolver(), REFRESH);
    let status = check(&channel, None).await.unwrap_err();
    assert!(retryable(&status), "{status:?}");
    assert!(format!("{status:?}").contains("resolved to no address"), "{status:?}");

    let a = Replica::start().await;
    answers.set(Ok(vec![a.address]));
    assert_eq!(check(&channel, None).await.unwrap(), 1, "resolved again on the next call");
    assert_eq!(a.calls(), 1);
}

#[test]
fn a_name_is_given_alone_and_with_a_port() {
    use canvas_proto::channel::core_channel;
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let _inside = runtime.enter();
    assert!(core_channel("dns:///core-service-headless:50051").is_ok());
    let mixed = core_channel("dns:///core-service-headless:50051,http://127.0.0.1:50051").unwrap_err();
    assert!(mixed.contains("given alone"), "{mixed}");
    assert!(core_channel("dns:///core-service-headless").unwrap_err().contains("needs the port"));
}

/// The system's resolver, end to end: `localhost` names the loopback replica.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_system_resolver_finds_a_replica_by_name() {
    let a = Replica::start().await;
    let channel = canvas_proto::channel::core_channel(&format!("dns:///localhost:{}", a.address.port())).unwrap();
    for _ in 0..3 {
        assert_eq!(check(&channel, None).await.unwrap(), 1);
    }
    assert_eq!(a.calls(), 3);
}
