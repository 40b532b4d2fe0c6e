//! core-service: every rule of the canvas service, all of its storage, and
//! the gRPC server that exposes them.
//!
//! # Layout
//! - [`blobs`]: uploaded file content (local filesystem or S3).
//! - [`config`]: flags and environment variables.
//! - [`domain`]: ids, roles, environments, token secrets.
//! - [`error`]: the one domain error.
//! - item property rules are the `canvas-items` crate; the search engine is `canvas-search`.
//! - [`knowledge`]: the knowledge index (embedding model, indexer, fusion, LLM post-processing).
//! - [`service`]: the operations, free of transport.
//! - [`storage`]: SQLite and PostgreSQL through sqlx (the only sqlx user).
//! - [`grpc`]: the tonic server, its handlers and the error mapping.
//! - [`webhooks`]: webhook definitions, signing keys, retries, delivery bodies.

pub mod blobs;
pub mod config;
pub mod domain;
pub mod error;
pub mod grpc;
pub mod knowledge;
pub mod service;
pub mod storage;
pub mod webhooks;

use std::sync::Arc;

use tokio::net::TcpListener;

pub use config::CoreConfig;
pub use service::Core;

/// Opens the database (running migrations) and builds the service layer.
pub async fn build(config: &CoreConfig) -> anyhow::Result<Arc<Core>> {
    let storage = storage::Storage::connect(&config.database_target()?, &config.pool_settings()).await?;
    let blobs = blobs::BlobStore::from_config(config.blob_store.as_deref(), &config.data_dir)?;
    let postgres = matches!(config.database_target()?, storage::DatabaseTarget::Postgres(_));
    let snapshots = config.knowledge.search_snapshot_dir(&config.data_dir, postgres);
    let knowledge = knowledge::Knowledge::from_config(&config.knowledge)
        .await?
        .with_search_snapshots(snapshots, config.knowledge.search_snapshot_min_chunks);
    let webhooks = config.webhooks.settings(config.environment()?, &config.data_dir)?;
    let core =
        Core::new(storage, blobs, config.service_settings()?).with_knowledge(knowledge).with_webhooks(webhooks)?;
    // A first signing key, and `inactive` brought in line with today's destination rules.
    core.webhooks().prepare_webhooks().await?;
    // Items written before containers were enforced, repaired once per database (migration 0013).
    core.items().repair_parents().await?;
    Ok(Arc::new(core))
}

/// Serves gRPC on `listener` until shutdown (a bare `CancellationToken` means the default grace
/// period). Tests bind `127.0.0.1:0` and pass the listener in. The knowledge indexer runs
/// alongside until the same shutdown: it finishes the model call in progress and hands its other
/// leased items back to the queue.
pub async fn run(
    listener: TcpListener,
    core: Arc<Core>,
    shutdown: impl Into<canvas_runtime::Shutdown>,
) -> anyhow::Result<()> {
    let shutdown: canvas_runtime::Shutdown = shutdown.into();
    let routes = grpc::routes(core.clone(), &shutdown).await?;
    run_routes(listener, core, routes, shutdown).await
}

/// [`run`] with the services already made by [`grpc::routes`]: `canvasctl up` keeps a clone of
/// them for its gateways, which call core-service in process ([`grpc::in_process`]).
pub async fn run_routes(
    listener: TcpListener,
    core: Arc<Core>,
    routes: tonic::service::Routes,
    shutdown: canvas_runtime::Shutdown,
) -> anyhow::Result<()> {
    let indexer = tokio::spawn(Arc::new(core.retrieval().indexer()).run(shutdown.token.clone()));
    // Retrieval's indexes load in the background; readiness never waits for them.
    tokio::spawn(core.retrieval().clone().warm_search_indexes());
    let served = grpc::serve_routes(listener, routes, shutdown.clone()).await;
    shutdown.token.cancel();
    if shutdown.finish_within("the knowledge indexer", indexer).await.is_none() {
        tracing::warn!("the indexer's current item is left to its lease");
    }
    served
}
