//! The account site's calls to core-service: a read retried once when its first attempt got no
//! answer, and the visitor's session. Apart from `site.rs` (who is asking) because their failures
//! are answered by `failure.rs`, which needs the visitor too.

use std::future::Future;

use canvas_proto::v1 as pb;
use tonic::Status;

use super::failure::Failure;
use super::site::Visitor;
use crate::state::{with_session, AppState};

/// Runs a read-only call once more if its first attempt got no answer (see
/// [`crate::caller::Caller::idempotent`]), with the visitor's session.
pub(crate) async fn read<T, R, F, Fut>(message: T, session: Option<&str>, call: F) -> Result<R, Failure>
where
    T: Clone,
    F: Fn(tonic::Request<T>) -> Fut,
    Fut: Future<Output = Result<tonic::Response<R>, Status>>,
{
    let answer = match call(with_session(message.clone(), session)).await {
        Err(status) if canvas_proto::channel::retryable(&status) => {
            tracing::warn!(code = ?status.code(), "core-service call failed in transport; retrying once");
            call(with_session(message, session)).await
        }
        answer => answer,
    };
    answer.map(tonic::Response::into_inner).map_err(Failure::from)
}

/// The visitor's session as core-service knows it (`GetSession`); no cookie is UNAUTHENTICATED
/// without a call.
pub(crate) async fn session(state: &AppState, visitor: &Visitor) -> Result<pb::SessionInfo, Failure> {
    let Some(session) = visitor.session.as_deref() else { return Err(Failure::signed_out()) };
    read(pb::GetSessionRequest {}, Some(session), |request| {
        let mut client = state.sessions.clone();
        async move { client.get_session(request).await }
    })
    .await
}
