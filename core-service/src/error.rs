//! The one domain error of core-service.
//!
//! Every layer below the gRPC handlers returns [`CoreError`]; the only
//! translation into a wire status lives in `grpc::status`, which gives every
//! variant its `canvas.v1.ErrorReason`. Internal errors carry their cause for
//! the log and are never shown to a caller.

use std::fmt;

/// A request's offending fields and the error of the pure rules that carries them (from
/// `canvas-domain`, shared with `canvas-items`).
pub use canvas_domain::{FieldViolation, Invalid, ViolationReason};

/// A service core-service depends on, named in [`CoreError::Unavailable`] so the caller learns
/// what is down (and operators what to look at).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dependency {
    /// SQLite or PostgreSQL.
    Database,
    /// The sentence-embedding model (in process, or the OpenAI-compatible endpoint).
    EmbeddingModel,
    /// The language model of an agent configuration (`postProcess`).
    Llm,
    /// Where uploaded files live (local directory or S3).
    BlobStore,
    /// The webhook signing key ring (no key active yet).
    SigningKey,
}

impl Dependency {
    /// The name carried in `ErrorInfo.metadata["dependency"]` and shown to callers.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Database => "database",
            Self::EmbeddingModel => "embedding_model",
            Self::Llm => "llm",
            Self::BlobStore => "blob_store",
            Self::SigningKey => "signing_key",
        }
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
    /// A condition of the request does not hold for the resource at version `current`; nothing
    /// was changed. `failed` names the header (`If-Match`: the caller asked for `expected`;
    /// `If-Unmodified-Since`, `If-None-Match`), as RFC 9110 section 13.2.2 evaluates them.
    #[error("{kind} is at version {current}; {}; nothing was changed", precondition_words(.failed, .expected))]
    PreconditionFailed { kind: &'static str, failed: &'static str, expected: Vec<i64>, current: i64 },
    /// The database gave this transaction up to let a concurrent one through (a deadlock victim, a
    /// serialisation failure): nothing was written, and running it again will succeed. Writers
    /// of items repeat it themselves; elsewhere it reaches the caller as a conflict to retry.
    #[error("{0}")]
    Contention(String),
    /// A quota was used up; try again after the given number of seconds.
    #[error("{message}")]
    RateLimited { message: String, retry_after_secs: u64 },
    /// The caller's request rate limit is used up (`service/access/rate_limits.rs`); nothing was done.
    #[error("{message}")]
    TooManyRequests {
        message: String,
        retry_after_secs: u64,
        /// The `RateLimit-Policy` field value of the budget (`"credential";q=3000;w=60`).
        policy: String,
        /// The `RateLimit` field value (`"credential";r=0;t=12`).
        state: String,
    },
    /// A body or file over the size limit.
    #[error("{0}")]
    PayloadTooLarge(String),
    /// The caller's `Idempotency-Key` was already used for another request (another body,
    /// method or project) within its lifetime; nothing was done.
    #[error("{0}")]
    IdempotencyKeyReused(String),
    /// An earlier request with the caller's `Idempotency-Key` is still running; nothing was done.
    #[error("{0}")]
    IdempotencyKeyInUse(String),
    /// A dependency cannot answer right now. `retry_after_secs` is set when trying again later
    /// can help (a busy pool, an endpoint down), and absent when it cannot until an operator acts
    /// (no language model configured is not this: that is a validation error).
    #[error("{} is unavailable: {message}", dependency.as_str().replace('_', " "))]
    Unavailable { dependency: Dependency, message: String, retry_after_secs: Option<u64> },
    /// Anything else. Logged with its cause, shown to callers as a bare
    /// "internal error".
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

/// The versions a refused conditional write expected, in words.
fn precondition_words(failed: &str, expected: &[i64]) -> String {
    match failed {
        "If-Unmodified-Since" => "it was changed after the If-Unmodified-Since date".into(),
        "If-None-Match" => "If-None-Match names it (a write applies only when it does not)".into(),
        _ => format!("not {}", expected_words(expected)),
    }
}

fn expected_words(expected: &[i64]) -> String {
    match expected {
        [] => "a version the request named (it named none that can match: If-Match compares strong tags only)".into(),
        [one] => format!("the expected version {one}"),
        many => {
            let list: Vec<String> = many.iter().take(20).map(ToString::to_string).collect();
            let more = if many.len() > 20 { ", …" } else { "" };
            format!("any of the expected versions {}{more}", list.join(", "))
        }
    }
}

impl CoreError {
    /// A validation error with a single field.
    pub fn invalid(field: impl Into<String>, description: impl Into<String>) -> Self {
        Self::Validation(vec![FieldViolation::new(field, description)])
    }

    /// Refuses a change of `count` items when the caller asked to be told first above `ask_above`
    /// (`ask_above` of the arrange and diagram calls; MCP asks the person, docs/MCP.md).
    pub fn ask_first(ask_above: Option<u32>, count: usize, doing: &str) -> CoreResult<()> {
        match ask_above {
            Some(most) if count > most as usize => Err(Self::Validation(vec![FieldViolation::with_reason(
                ViolationReason::ConfirmationRequired,
                "askAbove",
                format!("this would {doing} {count} items, more than the {most} to be confirmed first"),
            )])),
            _ => Ok(()),
        }
    }

    pub fn not_found(kind: &'static str, id: impl fmt::Display) -> Self {
        Self::NotFound { kind, id: id.to_string() }
    }

    pub fn internal(message: impl fmt::Display) -> Self {
        Self::Internal(anyhow::anyhow!("{message}"))
    }

    /// A dependency that is down or busy; trying again after `retry_after_secs` can help.
    pub fn unavailable(dependency: Dependency, message: impl Into<String>, retry_after_secs: u64) -> Self {
        Self::Unavailable { dependency, message: message.into(), retry_after_secs: Some(retry_after_secs) }
    }
}

/// No field known (`[]`) is the database refusing a value (`storage::db_error`).
fn summarize(violations: &[FieldViolation]) -> String {
    Invalid(violations.to_vec()).to_string()
}

impl From<Invalid> for CoreError {
    fn from(Invalid(violations): Invalid) -> Self {
        Self::Validation(violations)
    }
}

pub type CoreResult<T> = Result<T, CoreError>;

/// How long work that must reach the database (an indexing outcome, an idempotent call's answer)
/// keeps trying while it is unavailable: a failover takes about ten seconds
/// (docs/SCALING.md#when-the-database-fails-over).
pub const UNAVAILABLE_PATIENCE: std::time::Duration = std::time::Duration::from_secs(60);

/// Runs `attempt` until it answers anything but [`CoreError::Unavailable`], pausing 250 ms, then
/// twice as long each time up to 4 s, for at most [`UNAVAILABLE_PATIENCE`]; then answers its last
/// outcome. Only for work whose repetition writes the same rows.
pub async fn while_unavailable<T, F, Fut>(what: &str, mut attempt: F) -> CoreResult<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = CoreResult<T>>,
{
    let give_up = tokio::time::Instant::now() + UNAVAILABLE_PATIENCE;
    let mut pause = std::time::Duration::from_millis(250);
    loop {
        match attempt().await {
            Err(CoreError::Unavailable { .. }) if tokio::time::Instant::now() + pause < give_up => {
                tracing::warn!("the database is unavailable; {what} waits for it");
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(std::time::Duration::from_secs(4));
            }
            outcome => return outcome,
        }
    }
}
