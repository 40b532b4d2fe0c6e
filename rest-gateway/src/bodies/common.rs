//! The bodies every operation shares: the problem body of every error, the health answers, the
//! project view, and [`one_of`], the word-list schema the other bodies use.
//!
//! rest-gateway renders answers as JSON values, so the response types here only describe them to
//! `utoipa`, with the default PascalCase names (`jsonCasing` absent) through serde's `rename_all`,
//! which `utoipa` reads.

use serde::Serialize;
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::Object;
use utoipa::ToSchema;

/// A string schema allowing only `words`.
pub fn one_of(words: &[&str]) -> Object {
    ObjectBuilder::new().schema_type(Type::String).enum_values(Some(words.iter().copied())).build()
}

/// RFC 9457 problem details: the body of every error answer (`application/problem+json`).
/// Names follow `jsonCasing` like every JSON answer; shown here in the default PascalCase.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
#[schema(example = json!({"Type": "about:blank", "Title": "Bad Request", "Status": 400,
    "Detail": "size.width: must be >= 5 when isAutoSizeWidth is false", "Reason": "VALIDATION_FAILED",
    "Errors": [{"Field": "size.width", "Message": "must be >= 5 when isAutoSizeWidth is false", "Reason": "INVALID_VALUE"}]}))]
pub struct Problem {
    /// Always `about:blank`.
    #[serde(rename = "Type")]
    pub kind: String,
    /// The HTTP reason phrase of `Status`.
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// What went wrong, readable by a person.
    pub detail: String,
    /// Why, as a stable name to branch on: the `canvas.v1.ErrorReason` core-service gave, or one
    /// of the gateway's own for failures that never reached it. docs/ERRORS.md's error table lists
    /// each with its status.
    #[schema(schema_with = reasons)]
    pub reason: String,
    /// Validation failures: one entry per offending field (absent otherwise).
    #[schema(required = false)]
    pub errors: Vec<FieldError>,
    /// The dependency that is unavailable (`database`, `embedding_model`, `llm`, `blob_store`, `signing_key`), with a 503.
    #[schema(required = false)]
    pub dependency: Option<String>,
    /// The item's version now, with a 412 (`If-Match` named another).
    #[schema(required = false)]
    pub current_version: Option<i64>,
}

/// Every reason a problem body can carry.
fn reasons() -> Object {
    let core = (0..64).filter_map(|n| canvas_proto::v1::ErrorReason::try_from(n).ok());
    let mut names: Vec<&str> =
        core.filter(|r| *r != canvas_proto::v1::ErrorReason::Unspecified).map(|r| r.as_str_name()).collect();
    names.extend(crate::error::gateway_reason::ALL);
    one_of(&names)
}

/// One offending field of a 400.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct FieldError {
    /// The field's camelCase path (`size.width`, `startPoint.itemId`, `adjustmentValues[1]`).
    pub field: String,
    /// The rule it breaks.
    pub message: String,
    /// The kind of rule, as a stable name (`canvas.v1.ViolationReason`).
    #[schema(schema_with = violation_reasons)]
    pub reason: String,
}

/// Every reason a field violation can carry.
fn violation_reasons() -> Object {
    let all = (0..64).filter_map(|n| canvas_proto::v1::ViolationReason::try_from(n).ok());
    let names: Vec<&str> =
        all.filter(|r| *r != canvas_proto::v1::ViolationReason::Unspecified).map(|r| r.as_str_name()).collect();
    one_of(&names)
}

/// `/healthz` and `/readyz`. Not re-cased (`jsonCasing` does not apply).
#[derive(Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `unavailable` while core-service does not report SERVING.
    #[schema(schema_with = health_states)]
    pub status: String,
    /// Why the gateway is not ready.
    pub detail: Option<String>,
}

fn health_states() -> Object {
    one_of(&["ok", "unavailable"])
}

/// `GET /api/v2/projects/{projectId}`: the project and the caller's role in it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ProjectView {
    #[schema(format = "uuid")]
    pub project_id: String,
    pub name: String,
    /// The caller's role: `Viewer` reads; `Editor` also writes items; `Manager` also manages
    /// webhooks; `Admin` also manages members.
    #[schema(schema_with = project_roles)]
    pub role: String,
    /// RFC 3339, UTC.
    #[schema(format = "date-time")]
    pub created_at: String,
}

fn project_roles() -> Object {
    one_of(&["Viewer", "Editor", "Manager", "Admin"])
}
