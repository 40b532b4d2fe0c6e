//! Users, API tokens, projects and memberships.

use chrono::Utc;
use serde_json::json;

use super::AccountsService;
use crate::domain::{tokens, Environment, EventId, EventKind, ProjectId, ProjectRole, TokenId, UserId};
use crate::error::{CoreError, CoreResult};
use crate::service::{page_size, Principal};
use crate::storage::{MembershipRow, NewEvent, ProjectRow, TokenRow, UserProjectRow, UserRow};
use canvas_vocabulary::limits::PROJECTS_PAGE;

/// Longest user or project name.
const MAX_NAME: usize = 128;

fn checked_name(field: &str, raw: &str) -> CoreResult<String> {
    let name = raw.trim();
    crate::domain::text::check(field, name)?;
    if name.is_empty() {
        return Err(CoreError::invalid(field, "is required and must not be empty"));
    }
    if name.chars().count() > MAX_NAME {
        return Err(CoreError::invalid(field, format!("must be at most {MAX_NAME} characters")));
    }
    Ok(name.to_owned())
}

/// A token just created: the secret is shown once.
pub struct IssuedToken {
    pub secret: String,
    pub row: TokenRow,
}

impl AccountsService {
    /// The user `id` names, if any (who-am-I answers the caller's own).
    pub async fn user(&self, id: UserId) -> CoreResult<Option<UserRow>> {
        self.store.get_user(id).await
    }

    /// Whether the project exists (no role asked: for system administrators' operations).
    pub(crate) async fn project_exists(&self, id: ProjectId) -> CoreResult<bool> {
        Ok(self.store.get_project(id).await?.is_some())
    }

    pub async fn create_user(&self, who: &Principal, name: &str, system_admin: bool) -> CoreResult<UserRow> {
        self.access.require_system_admin(who)?;
        self.insert_user(name, system_admin).await
    }

    async fn insert_user(&self, name: &str, system_admin: bool) -> CoreResult<UserRow> {
        let user =
            UserRow { id: UserId::new(), name: checked_name("name", name)?, system_admin, created_at: Utc::now() };
        self.store.insert_user(&user).await?;
        Ok(user)
    }

    pub async fn create_token(
        &self,
        who: &Principal,
        user_id: UserId,
        environment: Option<Environment>,
        name: &str,
    ) -> CoreResult<IssuedToken> {
        self.access.require_system_admin(who)?;
        if self.store.get_user(user_id).await?.is_none() {
            return Err(CoreError::not_found("user", user_id));
        }
        self.issue_token(user_id, environment.unwrap_or(self.settings.environment), name).await
    }

    pub(crate) async fn issue_token(
        &self,
        user_id: UserId,
        environment: Environment,
        name: &str,
    ) -> CoreResult<IssuedToken> {
        let name = name.trim();
        crate::domain::text::check("name", name)?;
        if name.chars().count() > MAX_NAME {
            return Err(CoreError::invalid("name", format!("must be at most {MAX_NAME} characters")));
        }
        let fresh = tokens::generate()?;
        let row = TokenRow {
            id: TokenId::new(),
            user_id,
            token_hash: fresh.hash.to_vec(),
            environment: environment.code(),
            name: name.to_owned(),
            created_at: Utc::now(),
            last_used_at: None,
            revoked_at: None,
            prefix: fresh.secret.chars().take(tokens::SHOWN_CHARS).collect(),
        };
        let most = self.settings.accounts.fair_share.api_tokens_per_person;
        if !self.store.insert_token_within(&row, most).await? {
            return Err(CoreError::Conflict(format!(
                "this person already holds {most} API tokens that are not revoked, the most one person may hold \
                 (--max-api-tokens-per-person); revoke one that is no longer used, then create this one"
            )));
        }
        Ok(IssuedToken { secret: fresh.secret, row })
    }

    pub async fn revoke_token(&self, who: &Principal, token_id: TokenId) -> CoreResult<TokenRow> {
        self.access.require_system_admin(who)?;
        let revoked = self.store.revoke_token(token_id, Utc::now()).await?;
        self.access.changed().await;
        revoked.ok_or_else(|| CoreError::not_found("token", token_id))
    }

    pub async fn list_tokens(&self, who: &Principal, user_id: UserId) -> CoreResult<Vec<TokenRow>> {
        if who.user_id != user_id {
            self.access.require_system_admin(who)?;
        }
        self.store.list_tokens(user_id).await
    }

    pub async fn create_project(&self, who: &Principal, name: &str, owner: UserId) -> CoreResult<ProjectRow> {
        self.access.require_system_admin(who)?;
        if self.store.get_user(owner).await?.is_none() {
            return Err(CoreError::not_found("user", owner));
        }
        let project = ProjectRow { id: ProjectId::new(), name: checked_name("name", name)?, created_at: Utc::now() };
        let membership = MembershipRow { project_id: project.id, user_id: owner, role: ProjectRole::Admin.code() };
        self.store.insert_project(&project, &membership).await?;
        Ok(project)
    }

    /// A user's projects with their role: their own, or anyone's for a
    /// system admin.
    pub async fn list_user_projects(
        &self,
        who: &Principal,
        user_id: UserId,
        requested: Option<u32>,
    ) -> CoreResult<Vec<UserProjectRow>> {
        if who.user_id != user_id {
            self.access.require_system_admin(who)?;
        }
        self.store.list_user_projects(user_id, page_size(requested, PROJECTS_PAGE)?).await
    }

    pub async fn get_project(&self, who: &Principal, project: ProjectId) -> CoreResult<(ProjectRow, ProjectRole)> {
        self.access.require_role(who, project, ProjectRole::Viewer).await
    }

    /// Member management: a system admin, or an Admin of the project.
    async fn require_member_admin(&self, who: &Principal, project: ProjectId) -> CoreResult<()> {
        if who.system_admin {
            return match self.store.get_project(project).await? {
                Some(_) => Ok(()),
                None => Err(CoreError::not_found("project", project)),
            };
        }
        self.access.require_role(who, project, ProjectRole::Admin).await.map(|_| ())
    }

    pub async fn list_members(&self, who: &Principal, project: ProjectId) -> CoreResult<Vec<MembershipRow>> {
        if !who.system_admin {
            self.access.require_role(who, project, ProjectRole::Viewer).await?;
        }
        self.store.list_members(project).await
    }

    pub async fn add_member(
        &self,
        who: &Principal,
        project: ProjectId,
        user: UserId,
        role: ProjectRole,
    ) -> CoreResult<MembershipRow> {
        self.require_member_admin(who, project).await?;
        if self.store.get_user(user).await?.is_none() {
            return Err(CoreError::not_found("user", user));
        }
        let member = MembershipRow { project_id: project, user_id: user, role: role.code() };
        let event = member_event(who, project, user, EventKind::UserAdded, json!({"new": {"role": role.as_str()}}));
        self.store.add_member(&member, &event).await?;
        self.access.changed().await;
        Ok(member)
    }

    pub async fn set_member_role(
        &self,
        who: &Principal,
        project: ProjectId,
        user: UserId,
        role: ProjectRole,
    ) -> CoreResult<MembershipRow> {
        self.require_member_admin(who, project).await?;
        let member = MembershipRow { project_id: project, user_id: user, role: role.code() };
        // The previous role is read inside the write transaction; the event
        // records the new one, and the old one when it can be known up front.
        let previous = self.store.list_members(project).await?.into_iter().find(|m| m.user_id == user);
        let old = previous.and_then(|m| ProjectRole::from_code(m.role)).map(ProjectRole::as_str);
        let event = member_event(
            who,
            project,
            user,
            EventKind::UserRoleChanged,
            json!({"new": {"role": role.as_str()}, "old": {"role": old}}),
        );
        let changed = self.store.set_member_role(&member, &event).await?;
        self.access.changed().await;
        match changed {
            Some(_) => Ok(member),
            None => Err(CoreError::not_found("member", user)),
        }
    }

    pub async fn remove_member(&self, who: &Principal, project: ProjectId, user: UserId) -> CoreResult<MembershipRow> {
        self.require_member_admin(who, project).await?;
        let event = member_event(who, project, user, EventKind::UserRemoved, json!({}));
        let removed = self.store.remove_member(project, user, &event).await?;
        self.access.changed().await;
        removed.ok_or_else(|| CoreError::not_found("member", user))
    }

    /// First start of an empty installation: creates a system admin and
    /// returns its token. Does nothing (None) when an admin exists.
    pub async fn bootstrap_admin(&self, name: &str) -> CoreResult<Option<(UserRow, IssuedToken)>> {
        if self.store.count_system_admins().await? > 0 {
            return Ok(None);
        }
        let admin = self.insert_user(name, true).await?;
        let token = self.issue_token(admin.id, self.settings.environment, "bootstrap admin").await?;
        Ok(Some((admin, token)))
    }
}

fn member_event(
    who: &Principal,
    project: ProjectId,
    user: UserId,
    kind: EventKind,
    payload: serde_json::Value,
) -> NewEvent {
    NewEvent {
        id: EventId::new(),
        project_id: project,
        kind,
        subject_id: user.uuid(),
        subject_type: "user".into(),
        actor_user_id: who.user_id,
        occurred_at: Utc::now(),
        payload,
    }
}
