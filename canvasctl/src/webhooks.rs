//! `canvasctl keys rotate`, `canvasctl project copy` and
//! `canvasctl webhooks listen`: the webhook side of the command line.

use anyhow::{bail, Context};
use canvas_proto::v1 as pb;
use canvas_proto::v1::project_copy_service_client::ProjectCopyServiceClient;
use canvas_proto::v1::webhook_service_client::WebhookServiceClient;
use serde_json::json;
use std::net::SocketAddr;
use tonic::metadata::MetadataValue;
use tonic::transport::Channel;
use webhook_client::listen::{Heard, ListenConfig};
use webhook_client::receiver::{serve_tls, LocalCa};

use crate::cli::{Connection, ListenArgs};

async fn channel(conn: &Connection) -> anyhow::Result<(Channel, MetadataValue<tonic::metadata::Ascii>)> {
    let Some(token) = conn.admin_token.clone().filter(|t| !t.trim().is_empty()) else {
        bail!("an admin token is required: pass --admin-token or set CANVAS_ADMIN_TOKEN");
    };
    let channel = Channel::from_shared(conn.core.clone())
        .context("--core must be a URL such as http://127.0.0.1:50051")?
        .connect()
        .await
        .with_context(|| format!("cannot reach core-service at {}", conn.core))?;
    let auth = format!("Bearer {}", token.trim()).parse().context("the admin token is not valid text")?;
    Ok((channel, auth))
}

fn request<T>(message: T, auth: &MetadataValue<tonic::metadata::Ascii>) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.metadata_mut().insert("authorization", auth.clone());
    request
}

fn explain(status: tonic::Status) -> anyhow::Error {
    anyhow::anyhow!("{:?}: {}", status.code(), status.message())
}

/// `canvasctl keys rotate [--delay-secs N]`
pub async fn rotate_key(conn: Connection, delay_secs: u64) -> anyhow::Result<()> {
    let (channel, auth) = channel(&conn).await?;
    let key = WebhookServiceClient::new(channel)
        .rotate_signing_key(request(pb::RotateSigningKeyRequest { delay_secs }, &auth))
        .await
        .map_err(explain)?
        .into_inner();
    let activates = key.activates_at.map(|t| t.seconds).unwrap_or_default();
    let at = chrono::DateTime::from_timestamp(activates, 0).unwrap_or_default().to_rfc3339();
    if conn.json {
        println!("{}", json!({"kid": key.kid, "activatesAt": at}));
    } else {
        println!("published key {}; it signs from {at}; older keys stay published until an hour after that", key.kid);
    }
    Ok(())
}

/// `canvasctl project copy --from P --name N --owner U`
pub async fn copy_project(conn: Connection, from: String, name: String, owner: String) -> anyhow::Result<()> {
    let (channel, auth) = channel(&conn).await?;
    let message = pb::CopyProjectRequest { source_project_id: from, name, owner_user_id: owner };
    let copy = ProjectCopyServiceClient::new(channel)
        .copy_project(request(message, &auth))
        .await
        .map_err(explain)?
        .into_inner();
    if conn.json {
        println!(
            "{}",
            json!({"projectId": copy.project_id, "itemsCopied": copy.items_copied, "webhooksCopied": copy.webhooks_copied})
        );
    } else {
        println!(
            "copied into project {}: {} items, {} webhooks (inactive until re-saved with PUT)",
            copy.project_id, copy.items_copied, copy.webhooks_copied
        );
    }
    Ok(())
}

/// `canvasctl webhooks listen`: an HTTPS receiver that verifies every call by
/// the six receiver rules and prints each accepted change as a JSON line.
pub async fn listen(args: ListenArgs) -> anyhow::Result<()> {
    let ca = LocalCa::generate()?;
    std::fs::write(&args.ca_out, ca.ca_pem()).with_context(|| format!("cannot write {}", args.ca_out.display()))?;
    let config = ca.server_config(&["127.0.0.1", "localhost"])?;
    let addr = SocketAddr::from(([127, 0, 0, 1], args.port));
    let tcp = tokio::net::TcpListener::bind(addr).await.with_context(|| format!("cannot listen on {addr}"))?;
    let settings = ListenConfig { project: args.project, webhook: args.webhook, keys_url: args.keys_url };
    let router = webhook_client::listen::router(settings, |heard| match heard {
        Heard::Accepted { delivery_id, change } => println!("{}", json!({"deliveryId": delivery_id, "change": change})),
        Heard::Duplicate { delivery_id } => eprintln!("duplicate {delivery_id} ignored"),
        Heard::Rejected { delivery_id, reason } => eprintln!("rejected {delivery_id}: {reason}"),
    });
    eprintln!(
        "listening on https://{addr}/ ; CA certificate in {} (set CANVAS_WEBHOOK_CA_CERTS to it)",
        args.ca_out.display()
    );
    serve_tls(tcp, config, router, canvas_runtime::shutdown_token()).await
}
