//! The gRPC face of idempotent retries (`service::items::idempotency`): the `idempotency-key` metadata of
//! a creating call, its deadline (`grpc-timeout`), the request's meaning for the fingerprint
//! ([`super::request_meaning`]: names folded as the rules fold them), and the answer encoded for storage and decoded on a replay, which is marked with
//! the `idempotent-replayed: true` response metadata (rest-gateway: `Idempotent-Replayed`).

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use prost::Message;
use tonic::metadata::MetadataValue;
use tonic::{Request, Response, Status};

use super::request_meaning::Meaning;
use crate::error::{CoreError, CoreResult};
use crate::service::items::idempotency::{Retry, DEFAULT_DEADLINE, HEADER};
use crate::service::{Core, Principal};
use crate::storage::Landed;

/// The metadata a gateway forwards the client's `Idempotency-Key` header in.
pub const KEY_METADATA: &str = "idempotency-key";
/// The response metadata of a replayed answer.
pub const REPLAYED_METADATA: &str = "idempotent-replayed";

/// How a creating call runs: once per key when it carries one, else simply.
pub struct Once {
    retry: Option<(Retry, Principal, Duration)>,
}

impl Once {
    /// Reads the key of an authenticated call (`who`) to `method` on `project`. A key that is not
    /// 1 to 255 printable ASCII characters is a validation error naming `Idempotency-Key`.
    pub fn of<T: Meaning>(request: &Request<T>, who: &Principal, method: &str, project: &str) -> Result<Self, Status> {
        let Some(raw) = request.metadata().get(KEY_METADATA) else { return Ok(Self { retry: None }) };
        let raw = raw.to_str().map_err(|_| CoreError::invalid(HEADER, "must be printable ASCII characters"))?;
        let retry =
            Retry::new(raw, method, project.trim().to_ascii_lowercase().as_str(), &request.get_ref().meaning())?;
        Ok(Self { retry: Some((retry, who.clone(), deadline_of(request))) })
    }

    /// Runs `work`, or replays the answer of its first run under the same key.
    pub async fn run<R, F>(self, core: &Arc<Core>, work: F) -> Result<Response<R>, Status>
    where
        R: Message + Default + 'static,
        F: Future<Output = CoreResult<R>> + Send + 'static,
    {
        self.run_rebuilding(core, work, |_| None).await
    }

    /// [`Once::run`] for a call whose write records what it did (item and diagram creates): when
    /// its first run's write committed but its answer was lost, `rebuild` makes the answer from
    /// that record.
    pub async fn run_rebuilding<R, F, B>(self, core: &Arc<Core>, work: F, rebuild: B) -> Result<Response<R>, Status>
    where
        R: Message + Default + 'static,
        F: Future<Output = CoreResult<R>> + Send + 'static,
        B: Fn(&Landed) -> Option<R>,
    {
        let Some((retry, who, deadline)) = self.retry else { return Ok(Response::new(work.await?)) };
        let encoded = async move { work.await.map(|answer| answer.encode_to_vec()) };
        let rebuild = |landed: &Landed| rebuild(landed).map(|answer| answer.encode_to_vec());
        let (bytes, replayed) = core.items().once(&who, retry, deadline, encoded, rebuild).await?;
        let answer = R::decode(bytes.as_slice())
            .map_err(|err| CoreError::internal(format!("a stored idempotent answer does not decode: {err}")))?;
        let mut response = Response::new(answer);
        if replayed {
            response.metadata_mut().insert(REPLAYED_METADATA, MetadataValue::from_static("true"));
        }
        Ok(response)
    }
}

/// The time the caller gives the call (`grpc-timeout`: an integer of at most 8 digits and a unit,
/// `H`, `M`, `S`, `m`, `u` or `n`); [`DEFAULT_DEADLINE`] without one.
fn deadline_of<T>(request: &Request<T>) -> Duration {
    let text = request.metadata().get("grpc-timeout").and_then(|v| v.to_str().ok()).unwrap_or("");
    canvas_proto::channel::parse_grpc_timeout(text).unwrap_or(DEFAULT_DEADLINE)
}
