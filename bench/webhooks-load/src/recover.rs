//! `--recover`: a receiver down while `--writes` labels are written, then one recovery of the
//! window. The baseline in the same run is the same writes delivered as they happen (the default
//! mode of this binary, run by bench/webhooks_recover.sh before this one).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use axum::body::Bytes;
use axum::http::StatusCode;
use canvas_proto::json::to_proto_struct;
use canvas_proto::v1 as pb;
use canvas_proto::v1::item_service_client::ItemServiceClient;
use webhook_client::ClientSettings;

use crate::{Args, Receivers};

pub struct Run<'a> {
    pub core: &'a core_service::Core,
    pub owner: &'a core_service::service::Principal,
    pub project: core_service::domain::ProjectId,
    pub token: &'a str,
    pub core_url: String,
}

impl Run<'_> {
    pub async fn measure(&self, args: &Args, receivers: &Receivers<'_>, client: ClientSettings) -> anyhow::Result<()> {
        let down = Arc::new(AtomicBool::new(true));
        let failed = Arc::new(AtomicUsize::new(0));
        // The `seq` of each call after the receiver came back, in arrival order.
        let seqs: Arc<Mutex<Vec<i64>>> = Arc::default();
        let (is_down, failures, noted) = (down.clone(), failed.clone(), seqs.clone());
        let router = axum::Router::new().fallback(move |body: Bytes| {
            let (is_down, failures, noted) = (is_down.clone(), failures.clone(), noted.clone());
            async move {
                if is_down.load(Ordering::SeqCst) {
                    failures.fetch_add(1, Ordering::SeqCst);
                    return StatusCode::SERVICE_UNAVAILABLE;
                }
                if let Ok(value) = serde_json::from_slice::<serde_json::Value>(&body) {
                    noted.lock().unwrap().push(value["changes"][0]["seq"].as_i64().unwrap_or(-1));
                }
                StatusCode::OK
            }
        });
        let webhook = receivers.add(router, args.pace).await?;
        let dispatcher = webhook_dispatcher::DispatcherConfig::new(self.core_url.clone(), client);
        let shutdown = tokio_util::sync::CancellationToken::new();
        tokio::spawn(webhook_dispatcher::run(dispatcher, shutdown.clone()));

        let since = chrono::Utc::now();
        let channel = tonic::transport::Channel::from_shared(self.core_url.clone())?.connect().await?;
        let mut client = ItemServiceClient::new(channel);
        let auth: tonic::metadata::MetadataValue<_> = format!("Bearer {}", self.token).parse()?;
        for n in 0..args.writes {
            let serde_json::Value::Object(props) = serde_json::json!({"text": format!("r{n}")}) else { unreachable!() };
            let mut request = tonic::Request::new(pb::CreateItemRequest {
                project_id: self.project.to_string(),
                parent: "panel".into(),
                item_type: "label".into(),
                properties: Some(to_proto_struct(props)),
                file: None,
            });
            request.metadata_mut().insert("authorization", auth.clone());
            client.create_item(request).await?;
        }
        let deadline = Instant::now() + Duration::from_secs(args.timeout_secs);
        while failed.load(Ordering::SeqCst) < args.writes {
            anyhow::ensure!(
                Instant::now() < deadline,
                "only {} of {} calls failed",
                failed.load(Ordering::SeqCst),
                args.writes
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // The last failure's report may still be on its way: a delivery in flight is not taken.
        tokio::time::sleep(Duration::from_millis(500)).await;
        down.store(false, Ordering::SeqCst);
        let started = Instant::now();
        let recovery = self
            .core
            .webhooks()
            .recover(self.owner, self.project, webhook, &since.to_rfc3339(), None)
            .await
            .context("recover")?;
        let total = recovery.recovery.total as usize;
        while seqs.lock().unwrap().len() < total {
            anyhow::ensure!(Instant::now() < deadline, "only {} of {total} recovered", seqs.lock().unwrap().len());
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let elapsed = started.elapsed();
        let seqs = seqs.lock().unwrap().clone();
        let in_order = seqs.windows(2).all(|w| w[0] < w[1]);
        let backend = if args.database_url.is_some() { "postgres" } else { "sqlite" };
        println!(
            "{backend}: recovered {total} of {} failed deliveries in {:.2} s = {:.0} calls/s, one at a time; \
             in the order of their events, each once: {}",
            args.writes,
            elapsed.as_secs_f64(),
            total as f64 / elapsed.as_secs_f64(),
            if in_order && seqs.len() == total { "yes" } else { "NO" },
        );
        shutdown.cancel();
        Ok(())
    }
}
