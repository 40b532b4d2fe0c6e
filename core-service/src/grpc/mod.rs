//! The gRPC server: canvas.v1 services, `grpc.health.v1` health checking and
//! server reflection (v1 and v1alpha, so grpcurl and Postman both work).
//!
//! Each handler does the same four steps: parse ids, authenticate, call the
//! service layer, convert. Errors become statuses in [`status`] only.

mod admin;
pub mod convert;
mod items;
pub mod status;

use std::sync::Arc;

use canvas_proto::v1::admin_service_server::AdminServiceServer;
use canvas_proto::v1::item_service_server::ItemServiceServer;
use canvas_proto::v1::project_service_server::ProjectServiceServer;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tonic::{Request, Status};

use crate::service::{Core, Principal};

/// Largest gRPC message accepted or sent: a 25 MB upload plus framing.
pub const MAX_MESSAGE_BYTES: usize = 32 * 1024 * 1024;

/// Authenticates a call by its `authorization` metadata, which gateways copy
/// from the client's `Authorization` header.
pub async fn authenticate<T>(core: &Core, request: &Request<T>) -> Result<Principal, Status> {
    let header = request.metadata().get("authorization").and_then(|v| v.to_str().ok());
    Ok(core.authenticate(header).await?)
}

/// Serves gRPC on `listener` until `shutdown` is cancelled, then finishes the
/// calls in flight.
pub async fn serve(listener: TcpListener, core: Arc<Core>, shutdown: CancellationToken) -> anyhow::Result<()> {
    let (health_reporter, health_service) = tonic_health::server::health_reporter();
    health_reporter.set_serving::<ItemServiceServer<items::ItemGrpc>>().await;
    health_reporter.set_serving::<AdminServiceServer<admin::AdminGrpc>>().await;
    health_reporter.set_serving::<ProjectServiceServer<admin::ProjectGrpc>>().await;

    let reflection_v1 = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(canvas_proto::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()?;
    let reflection_v1alpha = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(canvas_proto::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1alpha()?;

    let items = ItemServiceServer::new(items::ItemGrpc { core: core.clone() })
        .max_decoding_message_size(MAX_MESSAGE_BYTES)
        .max_encoding_message_size(MAX_MESSAGE_BYTES);
    let admin = AdminServiceServer::new(admin::AdminGrpc { core: core.clone() });
    let projects = ProjectServiceServer::new(admin::ProjectGrpc { core: core.clone() });

    tracing::info!(addr = %listener.local_addr()?, backend = core.storage().backend_name(), "core-service gRPC listening");
    tonic::transport::Server::builder()
        .add_service(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(items)
        .add_service(admin)
        .add_service(projects)
        // Nagle's algorithm plus delayed ACKs adds ~40 ms to answers written
        // in more than one segment; gRPC frames are latency-bound.
        .serve_with_incoming_shutdown(
            tonic::transport::server::TcpIncoming::from(listener).with_nodelay(Some(true)),
            shutdown.cancelled_owned(),
        )
        .await?;
    Ok(())
}
