//! The accounts side of a project archive (docs/ARCHIVE.md): a project's members named by login,
//! users found by login on import, and the removal of a project an import created but could not
//! finish. The rules of export and import themselves are `service/projects/`'s.

use super::sessions::normalise_login;
use super::AccountsService;
use crate::domain::{EventId, EventKind, ProjectId, ProjectRole, UserId};
use crate::error::{CoreError, CoreResult};
use crate::service::Principal;
use crate::storage::{MembershipRow, NewEvent, ProjectRow};

/// A member as an archive names them: by login, which another installation can match, never by
/// user id, which it cannot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchivedMember {
    /// None for a user who has no login (made by `canvasctl user create` without `--login`).
    pub login: Option<String>,
    /// The user's display name, for a reader of the archive.
    pub name: String,
    pub role: ProjectRole,
}

impl AccountsService {
    /// Every member of `project` with their login and name, by user id.
    pub(crate) async fn members_by_login(&self, project: ProjectId) -> CoreResult<Vec<ArchivedMember>> {
        let mut members = Vec::new();
        for member in self.store.list_members(project).await? {
            let Some(role) = ProjectRole::from_code(member.role) else { continue };
            let name = self.store.get_user(member.user_id).await?.map(|user| user.name).unwrap_or_default();
            let login = self.store.login_of(member.user_id).await?.map(|row| row.login);
            members.push(ArchivedMember { login, name, role });
        }
        Ok(members)
    }

    /// The logins of `users` (those who have one), by user: how an archive names comment authors.
    pub(crate) async fn logins_of(&self, users: &[UserId]) -> CoreResult<std::collections::HashMap<UserId, String>> {
        let mut logins = std::collections::HashMap::new();
        for &user in users {
            if let Some(row) = self.store.login_of(user).await? {
                logins.insert(user, row.login);
            }
        }
        Ok(logins)
    }

    /// The project, whoever asks (no role asked: for system administrators' operations).
    pub(crate) async fn project_row(&self, project: ProjectId) -> CoreResult<ProjectRow> {
        self.store.get_project(project).await?.ok_or_else(|| CoreError::not_found("project", project))
    }

    /// The user whose login `raw` is (compared as sign-in compares it: trimmed, lower-cased), if
    /// any; a text that cannot be a login names nobody.
    pub(crate) async fn user_by_login(&self, raw: &str) -> CoreResult<Option<UserId>> {
        let Ok(login) = normalise_login(raw) else { return Ok(None) };
        Ok(self.store.find_login(&login).await?.map(|row| row.user_id))
    }

    /// Adds the members of an imported project, each recording `user.added` as `add_member`
    /// does (an import's caller is a system administrator, who manages every project's members).
    pub(crate) async fn add_archived_members(
        &self,
        who: &Principal,
        project: ProjectId,
        members: &[(UserId, ProjectRole)],
    ) -> CoreResult<()> {
        self.access.require_system_admin(who)?;
        for &(user, role) in members {
            let member = MembershipRow { project_id: project, user_id: user, role: role.code() };
            let event = NewEvent {
                id: EventId::new(),
                project_id: project,
                kind: EventKind::UserAdded,
                subject_id: user.uuid(),
                subject_type: "user".into(),
                actor_user_id: who.user_id,
                occurred_at: chrono::Utc::now(),
                payload: serde_json::json!({"new": {"role": role.as_str()}}),
            };
            let added = self.store.add_member(&member, &event).await;
            self.access.changed().await;
            added?;
        }
        Ok(())
    }

    /// Deletes a project an import created and could not finish, with everything written into
    /// it so far; its memberships go too, so every replica forgets the roles it remembered.
    pub(crate) async fn discard_project(&self, project: ProjectId) -> CoreResult<()> {
        let deleted = self.store.delete_project(project).await;
        self.access.changed().await;
        deleted.map(|_| ())
    }
}
