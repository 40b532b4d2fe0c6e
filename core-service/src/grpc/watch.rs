//! `canvas.v1.WatchService`: a project's changes as a server stream.
//!
//! One task per stream reads the change records when this replica commits a write to the project
//! ([`ItemsService::changes_written`](crate::service::items::ItemsService::changes_written)), at
//! most once per [`MIN_SPACING`], and every [`POLL_INTERVAL`] in any case (another replica's
//! writes, which are not rung here; a read replica behind its primary); see `service::items::watch`
//! for why each read re-reads the records of transactions still in flight. It re-checks the caller's role
//! every [`RECHECK_INTERVAL`], and ends when the client goes away (the channel closes) or the
//! server shuts down, so graceful shutdown never waits on an open stream.

use crate::grpc::status::invalid;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use canvas_proto::v1 as pb;
use canvas_proto::v1::watch_service_server::WatchService;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::Stream;
use tokio_util::sync::CancellationToken;
use tonic::{Request, Response, Status};

use super::authenticate_reader;
use crate::domain::ProjectId;
use crate::service::items::watch::ProjectWatch;
use crate::service::{Core, Principal};
use crate::storage::EventRow;

/// How often the change records are read for each open stream when no write here rings.
pub const POLL_INTERVAL: Duration = Duration::from_millis(250);
/// The shortest time between two reads of one stream: a burst of writes is one read per stream,
/// not one per write, however many streams are open.
pub const MIN_SPACING: Duration = Duration::from_millis(20);
/// How often the caller's access to the project is checked again.
pub const RECHECK_INTERVAL: Duration = Duration::from_secs(30);
/// Messages buffered per stream before polling waits for a slow client.
const BUFFER: usize = 64;

/// gRPC face of live project changes.
pub struct WatchGrpc {
    pub core: Arc<Core>,
    /// Cancelled when the server shuts down; every stream ends then.
    pub shutdown: CancellationToken,
}

type ChangeStream = Pin<Box<dyn Stream<Item = Result<pb::ChangeEvent, Status>> + Send>>;

#[tonic::async_trait]
impl WatchService for WatchGrpc {
    type WatchProjectStream = ChangeStream;

    async fn watch_project(&self, request: Request<pb::WatchProjectRequest>) -> Result<Response<ChangeStream>, Status> {
        let who = authenticate_reader(&self.core, &request).await?;
        let req = request.into_inner();
        let project = ProjectId::parse(&req.project_id).map_err(invalid)?;
        let watch = self.core.items().watch_project(&who, project, req.after).await?;
        let (tx, rx) = mpsc::channel(BUFFER);
        tokio::spawn(follow(self.core.clone(), who, watch, tx, self.shutdown.clone()));
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }
}

type Sender = mpsc::Sender<Result<pb::ChangeEvent, Status>>;

/// Feeds one stream until the client leaves, access ends, or shutdown.
async fn follow(core: Arc<Core>, who: Principal, mut watch: ProjectWatch, tx: Sender, shutdown: CancellationToken) {
    let started = pb::ChangeEvent {
        event_id: String::new(),
        seq: watch.resume_point(),
        kind: "watch.started".into(),
        subject_id: watch.project().to_string(),
        subject_type: "project".into(),
        occurred_at: Some(timestamp(chrono::Utc::now())),
        thread_id: None,
    };
    if tx.send(Ok(started)).await.is_err() {
        return;
    }
    let mut poll = tokio::time::interval(POLL_INTERVAL);
    poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut recheck = tokio::time::interval(RECHECK_INTERVAL);
    recheck.tick().await;
    let mut written = core.items().changes_written(watch.project());
    let mut last_read = tokio::time::Instant::now();
    loop {
        let result = tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = tx.closed() => return,
            _ = recheck.tick() => core.items().recheck_watch(&who, &watch).await.map(|_| Vec::new()),
            Ok(()) = written.changed() => {
                tokio::time::sleep_until(last_read + MIN_SPACING).await;
                written.mark_unchanged();
                poll.reset();
                last_read = tokio::time::Instant::now();
                core.items().poll_watch(&mut watch).await
            }
            _ = poll.tick() => {
                last_read = tokio::time::Instant::now();
                core.items().poll_watch(&mut watch).await
            }
        };
        match result {
            Ok(rows) => {
                for row in rows {
                    if tx.send(Ok(change(row))).await.is_err() {
                        return;
                    }
                }
            }
            Err(err) => {
                tracing::debug!(error = %err, project = %watch.project(), "project watch ends");
                let _ = tx.send(Err(err.into())).await;
                return;
            }
        }
    }
}

fn change(row: EventRow) -> pb::ChangeEvent {
    let thread_id = row.payload.get("threadId").and_then(|id| id.as_str()).map(str::to_owned);
    pb::ChangeEvent {
        thread_id,
        event_id: row.id.to_string(),
        seq: row.seq,
        kind: row.kind.as_str().to_owned(),
        subject_id: row.subject_id.to_string(),
        subject_type: row.subject_type,
        occurred_at: Some(timestamp(row.occurred_at)),
    }
}

fn timestamp(at: chrono::DateTime<chrono::Utc>) -> prost_types::Timestamp {
    prost_types::Timestamp { seconds: at.timestamp(), nanos: at.timestamp_subsec_nanos() as i32 }
}
