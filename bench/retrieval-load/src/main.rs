//! Retrieval at scale, in one run: p50/p95 of each leg (`mode` keyword, semantic, hybrid) at 2,000
//! and 20,000 sticky notes made of Cranfield sentences, the semantic leg at 200,000 chunks, the
//! 2,000-item project again once the database also holds the 200,000-chunk one, the single-query
//! embedding latency, resident memory per 100,000 vectors, and the graph's recall@20 against exact
//! search. Prints markdown for docs/PERFORMANCE.md.
//!
//! The service runs in this process as `canvasctl up` runs it (core-service gRPC and rest-gateway on
//! loopback, the real all-MiniLM-L6-v2); every retrieval is a `POST /api/v1/memory/retrieve` over
//! HTTP, timed sequentially (one in flight). Notes are created through REST and embedded by the
//! real indexer. The 200,000 chunks are seeded through core-service's own storage code
//! (`Storage::write_item_index`, the indexer's write): 2,000 items of 100 chunks, each chunk three
//! Cranfield sentences joined, its vector the normalised sum of those sentences' real vectors (read
//! back from the 20,000-note project), because embedding 200,000 chunks would take hours here.
//! Loops are bounded: fixed query lists, fixed rounds.
//!
//! Last, the service is restarted twice over the same database ([`restart`]): without search
//! snapshots and with them, timing the big project's first query each time and comparing every
//! query's answer with the warm service's.

mod corpus;
mod measure;
mod restart;
mod seed;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use clap::Parser;
use core_service::domain::{ProjectId, UserId};
use core_service::knowledge::{EmbeddingProvider, KnowledgeConfig};
use core_service::service::Principal;
use core_service::{Core, CoreConfig};

use measure::{Api, Latencies};

#[derive(Debug, Parser)]
struct Args {
    /// `postgres://…` for PostgreSQL (an empty database); unset: SQLite in a temporary directory.
    #[arg(long)]
    database_url: Option<String>,
    /// The Cranfield collection.
    #[arg(long, default_value = "../shared/data/cranfield")]
    data: PathBuf,
    #[arg(long, default_value_t = 2_000)]
    small: usize,
    #[arg(long, default_value_t = 20_000)]
    large: usize,
    /// Chunks of the big project (items of 100 chunks).
    #[arg(long, default_value_t = 200_000)]
    chunks: usize,
    /// Queries per measurement (the first of cran.qry) and rounds over them.
    #[arg(long, default_value_t = 40)]
    queries: usize,
    #[arg(long, default_value_t = 3)]
    rounds: usize,
    /// Only what the restarts need: no latency tables, embedding latency or recall.
    #[arg(long)]
    restart_only: bool,
}

const MODES: [&str; 3] = ["keyword", "semantic", "hybrid"];

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    if std::env::var_os("RUST_LOG").is_some() {
        // For example RUST_LOG=core_service::knowledge=info: how long a restart's snapshot read took.
        canvas_runtime::init_logging("text");
    }
    let dir = tempfile::tempdir()?;
    // Snapshots on both backends (PostgreSQL's default is none), in the temporary data directory.
    let snapshots = dir.path().join("search-snapshots");
    let config = CoreConfig {
        data_dir: dir.path().to_path_buf(),
        database_url: args.database_url.clone(),
        read_database_url: None,
        read_database_max_wait_ms: core_service::storage::DEFAULT_STANDBY_MAX_WAIT_MS,
        environment: "development".into(),
        db_max_connections: 16,
        db_acquire_timeout_secs: 30,
        db_check_idle_after_ms: core_service::storage::DEFAULT_CHECK_IDLE_AFTER_MS,
        access_memory_ms: 1000,
        blob_store: None,
        knowledge: KnowledgeConfig {
            embedding_provider: EmbeddingProvider::Local,
            search_snapshot_dir: Some(snapshots.clone()),
            ..KnowledgeConfig::default()
        },
        webhooks: core_service::webhooks::WebhookConfig::default(),
        // One token writes every note: at full speed it would be refused after 3,000 calls a
        // minute (bench/abuse.sh measures the limits).
        accounts: core_service::service::account_config::AccountConfig {
            rate_limits: core_service::service::rate_limits::RateLimitConfig { requests: 0, ..Default::default() },
            ..Default::default()
        },
    };
    let service = restart::Service::start(&config).await?;
    let (core, base_url) = (service.core.clone(), service.base_url.clone());

    let accounts = accounts(&core).await?;
    let api = Api::new(&base_url, &accounts.token);
    let backend = core.storage().backend_name();
    let sentences = corpus::sentences(&args.data)?;
    let queries = corpus::queries(&args.data, args.queries)?;
    eprintln!("{backend}: {} distinct sentences, {} queries", sentences.len(), queries.len());

    let small = project(&core, &accounts, "bench small").await?;
    let large = project(&core, &accounts, "bench large").await?;
    let started = Instant::now();
    api.create_notes(&small, &corpus::notes(&sentences, args.small)).await?;
    api.create_notes(&large, &corpus::notes(&sentences, args.large)).await?;
    eprintln!("created {} notes in {:.0?}", args.small + args.large, started.elapsed());
    measure::wait_for_queue(&core).await?;
    eprintln!("indexed after {:.0?}", started.elapsed());

    // Steady state: each project's index loaded and, for the large one, its graph built (until
    // then its searches are exact and the one builder thread takes a core; the time is printed).
    let large_load_started = Instant::now();
    for project in [&small, &large] {
        api.retrieve(project, "warm up the index", "semantic").await?;
    }
    let large_loaded_in = large_load_started.elapsed();
    let large_graph_in = measure::wait_for_graph(&core, &large).await?;
    let timed = !args.restart_only;
    let embedding = match timed {
        true => measure::embedding_latency(&config.knowledge, &queries, args.rounds).await?,
        false => Latencies::default(),
    };
    let mut rows: Vec<(String, &str, Latencies)> = Vec::new();
    for (label, project) in [(format!("{} items", args.small), &small), (format!("{} items", args.large), &large)] {
        for mode in MODES.iter().copied().filter(|_| timed) {
            rows.push((label.clone(), mode, api.time_queries(project, mode, &queries, args.rounds).await?));
        }
    }
    let recall_large = match timed {
        true => measure::recall_at_20(&core, &large, &config.knowledge, &queries).await?,
        false => f64::NAN,
    };

    let rss_before = measure::resident_bytes();
    let seeded = seed::big_project(&core, project(&core, &accounts, "bench big").await?, &large, args.chunks).await?;
    let load_started = Instant::now();
    api.retrieve(&seeded, "warm up the index", "semantic").await?;
    let loaded_in = load_started.elapsed();
    let graph_in = measure::wait_for_graph(&core, &seeded).await?;
    let rss_after = measure::resident_bytes();
    let label = format!("{} chunks", args.chunks);
    for mode in MODES.iter().copied().filter(|_| timed) {
        rows.push((label.clone(), mode, api.time_queries(&seeded, mode, &queries, args.rounds).await?));
    }
    let recall_big = match timed {
        true => measure::recall_at_20(&core, &seeded, &config.knowledge, &queries).await?,
        false => f64::NAN,
    };
    for mode in MODES.iter().copied().filter(|_| timed) {
        let label = format!("{} items beside {} chunks", args.small, args.chunks);
        rows.push((label, mode, api.time_queries(&small, mode, &queries, args.rounds).await?));
    }

    if timed {
        println!("### {backend}: {} queries × {} rounds, one request in flight\n", queries.len(), args.rounds);
        println!("| project | mode | p50 ms | p95 ms |\n|---|---|---|---|");
        for (label, mode, latencies) in &rows {
            println!("| {label} | {mode} | {:.1} | {:.1} |", latencies.p50(), latencies.p95());
        }
        println!("\nSingle-query embedding: p50 {:.1} ms, p95 {:.1} ms", embedding.p50(), embedding.p95());
        let p50 = |label: &str, mode: &str| {
            rows.iter().find(|(l, m, _)| l == label && *m == mode).map_or(f64::NAN, |(_, _, l)| l.p50())
        };
        let (s, l) = (format!("{} items", args.small), format!("{} items", args.large));
        for mode in MODES {
            println!("- {mode}: {} / {} items p50 = x{:.2}", args.large, args.small, p50(&l, mode) / p50(&s, mode));
        }
        println!("- hybrid p50 at {} items / embedding p50 = x{:.2}", args.large, p50(&l, "hybrid") / embedding.p50());
        let beside = format!("{} items beside {} chunks", args.small, args.chunks);
        for mode in MODES {
            println!(
                "- {mode}: {} items beside the big project / alone p50 = x{:.2}",
                args.small,
                p50(&beside, mode) / p50(&s, mode)
            );
        }
        println!(
            "{} items: first queries (load) {large_loaded_in:.1?}, graph built {large_graph_in:.1?} later; measured after",
            args.large
        );
        println!(
            "ANN recall@20 against exact search: {} items {recall_large:.4}, {} chunks {recall_big:.4}",
            args.large, args.chunks
        );
    }

    let vectors = args.chunks as f64;
    println!(
        "\nBig project: first query (load) {:.1?}, graph built {:.1?} later; resident memory {:.0} MiB → {:.0} MiB \
         ({:.0} MiB per 100,000 chunks); index estimate {:.0} MiB",
        loaded_in,
        graph_in,
        rss_before as f64 / 1048576.0,
        rss_after as f64 / 1048576.0,
        (rss_after.saturating_sub(rss_before)) as f64 / 1048576.0 * 100_000.0 / vectors,
        core.retrieval().search_indexes().total_bytes() as f64 / 1048576.0,
    );

    // The warm service's answers and snapshot, then the two restarts (before: no snapshot).
    let warm = restart::answers(&api, &seeded, &queries).await?;
    let snapshot_bytes = restart::snapshot_written(&core, &seeded).await?;
    drop(core);
    service.stop().await;
    let before = restart::measure(&config, None, &accounts.token, &seeded, &queries, &warm).await?;
    let after = restart::measure(&config, Some(snapshots.as_path()), &accounts.token, &seeded, &queries, &warm).await?;
    println!("\n{backend}, {} chunks, first query after a restart (hybrid, HTTP):", args.chunks);
    println!(
        "| | first query | graph ready | answers equal to the warm service's | read from |\n|---|---|---|---|---|"
    );
    for (label, run) in [("before (no snapshot)", &before), ("after (snapshot)", &after)] {
        println!(
            "| {label} | {:.3} s | {} | {}/{} | {} |",
            run.first_query.as_secs_f64(),
            if run.graph_at_once { "with the first answer" } else { "later (built again)" },
            run.equal,
            run.compared,
            if run.restored { "snapshot" } else { "database" },
        );
    }
    println!(
        "- after / before first query = x{:.3}; snapshot {:.0} MiB ({:.2} KiB per chunk)",
        after.first_query.as_secs_f64() / before.first_query.as_secs_f64(),
        snapshot_bytes as f64 / 1048576.0,
        snapshot_bytes as f64 / 1024.0 / args.chunks as f64,
    );
    Ok(())
}

/// The administrator, and a user with a token who owns the bench's projects.
struct Accounts {
    admin: Principal,
    owner: UserId,
    token: String,
}

async fn accounts(core: &Arc<Core>) -> anyhow::Result<Accounts> {
    let (_, admin_token) = core.accounts().bootstrap_admin("admin").await?.expect("a fresh database");
    let admin = core.access().authenticate(Some(&format!("Bearer {}", admin_token.secret))).await?;
    let user = core.accounts().create_user(&admin, "bench", false).await?;
    let token = core.accounts().create_token(&admin, user.id, None, "bench").await?;
    Ok(Accounts { admin, owner: user.id, token: token.secret })
}

async fn project(core: &Arc<Core>, accounts: &Accounts, name: &str) -> anyhow::Result<String> {
    Ok(core.accounts().create_project(&accounts.admin, name, accounts.owner).await?.id.to_string())
}

/// A project id as the service types it.
pub fn project_id(project: &str) -> ProjectId {
    ProjectId::parse(project).expect("a project id this bench created")
}
