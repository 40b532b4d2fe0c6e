//! The edge of both gateways under hostile clients: oversized header fields, long URIs, too many
//! headers, malformed HTTP/2, slow bodies and over-limit bodies, sent over raw connections as an
//! attacker would. Each is refused by the gateway with a 4xx (never a 5xx), and, while a flood of
//! them runs, a legitimate client calling REST and MCP at the same time is served: every one of its
//! calls answers 2xx. Before the edge limits, an `Authorization` header of 16-50 kB answered 500,
//! one of 100 kB 503, and during such a flood 82 % of a legitimate client's calls answered 503:
//! the oversized metadata broke the gRPC connection every caller shares.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::mcp::{post, BOTH};
use crate::support::{create_label, owner_with_project};

backend_tests!(oversized_heads_are_refused_at_the_edge_with_4xx, a_hostile_flood_leaves_legitimate_calls_served);

/// The gateway's address (`127.0.0.1:port`) for raw connections.
fn address(app: &TestApp) -> String {
    app.base_url.trim_start_matches("http://").to_owned()
}

/// Sends `request` on a fresh connection (ignoring a connection the server closes while the rest
/// is still being written, as it may for a head over its buffer) and returns what came back, at
/// most 4 KiB, within 5 s.
async fn raw(address: &str, request: &[u8]) -> Vec<u8> {
    let Ok(mut stream) = TcpStream::connect(address).await else { return Vec::new() };
    let _ = stream.write_all(request).await;
    let mut answer = vec![0u8; 4096];
    let mut read = 0;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while read < answer.len() {
        match tokio::time::timeout_at(deadline, stream.read(&mut answer[read..])).await {
            Ok(Ok(n)) if n > 0 => read += n,
            _ => break,
        }
    }
    answer.truncate(read);
    answer
}

/// The status code of a raw HTTP/1.1 answer, if one came.
fn status_of(answer: &[u8]) -> Option<u16> {
    let text = std::str::from_utf8(&answer[..answer.len().min(64)]).ok()?;
    text.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()
}

/// A GET of `path` with an `Authorization` header of `size` bytes.
fn get_with_authorization(address: &str, path: &str, size: usize) -> Vec<u8> {
    let token = "x".repeat(size.saturating_sub("Bearer ".len()));
    format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n")
        .into_bytes()
}

async fn oversized_heads_are_refused_at_the_edge_with_4xx(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let label = create_label(&app, &owner, &project, json!({"text": "still here"})).await;
    let address = address(&app);
    let item_path = format!("/api/v2/projects/{project}/item/{label}");

    // Authorization headers of 16 kB to 200 kB: 431 every time, from REST and from MCP.
    for size in [16 * 1024, 20 * 1024, 50 * 1024, 100 * 1024, 200 * 1024] {
        let answer = raw(&address, &get_with_authorization(&address, &item_path, size)).await;
        assert_eq!(status_of(&answer), Some(431), "REST, {size} B: {}", String::from_utf8_lossy(&answer));
        let token = "x".repeat(size);
        let mcp = format!(
            "POST /mcp HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\n\
             Accept: {BOTH}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}"
        );
        let answer = raw(&address, mcp.as_bytes()).await;
        assert_eq!(status_of(&answer), Some(431), "MCP, {size} B: {}", String::from_utf8_lossy(&answer));
    }
    // Within the buffer the answer is a problem body naming the setting.
    let answer = raw(&address, &get_with_authorization(&address, &item_path, 20 * 1024)).await;
    let text = String::from_utf8_lossy(&answer);
    assert!(text.contains("HEADERS_TOO_LARGE") && text.contains("--max-header-bytes"), "{text}");

    // A URI over 8 KiB: 414, naming its setting.
    let long = format!("{item_path}?jsonCasing=camel&pad={}", "a".repeat(9 * 1024));
    let answer =
        raw(&address, format!("GET {long} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n").as_bytes()).await;
    assert_eq!(status_of(&answer), Some(414), "{}", String::from_utf8_lossy(&answer));
    assert!(String::from_utf8_lossy(&answer).contains("--max-uri-bytes"));

    // 101 and 150 header fields (Host and Connection among them): 431 with the problem body naming
    // its setting; far beyond (twice the limit) hyper refuses on its own.
    for fillers in [99, 148] {
        let many: String = (0..fillers).map(|i| format!("X-Filler-{i}: v\r\n")).collect();
        let request = format!("GET {item_path} HTTP/1.1\r\nHost: {address}\r\n{many}Connection: close\r\n\r\n");
        let answer = raw(&address, request.as_bytes()).await;
        let text = String::from_utf8_lossy(&answer);
        assert_eq!(status_of(&answer), Some(431), "{text}");
        assert!(text.contains("HEADERS_TOO_LARGE") && text.contains("--max-headers"), "{} fields: {text}", fillers + 2);
        assert!(text.contains(&format!("has {} header fields", fillers + 2)), "{text}");
    }
    let many: String = (0..250).map(|i| format!("X-Filler-{i}: v\r\n")).collect();
    let request = format!("GET {item_path} HTTP/1.1\r\nHost: {address}\r\n{many}Connection: close\r\n\r\n");
    assert_eq!(status_of(&raw(&address, request.as_bytes()).await), Some(431));

    // The same item is still served to its owner, and a header just within the limit is read as
    // a (wrong) credential: 401, not a transport failure.
    let url = app.item_url(&project, &format!("/{label}?jsonCasing=camel"));
    let reply = app.http.get(&url).header("Authorization", owner.bearer()).send().await.unwrap();
    assert_eq!(reply.status(), StatusCode::OK);
    let near_limit = format!("Bearer {}", "y".repeat(15 * 1024));
    let reply = app.http.get(&url).header("Authorization", near_limit).send().await.unwrap();
    assert_eq!(reply.status(), StatusCode::UNAUTHORIZED);

    // Over HTTP/2 (cleartext, prior knowledge) too: the oversized request is refused, the small one
    // on the same client served.
    let h2 = reqwest::Client::builder().http2_prior_knowledge().build().unwrap();
    let big = h2.get(&url).header("Authorization", format!("Bearer {}", "z".repeat(100 * 1024))).send().await;
    if let Ok(reply) = big {
        assert!(reply.status().is_client_error(), "{}", reply.status());
    }
    let small = h2.get(&url).header("Authorization", owner.bearer()).send().await.unwrap();
    assert_eq!(small.status(), StatusCode::OK);
    assert_eq!(small.version(), reqwest::Version::HTTP_2);
}

/// What the flood sends, one kind per task, until `stop`.
#[derive(Clone, Copy, Debug)]
enum Attack {
    /// `Authorization` of 100 kB on an item read (what broke the shared connection).
    OversizedHeader,
    /// The HTTP/2 preface followed by frames that are not HTTP/2.
    MalformedHttp2,
    /// An HTTP/2 request whose header block is 100 kB of CONTINUATION frames.
    Http2HeaderFlood,
    /// A body that arrives a byte at a time.
    SlowBody,
    /// A body declared (and partly sent) over the 25 MiB limit, a URI over its limit.
    OverLimit,
}

async fn attack(kind: Attack, address: String, item_path: String, stop: Arc<AtomicBool>, sent: Arc<AtomicUsize>) {
    while !stop.load(Ordering::Relaxed) {
        match kind {
            Attack::OversizedHeader => {
                let answer = raw(&address, &get_with_authorization(&address, &item_path, 100 * 1024)).await;
                if let Some(status) = status_of(&answer) {
                    assert!((400..500).contains(&status), "oversized header answered {status}");
                }
            }
            Attack::MalformedHttp2 => {
                let mut bytes = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
                bytes.extend_from_slice(&[0, 0, 0, 4, 0, 0, 0, 0, 0]); // empty SETTINGS
                bytes.extend_from_slice(&[0, 0, 8, 1, 5, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
                bytes.extend_from_slice(&[0xde, 0xad, 0xbe, 0xef].repeat(64));
                raw(&address, &bytes).await;
            }
            Attack::Http2HeaderFlood => {
                let mut bytes = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
                bytes.extend_from_slice(&[0, 0, 0, 4, 0, 0, 0, 0, 0]);
                // HEADERS without END_HEADERS, then CONTINUATION frames of literal header bytes.
                let block = [0x40, 0x7f, 0x81, 0x7f].repeat(1024);
                let frame = |kind: u8, flags: u8, payload: &[u8]| {
                    let len = payload.len() as u32;
                    let mut f = vec![(len >> 16) as u8, (len >> 8) as u8, len as u8, kind, flags, 0, 0, 0, 1];
                    f.extend_from_slice(payload);
                    f
                };
                bytes.extend(frame(1, 0, &block));
                for _ in 0..24 {
                    bytes.extend(frame(9, 0, &block));
                }
                raw(&address, &bytes).await;
            }
            Attack::SlowBody => {
                if let Ok(mut stream) = TcpStream::connect(&address).await {
                    let head = format!(
                        "POST {item_path}/label HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
                         Content-Length: 1000\r\n\r\n"
                    );
                    let _ = stream.write_all(head.as_bytes()).await;
                    for _ in 0..10 {
                        if stop.load(Ordering::Relaxed) || stream.write_all(b" ").await.is_err() {
                            break;
                        }
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                }
            }
            Attack::OverLimit => {
                let head = format!(
                    "POST {item_path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
                     Content-Length: {}\r\nConnection: close\r\n\r\n{}",
                    80 * 1024 * 1024,
                    "{".repeat(4096)
                );
                if let Some(status) = status_of(&raw(&address, head.as_bytes()).await) {
                    assert!((400..500).contains(&status), "over-limit body answered {status}");
                }
                let long = format!("GET {item_path}?x={} HTTP/1.1\r\nHost: {address}\r\n\r\n", "q".repeat(12 * 1024));
                if let Some(status) = status_of(&raw(&address, long.as_bytes()).await) {
                    assert_eq!(status, 414);
                }
            }
        }
        sent.fetch_add(1, Ordering::Relaxed);
    }
}

/// REST reads of `label` by `owner`, `count` times: the statuses that were not 2xx.
async fn legitimate_rest(app: &TestApp, owner: &TestUser, project: &str, label: &str, count: usize) -> Vec<u16> {
    let url = app.item_url(project, &format!("/{label}?jsonCasing=camel"));
    let mut failures = Vec::new();
    for _ in 0..count {
        match app.http.get(&url).header("Authorization", owner.bearer()).send().await {
            Ok(reply) if reply.status().is_success() => {}
            Ok(reply) => failures.push(reply.status().as_u16()),
            Err(_) => failures.push(0),
        }
    }
    failures
}

/// MCP `get_item` calls by `owner`, `count` times: the answers that were not a successful result.
async fn legitimate_mcp(app: &TestApp, owner: &TestUser, project: &str, label: &str, count: usize) -> Vec<String> {
    let mut failures = Vec::new();
    for _ in 0..count {
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "get_item", "arguments": {"projectId": project, "itemId": label}}});
        let raw = post(app, Some(&owner.bearer()), BOTH, call.to_string()).await;
        let body: Value = raw.json();
        if raw.status != StatusCode::OK || body["result"]["isError"] != json!(false) {
            failures.push(format!("{} {}", raw.status, raw.text.chars().take(200).collect::<String>()));
        }
    }
    failures
}

async fn a_hostile_flood_leaves_legitimate_calls_served(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let label = create_label(&app, &owner, &project, json!({"text": "served"})).await;
    let item_path = format!("/api/v2/projects/{project}/item/{label}");

    let stop = Arc::new(AtomicBool::new(false));
    let sent = Arc::new(AtomicUsize::new(0));
    let kinds = [
        Attack::OversizedHeader,
        Attack::MalformedHttp2,
        Attack::Http2HeaderFlood,
        Attack::SlowBody,
        Attack::OverLimit,
    ];
    let flood: Vec<_> = kinds
        .iter()
        .cycle()
        .take(10)
        .map(|&kind| tokio::spawn(attack(kind, address(&app), item_path.clone(), stop.clone(), sent.clone())))
        .collect();
    // Let the flood get going before the legitimate client starts.
    tokio::time::sleep(Duration::from_millis(300)).await;

    const REST_CALLS: usize = 150;
    const MCP_CALLS: usize = 40;
    let (rest, mcp) = tokio::join!(
        futures::future::join_all((0..4).map(|_| legitimate_rest(&app, &owner, &project, &label, REST_CALLS))),
        futures::future::join_all((0..2).map(|_| legitimate_mcp(&app, &owner, &project, &label, MCP_CALLS))),
    );
    stop.store(true, Ordering::Relaxed);
    for task in flood {
        task.await.expect("an attack task ended with a 5xx or a wrong status");
    }

    let rest_failures: Vec<u16> = rest.into_iter().flatten().collect();
    let mcp_failures: Vec<String> = mcp.into_iter().flatten().collect();
    let hostile = sent.load(Ordering::Relaxed);
    assert!(hostile >= 20, "the flood sent only {hostile} hostile requests");
    assert!(
        rest_failures.is_empty(),
        "{} of {} legitimate REST calls failed during {hostile} hostile requests: {rest_failures:?}",
        rest_failures.len(),
        4 * REST_CALLS
    );
    assert!(
        mcp_failures.is_empty(),
        "{} of {} legitimate MCP calls failed: {mcp_failures:?}",
        mcp_failures.len(),
        2 * MCP_CALLS
    );
}

/// A gateway in front of `app`'s core-service with a 1 s head deadline and room for two
/// connections.
async fn tight_gateway(app: &TestApp) -> String {
    let limits = canvas_runtime::GatewayArgs {
        edge: canvas_runtime::edge::EdgeLimits {
            header_read_timeout_secs: 1,
            max_connections: 2,
            ..Default::default()
        },
        ..Default::default()
    };
    let state = rest_gateway::AppState::connect(&app.grpc_url, &limits).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(rest_gateway::serve(
        listener,
        rest_gateway::router(state),
        &limits,
        tokio_util::sync::CancellationToken::new(),
    ));
    base
}

/// A client trickling its request head is disconnected at `--header-read-timeout-secs`, and a
/// connection beyond `--max-connections` waits until one closes, then is served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_heads_are_cut_off_and_connections_beyond_the_cap_wait() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (owner, project) = owner_with_project(&app).await;
    let label = create_label(&app, &owner, &project, json!({"text": "waited for"})).await;
    let base = tight_gateway(&app).await;
    let address = base.trim_start_matches("http://").to_owned();

    // Two connections that send half a head and stop: both closed by the gateway within the
    // deadline (a read sees the end of the stream), without an answer.
    let mut slow = Vec::new();
    for _ in 0..2 {
        let mut stream = TcpStream::connect(&address).await.unwrap();
        stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ").await.unwrap();
        slow.push(stream);
    }
    // While both hold the two places, a legitimate request waits in the accept queue, and is served
    // once the head deadline frees a place.
    let started = tokio::time::Instant::now();
    let url = format!("{base}/api/v2/projects/{project}/item/{label}?jsonCasing=camel");
    // Within the deadline plus a margin: the place must come free by the head deadline.
    let client = reqwest::Client::builder().timeout(Duration::from_secs(5)).build().unwrap();
    let reply = client.get(&url).header("Authorization", owner.bearer()).send().await.expect("served within 5 s");
    assert_eq!(reply.status(), StatusCode::OK);
    assert_eq!(reply.json::<Value>().await.unwrap()["text"], "waited for");
    let waited = started.elapsed();
    assert!(waited >= Duration::from_millis(500), "served after {waited:?}: the connection cap did not hold it");
    for mut stream in slow {
        let mut buffer = [0u8; 64];
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer)).await;
        match read {
            Ok(Ok(0)) | Ok(Err(_)) => {}
            Ok(Ok(n)) => {
                // hyper may answer 408 before closing; either way the connection ends.
                let text = String::from_utf8_lossy(&buffer[..n]).to_string();
                assert!(text.starts_with("HTTP/1.1 408"), "a slow head got {text}");
            }
            Err(_) => panic!("a connection that never finished its head was still open after 5 s"),
        }
    }
}
