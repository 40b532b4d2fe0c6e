//! The one domain error of core-service.
//!
//! Every layer below the gRPC handlers returns [`CoreError`]; the only
//! translation into a wire status lives in `grpc::status`. Internal errors
//! carry their cause for the log and are never shown to a caller.

use std::fmt;

/// One offending field of a request, named by its camelCase path
/// (`size.width`, `startPoint.position.x`) together with the rule it broke.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldViolation {
    /// Path of the field as the interface spec writes it.
    pub field: String,
    /// The rule, phrased for the caller ("must be >= 5").
    pub description: String,
}

impl FieldViolation {
    pub fn new(field: impl Into<String>, description: impl Into<String>) -> Self {
        Self { field: field.into(), description: description.into() }
    }
}

impl fmt::Display for FieldViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.description)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CoreError {
    /// The request was understood but breaks one or more rules.
    #[error("{}", summarize(.0))]
    Validation(Vec<FieldViolation>),
    /// No token, or one that is unknown, revoked or of another environment.
    #[error("{0}")]
    Unauthenticated(String),
    /// A valid caller without the right to do this.
    #[error("{0}")]
    PermissionDenied(String),
    /// The named resource does not exist (or is not visible at all).
    #[error("{kind} '{id}' was not found")]
    NotFound { kind: &'static str, id: String },
    /// The request conflicts with the current state (a duplicate, say).
    #[error("{0}")]
    Conflict(String),
    /// A quota was used up; try again after the given number of seconds.
    #[error("{message}")]
    RateLimited { message: String, retry_after_secs: u64 },
    /// A body or file over the size limit.
    #[error("{0}")]
    PayloadTooLarge(String),
    /// A dependency (database, model, LLM) cannot answer right now.
    #[error("{0}")]
    Unavailable(String),
    /// Anything else. Logged with its cause, shown to callers as a bare
    /// "internal error".
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl CoreError {
    /// A validation error with a single field.
    pub fn invalid(field: impl Into<String>, description: impl Into<String>) -> Self {
        Self::Validation(vec![FieldViolation::new(field, description)])
    }

    pub fn not_found(kind: &'static str, id: impl fmt::Display) -> Self {
        Self::NotFound { kind, id: id.to_string() }
    }

    pub fn internal(message: impl fmt::Display) -> Self {
        Self::Internal(anyhow::anyhow!("{message}"))
    }
}

fn summarize(violations: &[FieldViolation]) -> String {
    match violations {
        [] => "validation failed".to_owned(),
        [one] => one.to_string(),
        many => format!("{} (and {} more)", many[0], many.len() - 1),
    }
}

pub type CoreResult<T> = Result<T, CoreError>;
