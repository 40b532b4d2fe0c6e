//! `canvas.v1.PresenceService`: announcements of open maps, and following them as a stream.
//!
//! `Announce` is authenticated like a write (a token, or a session only beside its CSRF value),
//! so another site cannot ride a cookie into it; `FollowPresence` like a read. One task per
//! stream forwards the project's presence, re-checks the caller's role every
//! [`RECHECK_INTERVAL`], and ends when the client goes away, the server shuts down, or the
//! follower falls too far behind (it follows again for a fresh list).

use std::pin::Pin;
use std::sync::Arc;

use canvas_proto::v1 as pb;
use canvas_proto::v1::presence_service_server::PresenceService;
use tokio::sync::{broadcast, mpsc};
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::Stream;
use tokio_util::sync::CancellationToken;
use tonic::{Request, Response, Status};

use super::watch::RECHECK_INTERVAL;
use super::{authenticate, authenticate_reader};
use crate::domain::ProjectId;
use crate::grpc::status::invalid;
use crate::service::items::presence::{Announcement, PresenceChange, PresenceFollow, Present, Viewport};
use crate::service::{Core, Principal};

/// Messages buffered per stream before forwarding waits for a slow client.
const BUFFER: usize = 64;

/// gRPC face of presence.
pub struct PresenceGrpc {
    pub core: Arc<Core>,
    /// Cancelled when the server shuts down; every stream ends then.
    pub shutdown: CancellationToken,
}

type PresenceStream = Pin<Box<dyn Stream<Item = Result<pb::PresenceEvent, Status>> + Send>>;

#[tonic::async_trait]
impl PresenceService for PresenceGrpc {
    type FollowPresenceStream = PresenceStream;

    async fn announce(&self, request: Request<pb::AnnounceRequest>) -> Result<Response<pb::AnnounceResponse>, Status> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.into_inner();
        let project = ProjectId::parse(&req.project_id).map_err(invalid)?;
        let announcement = Announcement {
            client_id: req.client_id,
            cursor: req.cursor.map(|c| (c.x, c.y)),
            selection: req.selection,
            leaving: req.leaving,
            viewport: req.viewport.map(|v| Viewport { x: v.x, y: v.y, width: v.width, height: v.height }),
            summon: req.summon,
        };
        self.core.items().announce(&who, project, announcement).await?;
        Ok(Response::new(pb::AnnounceResponse {}))
    }

    async fn follow_presence(
        &self,
        request: Request<pb::FollowPresenceRequest>,
    ) -> Result<Response<PresenceStream>, Status> {
        let who = authenticate_reader(&self.core, &request).await?;
        let project = ProjectId::parse(&request.get_ref().project_id).map_err(invalid)?;
        let follow = self.core.items().follow_presence(&who, project).await?;
        let (tx, rx) = mpsc::channel(BUFFER);
        tokio::spawn(forward(self.core.clone(), who, follow, tx, self.shutdown.clone()));
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }
}

type Sender = mpsc::Sender<Result<pb::PresenceEvent, Status>>;

/// Feeds one stream: the present clients, then each change, until the client leaves, access
/// ends, the follower falls behind, or shutdown.
async fn forward(core: Arc<Core>, who: Principal, follow: PresenceFollow, tx: Sender, shutdown: CancellationToken) {
    // The slot is held, not used: the stream's place in its fair share ends with this task.
    let PresenceFollow { project, present, mut changes, slot: _slot } = follow;
    for present in present {
        if tx.send(Ok(event(PresenceChange::Present(present)))).await.is_err() {
            return;
        }
    }
    let mut recheck = tokio::time::interval(RECHECK_INTERVAL);
    recheck.tick().await;
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return,
            () = tx.closed() => return,
            _ = recheck.tick() => {
                if let Err(err) = core.items().recheck_presence(&who, project).await {
                    tracing::debug!(error = %err, %project, "presence follower ends");
                    let _ = tx.send(Err(err.into())).await;
                    return;
                }
            }
            change = changes.recv() => match change {
                Ok(change) => {
                    if tx.send(Ok(event(change))).await.is_err() {
                        return;
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_) | broadcast::error::RecvError::Closed) => return,
            },
        }
    }
}

fn event(change: PresenceChange) -> pb::PresenceEvent {
    match change {
        PresenceChange::Left { client_id } => pb::PresenceEvent { client_id, left: true, ..Default::default() },
        PresenceChange::Present(Present {
            client_id,
            user_id,
            name,
            colour,
            cursor,
            selection,
            viewport,
            summons,
            at_unix_ms,
        }) => pb::PresenceEvent {
            client_id,
            left: false,
            user_id: user_id.to_string(),
            name,
            colour: colour.to_owned(),
            cursor: cursor.map(|(x, y)| pb::PresenceCursor { x, y }),
            selection: selection.iter().map(ToString::to_string).collect(),
            at_unix_ms,
            viewport: viewport.map(|v| pb::PresenceViewport { x: v.x, y: v.y, width: v.width, height: v.height }),
            summons,
        },
    }
}
