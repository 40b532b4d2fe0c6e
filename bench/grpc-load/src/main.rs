//! Drives `ItemService.CreateItem` or `GetItem` over gRPC with a fixed number
//! of concurrent workers for a fixed time, and prints requests per second and
//! latency percentiles, so bench/items.sh can set them beside wrk's REST
//! figures. Every loop is bounded by `--duration` and `--max-requests`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use canvas_proto::json::to_proto_struct;
use canvas_proto::v1 as pb;
use canvas_proto::v1::item_service_client::ItemServiceClient;
use clap::Parser;
use tonic::metadata::MetadataValue;
use tonic::transport::Channel;

#[derive(Debug, Parser)]
struct Args {
    /// core-service gRPC URL.
    #[arg(long, default_value = "http://127.0.0.1:50051")]
    core: String,
    #[arg(long)]
    token: String,
    #[arg(long)]
    project: String,
    /// `create` (a label per call) or `get` (one label, read repeatedly).
    #[arg(long, default_value = "get")]
    call: String,
    #[arg(long, default_value_t = 16)]
    concurrency: usize,
    /// Seconds to run.
    #[arg(long, default_value_t = 10)]
    duration: u64,
    /// Hard cap on calls, whatever the duration.
    #[arg(long, default_value_t = 2_000_000)]
    max_requests: usize,
    /// `get` asks for the properties as JSON text (`properties_as_json`), as the REST gateway
    /// does, instead of a Struct.
    #[arg(long)]
    properties_json: bool,
}

fn label_properties() -> prost_types::Struct {
    let serde_json::Value::Object(map) = serde_json::json!({"text": "bench", "position": {"x": 1, "y": 2}}) else {
        unreachable!("a JSON object literal")
    };
    to_proto_struct(map)
}

fn authed<T>(message: T, token: &MetadataValue<tonic::metadata::Ascii>) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.metadata_mut().insert("authorization", token.clone());
    request
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let channel = Channel::from_shared(args.core.clone())?.connect().await?;
    let token: MetadataValue<_> = format!("Bearer {}", args.token).parse()?;
    let mut client = ItemServiceClient::new(channel.clone());
    let create = pb::CreateItemRequest {
        project_id: args.project.clone(),
        parent: "panel".into(),
        item_type: "label".into(),
        properties: Some(label_properties()),
        file: None,
    };
    let seed = client.create_item(authed(create.clone(), &token)).await?.into_inner().item_id;
    let get = pb::GetItemRequest {
        project_id: args.project.clone(),
        item_id: seed,
        properties_as_json: args.properties_json,
    };

    let deadline = Instant::now() + Duration::from_secs(args.duration);
    let issued = Arc::new(AtomicUsize::new(0));
    let mut workers = Vec::new();
    for _ in 0..args.concurrency {
        let mut client = ItemServiceClient::new(channel.clone());
        let (create, get, token, issued) = (create.clone(), get.clone(), token.clone(), issued.clone());
        let (call, max) = (args.call.clone(), args.max_requests);
        workers.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut errors = 0usize;
            while Instant::now() < deadline && issued.fetch_add(1, Ordering::Relaxed) < max {
                let started = Instant::now();
                let ok = if call == "create" {
                    client.create_item(authed(create.clone(), &token)).await.is_ok()
                } else {
                    client.get_item(authed(get.clone(), &token)).await.is_ok()
                };
                latencies.push(started.elapsed());
                errors += usize::from(!ok);
            }
            (latencies, errors)
        }));
    }
    let started = Instant::now();
    let mut all = Vec::new();
    let mut errors = 0;
    for worker in workers {
        let (latencies, failed) = worker.await?;
        all.extend(latencies);
        errors += failed;
    }
    let elapsed = started.elapsed().as_secs_f64();
    all.sort();
    let pct = |p: f64| {
        all.get(((all.len() as f64 * p) as usize).min(all.len().saturating_sub(1))).copied().unwrap_or_default()
    };
    println!(
        "grpc {} requests={} errors={} rps={:.0} p50_ms={:.2} p99_ms={:.2}",
        args.call,
        all.len(),
        errors,
        all.len() as f64 / elapsed,
        pct(0.50).as_secs_f64() * 1000.0,
        pct(0.99).as_secs_f64() * 1000.0
    );
    Ok(())
}
