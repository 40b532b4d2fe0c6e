//! The service as a real deployment on one machine: two core-service
//! replicas on one PostgreSQL database, two rest-gateways, two mcp-gateways
//! and two webhook-dispatchers as separate OS processes, nginx in front.
//! A bounded mixed load (REST item creates and updates, MCP tool calls,
//! knowledge retrievals, webhook deliveries to a local HTTPS receiver) runs
//! through nginx while one replica of each component is killed with SIGKILL.
//! Afterwards every acknowledged write is readable through nginx, every
//! acknowledged write's webhook event arrived (duplicates counted), and the
//! clients saw no more errors than requests were in flight at the kill.

#[path = "../src/deploy.rs"]
mod deploy;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use canvas_tests::webhooks::Receiver;
use canvas_tests::Backend;
use deploy::{Options, Topology};
use serde_json::{json, Value};
use tokio::time::Instant;
use webhook_client::receiver::LocalCa;

/// Concurrent REST writers (each: create a label, then update it).
const WRITERS: usize = 6;
/// Upper bound of items per writer.
const MAX_ITEMS_PER_WRITER: usize = 300;
/// Load before and after the kill.
const PHASE: Duration = Duration::from_secs(5);

/// What the clients counted.
#[derive(Default)]
struct Counters {
    requests: AtomicUsize,
    errors: AtomicUsize,
    in_flight: AtomicUsize,
}

impl Counters {
    /// Runs one request, counting it and its failure (transport error or non-2xx).
    async fn track<T>(&self, request: impl std::future::Future<Output = Result<T, String>>) -> Option<T> {
        self.requests.fetch_add(1, Ordering::SeqCst);
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        let result = request.await;
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
        match result {
            Ok(value) => Some(value),
            Err(message) => {
                self.errors.fetch_add(1, Ordering::SeqCst);
                eprintln!("client error: {}", message.lines().next().unwrap_or_default());
                None
            }
        }
    }
}

/// An acknowledged write: the item and the text it was last acknowledged with.
#[derive(Debug, Clone)]
struct Written {
    id: String,
    text: String,
    updated: bool,
    /// An update was sent but not acknowledged: either text may be stored.
    unsure_text: Option<String>,
}

async fn json_call(request: reqwest::RequestBuilder) -> Result<Value, String> {
    let response = request.send().await.map_err(|e| format!("transport: {e}"))?;
    let status = response.status();
    let text = response.text().await.map_err(|e| format!("body: {e}"))?;
    if !status.is_success() {
        return Err(format!("{status}: {text}"));
    }
    if text.starts_with("event:") || text.starts_with("data:") {
        let data = text.lines().find_map(|l| l.strip_prefix("data:")).unwrap_or("null").trim().to_owned();
        return serde_json::from_str(&data).map_err(|e| format!("SSE JSON: {e}"));
    }
    Ok(serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn replicas_killed_under_load_lose_no_acknowledged_write() {
    if Backend::postgres_or_skip().is_none() {
        return;
    }
    let started = Instant::now();
    let ca = LocalCa::generate().expect("local CA");
    let ca_dir = tempfile::tempdir().unwrap();
    let ca_file = ca_dir.path().join("ca.pem");
    std::fs::write(&ca_file, ca.ca_pem()).unwrap();
    let receiver = Receiver::start(&ca).await;

    let mut topology = Topology::start(Options { ca_file: Some(ca_file.clone()), ..Options::default() })
        .await
        .unwrap_or_else(|e| panic!("the deployment starts: {e:#}"));
    let base = topology.base_url.clone();
    let (token, project) = topology.owner_with_project().await.expect("user and project");
    let bearer = format!("Bearer {token}");
    let http = reqwest::Client::builder().timeout(Duration::from_secs(20)).build().unwrap();

    // The webhook for every item write, registered through nginx.
    let hook = json_call(
        http.post(format!("{base}/api/v2/projects/{project}/webhooks?jsonCasing=camel"))
            .header("authorization", &bearer)
            .json(&json!({"url": receiver.url, "events": ["item.created", "item.updated"]})),
    )
    .await
    .expect("webhook registered through nginx");
    assert!(hook["id"].is_string(), "{hook}");

    let counters = Arc::new(Counters::default());
    let stop = tokio_util::sync::CancellationToken::new();
    let written: Arc<Mutex<Vec<Written>>> = Arc::default();
    let mut load = tokio::task::JoinSet::new();
    for w in 0..WRITERS {
        let (http, base, bearer, project, counters, stop, written) = (
            http.clone(),
            base.clone(),
            bearer.clone(),
            project.clone(),
            counters.clone(),
            stop.clone(),
            written.clone(),
        );
        load.spawn(async move {
            for n in 0..MAX_ITEMS_PER_WRITER {
                if stop.is_cancelled() {
                    break;
                }
                let text = format!("w{w}-{n}");
                let created = counters
                    .track(json_call(
                        http.post(format!("{base}/api/v2/projects/{project}/item/panel/label?jsonCasing=camel"))
                            .header("authorization", &bearer)
                            .json(&json!({"text": text})),
                    ))
                    .await;
                let Some(id) = created.and_then(|body| body["itemId"].as_str().map(str::to_owned)) else { continue };
                let mut record = Written { id: id.clone(), text: text.clone(), updated: false, unsure_text: None };
                let new_text = format!("{text}-edited");
                let updated = counters
                    .track(json_call(
                        http.patch(format!("{base}/api/v2/projects/{project}/item/label/{id}?jsonCasing=camel"))
                            .header("authorization", &bearer)
                            .json(&json!({"text": new_text})),
                    ))
                    .await;
                if updated.is_some() {
                    record.text = new_text;
                    record.updated = true;
                } else {
                    record.unsure_text = Some(new_text);
                }
                written.lock().unwrap().push(record);
            }
        });
    }
    // MCP tool calls and knowledge retrievals alongside.
    let mcp_calls = Arc::new(AtomicUsize::new(0));
    let retrievals = Arc::new(AtomicUsize::new(0));
    {
        let (http, base, bearer, project, counters, stop, mcp_calls, retrievals) = (
            http.clone(),
            base.clone(),
            bearer.clone(),
            project.clone(),
            counters.clone(),
            stop.clone(),
            mcp_calls.clone(),
            retrievals.clone(),
        );
        load.spawn(async move {
            for n in 0..200 {
                if stop.is_cancelled() {
                    break;
                }
                let message = json!({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                    "params": {"name": "list_items", "arguments": {"projectId": project}}});
                let reply = counters
                    .track(json_call(
                        http.post(format!("{base}/mcp"))
                            .header("authorization", &bearer)
                            .header("accept", "application/json, text/event-stream")
                            .json(&message),
                    ))
                    .await;
                if let Some(reply) = reply {
                    assert!(reply["result"].is_object(), "MCP list_items answers a result: {reply}");
                    mcp_calls.fetch_add(1, Ordering::SeqCst);
                }
                let reply = counters
                    .track(json_call(
                        http.post(format!("{base}/api/v1/memory/retrieve?jsonCasing=camel"))
                            .header("authorization", &bearer)
                            .json(&json!({"projectId": project, "query": format!("w1-{n}")})),
                    ))
                    .await;
                if reply.is_some() {
                    retrievals.fetch_add(1, Ordering::SeqCst);
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        });
    }

    // Mid-load: one replica of each component dies at once.
    tokio::time::sleep(PHASE).await;
    let writes_before = written.lock().unwrap().len();
    assert!(writes_before > 0, "no write was acknowledged before the kill");
    // Requests that can reach a dying process: those in flight when the kills
    // start, plus those sent before the last kill completed.
    let in_flight_at_start = counters.in_flight.load(Ordering::SeqCst);
    let requests_at_start = counters.requests.load(Ordering::SeqCst);
    let errors_before_kill = counters.errors.load(Ordering::SeqCst);
    tokio::join!(
        topology.cores[0].kill(),
        topology.rest[0].kill(),
        topology.mcp[0].kill(),
        topology.dispatchers[0].kill()
    );
    let in_flight_at_kill = in_flight_at_start + (counters.requests.load(Ordering::SeqCst) - requests_at_start);
    tokio::time::sleep(PHASE).await;
    stop.cancel();
    while let Some(done) = load.join_next().await {
        done.expect("a load task panicked");
    }
    let written = written.lock().unwrap().clone();
    let requests = counters.requests.load(Ordering::SeqCst);
    let errors = counters.errors.load(Ordering::SeqCst);
    assert_eq!(errors_before_kill, 0, "clients saw errors before anything was killed");
    assert!(
        written.len() > writes_before,
        "writes went on after the kill ({writes_before} before, {} in all)",
        written.len()
    );

    // Every acknowledged write is readable through nginx, with its last acknowledged text.
    for record in &written {
        let item = json_call(
            http.get(format!("{base}/api/v2/projects/{project}/item/{}?jsonCasing=camel", record.id))
                .header("authorization", &bearer),
        )
        .await
        .unwrap_or_else(|e| panic!("acknowledged item {} is not readable: {e}", record.id));
        let text = item["properties"]["text"].as_str().or(item["text"].as_str()).unwrap_or_default().to_owned();
        let accepted = text == record.text || record.unsure_text.as_deref() == Some(text.as_str());
        assert!(accepted, "item {} reads {text:?}, acknowledged {:?}: {item}", record.id, record.text);
    }

    // Every acknowledged write's event arrives at least once (bounded wait).
    let expected: HashSet<(String, &str)> = written
        .iter()
        .flat_map(|r| {
            let mut events = vec![(r.id.clone(), "item.created")];
            if r.updated {
                events.push((r.id.clone(), "item.updated"));
            }
            events
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(45);
    let (calls, missing) = loop {
        let calls = receiver.calls();
        let arrived: HashSet<(String, String)> = calls
            .iter()
            .map(|c| {
                let change = &c.json()["changes"][0];
                (
                    change["subject"]["id"].as_str().unwrap_or_default().to_owned(),
                    change["kind"].as_str().unwrap_or_default().to_owned(),
                )
            })
            .collect();
        let missing: Vec<_> =
            expected.iter().filter(|(id, kind)| !arrived.contains(&(id.clone(), (*kind).to_owned()))).collect();
        if missing.is_empty() || Instant::now() > deadline {
            break (calls, missing.len());
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let mut per_delivery: HashMap<String, usize> = HashMap::new();
    for call in &calls {
        *per_delivery.entry(call.header("webhook-id").to_owned()).or_default() += 1;
    }
    let duplicates: usize = per_delivery.values().map(|n| n - 1).sum();

    println!(
        "deployment: {requests} requests ({} item writes acknowledged of {} items, {} MCP calls, {} retrievals), \
         {errors} errors, {in_flight_at_kill} in flight at kill; {} events expected, {} webhook calls, {} distinct \
         deliveries, {duplicates} duplicates, {missing} missing; {:.1} s",
        written.iter().map(|r| 1 + usize::from(r.updated)).sum::<usize>(),
        written.len(),
        mcp_calls.load(Ordering::SeqCst),
        retrievals.load(Ordering::SeqCst),
        expected.len(),
        calls.len(),
        per_delivery.len(),
        started.elapsed().as_secs_f64()
    );
    assert_eq!(missing, 0, "{missing} acknowledged writes' events never arrived");
    assert!(
        errors <= in_flight_at_kill,
        "clients saw {errors} errors, more than the {in_flight_at_kill} requests in flight when the replicas died"
    );
    assert!(mcp_calls.load(Ordering::SeqCst) > 0 && retrievals.load(Ordering::SeqCst) > 0);
    for proc in topology.cores.iter_mut().skip(1).chain(topology.rest.iter_mut().skip(1)) {
        assert!(proc.alive(), "{} died:\n{}", proc.name, proc.tail());
    }
}
