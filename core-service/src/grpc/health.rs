//! Overall gRPC health (`grpc.health.v1`, service `""`) that means what it says: NOT_SERVING while
//! the database does not answer, and from the moment shutdown begins, so gateways' readiness and
//! Kubernetes' gRPC probe take the replica out of rotation. (While migrations run the server is not
//! listening yet, which readiness reports as not ready too.)

use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;
use tonic_health::server::HealthReporter;
use tonic_health::ServingStatus;

use crate::service::Core;

/// How often the database is pinged.
const PROBE_INTERVAL: Duration = Duration::from_secs(5);
/// A ping slower than this counts as a failure.
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

/// Keeps the overall status in step with the database until `shutdown`.
pub fn spawn_database_watch(reporter: HealthReporter, core: Arc<Core>, shutdown: CancellationToken) {
    tokio::spawn(async move {
        let mut serving = true;
        loop {
            let reachable = matches!(tokio::time::timeout(PROBE_TIMEOUT, core.storage().ping()).await, Ok(Ok(())));
            if reachable != serving {
                serving = reachable;
                let status = if reachable { ServingStatus::Serving } else { ServingStatus::NotServing };
                if reachable {
                    tracing::info!("the database answers again: serving");
                } else {
                    tracing::error!("the database does not answer: reporting NOT_SERVING");
                }
                reporter.set_service_status("", status).await;
            }
            tokio::select! {
                _ = shutdown.cancelled() => break,
                _ = tokio::time::sleep(PROBE_INTERVAL) => {}
            }
        }
        reporter.set_service_status("", ServingStatus::NotServing).await;
    });
}
