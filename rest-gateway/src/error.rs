//! The one mapping from a failed core-service call (or a gateway-side failure) to an HTTP
//! status and an RFC 9457 `application/problem+json` body.
//!
//! Body: `type`, `title`, `status`, `detail`, `reason` (the `canvas.v1.ErrorReason` name, or one
//! of the gateway's own reasons for failures that never reached core-service), for validation
//! failures `errors: [{field, message, reason}]`, for a dependency outage `dependency`, for a
//! failed `If-Match` `currentVersion`. Names follow `jsonCasing` like every other JSON response.
//! Core-service's answers are mapped by their reason only ([`http_status`]); docs/ERRORS.md's error
//! table is checked against that function.

use axum::extract::rejection::BytesRejection;
use axum::http::header::{CONTENT_TYPE, RETRY_AFTER};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use canvas_proto::failure::{classify, CallFailure, Refusal};
use canvas_proto::v1::{ErrorReason, ViolationReason};
use serde_json::{json, Value};

use crate::casing::Casing;

/// The gateway's own reasons, for failures core-service never answered.
pub mod gateway_reason {
    /// No answer from core-service: connection refused or broken.
    pub const CORE_UNREACHABLE: &str = "CORE_UNREACHABLE";
    /// core-service's transport reset this one call's stream (the connection went on).
    pub const CORE_REJECTED_CALL: &str = "CORE_REJECTED_CALL";
    /// The request did not reach the gateway's router (unknown path).
    pub const ROUTE_NOT_FOUND: &str = "ROUTE_NOT_FOUND";
    /// The path exists, the method does not.
    pub const METHOD_NOT_ALLOWED: &str = "METHOD_NOT_ALLOWED";
    /// The client took longer than the body time limit to send its body.
    pub const BODY_TIMEOUT: &str = "BODY_TIMEOUT";
    /// The drawing cannot be rasterised (render.png).
    pub const NOT_RENDERABLE: &str = "NOT_RENDERABLE";
    /// The request body's `Content-Type` is not what the endpoint reads (415).
    pub const UNSUPPORTED_MEDIA_TYPE: &str = "UNSUPPORTED_MEDIA_TYPE";
    /// All of them, for the OpenAPI document.
    /// The request's URI or header fields are over the edge limits (414, 431), answered by the
    /// gateways' HTTP edge (`canvas_runtime::edge::head`) before any route.
    pub const URI_TOO_LONG: &str = canvas_runtime::edge::head::URI_TOO_LONG;
    pub const HEADERS_TOO_LARGE: &str = canvas_runtime::edge::head::HEADERS_TOO_LARGE;
    /// All of them, for the OpenAPI document.
    pub const ALL: [&str; 9] = [
        CORE_UNREACHABLE,
        CORE_REJECTED_CALL,
        ROUTE_NOT_FOUND,
        METHOD_NOT_ALLOWED,
        BODY_TIMEOUT,
        NOT_RENDERABLE,
        URI_TOO_LONG,
        HEADERS_TOO_LARGE,
        UNSUPPORTED_MEDIA_TYPE,
    ];
}

/// The HTTP status of each reason core-service gives: docs/ERRORS.md's error table.
pub fn http_status(reason: ErrorReason) -> StatusCode {
    match reason {
        ErrorReason::ValidationFailed | ErrorReason::MalformedRequest => StatusCode::BAD_REQUEST,
        ErrorReason::Unauthenticated => StatusCode::UNAUTHORIZED,
        ErrorReason::PermissionDenied => StatusCode::FORBIDDEN,
        ErrorReason::NotFound => StatusCode::NOT_FOUND,
        ErrorReason::Conflict => StatusCode::CONFLICT,
        ErrorReason::PreconditionFailed => StatusCode::PRECONDITION_FAILED,
        // The spec's one rate limit (webhook test calls) answers 503 with Retry-After.
        ErrorReason::RateLimited => StatusCode::SERVICE_UNAVAILABLE,
        // A caller's request rate limit: 429 with Retry-After, RateLimit-Policy and RateLimit.
        ErrorReason::TooManyRequests => StatusCode::TOO_MANY_REQUESTS,
        ErrorReason::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        ErrorReason::DependencyUnavailable => StatusCode::SERVICE_UNAVAILABLE,
        ErrorReason::DeadlineExceeded => StatusCode::GATEWAY_TIMEOUT,
        ErrorReason::Unimplemented => StatusCode::NOT_IMPLEMENTED,
        // draft-ietf-httpapi-idempotency-key-header: a key reused for another request is 422, a
        // key whose first request is still running 409.
        ErrorReason::IdempotencyKeyReused => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorReason::IdempotencyKeyInUse => StatusCode::CONFLICT,
        ErrorReason::Internal | ErrorReason::Unspecified => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// One offending field of a 400.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    /// camelCase path of the field.
    pub field: String,
    /// The rule it broke.
    pub message: String,
    /// The `canvas.v1.ViolationReason` name.
    pub reason: &'static str,
}

/// A failed request, ready to be rendered.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub detail: String,
    /// The `reason` member: an `ErrorReason` name or a [`gateway_reason`].
    pub reason: &'static str,
    /// Offending fields of a validation failure.
    pub fields: Vec<FieldError>,
    /// Seconds for a `Retry-After` header.
    pub retry_after: Option<u64>,
    /// Extension members (`dependency`, `currentVersion`).
    pub extra: Vec<(&'static str, Value)>,
    /// Header fields of the answer besides `Content-Type` and `Retry-After` (`Accept-Post`,
    /// `RateLimit`); boxed, as most errors have none (and a `Result` carries it on every call).
    pub headers: Option<Box<HeaderMap>>,
}

impl ApiError {
    /// A gateway-side failure with the reason its status implies.
    pub fn new(status: StatusCode, detail: impl Into<String>) -> Self {
        let reason = match status {
            StatusCode::BAD_REQUEST => ErrorReason::ValidationFailed.as_str_name(),
            StatusCode::UNAUTHORIZED => ErrorReason::Unauthenticated.as_str_name(),
            StatusCode::NOT_FOUND => gateway_reason::ROUTE_NOT_FOUND,
            // A read's failed precondition, decided by the gateway (`conditional.rs`).
            StatusCode::PRECONDITION_FAILED => ErrorReason::PreconditionFailed.as_str_name(),
            StatusCode::METHOD_NOT_ALLOWED => gateway_reason::METHOD_NOT_ALLOWED,
            StatusCode::PAYLOAD_TOO_LARGE => ErrorReason::PayloadTooLarge.as_str_name(),
            StatusCode::REQUEST_TIMEOUT => gateway_reason::BODY_TIMEOUT,
            StatusCode::UNPROCESSABLE_ENTITY => gateway_reason::NOT_RENDERABLE,
            StatusCode::UNSUPPORTED_MEDIA_TYPE => gateway_reason::UNSUPPORTED_MEDIA_TYPE,
            _ => ErrorReason::Internal.as_str_name(),
        };
        Self {
            status,
            detail: detail.into(),
            reason,
            fields: Vec::new(),
            retry_after: None,
            extra: Vec::new(),
            headers: None,
        }
    }

    /// A 415 for a request body of a type the endpoint does not read (`crate::content_type`).
    pub fn unsupported_media_type(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, detail)
    }

    /// A 400 naming one field and its rule (request framing the gateway decodes: JSON syntax,
    /// query parameters, multipart parts).
    pub fn invalid(field: &str, message: &str) -> Self {
        Self::invalid_because(field, message, ViolationReason::InvalidValue)
    }

    /// A 400 naming one field, with the reason of its violation.
    pub fn invalid_because(field: &str, message: &str, reason: ViolationReason) -> Self {
        Self {
            fields: vec![FieldError {
                field: field.to_owned(),
                message: message.to_owned(),
                reason: reason.as_str_name(),
            }],
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

    /// A 408 for a body slower than `--body-timeout-secs`.
    pub fn body_timeout() -> Self {
        Self::new(
            StatusCode::REQUEST_TIMEOUT,
            "the request body did not arrive within the time limit (CANVAS_BODY_TIMEOUT_SECS); send it faster or in smaller parts",
        )
    }

    /// Logs the cause; the client sees only "internal error".
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "internal error in rest-gateway");
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error")
    }

    fn refused(refusal: Refusal) -> Self {
        let status = http_status(refusal.reason);
        let mut extra = Vec::new();
        if let Some(dependency) = refusal.dependency() {
            extra.push(("dependency", Value::from(dependency)));
        }
        if let Some(version) = refusal.current_version() {
            extra.push(("currentVersion", Value::from(version)));
        }
        // draft-ietf-httpapi-ratelimit-headers: the policy and the state of the budget, as
        // core-service wrote them (structured field values).
        let headers = refusal
            .rate_limit_fields()
            .and_then(|(policy, state)| {
                Some(vec![
                    (HeaderName::from_static("ratelimit-policy"), HeaderValue::from_str(policy).ok()?),
                    (HeaderName::from_static("ratelimit"), HeaderValue::from_str(state).ok()?),
                ])
            })
            .unwrap_or_default();
        let detail =
            if status == StatusCode::INTERNAL_SERVER_ERROR { "internal error".to_owned() } else { refusal.message };
        Self {
            status,
            detail,
            reason: refusal.reason.as_str_name(),
            fields: refusal
                .violations
                .into_iter()
                .map(|v| FieldError { field: v.field, message: v.description, reason: v.reason.as_str_name() })
                .collect(),
            retry_after: refusal.retry_after.map(|delay| delay.as_secs().max(1)),
            extra,
            headers: header_map(headers),
        }
    }

    pub fn into_problem(self, casing: Casing) -> Response {
        let mut body = json!({
            "type": "about:blank",
            "title": self.status.canonical_reason().unwrap_or("Error"),
            "status": self.status.as_u16(),
            "detail": self.detail,
            "reason": self.reason,
        });
        if !self.fields.is_empty() {
            body["errors"] = Value::Array(
                self.fields
                    .into_iter()
                    .map(|f| json!({"field": f.field, "message": f.message, "reason": f.reason}))
                    .collect(),
            );
        }
        for (name, value) in self.extra {
            body[name] = value;
        }
        let bytes = serde_json::to_vec(&casing.recased(&body, &[])).unwrap_or_default();
        let mut response = (self.status, [(CONTENT_TYPE, HeaderValue::from_static("application/problem+json"))], bytes)
            .into_response();
        if let Some(secs) = self.retry_after {
            response.headers_mut().insert(RETRY_AFTER, HeaderValue::from(secs.max(1)));
        }
        if let Some(headers) = self.headers {
            response.headers_mut().extend(*headers);
        }
        response
    }
}

/// Extra header fields of an answer; None when there are none.
fn header_map(fields: Vec<(HeaderName, HeaderValue)>) -> Option<Box<HeaderMap>> {
    (!fields.is_empty()).then(|| Box::new(fields.into_iter().collect()))
}

impl From<tonic::Status> for ApiError {
    fn from(status: tonic::Status) -> Self {
        match classify(&status) {
            CallFailure::Refused(refusal) => {
                if refusal.reason == ErrorReason::Internal {
                    tracing::error!(message = %refusal.message, "core-service failed internally");
                }
                Self::refused(refusal)
            }
            CallFailure::Unreachable { cause } => {
                // No answer: the client may try again, which a 500 would not say.
                tracing::warn!(%cause, "core-service call failed in transport");
                Self {
                    retry_after: Some(1),
                    reason: gateway_reason::CORE_UNREACHABLE,
                    ..Self::new(StatusCode::SERVICE_UNAVAILABLE, "core-service is unreachable; try again")
                }
            }
            CallFailure::Rejected { cause } => {
                // One call refused by core-service's transport (its stream reset), the connection
                // and every other call on it unharmed.
                tracing::warn!(%cause, "core-service reset the call's stream");
                Self {
                    retry_after: Some(1),
                    reason: gateway_reason::CORE_REJECTED_CALL,
                    ..Self::new(
                        StatusCode::BAD_GATEWAY,
                        "core-service refused this call at the transport level (its stream was reset); try again",
                    )
                }
            }
            CallFailure::TimedOut => Self {
                reason: ErrorReason::DeadlineExceeded.as_str_name(),
                ..Self::new(
                    StatusCode::GATEWAY_TIMEOUT,
                    "core-service did not answer within the gateway's deadline (CANVAS_CORE_TIMEOUT_SECS); a write may still have been applied",
                )
            },
            CallFailure::Untyped { cause } => {
                tracing::error!(%cause, "core-service answered without a typed reason");
                Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error")
            }
        }
    }
}

impl From<BytesRejection> for ApiError {
    /// A body that could not be read: over the size limit, too slow, or broken off.
    fn from(rejection: BytesRejection) -> Self {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            return Self::too_large();
        }
        if canvas_runtime::edge::deadline::is_body_deadline(&rejection) {
            return Self::body_timeout();
        }
        Self::new(rejection.status(), rejection.body_text())
    }
}
