//! The one mapping from [`CoreError`] to a gRPC status. Field violations
//! travel as `google.rpc.BadRequest`, retry hints as `google.rpc.RetryInfo`,
//! so gateways can render them without parsing messages.

use std::time::Duration;

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use crate::error::CoreError;

/// The `google.rpc.ErrorInfo` domain of our errors.
pub const ERROR_DOMAIN: &str = "canvas.v1";

impl From<CoreError> for Status {
    fn from(err: CoreError) -> Self {
        let message = err.to_string();
        match err {
            CoreError::Validation(violations) => {
                let mut details = ErrorDetails::new();
                for v in &violations {
                    details.add_bad_request_violation(v.field.clone(), v.description.clone());
                }
                Status::with_error_details(Code::InvalidArgument, message, details)
            }
            CoreError::Unauthenticated(_) => Status::unauthenticated(message),
            CoreError::PermissionDenied(_) => Status::permission_denied(message),
            CoreError::NotFound { kind, id } => {
                let details = ErrorDetails::with_resource_info(kind, id, "", "");
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
