//! How every client of core-service reads a failed call: by the [`ErrorReason`] core-service put
//! in the status's `google.rpc.ErrorInfo`, or, when no answer came at all, as a failure of the
//! call itself, recognised from the client-side error tonic produced — never from message text.
//!
//! A status decoded from core-service's answer has no `source`; one that tonic made on this side
//! of the wire (connection refused or reset, the replica gone, the deadline passed) carries the
//! underlying error as its `source`. That is the whole test, so "core-service is unreachable" is
//! said exactly when it is.

use std::collections::HashMap;
use std::error::Error as _;
use std::time::Duration;

use tonic::Status;
use tonic_types::StatusExt;

use crate::v1::{ErrorReason, ViolationReason};

/// ErrorInfo metadata of a `TOO_MANY_REQUESTS` refusal: the `RateLimit-Policy` field value.
pub const RATE_LIMIT_POLICY_METADATA: &str = "rateLimitPolicy";
/// ErrorInfo metadata of a `TOO_MANY_REQUESTS` refusal: the `RateLimit` field value.
pub const RATE_LIMIT_METADATA: &str = "rateLimit";

/// The `google.rpc.ErrorInfo` domain of core-service's errors.
pub const ERROR_DOMAIN: &str = "canvas.v1";

/// Why a call to core-service failed.
#[derive(Debug, Clone, PartialEq)]
pub enum CallFailure {
    /// core-service answered with a typed refusal.
    Refused(Refusal),
    /// No answer arrived: the connection could not be opened or broke mid-call. Only an
    /// idempotent call may be repeated (see [`crate::channel::retryable`]).
    Unreachable {
        /// The client-side error, for logs (never shown to callers).
        cause: String,
    },
    /// core-service's transport refused this one call (its HTTP/2 stream was reset) while the
    /// connection, and every other call on it, went on: the call is the problem (too large, or
    /// refused under load), not the replica. Never marks a replica down.
    Rejected {
        /// The client-side error, for logs.
        cause: String,
    },
    /// The caller's deadline passed before core-service answered.
    TimedOut,
    /// An answer without `ErrorInfo` of our domain: not core-service's rules (a proxy in between,
    /// or a core-service of another version). Shown as an internal error.
    Untyped {
        /// The gRPC code and message, for logs.
        cause: String,
    },
}

/// core-service's typed refusal, with every detail it sent.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub reason: ErrorReason,
    /// Prose for people: shown to callers, never interpreted.
    pub message: String,
    /// Offending fields (`VALIDATION_FAILED`).
    pub violations: Vec<Violation>,
    /// The missing resource's kind and id (`NOT_FOUND`).
    pub resource: Option<(String, String)>,
    /// When trying again can help (`RATE_LIMITED`, `DEPENDENCY_UNAVAILABLE`).
    pub retry_after: Option<Duration>,
    /// `ErrorInfo` metadata: `dependency`, `currentVersion`.
    pub metadata: HashMap<String, String>,
}

/// One offending field of a refused request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// camelCase path of the field (`size.width`, `items[3].url`).
    pub field: String,
    /// The rule it broke, for people.
    pub description: String,
    pub reason: ViolationReason,
}

impl Refusal {
    /// The dependency named by a `DEPENDENCY_UNAVAILABLE` refusal (`database`, `llm`, …).
    pub fn dependency(&self) -> Option<&str> {
        self.metadata.get("dependency").map(String::as_str)
    }

    /// The `RateLimit-Policy` and `RateLimit` field values of a `TOO_MANY_REQUESTS` refusal.
    pub fn rate_limit_fields(&self) -> Option<(&str, &str)> {
        Some((self.metadata.get(RATE_LIMIT_POLICY_METADATA)?, self.metadata.get(RATE_LIMIT_METADATA)?))
    }

    /// The resource's current version named by a `PRECONDITION_FAILED` refusal.
    pub fn current_version(&self) -> Option<i64> {
        self.metadata.get("currentVersion").and_then(|v| v.parse().ok())
    }
}

/// Sorts a failed call.
pub fn classify(status: &Status) -> CallFailure {
    if let Some(source) = status.source() {
        return if caused_by_deadline(source) {
            CallFailure::TimedOut
        } else if stream_reset(source) {
            CallFailure::Rejected { cause: format!("{:?}: {}", status.code(), status.message()) }
        } else {
            CallFailure::Unreachable { cause: format!("{:?}: {}", status.code(), status.message()) }
        };
    }
    let details = status.get_error_details();
    let reason = details
        .error_info()
        .filter(|info| info.domain == ERROR_DOMAIN)
        .and_then(|info| ErrorReason::from_str_name(&info.reason))
        .filter(|reason| *reason != ErrorReason::Unspecified);
    let Some(reason) = reason else {
        return CallFailure::Untyped { cause: format!("{:?}: {}", status.code(), status.message()) };
    };
    if reason == ErrorReason::DeadlineExceeded {
        return CallFailure::TimedOut;
    }
    let violations = details
        .bad_request()
        .map(|bad| {
            bad.field_violations
                .iter()
                .map(|v| Violation {
                    field: v.field.clone(),
                    description: v.description.clone(),
                    reason: ViolationReason::from_str_name(&v.reason).unwrap_or(ViolationReason::InvalidValue),
                })
                .collect()
        })
        .unwrap_or_default();
    CallFailure::Refused(Refusal {
        reason,
        message: status.message().to_owned(),
        violations,
        resource: details.resource_info().map(|info| (info.resource_type.clone(), info.resource_name.clone())),
        retry_after: details.retry_info().and_then(|info| info.retry_delay),
        metadata: details.error_info().map(|info| info.metadata.clone()).unwrap_or_default(),
    })
}

/// Whether the client-side error is the peer resetting this call's stream alone (`RST_STREAM`),
/// not the connection going away (`GOAWAY`, an I/O error), which fails every call on it.
pub fn stream_reset(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut current = Some(error);
    while let Some(e) = current {
        if let Some(h2) = e.downcast_ref::<h2::Error>() {
            // A reason without `GOAWAY`: `RST_STREAM` from either side, or a stream-level error.
            return h2.reason().is_some() && !h2.is_go_away();
        }
        current = e.source();
    }
    false
}

/// Whether the client-side error is tonic's deadline (`grpc-timeout`) expiring.
fn caused_by_deadline(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut current = Some(error);
    while let Some(e) = current {
        if e.is::<tonic::TimeoutExpired>() || e.is::<tokio::time::error::Elapsed>() {
            return true;
        }
        current = e.source();
    }
    false
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use tonic::Code;
    use tonic_types::ErrorDetails;

    use super::*;

    fn typed(reason: ErrorReason, details: ErrorDetails) -> Status {
        let mut details = details;
        details.set_error_info(reason.as_str_name(), ERROR_DOMAIN, HashMap::new());
        Status::with_error_details(Code::Unavailable, "the text says transport, which means nothing", details)
    }

    #[test]
    fn a_typed_answer_is_read_by_its_reason_not_its_message() {
        let status =
            typed(ErrorReason::DependencyUnavailable, ErrorDetails::with_retry_info(Some(Duration::from_secs(3))));
        let CallFailure::Refused(refusal) = classify(&status) else { panic!("{:?}", classify(&status)) };
        assert_eq!(refusal.reason, ErrorReason::DependencyUnavailable);
        assert_eq!(refusal.retry_after, Some(Duration::from_secs(3)));
    }

    #[test]
    fn an_answer_without_error_info_is_untyped_not_a_transport_failure() {
        let status = Status::unavailable("transport error");
        assert!(matches!(classify(&status), CallFailure::Untyped { .. }));
        let foreign = Status::with_error_details(
            Code::NotFound,
            "x",
            ErrorDetails::with_error_info("NOT_FOUND", "other.example", HashMap::new()),
        );
        assert!(matches!(classify(&foreign), CallFailure::Untyped { .. }));
    }

    #[test]
    fn a_client_side_error_is_unreachable_or_timed_out() {
        let mut refused = Status::unavailable("tcp connect error");
        refused.set_source(Arc::new(std::io::Error::from(std::io::ErrorKind::ConnectionRefused)));
        assert!(matches!(classify(&refused), CallFailure::Unreachable { .. }));
        let timed_out = Status::from_error(Box::new(tonic::TimeoutExpired(())));
        assert_eq!(classify(&timed_out), CallFailure::TimedOut);
    }

    #[test]
    fn a_reset_stream_is_this_call_rejected_and_a_goaway_is_unreachable() {
        let mut reset = Status::unknown("h2 protocol error: stream error received: refused");
        reset.set_source(Arc::new(h2::Error::from(h2::Reason::REFUSED_STREAM)));
        assert!(matches!(classify(&reset), CallFailure::Rejected { .. }), "{:?}", classify(&reset));
        let mut io = Status::unknown("connection reset");
        io.set_source(Arc::new(std::io::Error::from(std::io::ErrorKind::ConnectionReset)));
        assert!(matches!(classify(&io), CallFailure::Unreachable { .. }), "{:?}", classify(&io));
    }

    #[test]
    fn violations_keep_their_reasons() {
        let mut details = ErrorDetails::new();
        let mut violation = tonic_types::FieldViolation::new("fontSize", "is not a property");
        violation.reason = ViolationReason::UnknownProperty.as_str_name().to_owned();
        details.set_bad_request(vec![violation]);
        let CallFailure::Refused(refusal) = classify(&typed(ErrorReason::ValidationFailed, details)) else { panic!() };
        assert_eq!(refusal.violations[0].reason, ViolationReason::UnknownProperty);
    }
}
