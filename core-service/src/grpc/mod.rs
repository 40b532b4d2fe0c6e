//! The gRPC server: canvas.v1 services, `grpc.health.v1` health checking and
//! server reflection (v1 and v1alpha, so grpcurl and Postman both work).
//!
//! Each handler does the same four steps: parse ids, authenticate, call the
//! service layer, convert. Errors become statuses in [`status`] only.

mod account_site;
mod admin;
mod agent_tasks;
mod archive;
mod comments;
pub mod convert;
mod diagrams;
mod health;
pub mod idempotency;
mod items;
mod knowledge;
pub mod metrics;
mod presence;
mod request_meaning;
pub mod status;
mod tags;
mod watch;
mod webhook_dispatch;
pub mod webhooks;

use std::sync::Arc;

use canvas_proto::v1::account_admin_service_server::AccountAdminServiceServer;
use canvas_proto::v1::admin_service_server::AdminServiceServer;
use canvas_proto::v1::agent_task_service_server::AgentTaskServiceServer;
use canvas_proto::v1::comment_service_server::CommentServiceServer;
use canvas_proto::v1::item_service_server::ItemServiceServer;
use canvas_proto::v1::knowledge_service_server::KnowledgeServiceServer;
use canvas_proto::v1::o_auth_service_server::OAuthServiceServer;
use canvas_proto::v1::presence_service_server::PresenceServiceServer;
use canvas_proto::v1::project_archive_service_server::ProjectArchiveServiceServer;
use canvas_proto::v1::project_copy_service_server::ProjectCopyServiceServer;
use canvas_proto::v1::project_service_server::ProjectServiceServer;
use canvas_proto::v1::session_service_server::SessionServiceServer;
use canvas_proto::v1::tag_service_server::TagServiceServer;
use canvas_proto::v1::watch_service_server::WatchServiceServer;
use canvas_proto::v1::webhook_dispatch_service_server::WebhookDispatchServiceServer;
use canvas_proto::v1::webhook_service_server::WebhookServiceServer;
use tokio::net::TcpListener;
use tonic::{Request, Status};

use crate::service::access::Credentials;
use crate::service::{Core, Principal};

/// Largest gRPC message accepted or sent: a 25 MB upload plus framing.
pub use canvas_proto::limits::MAX_MESSAGE_BYTES;

/// Metadata a gateway passes the account site's session cookie in (never `authorization`).
pub const SESSION_METADATA: &str = "x-canvas-session";
/// Metadata a gateway passes the page's `X-Canvas-CSRF` header in: a session writes only with its
/// CSRF value beside it.
pub const CSRF_METADATA: &str = "x-canvas-csrf";
/// Metadata mcp-gateway names its protected resource in, for OAuth access tokens.
pub const RESOURCE_METADATA: &str = "x-canvas-resource";

/// The credentials a call carries: the `authorization` metadata, which gateways copy from the
/// client's `Authorization` header, the session and the resource.
pub fn credentials<T>(request: &Request<T>) -> Credentials<'_> {
    let text = |name: &str| request.metadata().get(name).and_then(|v| v.to_str().ok());
    Credentials {
        authorization: text("authorization"),
        session: text(SESSION_METADATA),
        resource: text(RESOURCE_METADATA),
        csrf: text(CSRF_METADATA),
        client_address: text(canvas_runtime::client_address::METADATA).and_then(|a| a.parse().ok()),
    }
}

/// Authenticates a call that may change something: an API token, an OAuth access token at its
/// resource, or a session only together with its CSRF value (`x-canvas-csrf`, which a page of
/// this site sends as a custom header and another site cannot), so a cookie alone is never
/// ridden into a write.
pub async fn authenticate<T>(core: &Core, request: &Request<T>) -> Result<Principal, Status> {
    Ok(core.access().authenticate_with(credentials(request), false).await?)
}

/// Authenticates a read: as [`authenticate`], or a signed-in session when no token was sent
/// (the web map of a signed-in person).
pub async fn authenticate_reader<T>(core: &Core, request: &Request<T>) -> Result<Principal, Status> {
    Ok(core.access().authenticate_with(credentials(request), true).await?)
}

/// Forgets idle clients' full rate budgets once a minute, so the limiters' memory follows the
/// active clients.
fn spawn_rate_limit_pruning(core: Arc<Core>, shutdown: tokio_util::sync::CancellationToken) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_secs(60));
        loop {
            tokio::select! {
                _ = every.tick() => core.access().rate_limits().prune(),
                () = shutdown.cancelled() => return,
            }
        }
    });
}

/// Forgets remembered tokens and roles whenever another replica changes access, until shutdown.
fn spawn_access_forgetting(core: Arc<Core>, shutdown: tokio_util::sync::CancellationToken) {
    tokio::spawn(async move { core.access().run_forgetting(shutdown).await });
}

/// Keeps this replica's presence of open maps (expiries; on PostgreSQL, the other replicas'
/// announcements) until shutdown.
fn spawn_presence(core: Arc<Core>, shutdown: tokio_util::sync::CancellationToken) {
    tokio::spawn(async move { core.items().run_presence(shutdown).await });
}

/// Wakes this replica's webhook dispatchers when deliveries may be due (its own writes, the
/// database's feed) until shutdown.
fn spawn_webhook_wakeups(core: Arc<Core>, shutdown: tokio_util::sync::CancellationToken) {
    tokio::spawn(async move { core.webhooks().run_due_wakeups(shutdown).await });
}

/// Every gRPC service of core-service, ready to serve; starts the background work the services
/// rely on (health, gauges, presence, access forgetting, webhook wake-ups) until `stop`. Served
/// on a socket by [`serve_routes`], called in process through [`in_process`].
pub async fn routes(core: Arc<Core>, stop: &canvas_runtime::Shutdown) -> anyhow::Result<tonic::service::Routes> {
    let shutdown = stop.token.clone();
    let (health_reporter, health_service) = tonic_health::server::health_reporter();
    health::spawn_database_watch(health_reporter.clone(), core.clone(), shutdown.clone());
    spawn_webhook_wakeups(core.clone(), shutdown.clone());
    canvas_runtime::metrics::install();
    metrics::spawn_gauges(core.clone(), shutdown.clone());
    spawn_rate_limit_pruning(core.clone(), shutdown.clone());
    spawn_presence(core.clone(), shutdown.clone());
    spawn_access_forgetting(core.clone(), shutdown.clone());
    health_reporter.set_serving::<ItemServiceServer<items::ItemGrpc>>().await;
    health_reporter.set_serving::<KnowledgeServiceServer<knowledge::KnowledgeGrpc>>().await;
    health_reporter.set_serving::<AdminServiceServer<admin::AdminGrpc>>().await;
    health_reporter.set_serving::<ProjectServiceServer<admin::ProjectGrpc>>().await;
    health_reporter.set_serving::<WebhookServiceServer<webhooks::WebhookGrpc>>().await;
    health_reporter.set_serving::<WebhookDispatchServiceServer<webhook_dispatch::DispatchGrpc>>().await;
    health_reporter.set_serving::<ProjectCopyServiceServer<webhooks::CopyGrpc>>().await;
    health_reporter.set_serving::<ProjectArchiveServiceServer<archive::ArchiveGrpc>>().await;
    health_reporter.set_serving::<WatchServiceServer<watch::WatchGrpc>>().await;
    health_reporter.set_serving::<PresenceServiceServer<presence::PresenceGrpc>>().await;
    health_reporter.set_serving::<TagServiceServer<tags::TagGrpc>>().await;
    health_reporter.set_serving::<CommentServiceServer<comments::CommentGrpc>>().await;
    health_reporter.set_serving::<SessionServiceServer<account_site::SessionGrpc>>().await;
    health_reporter.set_serving::<OAuthServiceServer<account_site::OAuthGrpc>>().await;
    health_reporter.set_serving::<AccountAdminServiceServer<account_site::AccountAdminGrpc>>().await;

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
    let knowledge = KnowledgeServiceServer::new(knowledge::KnowledgeGrpc { core: core.clone() });
    let projects = ProjectServiceServer::new(admin::ProjectGrpc { core: core.clone() });
    let webhooks = WebhookServiceServer::new(webhooks::WebhookGrpc { core: core.clone() });
    let dispatch = WebhookDispatchServiceServer::new(webhook_dispatch::DispatchGrpc {
        core: core.clone(),
        shutdown: shutdown.clone(),
    });
    let copies = ProjectCopyServiceServer::new(webhooks::CopyGrpc { core: core.clone() });
    let archives = ProjectArchiveServiceServer::new(archive::ArchiveGrpc { core: core.clone() })
        .max_decoding_message_size(MAX_MESSAGE_BYTES)
        .max_encoding_message_size(MAX_MESSAGE_BYTES);
    let watches = WatchServiceServer::new(watch::WatchGrpc { core: core.clone(), shutdown: shutdown.clone() });
    let presence =
        PresenceServiceServer::new(presence::PresenceGrpc { core: core.clone(), shutdown: shutdown.clone() });
    let tags = TagServiceServer::new(tags::TagGrpc { core: core.clone() });
    let comments = CommentServiceServer::new(comments::CommentGrpc { core: core.clone() });
    let sessions = SessionServiceServer::new(account_site::SessionGrpc { core: core.clone() });
    let oauth = OAuthServiceServer::new(account_site::OAuthGrpc { core: core.clone() });
    let account_admin = AccountAdminServiceServer::new(account_site::AccountAdminGrpc { core: core.clone() });
    // A task's result (up to `limits::tasks::MAX_RESULT_BYTES`) is larger than tonic's 4 MiB default.
    let agent_tasks = AgentTaskServiceServer::new(agent_tasks::AgentTaskGrpc { core: core.clone() })
        .max_decoding_message_size(MAX_MESSAGE_BYTES)
        .max_encoding_message_size(MAX_MESSAGE_BYTES);

    tracing::info!(backend = core.storage().backend_name(), "core-service gRPC services ready");
    let routes = tonic::service::Routes::new(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(items)
        .add_service(admin)
        .add_service(knowledge)
        .add_service(projects)
        .add_service(webhooks)
        .add_service(dispatch)
        .add_service(copies)
        .add_service(archives)
        .add_service(watches)
        .add_service(presence)
        .add_service(tags)
        .add_service(comments)
        .add_service(sessions)
        .add_service(oauth)
        .add_service(account_admin)
        .add_service(agent_tasks);
    Ok(routes.prepare())
}

/// core-service's services for callers in this process (`canvasctl up`'s gateways), behind the
/// same metrics and status layer as on the network.
pub fn in_process(routes: tonic::service::Routes) -> canvas_proto::channel::LocalService {
    canvas_proto::channel::LocalService::new(tower::Layer::layer(&metrics::GrpcMetricsLayer, routes))
}

/// Serves `routes` (from [`routes`]) on `listener` until shutdown, then finishes the calls in
/// flight within the grace period (change streams end at once) and drops those still running
/// after it.
pub async fn serve_routes(
    listener: TcpListener,
    routes: tonic::service::Routes,
    stop: canvas_runtime::Shutdown,
) -> anyhow::Result<()> {
    let shutdown = stop.token.clone();
    tracing::info!(addr = %listener.local_addr()?, "core-service gRPC listening");
    use canvas_proto::limits::{MAX_CONCURRENT_STREAMS, MAX_METADATA_BYTES};
    let server = tonic::transport::Server::builder()
        // Explicit transport limits (`canvas_proto::limits`), which the gateways stay within, so a
        // call's size never costs another call its connection.
        .http2_max_header_list_size(MAX_METADATA_BYTES)
        .max_concurrent_streams(MAX_CONCURRENT_STREAMS)
        .http2_keepalive_interval(Some(std::time::Duration::from_secs(30)))
        .http2_keepalive_timeout(Some(std::time::Duration::from_secs(20)))
        .layer(metrics::GrpcMetricsLayer)
        .add_routes(routes)
        // Nagle's algorithm plus delayed ACKs adds ~40 ms to answers written
        // in more than one segment; gRPC frames are latency-bound.
        .serve_with_incoming_shutdown(
            tonic::transport::server::TcpIncoming::from(listener).with_nodelay(Some(true)),
            shutdown.cancelled_owned(),
        );
    if let Some(served) = stop.finish_within("gRPC calls", server).await {
        served?;
    }
    tracing::info!("gRPC server stopped");
    Ok(())
}
