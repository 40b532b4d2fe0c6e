//! What `POST /api/v2/projects/import` answers (docs/ARCHIVE.md). The archive itself travels as
//! the request body, bytes the gateway never reads.

use serde::Serialize;
use utoipa::ToSchema;

/// The new project an archive made.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ImportedProject {
    #[schema(format = "uuid")]
    pub project_id: String,
    pub name: String,
    /// Items created, each with a new id.
    pub items: u32,
    /// Diagram records created.
    pub diagrams: u32,
    /// Distinct files stored.
    pub files: u32,
    /// Webhook definitions created, each inactive (`copiedFromOtherProject`) until saved again.
    pub webhooks: u32,
    /// Logins of the archive's members who are members of the new project (with their role).
    pub members_added: Vec<String>,
    /// The archive's members no user here has the login of (their login, or their name when
    /// they had none): not added.
    pub members_skipped: Vec<String>,
}
