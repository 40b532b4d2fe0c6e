//! The one mapping from a gRPC status (or a gateway-side failure) to an HTTP
//! status and an RFC 9457 `application/problem+json` body.
//!
//! Body: `type`, `title`, `status`, `detail`, and for validation failures
//! `errors: [{field, message}]`, one entry per offending field. Names follow
//! `jsonCasing` like every other JSON response.

use std::time::Duration;

use axum::http::header::{CONTENT_TYPE, RETRY_AFTER};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use tonic::Code;
use tonic_types::StatusExt;

use crate::casing::Casing;

/// A failed request, ready to be rendered.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub detail: String,
    /// `(field, message)` pairs for validation failures.
    pub fields: Vec<(String, String)>,
    /// Seconds for a `Retry-After` header.
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, detail: impl Into<String>) -> Self {
        Self { status, detail: detail.into(), fields: Vec::new(), retry_after: None }
    }

    /// A 400 naming one field and its rule.
    pub fn invalid(field: &str, message: &str) -> Self {
        Self {
            fields: vec![(field.to_owned(), message.to_owned())],
            ..Self::new(StatusCode::BAD_REQUEST, format!("{field}: {message}"))
        }
    }

    /// A 413 for a body over [`crate::limits::MAX_BODY_BYTES`].
    pub fn too_large() -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is larger than the limit of {} bytes (25 MiB)", crate::limits::MAX_BODY_BYTES),
        )
    }

    /// Logs the cause; the client sees only "internal error".
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "internal error in rest-gateway");
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error")
    }

    pub fn into_problem(self, casing: Casing) -> Response {
        let mut body = json!({
            "type": "about:blank",
            "title": self.status.canonical_reason().unwrap_or("Error"),
            "status": self.status.as_u16(),
            "detail": self.detail,
        });
        if !self.fields.is_empty() {
            body["errors"] = Value::Array(
                self.fields.into_iter().map(|(field, message)| json!({"field": field, "message": message})).collect(),
            );
        }
        let bytes = serde_json::to_vec(&casing.apply(body, &[])).unwrap_or_default();
        let mut response = (self.status, [(CONTENT_TYPE, HeaderValue::from_static("application/problem+json"))], bytes)
            .into_response();
        if let Some(secs) = self.retry_after {
            response.headers_mut().insert(RETRY_AFTER, HeaderValue::from(secs.max(1)));
        }
        response
    }
}

impl From<tonic::Status> for ApiError {
    fn from(status: tonic::Status) -> Self {
        if canvas_proto::channel::retryable(&status) {
            // The call failed in transport (a core-service replica went away mid-call): the
            // client may try again, which a 500 would not say.
            tracing::warn!(code = ?status.code(), message = status.message(), "core-service call failed in transport");
            return Self {
                retry_after: Some(1),
                ..Self::new(StatusCode::SERVICE_UNAVAILABLE, "core-service is unreachable; try again")
            };
        }
        let http = match status.code() {
            Code::InvalidArgument | Code::OutOfRange | Code::FailedPrecondition => StatusCode::BAD_REQUEST,
            Code::Unauthenticated => StatusCode::UNAUTHORIZED,
            Code::PermissionDenied => StatusCode::FORBIDDEN,
            Code::NotFound => StatusCode::NOT_FOUND,
            Code::AlreadyExists | Code::Aborted => StatusCode::CONFLICT,
            Code::ResourceExhausted => StatusCode::TOO_MANY_REQUESTS,
            Code::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            Code::DeadlineExceeded => StatusCode::GATEWAY_TIMEOUT,
            Code::Unimplemented => StatusCode::NOT_IMPLEMENTED,
            Code::Ok | Code::Cancelled | Code::Unknown | Code::Internal | Code::DataLoss => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
        };
        let details = status.get_error_details();
        if details.error_info().is_some_and(|info| info.reason == "PAYLOAD_TOO_LARGE") {
            return Self::new(StatusCode::PAYLOAD_TOO_LARGE, status.message());
        }
        let fields = details
            .bad_request()
            .map(|br| br.field_violations.iter().map(|v| (v.field.clone(), v.description.clone())).collect())
            .unwrap_or_default();
        let retry_after =
            details.retry_info().and_then(|info| info.retry_delay).map(|delay: Duration| delay.as_secs().max(1));
        let detail = if http == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!(code = ?status.code(), message = status.message(), "core-service call failed");
            "internal error".to_owned()
        } else if status.code() == Code::Unavailable && status.message().contains("transport") {
            "core-service is unreachable; try again".to_owned()
        } else {
            status.message().to_owned()
        };
        Self { status: http, detail, fields, retry_after }
    }
}
