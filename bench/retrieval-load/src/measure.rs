//! Timing requests, waiting for the indexer, and the recall and memory figures.

use std::sync::Arc;
use std::time::{Duration, Instant};

use core_service::knowledge::KnowledgeConfig;
use core_service::Core;
use futures::{stream, StreamExt, TryStreamExt};
use serde_json::{json, Value};

/// Latencies of one measurement, in milliseconds.
#[derive(Debug, Clone, Default)]
pub struct Latencies(Vec<f64>);

impl Latencies {
    fn percentile(&self, p: f64) -> f64 {
        let mut sorted = self.0.clone();
        sorted.sort_by(f64::total_cmp);
        // Nearest rank.
        let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len().max(1));
        sorted.get(rank - 1).copied().unwrap_or(f64::NAN)
    }

    pub fn p50(&self) -> f64 {
        self.percentile(0.50)
    }

    pub fn p95(&self) -> f64 {
        self.percentile(0.95)
    }
}

/// The REST API of the service under test.
pub struct Api {
    base_url: String,
    bearer: String,
    http: reqwest::Client,
}

impl Api {
    pub fn new(base_url: &str, token: &str) -> Self {
        Self { base_url: base_url.to_owned(), bearer: format!("Bearer {token}"), http: reqwest::Client::new() }
    }

    async fn post(&self, path: &str, body: Value) -> anyhow::Result<Value> {
        let response = self
            .http
            .post(format!("{}{path}", self.base_url))
            .header("Authorization", &self.bearer)
            .json(&body)
            .send()
            .await?;
        let status = response.status();
        let body: Value = response.json().await?;
        anyhow::ensure!(status.is_success(), "POST {path}: {status} {body}");
        Ok(body)
    }

    /// Creates sticky notes, eight requests in flight.
    pub async fn create_notes(&self, project: &str, texts: &[String]) -> anyhow::Result<()> {
        let path = format!("/api/v2/projects/{project}/item/panel/sticky-note?jsonCasing=camel");
        stream::iter(texts)
            .map(|text| self.post(&path, json!({"text": text})))
            .buffer_unordered(8)
            .try_collect::<Vec<_>>()
            .await?;
        Ok(())
    }

    pub async fn retrieve(&self, project: &str, query: &str, mode: &str) -> anyhow::Result<Value> {
        let body = json!({"projectId": project, "query": query, "maxResults": 20, "mode": mode});
        self.post("/api/v1/memory/retrieve?jsonCasing=camel", body).await
    }

    /// Each query `rounds` times, one request in flight, after one untimed warm-up request.
    pub async fn time_queries(
        &self,
        project: &str,
        mode: &str,
        queries: &[String],
        rounds: usize,
    ) -> anyhow::Result<Latencies> {
        self.retrieve(project, &queries[0], mode).await?;
        let mut times = Vec::new();
        for _ in 0..rounds {
            for query in queries {
                let started = Instant::now();
                let reply = self.retrieve(project, query, mode).await?;
                times.push(started.elapsed().as_secs_f64() * 1000.0);
                anyhow::ensure!(reply["citations"].as_array().is_some_and(|c| !c.is_empty()), "no citation: {reply}");
            }
        }
        Ok(Latencies(times))
    }
}

/// Waits (bounded: one hour) until the knowledge queue is empty.
pub async fn wait_for_queue(core: &Arc<Core>) -> anyhow::Result<()> {
    let deadline = Instant::now() + Duration::from_secs(3600);
    loop {
        let (queued, _) = core.stores().retrieval.knowledge_queue_stats().await?;
        if queued == 0 {
            return Ok(());
        }
        anyhow::ensure!(Instant::now() < deadline, "the indexer did not finish within an hour");
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// Waits (bounded: half an hour) until the project's vector graph is built; returns how long.
pub async fn wait_for_graph(core: &Arc<Core>, project: &str) -> anyhow::Result<Duration> {
    let started = Instant::now();
    let project = crate::project_id(project).uuid();
    while core.retrieval().search_indexes().graph_ready(project) != Some(true) {
        anyhow::ensure!(started.elapsed() < Duration::from_secs(1800), "the graph was not built in 30 minutes");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(started.elapsed())
}

/// The single-query embedding latency, on a model instance of the same configuration.
pub async fn embedding_latency(
    config: &KnowledgeConfig,
    queries: &[String],
    rounds: usize,
) -> anyhow::Result<Latencies> {
    let (embedding, _) = core_service::knowledge::model::load(config).await?;
    let model = embedding.expect("the local model").model;
    model.embed(&[queries[0].clone()]).await?;
    let mut times = Vec::new();
    for _ in 0..rounds {
        for query in queries {
            let started = Instant::now();
            model.embed(std::slice::from_ref(query)).await?;
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
    }
    Ok(Latencies(times))
}

/// Share of the exact top 20 (by cosine) that the graph search returns, over the queries.
pub async fn recall_at_20(
    core: &Arc<Core>,
    project: &str,
    config: &KnowledgeConfig,
    queries: &[String],
) -> anyhow::Result<f64> {
    let (embedding, _) = core_service::knowledge::model::load(config).await?;
    let vectors = embedding.expect("the local model").model.embed(queries).await?;
    let slot =
        core.retrieval().search_indexes().fresh(&core.stores().retrieval, crate::project_id(project).uuid()).await?;
    let (mut found, mut total) = (0usize, 0usize);
    for query in &vectors {
        let (exact, approximate) = slot.read(|index| {
            let v = index.vectors().expect("vectors");
            (v.search(query, None, 20, true), v.search(query, None, 20, false))
        });
        total += exact.len();
        found += exact.iter().filter(|(chunk, _)| approximate.iter().any(|(c, _)| c == chunk)).count();
    }
    Ok(found as f64 / total.max(1) as f64)
}

/// Resident set size of this process.
pub fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm.split_whitespace().nth(1).and_then(|p| p.parse().ok()).unwrap_or(0);
    pages * 4096
}
