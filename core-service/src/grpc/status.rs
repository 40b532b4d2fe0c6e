//! The one mapping from [`CoreError`] to a gRPC status. Field violations
//! travel as `google.rpc.BadRequest`, retry hints as `google.rpc.RetryInfo`,
//! so gateways can render them without parsing messages.

use std::time::Duration;

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use crate::error::CoreError;

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

impl From<CoreError> for Status {
    fn from(err: CoreError) -> Self {
        let message = clip(&err.to_string(), MAX_MESSAGE_CHARS);
        match err {
            CoreError::Validation(violations) => {
                let mut details = ErrorDetails::new();
                let mut budget = MAX_VIOLATION_BYTES;
                for (i, v) in violations.iter().enumerate() {
                    let (field, rule) = (clip(&v.field, MAX_TEXT_CHARS), clip(&v.description, MAX_TEXT_CHARS));
                    let size = field.len() + rule.len();
                    if i > 0 && size > budget {
                        break;
                    }
                    budget = budget.saturating_sub(size);
                    details.add_bad_request_violation(field, rule);
                }
                Status::with_error_details(Code::InvalidArgument, message, details)
            }
            CoreError::Unauthenticated(_) => Status::unauthenticated(message),
            CoreError::PermissionDenied(_) => Status::permission_denied(message),
            CoreError::NotFound { kind, id } => {
                let details = ErrorDetails::with_resource_info(kind, clip(&id, MAX_TEXT_CHARS), "", "");
                Status::with_error_details(Code::NotFound, message, details)
            }
            CoreError::Conflict(_) => Status::already_exists(message),
            CoreError::RateLimited { retry_after_secs, .. } => {
                let mut details = ErrorDetails::with_retry_info(Some(Duration::from_secs(retry_after_secs)));
                details.set_error_info("RATE_LIMITED", ERROR_DOMAIN, std::collections::HashMap::new());
                Status::with_error_details(Code::Unavailable, message, details)
            }
            CoreError::PayloadTooLarge(_) => {
                let details =
                    ErrorDetails::with_error_info("PAYLOAD_TOO_LARGE", ERROR_DOMAIN, std::collections::HashMap::new());
                Status::with_error_details(Code::OutOfRange, message, details)
            }
            CoreError::Unavailable(_) => Status::unavailable(message),
            CoreError::Internal(cause) => {
                tracing::error!(error = ?cause, "internal error");
                Status::internal("internal error")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::FieldViolation;

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
