//! Follows core-service's `WatchDue` stream and wakes the lease loop on each notice, so a new
//! delivery is leased at once instead of at the next poll. The poll stays: when the stream is
//! down (core-service restarting, or one too old to have it) the dispatcher only polls, and
//! retries that come due are found by the poll.

use std::sync::Arc;
use std::time::Duration;

use canvas_proto::v1 as pb;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::Grpc;

/// Pauses before opening the stream again, growing with each failure in a row.
const REOPEN_AFTER: [Duration; 4] =
    [Duration::from_millis(100), Duration::from_secs(1), Duration::from_secs(5), Duration::from_secs(15)];

/// Wakes `wake` on every notice until `stop`.
pub async fn follow(mut grpc: Grpc, dispatcher_id: String, wake: Arc<Notify>, stop: CancellationToken) {
    let mut failures = 0usize;
    loop {
        let opened = tokio::select! {
            () = stop.cancelled() => return,
            opened = grpc.watch_due(pb::WatchDueRequest { dispatcher_id: dispatcher_id.clone() }) => opened,
        };
        match opened {
            Ok(reply) => {
                let mut notices = reply.into_inner();
                loop {
                    let notice = tokio::select! {
                        () = stop.cancelled() => return,
                        notice = notices.message() => notice,
                    };
                    match notice {
                        Ok(Some(_)) => {
                            failures = 0;
                            wake.notify_one();
                        }
                        Ok(None) => break,
                        Err(status) => {
                            tracing::debug!(code = ?status.code(), "the due-deliveries stream ended; polling meanwhile");
                            break;
                        }
                    }
                }
            }
            Err(status) if status.code() == tonic::Code::Unimplemented => {
                tracing::info!("core-service has no WatchDue; polling only until it does");
                failures = REOPEN_AFTER.len() - 1;
            }
            Err(status) => tracing::debug!(code = ?status.code(), "cannot follow due deliveries; polling meanwhile"),
        }
        let pause = REOPEN_AFTER[failures.min(REOPEN_AFTER.len() - 1)];
        failures += 1;
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(pause) => {}
        }
    }
}
