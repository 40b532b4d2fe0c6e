//! The webhooks side of a project archive (docs/ARCHIVE.md): a project's definitions written
//! without their history, and definitions read back into an imported project. Webhooks carry no
//! secret of their own (calls are signed with the installation's key ring), so a definition is
//! exactly what a client may send to create one.

use chrono::Utc;
use serde::Serialize;
use serde_json::value::RawValue;
use uuid::Uuid;

use super::WebhooksService;
use crate::domain::ProjectId;
use crate::error::{CoreError, CoreResult};
use crate::storage::WebhookRow;
use crate::webhooks::{event_mask, Definition};

/// A definition as `webhooks.json` holds it: the create body's properties, `customData` as its
/// exact text.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArchivedWebhook {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub url: String,
    pub enabled: bool,
    pub events: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_data: Option<Box<RawValue>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_deliveries_per_second: Option<i32>,
}

impl WebhooksService {
    /// Every webhook definition of `project`, oldest first, without status, history or ids.
    pub(crate) async fn archived_webhooks(&self, project: ProjectId) -> CoreResult<Vec<ArchivedWebhook>> {
        let rows = self.store.list_webhooks(project).await?;
        rows.into_iter()
            .map(|row| {
                let custom_data =
                    row.custom_data.map(RawValue::from_string).transpose().map_err(CoreError::internal)?;
                Ok(ArchivedWebhook {
                    name: row.name,
                    url: row.url,
                    enabled: row.enabled,
                    events: row.events,
                    custom_data,
                    max_deliveries_per_second: row.max_deliveries_per_second,
                })
            })
            .collect()
    }

    /// Reads a definition of an archive by the rules of a create (`field` names it in a refusal).
    /// The host is judged as a literal address is, without resolving a name: an imported webhook
    /// is never called until a person saves it again, and that save resolves it.
    pub(crate) fn archived_definition(&self, field: &str, json: &str) -> CoreResult<Definition> {
        Definition::parse(json, self.runtime.client.policy()).map_err(|error| match error {
            CoreError::Validation(violations) => CoreError::Validation(
                violations
                    .into_iter()
                    .map(|v| crate::error::FieldViolation { field: format!("{field}.{}", v.field), ..v })
                    .collect(),
            ),
            other => other,
        })
    }

    /// Writes `definitions` into the imported `project`, each inactive
    /// (`copiedFromOtherProject`) until a PUT saves it again, as a project copy's are: whoever
    /// imports decides whether its receiver should get a second project's calls.
    pub(crate) async fn insert_archived(&self, project: ProjectId, definitions: Vec<Definition>) -> CoreResult<usize> {
        let count = definitions.len();
        let now = Utc::now();
        for definition in definitions {
            let row = WebhookRow {
                id: Uuid::now_v7(),
                project_id: project,
                name: definition.name,
                url: definition.url,
                enabled: definition.enabled,
                event_mask: event_mask(definition.events.iter().map(String::as_str)),
                events: definition.events,
                custom_data: definition.custom_data,
                created_at: now,
                updated_at: now,
                inactive: Some(crate::webhooks::inactive::COPIED.to_owned()),
                last_attempt_at: None,
                last_success_at: None,
                last_status_code: None,
                last_error: None,
                consecutive_failures: 0,
                first_failure_at: None,
                disabled_at: None,
                disabled_reason: None,
                slow_down_until: None,
                max_deliveries_per_second: definition.max_deliveries_per_second.map(|n| n as i32),
            };
            self.store.insert_webhook(&row).await?;
        }
        Ok(count)
    }
}
