//! The one mapping from [`CoreError`] to a gRPC status. Every status carries a
//! `google.rpc.ErrorInfo` whose `reason` is a `canvas.v1.ErrorReason` name; field
//! violations travel as `google.rpc.BadRequest` (each with a `ViolationReason`), retry hints as
//! `google.rpc.RetryInfo`, the missing resource as `google.rpc.ResourceInfo`, so gateways map
//! reasons and never read messages.

use std::collections::HashMap;
use std::time::Duration;

use canvas_proto::v1::ErrorReason;
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use crate::error::{CoreError, Invalid};

/// The `google.rpc.ErrorInfo` domain of our errors.
pub const ERROR_DOMAIN: &str = "canvas.v1";

/// Bytes of field violations (names and rules) one status carries. The details travel in an
/// HTTP/2 trailer, and trailers over the peer's header-list limit break the whole call (the
/// client sees a protocol error, the REST client a 500), so a request with a thousand bad
/// entries reports the first ones and the message counts the rest.
pub const MAX_VIOLATION_BYTES: usize = 4096;
/// Characters of one field name or rule, and of the status message (both can quote client input,
/// such as an unknown property name of any length).
pub const MAX_TEXT_CHARS: usize = 256;
pub const MAX_MESSAGE_CHARS: usize = 1024;

fn clip(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

/// The reason of each variant.
pub fn reason_of(err: &CoreError) -> ErrorReason {
    match err {
        CoreError::Validation(_) => ErrorReason::ValidationFailed,
        CoreError::Unauthenticated(_) => ErrorReason::Unauthenticated,
        CoreError::PermissionDenied(_) => ErrorReason::PermissionDenied,
        CoreError::NotFound { .. } => ErrorReason::NotFound,
        CoreError::Conflict(_) | CoreError::Contention(_) => ErrorReason::Conflict,
        CoreError::PreconditionFailed { .. } => ErrorReason::PreconditionFailed,
        CoreError::RateLimited { .. } => ErrorReason::RateLimited,
        CoreError::TooManyRequests { .. } => ErrorReason::TooManyRequests,
        CoreError::PayloadTooLarge(_) => ErrorReason::PayloadTooLarge,
        CoreError::IdempotencyKeyReused(_) => ErrorReason::IdempotencyKeyReused,
        CoreError::IdempotencyKeyInUse(_) => ErrorReason::IdempotencyKeyInUse,
        CoreError::Unavailable { .. } => ErrorReason::DependencyUnavailable,
        CoreError::Internal(_) => ErrorReason::Internal,
    }
}

/// The gRPC code that goes with each reason (docs/ERRORS.md's error table checks it), for clients
/// that only look at codes.
pub fn code_of(reason: ErrorReason) -> Code {
    match reason {
        ErrorReason::ValidationFailed | ErrorReason::MalformedRequest => Code::InvalidArgument,
        ErrorReason::NotFound => Code::NotFound,
        ErrorReason::Unauthenticated => Code::Unauthenticated,
        ErrorReason::PermissionDenied => Code::PermissionDenied,
        ErrorReason::Conflict => Code::AlreadyExists,
        ErrorReason::PreconditionFailed => Code::FailedPrecondition,
        ErrorReason::RateLimited | ErrorReason::TooManyRequests => Code::ResourceExhausted,
        ErrorReason::PayloadTooLarge => Code::OutOfRange,
        ErrorReason::DependencyUnavailable => Code::Unavailable,
        ErrorReason::DeadlineExceeded => Code::DeadlineExceeded,
        ErrorReason::Unimplemented => Code::Unimplemented,
        ErrorReason::IdempotencyKeyReused => Code::InvalidArgument,
        ErrorReason::IdempotencyKeyInUse => Code::Aborted,
        ErrorReason::Internal | ErrorReason::Unspecified => Code::Internal,
    }
}

/// A pure rule's refusal (an id that does not parse, say) as the status of a validation error.
/// The orphan rule forbids `From<Invalid> for Status`, so handlers write `.map_err(invalid)?`.
pub fn invalid(refusal: Invalid) -> Status {
    CoreError::from(refusal).into()
}

impl From<CoreError> for Status {
    fn from(err: CoreError) -> Self {
        let reason = reason_of(&err);
        let code = code_of(reason);
        let mut metadata = HashMap::new();
        let mut details = ErrorDetails::new();
        let message = match &err {
            CoreError::Internal(cause) => {
                tracing::error!(error = ?cause, "internal error");
                "internal error".to_owned()
            }
            other => clip(&other.to_string(), MAX_MESSAGE_CHARS),
        };
        match err {
            CoreError::Validation(violations) => {
                let mut budget = MAX_VIOLATION_BYTES;
                let mut carried = Vec::new();
                for (i, v) in violations.iter().enumerate() {
                    let (field, rule) = (clip(&v.field, MAX_TEXT_CHARS), clip(&v.description, MAX_TEXT_CHARS));
                    let size = field.len() + rule.len();
                    if i > 0 && size > budget {
                        break;
                    }
                    budget = budget.saturating_sub(size);
                    let mut violation = tonic_types::FieldViolation::new(field, rule);
                    violation.reason = v.reason.as_str_name().to_owned();
                    carried.push(violation);
                }
                details.set_bad_request(carried);
            }
            CoreError::NotFound { kind, id } => {
                details.set_resource_info(kind, clip(&id, MAX_TEXT_CHARS), "", "");
            }
            CoreError::PreconditionFailed { current, .. } => {
                metadata.insert("currentVersion".to_owned(), current.to_string());
            }
            CoreError::RateLimited { retry_after_secs, .. } => {
                details.set_retry_info(Some(Duration::from_secs(retry_after_secs)));
            }
            CoreError::TooManyRequests { retry_after_secs, policy, state, .. } => {
                use canvas_proto::failure::{RATE_LIMIT_METADATA, RATE_LIMIT_POLICY_METADATA};
                details.set_retry_info(Some(Duration::from_secs(retry_after_secs)));
                metadata.insert(RATE_LIMIT_POLICY_METADATA.to_owned(), policy);
                metadata.insert(RATE_LIMIT_METADATA.to_owned(), state);
            }
            CoreError::Unavailable { dependency, retry_after_secs, .. } => {
                metadata.insert("dependency".to_owned(), dependency.as_str().to_owned());
                if let Some(secs) = retry_after_secs {
                    details.set_retry_info(Some(Duration::from_secs(secs)));
                }
            }
            _ => {}
        }
        details.set_error_info(reason.as_str_name(), ERROR_DOMAIN, metadata);
        Status::with_error_details(code, message, details)
    }
}

/// Gives a status that tonic produced before or around a handler (so without our details) its
/// `ErrorInfo`: a deadline that passed (`grpc-timeout`), a method this server does not have, a
/// message it could not decode or that is over the size limit. Such statuses are trailers-only
/// answers, whose `grpc-status` is in the response headers; handlers' own errors are typed already.
pub fn type_bare_status(headers: &mut http::HeaderMap) {
    if headers.contains_key("grpc-status-details-bin") {
        return;
    }
    let Some(status) = Status::from_header_map(headers) else { return };
    let reason = match status.code() {
        Code::Ok => return,
        Code::Cancelled | Code::DeadlineExceeded => ErrorReason::DeadlineExceeded,
        Code::Unimplemented => ErrorReason::Unimplemented,
        Code::OutOfRange | Code::ResourceExhausted => ErrorReason::PayloadTooLarge,
        // tonic answers INTERNAL when it cannot decode the request message.
        Code::Internal | Code::InvalidArgument => ErrorReason::MalformedRequest,
        _ => ErrorReason::Internal,
    };
    let details = ErrorDetails::with_error_info(reason.as_str_name(), ERROR_DOMAIN, HashMap::new());
    let typed = Status::with_error_details(status.code(), status.message(), details);
    if typed.add_header(headers).is_err() {
        tracing::warn!(code = ?status.code(), "could not attach an error reason to a bare status");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{FieldViolation, ViolationReason};

    #[test]
    fn every_variant_carries_its_reason() {
        let cases = [
            (CoreError::invalid("x", "bad"), "VALIDATION_FAILED"),
            (CoreError::not_found("item", "1"), "NOT_FOUND"),
            (
                CoreError::PreconditionFailed { kind: "item", failed: "If-Match", expected: vec![1], current: 2 },
                "PRECONDITION_FAILED",
            ),
            (CoreError::unavailable(crate::error::Dependency::Llm, "down", 5), "DEPENDENCY_UNAVAILABLE"),
            (CoreError::internal("secret cause"), "INTERNAL"),
        ];
        for (error, reason) in cases {
            let status = Status::from(error);
            let info = status.get_error_details().error_info().cloned().expect("ErrorInfo");
            assert_eq!((info.reason.as_str(), info.domain.as_str()), (reason, ERROR_DOMAIN));
            assert!(!status.message().contains("secret cause"));
        }
        let status = Status::from(CoreError::unavailable(crate::error::Dependency::Llm, "down", 5));
        let info = status.get_error_details().error_info().cloned().unwrap();
        assert_eq!(info.metadata.get("dependency").map(String::as_str), Some("llm"));
        assert_eq!(status.get_error_details().retry_info().unwrap().retry_delay, Some(Duration::from_secs(5)));
    }

    #[test]
    fn every_violation_reason_is_named_as_the_wire_names_it() {
        // The domain's reasons (canvas-domain) and the wire's are one list: each domain reason is a
        // wire value, and every wire value but UNSPECIFIED is a domain reason.
        let wire: Vec<i32> = ViolationReason::ALL
            .iter()
            .map(|reason| {
                canvas_proto::v1::ViolationReason::from_str_name(reason.as_str_name())
                    .unwrap_or_else(|| panic!("{} is not a wire ViolationReason", reason.as_str_name()))
                    as i32
            })
            .collect();
        let named = (1..=16).filter(|&n| canvas_proto::v1::ViolationReason::try_from(n).is_ok()).count();
        assert_eq!((wire.len(), named), (ViolationReason::ALL.len(), ViolationReason::ALL.len()));
    }

    #[test]
    fn bare_statuses_from_tonic_get_a_reason() {
        let mut headers = http::HeaderMap::new();
        Status::cancelled("Timeout expired").add_header(&mut headers).unwrap();
        type_bare_status(&mut headers);
        let status = Status::from_header_map(&headers).unwrap();
        assert_eq!(status.get_error_details().error_info().unwrap().reason, "DEADLINE_EXCEEDED");
        // A typed status is left as it is.
        let mut typed = http::HeaderMap::new();
        Status::from(CoreError::not_found("item", "1")).add_header(&mut typed).unwrap();
        let before = typed.clone();
        type_bare_status(&mut typed);
        assert_eq!(before, typed);
    }

    #[test]
    fn many_or_long_violations_stay_within_the_trailer_budget() {
        let violations: Vec<FieldViolation> =
            (0..1000).map(|i| FieldViolation::new(format!("itemIds[{i}]"), "must be a GUID")).collect();
        let status = Status::from(CoreError::Validation(violations));
        let carried = status.get_error_details().bad_request().unwrap().field_violations.clone();
        assert!(!carried.is_empty() && carried.len() < 1000);
        let bytes: usize = carried.iter().map(|v| v.field.len() + v.description.len()).sum();
        assert!(bytes <= MAX_VIOLATION_BYTES, "{bytes}");
        assert!(status.message().ends_with("(and 999 more)"), "{}", status.message());

        let long = "x".repeat(100_000);
        let status = Status::from(CoreError::Validation(vec![FieldViolation::new(long.clone(), "is unknown")]));
        let carried = status.get_error_details().bad_request().unwrap().field_violations.clone();
        assert_eq!(carried.len(), 1);
        assert!(carried[0].field.chars().count() <= MAX_TEXT_CHARS + 1);
        assert!(status.message().chars().count() <= MAX_MESSAGE_CHARS + 1);
    }
}
