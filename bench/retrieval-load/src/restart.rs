//! The first query of the big project after a restart, without a snapshot (the index read from
//! the database, the graph built again meanwhile: before) and with one (after), and whether the
//! restarted service's answers equal the warm service's.
//!
//! A restart here is what a process restart is to retrieval: the first service is stopped and
//! dropped, and a new `Core` with a new gateway is built over the same database and data
//! directory (so the same snapshot directory). `--search-warm-projects 0`, so the timed query
//! is the one that loads the index, not a load begun at start.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use core_service::{Core, CoreConfig};
use serde_json::Value;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::measure::Api;

/// A running service: core-service gRPC and rest-gateway on loopback.
pub struct Service {
    pub core: Arc<Core>,
    pub base_url: String,
    stop: CancellationToken,
}

impl Service {
    pub async fn start(config: &CoreConfig) -> anyhow::Result<Self> {
        let core = core_service::build(config).await?;
        let stop = CancellationToken::new();
        let grpc = TcpListener::bind("127.0.0.1:0").await?;
        let grpc_url = format!("http://{}", grpc.local_addr()?);
        tokio::spawn(core_service::run(grpc, core.clone(), stop.clone()));
        let http = TcpListener::bind("127.0.0.1:0").await?;
        let base_url = format!("http://{}", http.local_addr()?);
        let limits = canvas_runtime::GatewayArgs::default();
        let state = rest_gateway::AppState::connect(&grpc_url, &limits)?;
        let http_stop = stop.clone();
        tokio::spawn(async move { rest_gateway::serve(http, rest_gateway::router(state), &limits, http_stop).await });
        Ok(Self { core, base_url, stop })
    }

    /// Stops both servers and lets go of the core (its indexes are freed once its tasks end).
    pub async fn stop(self) {
        self.stop.cancel();
        drop(self.core);
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// What one restart measured.
pub struct Restart {
    pub first_query: Duration,
    pub restored: bool,
    /// Queries whose answer equals the warm service's, of all compared.
    pub equal: usize,
    pub compared: usize,
    /// Whether the graph was ready with the first answer (without a snapshot it builds for
    /// about 100 s more, measured in the bench's first phase).
    pub graph_at_once: bool,
}

/// Every query's answer (hybrid, 20 results): what a restarted service must equal.
pub async fn answers(api: &Api, project: &str, queries: &[String]) -> anyhow::Result<Vec<Value>> {
    let mut out = Vec::new();
    for query in queries {
        out.push(api.retrieve(project, query, "hybrid").await?["citations"].clone());
    }
    Ok(out)
}

/// Waits (bounded) until the warm service wrote the project's snapshot; returns its bytes.
pub async fn snapshot_written(core: &Arc<Core>, project: &str) -> anyhow::Result<u64> {
    let started = Instant::now();
    let id = crate::project_id(project).uuid();
    loop {
        if let Some(bytes) = core.retrieval().search_indexes().snapshot_written(id) {
            return Ok(bytes);
        }
        anyhow::ensure!(started.elapsed() < Duration::from_secs(600), "no snapshot written in 10 minutes");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Restarts the service with `snapshots` (a directory, or off), times the big project's first
/// query and compares every query's answer with `warm`.
pub async fn measure(
    config: &CoreConfig,
    snapshots: Option<&Path>,
    token: &str,
    project: &str,
    queries: &[String],
    warm: &[Value],
) -> anyhow::Result<Restart> {
    let mut config = config.clone();
    config.knowledge.search_warm_projects = 0;
    config.knowledge.search_snapshot_dir =
        Some(snapshots.map_or_else(|| core_service::knowledge::config::SNAPSHOTS_OFF.into(), Path::to_path_buf));
    let service = Service::start(&config).await?;
    let api = Api::new(&service.base_url, token);
    let started = Instant::now();
    let first = api.retrieve(project, &queries[0], "hybrid").await?["citations"].clone();
    let first_query = started.elapsed();
    let id = crate::project_id(project).uuid();
    let indexes = service.core.retrieval().search_indexes().clone();
    let restored = indexes.restored_from_snapshot(id) == Some(true);
    let graph_at_once = indexes.graph_ready(id) == Some(true);
    let mut answers = vec![first];
    answers.extend(self::answers(&api, project, &queries[1..]).await?);
    let equal = answers.iter().zip(warm).filter(|(a, w)| a == w).count();
    drop(indexes);
    service.stop().await;
    Ok(Restart { first_query, restored, equal, compared: warm.len(), graph_at_once })
}
