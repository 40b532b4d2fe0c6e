//! Outcome reports, buffered and sent in batches: while one `ReportOutcomes` call is being
//! recorded (one transaction in core-service), the next reports gather, so under load each write
//! transaction records many attempts instead of one. A batch that cannot be recorded after a few
//! tries is dropped: its deliveries are sent again when their leases run out (at least once).

use std::time::Duration;

use canvas_proto::v1 as pb;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::Grpc;

/// Most reports in one call (core-service's limit).
pub const MAX_BATCH: usize = canvas_proto::limits::MAX_REPORT_BATCH;
/// Reports waiting before a finished call waits for room (so a core-service that stops answering
/// slows the dispatcher down instead of filling its memory).
const BUFFER: usize = 4 * MAX_BATCH;
/// Pauses before each try of a batch.
const TRIES: [u64; 4] = [0, 200, 1000, 3000];

/// Where finished calls leave their reports.
#[derive(Clone)]
pub struct Reporter(mpsc::Sender<pb::ReportDeliveryRequest>);

impl Reporter {
    /// Starts the sending task; it ends once every `Reporter` is dropped and the buffer is sent.
    pub fn start(grpc: Grpc) -> (Self, JoinHandle<()>) {
        let (tx, rx) = mpsc::channel(BUFFER);
        (Self(tx), tokio::spawn(send_all(grpc, rx)))
    }

    /// Queues a report, waiting while the buffer is full.
    pub async fn queue(&self, report: pb::ReportDeliveryRequest) {
        if self.0.send(report).await.is_err() {
            tracing::error!("the report task has ended; the delivery will be sent again after its lease");
        }
    }
}

async fn send_all(mut grpc: Grpc, mut rx: mpsc::Receiver<pb::ReportDeliveryRequest>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        send_batch(&mut grpc, std::mem::take(&mut batch)).await;
    }
}

async fn send_batch(grpc: &mut Grpc, reports: Vec<pb::ReportDeliveryRequest>) {
    let count = reports.len();
    let request = pb::ReportOutcomesRequest { reports };
    for pause_ms in TRIES {
        tokio::time::sleep(Duration::from_millis(pause_ms)).await;
        match grpc.report_outcomes(request.clone()).await {
            Ok(_) => return,
            // A core-service from before batches: one call per report.
            Err(status) if status.code() == tonic::Code::Unimplemented => {
                return send_one_by_one(grpc, request.reports).await;
            }
            Err(status) => tracing::warn!(count, message = status.message(), "reporting outcomes failed"),
        }
    }
    tracing::error!(count, "could not report; these deliveries will be sent again after their leases");
}

async fn send_one_by_one(grpc: &mut Grpc, reports: Vec<pb::ReportDeliveryRequest>) {
    for report in reports {
        if let Err(status) = grpc.report_delivery(report.clone()).await {
            tracing::warn!(delivery = %report.delivery_id, message = status.message(), "report failed; sent again after its lease");
        }
    }
}
