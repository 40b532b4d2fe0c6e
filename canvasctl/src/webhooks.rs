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
    let Some(token) = conn.admin_token() else {
        bail!("an admin token is required: pass --admin-token or set CANVAS_ADMIN_TOKEN");
    };
    let channel = Channel::from_shared(conn.core_url())
        .context("--core must be a URL such as http://127.0.0.1:50051")?
        .connect()
        .await
        .with_context(|| format!("cannot reach core-service at {}", conn.core_url()))?;
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
    let at = crate::times::rfc3339(key.activates_at.as_ref()).unwrap_or_default();
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
    let keys_url = args.keys_url.unwrap_or_else(|| {
        format!("{}/api/v2/webhooks/keys", crate::running::Running::find().base_url(None).trim_end_matches('/'))
    });
    let settings = ListenConfig { project: args.project, webhook: args.webhook, keys_url };
    let router = webhook_client::listen::router(settings, |heard| match heard {
        Heard::Accepted { delivery_id, change } => println!("{}", json!({"deliveryId": delivery_id, "change": change})),
        Heard::Duplicate { delivery_id } => eprintln!("duplicate {delivery_id} ignored"),
        Heard::Rejected { delivery_id, reason } => eprintln!("rejected {delivery_id}: {reason}"),
    });
    eprintln!("{}", recipe(addr, &args.ca_out));
    serve_tls(tcp, config, router, canvas_runtime::shutdown_token()).await
}

/// What `listen` tells the person: where it listens, and the whole recipe for the service to
/// deliver there (the two settings the sender needs, and that a running `up` takes them only when
/// started again), so nothing has to be looked up.
fn recipe(addr: SocketAddr, ca_out: &std::path::Path) -> String {
    let ca = std::fs::canonicalize(ca_out).unwrap_or_else(|_| ca_out.to_path_buf());
    format!(
        "listening on https://{addr}/ (its CA certificate is {ca})\n\
         To have the service deliver here, (re)start it with both settings, then define a webhook whose url is \
         https://{addr}/:\n  \
         CANVAS_WEBHOOK_ALLOW_DESTINATIONS={ip}/32 CANVAS_WEBHOOK_CA_CERTS={ca} canvasctl up",
        ca = ca.display(),
        ip = addr.ip(),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_recipe_names_both_settings_with_the_ca_file_and_the_url() {
        let dir = tempfile::tempdir().unwrap();
        let ca = dir.path().join("ca.pem");
        std::fs::write(&ca, "pem").unwrap();
        let text = super::recipe(std::net::SocketAddr::from(([127, 0, 0, 1], 8443)), &ca);
        let absolute = std::fs::canonicalize(&ca).unwrap();
        assert!(text.contains("https://127.0.0.1:8443/"), "{text}");
        assert!(text.contains("CANVAS_WEBHOOK_ALLOW_DESTINATIONS=127.0.0.1/32"), "{text}");
        assert!(text.contains(&format!("CANVAS_WEBHOOK_CA_CERTS={}", absolute.display())), "{text}");
        assert!(text.trim_end().ends_with("canvasctl up"), "{text}");
    }
}
