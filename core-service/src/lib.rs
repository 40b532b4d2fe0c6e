//! core-service: every rule of the canvas service, all of its storage, and
//! the gRPC server that exposes them.
//!
//! # Layout
//! - [`blobs`]: uploaded file content (local filesystem or S3).
//! - [`config`]: flags and environment variables.
//! - [`domain`]: ids, roles, environments, token secrets.
//! - [`error`]: the one domain error.
//! - [`items`]: item property rules (validation, defaults, readable names).
//! - [`service`]: the operations, free of transport.
//! - [`storage`]: SQLite and PostgreSQL through sqlx (the only sqlx user).
//! - [`grpc`]: the tonic server, its handlers and the error mapping.

pub mod blobs;
pub mod config;
pub mod domain;
pub mod error;
pub mod grpc;
pub mod items;
pub mod service;
pub mod storage;

use std::sync::Arc;

use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

pub use config::CoreConfig;
pub use service::Core;

/// Opens the database (running migrations) and builds the service layer.
pub async fn build(config: &CoreConfig) -> anyhow::Result<Arc<Core>> {
    let storage = storage::Storage::connect(&config.database_target()?, &config.pool_settings()).await?;
    let blobs = blobs::BlobStore::from_config(config.blob_store.as_deref(), &config.data_dir)?;
    Ok(Arc::new(Core::new(storage, blobs, config.service_settings()?)))
}

/// Serves gRPC on `listener` until `shutdown` is cancelled. Tests bind
/// `127.0.0.1:0` and pass the listener in.
pub async fn run(listener: TcpListener, core: Arc<Core>, shutdown: CancellationToken) -> anyhow::Result<()> {
    grpc::serve(listener, core, shutdown).await
}
