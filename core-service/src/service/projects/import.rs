//! An archive read into a new project (docs/ARCHIVE.md, "Import").
//!
//! All or nothing, in three steps. (1) The upload is spooled to a temporary file, refused past
//! [`limits::MAX_ARCHIVE_BYTES`]. (2) Every check runs before anything is written: the container
//! (`container.rs`), the members and webhook definitions, and every item and diagram record by
//! the items context's rules of a create (`ItemsService::plan_archive`), with every offence found
//! gathered into one refusal. (3) Only then the writes: the project (with its owner), the files
//! (content-addressed, so a file no committed row names is never shown), the items, their events
//! and the diagram records in one transaction, the members, the webhooks. A write that fails after
//! the project was created removes the project again, with whatever was written into it.

use std::collections::HashMap;
use std::str::FromStr;

use serde_json::Value;
use tokio::io::AsyncWriteExt;

use super::container;
use super::ProjectsService;
use crate::domain::{ProjectRole, UserId};
use crate::error::{CoreError, CoreResult, FieldViolation};
use crate::service::items::archive_items::ArchiveEntries;
use crate::service::Principal;
use crate::storage::ProjectRow;
use crate::webhooks::Definition;
use canvas_vocabulary::limits::archive as limits;

/// What the caller chose beside the archive.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// Who owns the new project (its Admin); the caller when None.
    pub owner: Option<UserId>,
    /// The new project's name; the archive's when None.
    pub name: Option<String>,
}

/// What an import made.
#[derive(Debug, Clone)]
pub struct Imported {
    pub project: ProjectRow,
    pub items: usize,
    pub diagrams: usize,
    pub files: usize,
    pub webhooks: usize,
    /// Logins of the archive's members who are members of the new project.
    pub members_added: Vec<String>,
    /// The archive's members with no user of that login here (by login, or by name for one
    /// without a login): not added.
    pub members_skipped: Vec<String>,
}

/// An archive being received, kept in a temporary file (deleted when dropped).
#[derive(Debug)]
pub struct Spool {
    file: tokio::fs::File,
    written: u64,
}

impl Spool {
    pub async fn new() -> CoreResult<Self> {
        let file = tokio::task::spawn_blocking(tempfile::tempfile)
            .await
            .map_err(CoreError::internal)?
            .map_err(CoreError::internal)?;
        Ok(Self { file: tokio::fs::File::from_std(file), written: 0 })
    }

    /// Adds the next bytes of the archive; past the limit the whole import is refused (413).
    pub async fn append(&mut self, bytes: &[u8]) -> CoreResult<()> {
        self.written += bytes.len() as u64;
        if self.written > limits::MAX_ARCHIVE_BYTES {
            return Err(CoreError::PayloadTooLarge(format!(
                "the archive is larger than the limit of {} bytes",
                limits::MAX_ARCHIVE_BYTES
            )));
        }
        self.file.write_all(bytes).await.map_err(CoreError::internal)
    }
}

/// A member as `project.json` lists them.
struct Member {
    login: Option<String>,
    name: String,
    role: ProjectRole,
}

impl ProjectsService {
    /// Whoever may create projects imports: system administrators (`CreateProject`,
    /// `canvasctl project create`). Checked before the archive is read.
    pub fn may_import(&self, who: &Principal) -> CoreResult<()> {
        self.access.require_system_admin(who)
    }

    /// Reads the spooled archive into a new project. See the module documentation.
    pub async fn import_project(&self, who: &Principal, options: ImportOptions, spool: Spool) -> CoreResult<Imported> {
        self.may_import(who)?;
        if spool.written == 0 {
            return Err(CoreError::invalid("archive", "is empty: send the archive's bytes"));
        }
        let file = spool.file.into_std().await;
        let contents =
            tokio::task::spawn_blocking(move || container::read(file)).await.map_err(CoreError::internal)??;
        let mut violations = Vec::new();
        let (archived_name, members) = read_project(&contents.project, &mut violations);
        let definitions = self.read_webhooks(&contents.webhooks, &mut violations);
        let people = self.people(&members, &contents.threads).await?;
        let entries = ArchiveEntries {
            items: &contents.items,
            diagrams: &contents.diagrams,
            tags: &contents.tags,
            threads: &contents.threads,
            files: &contents.files,
        };
        let plan = match self.items.plan_archive(who, entries, &people).await {
            Ok(plan) => Some(plan),
            Err(CoreError::Validation(found)) => {
                violations.extend(found);
                None
            }
            Err(other) => return Err(other),
        };
        let Some(plan) = plan.filter(|_| violations.is_empty()) else {
            return Err(CoreError::Validation(violations));
        };
        let name = options.name.unwrap_or(archived_name);
        let owner = options.owner.unwrap_or(who.user_id);
        let project = self.accounts.create_project(who, &name, owner).await?;
        let written = async {
            let (items, diagrams, files) = self.items.commit_archive(project.id, plan).await?;
            let (members_added, members_skipped) = self.add_members(who, &project, owner, members).await?;
            let webhooks = self.webhooks.insert_archived(project.id, definitions).await?;
            Ok::<_, CoreError>(Imported {
                project: project.clone(),
                items,
                diagrams,
                files,
                webhooks,
                members_added,
                members_skipped,
            })
        }
        .await;
        if written.is_err() {
            if let Err(error) = self.accounts.discard_project(project.id).await {
                tracing::error!(%error, project = %project.id, "an import failed and its project could not be removed");
            }
        }
        written
    }

    /// The users here of the logins the archive names (its members, and its comments' authors,
    /// who may have left the project), lower-cased: comments keep their authors where one matches.
    async fn people(&self, members: &[Member], threads: &[Value]) -> CoreResult<HashMap<String, UserId>> {
        let mut logins: Vec<String> =
            members.iter().filter_map(|m| m.login.as_deref()).map(str::to_lowercase).collect();
        for thread in threads {
            let comments = thread.get("comments").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            logins.extend(comments.iter().filter_map(|c| c.get("author")?.as_str()).map(str::to_lowercase));
        }
        logins.sort();
        logins.dedup();
        // Each is one look-up: an archive naming more people than a project may have members is
        // not one this service wrote.
        if logins.len() > limits::MAX_MEMBERS {
            return Err(CoreError::invalid(
                "comments.jsonl",
                format!("names {} people; an archive names at most {}", logins.len(), limits::MAX_MEMBERS),
            ));
        }
        let mut people = HashMap::new();
        for login in logins {
            if let Some(user) = self.accounts.user_by_login(&login).await? {
                people.insert(login, user);
            }
        }
        Ok(people)
    }

    /// The definitions of `webhooks.json`, each by the rules of a create.
    fn read_webhooks(
        &self,
        raw: &[Box<serde_json::value::RawValue>],
        violations: &mut Vec<FieldViolation>,
    ) -> Vec<Definition> {
        let mut definitions = Vec::new();
        for (i, text) in raw.iter().enumerate() {
            match self.webhooks.archived_definition(&format!("webhooks.json.webhooks[{i}]"), text.get()) {
                Ok(definition) => definitions.push(definition),
                Err(CoreError::Validation(found)) => violations.extend(found),
                Err(other) => {
                    violations.push(FieldViolation::new(format!("webhooks.json.webhooks[{i}]"), other.to_string()))
                }
            }
        }
        definitions
    }

    /// Adds each member whose login names a user here, with their role (a login listed twice
    /// counts once, with its first role); the owner keeps Admin. Answers the logins added and
    /// the members skipped.
    async fn add_members(
        &self,
        who: &Principal,
        project: &ProjectRow,
        owner: UserId,
        members: Vec<Member>,
    ) -> CoreResult<(Vec<String>, Vec<String>)> {
        let (mut added, mut skipped, mut users) = (Vec::new(), Vec::new(), Vec::new());
        for member in members {
            let user = match &member.login {
                Some(login) => self.accounts.user_by_login(login).await?,
                None => None,
            };
            match user {
                Some(user) if user == owner || users.iter().any(|(u, _)| *u == user) => {}
                Some(user) => users.push((user, member.role)),
                None => {
                    skipped.push(member.login.unwrap_or(member.name));
                    continue;
                }
            }
            added.push(member.login.unwrap_or_default());
        }
        self.accounts.add_archived_members(who, project.id, &users).await?;
        added.dedup();
        Ok((added, skipped))
    }
}

/// `project.json`: `{"name", "members": [{"login", "name", "role"}]}`.
fn read_project(project: &Value, violations: &mut Vec<FieldViolation>) -> (String, Vec<Member>) {
    let name = match project.get("name").and_then(Value::as_str) {
        Some(name) => name.to_owned(),
        None => {
            violations.push(FieldViolation::new("project.json.name", "is required: the project's name"));
            String::new()
        }
    };
    let list = match project.get("members") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(list)) if list.len() <= limits::MAX_MEMBERS => list.clone(),
        Some(_) => {
            violations.push(FieldViolation::new(
                "project.json.members",
                format!("must be a list of at most {} members", limits::MAX_MEMBERS),
            ));
            Vec::new()
        }
    };
    let mut members = Vec::new();
    for (i, member) in list.iter().enumerate() {
        let field = |name: &str| format!("project.json.members[{i}].{name}");
        let login = member.get("login").and_then(Value::as_str).map(str::to_owned);
        let name = member.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
        match member.get("role").and_then(Value::as_str).map(ProjectRole::from_str) {
            Some(Ok(role)) => members.push(Member { login, name, role }),
            _ => violations.push(FieldViolation::new(field("role"), "must be one of Viewer, Editor, Manager, Admin")),
        }
    }
    (name, members)
}
