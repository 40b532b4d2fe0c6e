//! Webhook delivery benchmark. Runs core-service (SQLite in a temporary
//! directory, or PostgreSQL with `--database-url`) and a webhook-dispatcher
//! in this process, a local HTTPS receiver behind a generated CA, and writes
//! `--writes` labels over gRPC with `--concurrency` writers, as fast as they
//! can or paced at `--rate` writes per second. Prints sustained deliveries per
//! second (first write to last arrival) and the latency from each write's
//! acknowledgement to its call's arrival (p50, p99, max).
//! With `--slow-receiver-ms`, a second webhook on the same project calls a
//! receiver that answers only after that long; the latency printed is still the
//! fast receiver's (one slow receiver must not delay the others), and the slow
//! one's arrivals are counted. Every loop is bounded by the write count and
//! `--timeout-secs`. With `RUST_LOG=webhook_dispatcher::rounds=debug` the dispatcher logs its
//! lease rounds each second (leases, their time, hand-backs).
//! With `--pace N`, the fast webhook is defined with `maxDeliveriesPerSecond: N` and the writes
//! run ahead of it; the run then prints the pace it kept after the first second's burst (calls
//! after the first `N`, over the time from the first call to the last), as a ratio to `N`, with
//! `--dispatchers` replicas of the dispatcher drawing from the one bucket.
//! With `--recover`, the receiver is down (503) while the labels are written and every delivery's
//! retry is an hour away; once each has failed, the receiver comes back and one recovery of the
//! whole window (`POST .../recover`, here its service call) sends them again: the run prints the
//! recovered calls per second and whether they arrived in the order of their events, each once
//! (`recover.rs`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use axum::body::Bytes;
use canvas_proto::json::to_proto_struct;
use canvas_proto::v1 as pb;
use canvas_proto::v1::item_service_client::ItemServiceClient;
use clap::Parser;
use core_service::webhooks::WebhookConfig;
use core_service::CoreConfig;
use tokio_util::sync::CancellationToken;
use webhook_client::receiver::{serve_tls, LocalCa};
use webhook_client::ClientSettings;

/// The allocator of the service's binaries (feature `mimalloc`, on by default).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Debug, Parser)]
struct Args {
    /// Labels to write (one delivery each).
    #[arg(long, default_value_t = 2000)]
    writes: usize,
    /// Concurrent gRPC writers.
    #[arg(long, default_value_t = 8)]
    concurrency: usize,
    /// Calls the dispatcher keeps in flight (default: the dispatcher's).
    #[arg(long)]
    dispatcher_concurrency: Option<usize>,
    /// Calls the dispatcher keeps in flight to one destination (default: the dispatcher's).
    #[arg(long)]
    per_destination: Option<usize>,
    /// `postgres://…` for PostgreSQL; SQLite in a temporary directory otherwise.
    #[arg(long)]
    database_url: Option<String>,
    /// Writes per second over all writers; 0: as fast as they go.
    #[arg(long, default_value_t = 0.0)]
    rate: f64,
    /// Also a webhook to a receiver answering after this many milliseconds; 0: none.
    #[arg(long, default_value_t = 0)]
    slow_receiver_ms: u64,
    /// Give up after this long.
    #[arg(long, default_value_t = 300)]
    timeout_secs: u64,
    /// `maxDeliveriesPerSecond` of the fast receiver's webhook; none: no limit.
    #[arg(long)]
    pace: Option<u32>,
    /// Dispatchers in this process (replicas sharing the database).
    #[arg(long, default_value_t = 1)]
    dispatchers: usize,
    /// Writes while the receiver is down, then one recovery of them all (see the module comment).
    #[arg(long)]
    recover: bool,
}

mod recover;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Starts HTTPS receivers, each with a webhook of the project selecting `item.created`.
struct Receivers<'a> {
    ca: &'a LocalCa,
    core: &'a core_service::Core,
    owner: &'a core_service::service::Principal,
    project: core_service::domain::ProjectId,
    shutdown: &'a CancellationToken,
}

impl Receivers<'_> {
    async fn add(&self, router: axum::Router, pace: Option<u32>) -> anyhow::Result<uuid::Uuid> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("https://{}/hook", listener.local_addr()?);
        tokio::spawn(serve_tls(listener, self.ca.server_config(&["127.0.0.1"])?, router, self.shutdown.clone()));
        let definition =
            serde_json::json!({"url": url, "events": ["item.created"], "maxDeliveriesPerSecond": pace}).to_string();
        Ok(self.core.webhooks().create_webhook(self.owner, self.project, &definition).await?.id)
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    if std::env::var_os("RUST_LOG").is_some() {
        // For example RUST_LOG=webhook_dispatcher::rounds=debug: the lease loop's sums each second.
        canvas_runtime::init_logging("text");
    }
    let dir = tempfile::tempdir()?;
    let ca = LocalCa::generate()?;
    let ca_file = dir.path().join("ca.pem");
    std::fs::write(&ca_file, ca.ca_pem())?;
    let client =
        ClientSettings { timeout_secs: 15, allow_destinations: "127.0.0.1/32".into(), extra_ca_certs: vec![ca_file] };
    let config = CoreConfig {
        data_dir: dir.path().join("data"),
        database_url: args.database_url.clone(),
        read_database_url: None,
        read_database_max_wait_ms: core_service::storage::DEFAULT_STANDBY_MAX_WAIT_MS,
        environment: "development".into(),
        db_max_connections: 16,
        db_acquire_timeout_secs: 5,
        // As core-service's flag reads it, so a run can compare (0: every connection checked).
        db_check_idle_after_ms: std::env::var("CANVAS_DB_CHECK_IDLE_AFTER_MS")
            .ok()
            .and_then(|ms| ms.parse().ok())
            .unwrap_or(core_service::storage::DEFAULT_CHECK_IDLE_AFTER_MS),
        access_memory_ms: 1000,
        blob_store: None,
        knowledge: core_service::knowledge::KnowledgeConfig {
            embedding_provider: core_service::knowledge::EmbeddingProvider::Off,
            ..Default::default()
        },
        webhooks: WebhookConfig {
            client: client.clone(),
            // A recovery run: a failed call is retried only after an hour, so only the recovery sends it.
            retry_schedule: if args.recover { "1h".into() } else { WebhookConfig::default().retry_schedule },
            disable_failures: if args.recover { 1_000_000 } else { WebhookConfig::default().disable_failures },
            ..WebhookConfig::default()
        },
        // One token writes every item: at full speed it would be refused after 3,000 calls a
        // minute, and the bench would measure 429s (bench/abuse.sh measures the limits).
        accounts: core_service::service::account_config::AccountConfig {
            rate_limits: core_service::service::rate_limits::RateLimitConfig { requests: 0, ..Default::default() },
            ..Default::default()
        },
    };
    let core = core_service::build(&config).await.context("core-service")?;
    let shutdown = CancellationToken::new();
    let grpc = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let core_url = format!("http://{}", grpc.local_addr()?);
    tokio::spawn(core_service::run(grpc, core.clone(), shutdown.clone()));

    let (_, admin_token) = core.accounts().bootstrap_admin("admin").await?.context("fresh database")?;
    let admin = core.access().authenticate(Some(&format!("Bearer {}", admin_token.secret))).await?;
    let user = core.accounts().create_user(&admin, "bench", false).await?;
    let token = core.accounts().create_token(&admin, user.id, None, "bench").await?;
    let owner = core.access().authenticate(Some(&format!("Bearer {}", token.secret))).await?;
    let project = core.accounts().create_project(&admin, "Bench", user.id).await?;

    if args.recover {
        let receivers = Receivers { ca: &ca, core: &core, owner: &owner, project: project.id, shutdown: &shutdown };
        let run = recover::Run { core: &core, owner: &owner, project: project.id, token: &token.secret, core_url };
        let result = run.measure(&args, &receivers, client).await;
        shutdown.cancel();
        return result;
    }
    // The receiver notes when each item's call arrives (first arrival only).
    let arrivals: Arc<Mutex<HashMap<String, Instant>>> = Arc::default();
    let noted = arrivals.clone();
    let router = axum::Router::new().fallback(move |body: Bytes| {
        let noted = noted.clone();
        async move {
            let at = Instant::now();
            if let Ok(value) = serde_json::from_slice::<serde_json::Value>(&body) {
                if let Some(id) = value["changes"][0]["subject"]["id"].as_str() {
                    noted.lock().unwrap().entry(id.to_owned()).or_insert(at);
                }
            }
            "ok"
        }
    });
    let receivers = Receivers { ca: &ca, core: &core, owner: &owner, project: project.id, shutdown: &shutdown };
    receivers.add(router, args.pace).await?;
    let slow_arrivals = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    if args.slow_receiver_ms > 0 {
        let (counted, delay) = (slow_arrivals.clone(), Duration::from_millis(args.slow_receiver_ms));
        let router = axum::Router::new().fallback(move || {
            let counted = counted.clone();
            async move {
                counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                tokio::time::sleep(delay).await;
                "ok"
            }
        });
        receivers.add(router, None).await?;
    }

    let mut dispatcher = webhook_dispatcher::DispatcherConfig::new(core_url.clone(), client);
    dispatcher.concurrency = args.dispatcher_concurrency.unwrap_or(dispatcher.concurrency);
    dispatcher.per_destination = args.per_destination.unwrap_or(dispatcher.per_destination);
    for _ in 0..args.dispatchers.max(1) {
        tokio::spawn(webhook_dispatcher::run(dispatcher.clone(), shutdown.clone()));
    }

    let started = Instant::now();
    let acks: Arc<Mutex<HashMap<String, Instant>>> = Arc::default();
    let mut writers = tokio::task::JoinSet::new();
    let channel = tonic::transport::Channel::from_shared(core_url)?.connect().await?;
    for w in 0..args.concurrency {
        let (channel, acks, project_id) = (channel.clone(), acks.clone(), project.id.to_string());
        let auth: tonic::metadata::MetadataValue<_> = format!("Bearer {}", token.secret).parse()?;
        let count = args.writes / args.concurrency + usize::from(w < args.writes % args.concurrency);
        let (rate, writers_count) = (args.rate, args.concurrency);
        writers.spawn(async move {
            let mut client = ItemServiceClient::new(channel);
            for n in 0..count {
                if rate > 0.0 {
                    // This writer's n-th write is the (n * writers + w)-th overall.
                    let due = started + Duration::from_secs_f64((n * writers_count + w) as f64 / rate);
                    tokio::time::sleep_until(due.into()).await;
                }
                let serde_json::Value::Object(props) = serde_json::json!({"text": format!("w{w}-{n}")}) else {
                    unreachable!()
                };
                let mut request = tonic::Request::new(pb::CreateItemRequest {
                    project_id: project_id.clone(),
                    parent: "panel".into(),
                    item_type: "label".into(),
                    properties: Some(to_proto_struct(props)),
                    file: None,
                });
                request.metadata_mut().insert("authorization", auth.clone());
                let id = client.create_item(request).await?.into_inner().item_id;
                acks.lock().unwrap().insert(id, Instant::now());
            }
            anyhow::Ok(())
        });
    }
    while let Some(done) = writers.join_next().await {
        done??;
    }
    let writes_done = started.elapsed();
    let deadline = Instant::now() + Duration::from_secs(args.timeout_secs);
    while arrivals.lock().unwrap().len() < args.writes {
        anyhow::ensure!(
            Instant::now() < deadline,
            "only {} of {} calls arrived",
            arrivals.lock().unwrap().len(),
            args.writes
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let arrivals = arrivals.lock().unwrap().clone();
    let last = arrivals.values().max().copied().context("no arrivals")?;
    let total = last - started;
    let acks = acks.lock().unwrap();
    let mut latencies: Vec<Duration> =
        acks.iter().map(|(id, ack)| arrivals[id].saturating_duration_since(*ack)).collect();
    latencies.sort();
    let backend = if args.database_url.is_some() { "postgres" } else { "sqlite" };
    let slow = if args.slow_receiver_ms > 0 {
        format!(
            "; beside a receiver answering in {} ms ({} calls reached it)",
            args.slow_receiver_ms,
            slow_arrivals.load(std::sync::atomic::Ordering::Relaxed)
        )
    } else {
        String::new()
    };
    println!(
        "{backend}: {} writes in {:.2} s ({:.0}/s); {} deliveries in {:.2} s = {:.0} deliveries/s; \
         write-to-arrival p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms{slow}",
        args.writes,
        writes_done.as_secs_f64(),
        args.writes as f64 / writes_done.as_secs_f64(),
        arrivals.len(),
        total.as_secs_f64(),
        arrivals.len() as f64 / total.as_secs_f64(),
        percentile(&latencies, 0.5).as_secs_f64() * 1000.0,
        percentile(&latencies, 0.99).as_secs_f64() * 1000.0,
        latencies.last().unwrap().as_secs_f64() * 1000.0,
    );
    if let Some(pace) = args.pace {
        let mut times: Vec<Instant> = arrivals.values().copied().collect();
        times.sort();
        let burst = (pace as usize).min(times.len().saturating_sub(2));
        let steady = (times.len() - 1 - burst) as f64 / (times[times.len() - 1] - times[burst]).as_secs_f64();
        let most_in_a_second = (0..times.len())
            .map(|i| times[i..].iter().take_while(|t| **t - times[i] < Duration::from_secs(1)).count())
            .max()
            .unwrap_or(0);
        println!(
            "{backend}: paced at {pace}/s with {} dispatcher(s): {steady:.2} calls/s after the first {burst} = {:.3} × the pace; \
             at most {most_in_a_second} calls in any one second",
            args.dispatchers.max(1),
            steady / f64::from(pace),
        );
    }
    shutdown.cancel();
    Ok(())
}
