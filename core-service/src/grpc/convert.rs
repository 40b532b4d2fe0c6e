//! Conversions between stored rows and protobuf messages.

use canvas_proto::json::to_proto_struct;
use canvas_proto::v1 as pb;
use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::domain::{Environment, ProjectRole};
use crate::error::CoreError;
use crate::service::items::preconditions::{NoneMatch, Preconditions};
use crate::storage::{ItemRow, MembershipRow, ProjectRow, TokenRow, UserProjectRow, UserRow};

/// A client's `changedSince`: a time the calendar has, else a 400 naming it.
pub fn changed_since(at: Option<prost_types::Timestamp>) -> Result<Option<DateTime<Utc>>, CoreError> {
    at.map(|at| {
        DateTime::from_timestamp(at.seconds, u32::try_from(at.nanos).unwrap_or(u32::MAX))
            .ok_or_else(|| CoreError::invalid("changedSince", "is not a valid time"))
    })
    .transpose()
}

pub fn timestamp(at: DateTime<Utc>) -> prost_types::Timestamp {
    prost_types::Timestamp { seconds: at.timestamp(), nanos: at.timestamp_subsec_nanos() as i32 }
}

pub fn user(row: UserRow) -> pb::User {
    pb::User {
        user_id: row.id.to_string(),
        name: row.name,
        system_admin: row.system_admin,
        created_at: Some(timestamp(row.created_at)),
    }
}

pub fn token(row: TokenRow) -> pb::ApiToken {
    pb::ApiToken {
        token_id: row.id.to_string(),
        user_id: row.user_id.to_string(),
        environment: environment(Environment::from_code(row.environment)) as i32,
        name: row.name,
        created_at: Some(timestamp(row.created_at)),
        last_used_at: row.last_used_at.map(timestamp),
        revoked_at: row.revoked_at.map(timestamp),
    }
}

pub fn environment(env: Option<Environment>) -> pb::Environment {
    match env {
        Some(Environment::Production) => pb::Environment::Production,
        Some(Environment::Staging) => pb::Environment::Staging,
        Some(Environment::Development) => pb::Environment::Development,
        None => pb::Environment::Unspecified,
    }
}

pub fn environment_from_proto(code: i32) -> Result<Option<Environment>, CoreError> {
    match pb::Environment::try_from(code) {
        Ok(pb::Environment::Unspecified) => Ok(None),
        Ok(pb::Environment::Production) => Ok(Some(Environment::Production)),
        Ok(pb::Environment::Staging) => Ok(Some(Environment::Staging)),
        Ok(pb::Environment::Development) => Ok(Some(Environment::Development)),
        Err(_) => Err(CoreError::invalid("environment", "must be production, staging or development")),
    }
}

pub fn role(role: Option<ProjectRole>) -> pb::ProjectRole {
    match role {
        Some(ProjectRole::Viewer) => pb::ProjectRole::Viewer,
        Some(ProjectRole::Editor) => pb::ProjectRole::Editor,
        Some(ProjectRole::Manager) => pb::ProjectRole::Manager,
        Some(ProjectRole::Admin) => pb::ProjectRole::Admin,
        None => pb::ProjectRole::Unspecified,
    }
}

pub fn role_from_proto(code: i32) -> Result<ProjectRole, CoreError> {
    ProjectRole::from_code(code)
        .ok_or_else(|| CoreError::invalid("role", "must be one of Viewer, Editor, Manager, Admin"))
}

pub fn project(row: ProjectRow, role_in_project: Option<ProjectRole>) -> pb::Project {
    pb::Project {
        project_id: row.id.to_string(),
        name: row.name,
        created_at: Some(timestamp(row.created_at)),
        role: role(role_in_project) as i32,
        webhook_alerts: Vec::new(),
    }
}

pub fn user_project(row: UserProjectRow) -> pb::Project {
    pb::Project {
        project_id: row.id.to_string(),
        name: row.name,
        created_at: Some(timestamp(row.created_at)),
        role: role(ProjectRole::from_code(row.role)) as i32,
        webhook_alerts: Vec::new(),
    }
}

pub fn webhook_alert(row: crate::storage::WebhookAlertRow) -> pb::WebhookAlert {
    pb::WebhookAlert {
        webhook_id: row.id.to_string(),
        name: row.name,
        url: row.url,
        disabled_at: row.disabled_at.map(timestamp),
        disabled_reason: row.disabled_reason,
        given_up: row.given_up.clamp(0, i64::from(u32::MAX)) as u32,
        first_given_up_at: row.first_given_up_at.map(timestamp),
    }
}

pub fn membership(row: MembershipRow) -> pb::Membership {
    pb::Membership {
        project_id: row.project_id.to_string(),
        user_id: row.user_id.to_string(),
        role: role(ProjectRole::from_code(row.role)) as i32,
    }
}

pub fn item(mut row: ItemRow) -> pb::Item {
    let properties = match std::mem::take(&mut row.properties) {
        Value::Object(map) => map,
        _ => Default::default(),
    };
    pb::Item { properties: Some(to_proto_struct(properties)), ..item_identity(&row) }
}

/// An item with its properties as JSON text (`Item.properties_json`), for callers that answer
/// in JSON: no Struct is built here nor read there.
pub fn item_with_json_properties(mut row: ItemRow) -> Result<pb::Item, CoreError> {
    // Numbers as the Struct would carry them: both answers read alike.
    canvas_proto::json::numbers_as_in_a_struct(&mut row.properties);
    let properties_json = match &row.properties {
        Value::Object(_) => serde_json::to_vec(&row.properties).map_err(CoreError::internal)?,
        _ => b"{}".to_vec(),
    };
    Ok(pb::Item { properties_json, ..item_identity(&row) })
}

fn item_identity(row: &ItemRow) -> pb::Item {
    pb::Item {
        item_id: row.id.to_string(),
        project_id: row.project_id.to_string(),
        item_type: row.item_type.to_string(),
        parent: row.parent.to_string(),
        properties: None,
        created_at: Some(timestamp(row.created_at)),
        updated_at: Some(timestamp(row.updated_at)),
        version: row.version,
        properties_json: Vec::new(),
    }
}

/// The versions a conditional update or delete accepts: `expected_version`, the list of
/// `expected_versions`, or (both given) the versions both allow; None when neither is set.
fn expected_versions(one: Option<i64>, list: Option<&pb::ExpectedVersions>) -> Option<Vec<i64>> {
    match (one, list) {
        (None, None) => None,
        (Some(one), None) => Some(vec![one]),
        (None, Some(list)) => Some(list.versions.clone()),
        (Some(one), Some(list)) => Some(list.versions.iter().copied().filter(|v| *v == one).collect()),
    }
}

/// The conditions of a write: `If-Match` from the expected versions, the others from
/// `preconditions` (unset: none).
pub fn conditions(
    one: Option<i64>,
    list: Option<&pb::ExpectedVersions>,
    more: Option<&pb::Preconditions>,
) -> Result<Preconditions, CoreError> {
    let mut conditions = Preconditions::if_match(expected_versions(one, list));
    if let Some(more) = more {
        conditions.if_none_match = match (more.none_match_any, more.none_match_versions.is_empty()) {
            (true, _) => Some(NoneMatch::Any),
            (false, false) => Some(NoneMatch::Versions(more.none_match_versions.clone())),
            (false, true) => None,
        };
        conditions.if_unmodified_since = more
            .unmodified_since
            .map(|t| chrono::DateTime::from_timestamp(t.seconds, 0))
            .map(|t| t.ok_or_else(|| CoreError::invalid("unmodified_since", "is not a time")))
            .transpose()?;
    }
    Ok(conditions)
}
