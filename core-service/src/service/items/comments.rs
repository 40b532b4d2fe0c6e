//! Comment threads on an item or a point of the map (beyond the spec; docs/COMMENTS.md). Any
//! member reads them, opens threads, replies, resolves and reopens (Viewers included: a comment
//! changes no item); a comment's author edits it; its author, a Manager or an Admin deletes it.
//! Every write's role is read from the database, and every write commits with its `comment.*`
//! events. Deleting an item keeps its threads where it was (`storage::detach_threads!`).

use chrono::{DateTime, Utc};

use super::comment_rules::{check_mention_count, comment_text, mentioned_logins, status_filter, thread_point};
use super::ItemsService;
use crate::domain::{CommentId, ItemId, ProjectId, ProjectRole, ThreadId, UserId};
use crate::error::{CoreError, CoreResult};
use crate::service::{page_size, Principal};
use crate::storage::{CommentRefusal, CommentRow, Mentions, ThreadFilter, ThreadRow};
use canvas_vocabulary::limits::comments::{MAX_REPLIES, MAX_THREADS_PER_PROJECT};
use canvas_vocabulary::limits::COMMENTS_PAGE;

/// A thread with its comments, as every answer shows it.
#[derive(Debug, Clone)]
pub struct ThreadView {
    pub thread: ThreadRow,
    /// The thread's first comment.
    pub opening: CommentRow,
    /// The replies, oldest first.
    pub replies: Vec<CommentRow>,
}

/// A listing's filters as the client sent them (None: not sent); parsed here, where "me" is known.
#[derive(Debug, Clone, Default)]
pub struct ThreadQuery {
    pub item: Option<String>,
    pub status: Option<String>,
    pub author: Option<String>,
    pub mentions: Option<String>,
    pub changed_since: Option<DateTime<Utc>>,
    pub page_size: Option<u32>,
    pub cursor: Option<String>,
}

/// One page of threads.
#[derive(Debug, Clone)]
pub struct ThreadPage {
    pub threads: Vec<ThreadView>,
    /// Where the next page starts; None on the last.
    pub next_cursor: Option<String>,
}

/// A new thread's fields as the client sent them: text, and an item or a point.
#[derive(Debug, Clone, Default)]
pub struct NewThread {
    pub text: Option<String>,
    pub item: Option<String>,
    pub position: Option<(f64, f64)>,
}

impl ItemsService {
    /// A page of the project's threads, in the order they were opened, each with its replies.
    pub async fn list_threads(
        &self,
        who: &Principal,
        project: ProjectId,
        query: ThreadQuery,
    ) -> CoreResult<ThreadPage> {
        self.access.require_role(who, project, ProjectRole::Viewer).await?;
        let person = |field: &'static str, raw: Option<&str>| -> CoreResult<Option<UserId>> {
            match raw.map(str::trim).filter(|r| !r.is_empty()) {
                None => Ok(None),
                Some(me) if me.eq_ignore_ascii_case("me") => Ok(Some(who.user_id)),
                Some(id) => UserId::parse(id)
                    .map(Some)
                    .map_err(|_| CoreError::invalid(field, "must be `me` or a user id (GUID)")),
            }
        };
        let item = match query.item.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
            Some(raw) => Some(ItemId::parse(raw).map_err(|_| CoreError::invalid("item", "must be an item id (GUID)"))?),
            None => None,
        };
        let after = match query.cursor.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
            Some(raw) => Some(
                ThreadId::parse(raw)
                    .map_err(|_| CoreError::invalid("cursor", "is not a cursor returned by a previous page"))?,
            ),
            None => None,
        };
        let limit = page_size(query.page_size, COMMENTS_PAGE)?;
        let filter = ThreadFilter {
            item,
            resolved: status_filter(query.status.as_deref())?,
            author: person("author", query.author.as_deref())?,
            mentions: person("mentions", query.mentions.as_deref())?,
            changed_since: query.changed_since,
            after,
            limit: limit + 1,
        };
        let mut rows = self.store.list_threads(project, &filter).await?;
        let next_cursor = if rows.len() > limit as usize {
            rows.truncate(limit as usize);
            rows.last().map(|row| row.id.to_string())
        } else {
            None
        };
        Ok(ThreadPage { threads: self.with_comments(project, rows).await?, next_cursor })
    }

    pub async fn get_thread(&self, who: &Principal, project: ProjectId, thread: ThreadId) -> CoreResult<ThreadView> {
        self.access.require_role(who, project, ProjectRole::Viewer).await?;
        self.thread_view(project, thread).await
    }

    /// Opens a thread on an item or a point, with its first comment.
    pub async fn create_thread(&self, who: &Principal, project: ProjectId, new: NewThread) -> CoreResult<ThreadView> {
        self.access.require_role_to_write(who, project, ProjectRole::Viewer).await?;
        let text = comment_text(new.text.as_deref())?;
        let (item, point) = match (new.item.as_deref().map(str::trim), new.position) {
            (Some(_), Some(_)) => {
                return Err(CoreError::invalid(
                    "itemId",
                    "a thread is on an item or a point: send `itemId` or `position`, not both",
                ))
            }
            (None, None) => {
                return Err(CoreError::invalid(
                    "itemId",
                    "is required (or `position`, for a thread on a point of the map)",
                ))
            }
            (Some(raw), None) => (Some(ItemId::parse(raw).map_err(CoreError::from)?), None),
            (None, Some((x, y))) => (None, Some(thread_point(x, y)?)),
        };
        if let Some(item) = item {
            if self.store.get_item(project, item).await?.is_none() {
                return Err(item_gone(item));
            }
        }
        let mentions = self.mentions(project, &text).await?;
        let now = Utc::now();
        let id = ThreadId::new();
        let thread = ThreadRow {
            id,
            project_id: project,
            item_id: item,
            former_item_id: None,
            x: point.map(|p| p.0),
            y: point.map(|p| p.1),
            resolved_at: None,
            resolved_by: None,
            version: 1,
            created_by: who.user_id,
            created_at: now,
            updated_at: now,
        };
        let opening = comment_row(id.opening(), &thread, who.user_id, text, mentions, now);
        let outcome = self.store.insert_thread(&thread, &opening, MAX_THREADS_PER_PROJECT).await?;
        outcome.map_err(|refused| refusal(refused, id, item))?;
        self.outbox_written(project);
        Ok(ThreadView { thread, opening, replies: Vec::new() })
    }

    /// Edits a thread's first comment (`text`, its author only) and resolves or reopens it
    /// (`resolved`, any member); a field not sent is kept. Resolving a resolved thread changes
    /// nothing.
    pub async fn update_thread(
        &self,
        who: &Principal,
        project: ProjectId,
        thread: ThreadId,
        text: Option<String>,
        resolved: Option<bool>,
    ) -> CoreResult<ThreadView> {
        self.access.require_role_to_write(who, project, ProjectRole::Viewer).await?;
        if text.is_none() && resolved.is_none() {
            return Err(CoreError::invalid("text", "send `text`, `resolved` or both"));
        }
        if let Some(text) = text {
            self.edit_comment(who, project, thread, thread.opening(), Some(text)).await?;
        }
        if let Some(resolved) = resolved {
            let outcome = self.store.set_resolved(project, thread, resolved, who.user_id, Utc::now()).await?;
            if outcome.map_err(|refused| refusal(refused, thread, None))?.is_some() {
                self.outbox_written(project);
            }
        }
        self.thread_view(project, thread).await
    }

    /// Deletes a thread with its replies: its author, a Manager or an Admin.
    pub async fn delete_thread(
        &self,
        who: &Principal,
        project: ProjectId,
        thread: ThreadId,
    ) -> CoreResult<Vec<CommentId>> {
        self.delete_comment(who, project, thread, thread.opening()).await
    }

    /// Adds a reply to a thread.
    pub async fn add_reply(
        &self,
        who: &Principal,
        project: ProjectId,
        thread: ThreadId,
        text: Option<String>,
    ) -> CoreResult<CommentRow> {
        self.access.require_role_to_write(who, project, ProjectRole::Viewer).await?;
        let text = comment_text(text.as_deref())?;
        let mentions = self.mentions(project, &text).await?;
        let now = Utc::now();
        let reply = CommentRow {
            id: CommentId::new(),
            thread_id: thread,
            project_id: project,
            author_user_id: who.user_id,
            text,
            mentions,
            created_at: now,
            updated_at: now,
            edited_at: None,
        };
        self.store.insert_reply(&reply, MAX_REPLIES).await?.map_err(|refused| refusal(refused, thread, None))?;
        self.outbox_written(project);
        Ok(reply)
    }

    /// Edits a reply's text: its author only.
    pub async fn update_reply(
        &self,
        who: &Principal,
        project: ProjectId,
        thread: ThreadId,
        comment: CommentId,
        text: Option<String>,
    ) -> CoreResult<CommentRow> {
        self.access.require_role_to_write(who, project, ProjectRole::Viewer).await?;
        not_the_opening(thread, comment)?;
        self.edit_comment(who, project, thread, comment, text).await
    }

    /// Deletes a reply: its author, a Manager or an Admin.
    pub async fn delete_reply(
        &self,
        who: &Principal,
        project: ProjectId,
        thread: ThreadId,
        comment: CommentId,
    ) -> CoreResult<Vec<CommentId>> {
        not_the_opening(thread, comment)?;
        self.delete_comment(who, project, thread, comment).await
    }

    async fn edit_comment(
        &self,
        who: &Principal,
        project: ProjectId,
        thread: ThreadId,
        comment: CommentId,
        text: Option<String>,
    ) -> CoreResult<CommentRow> {
        let text = comment_text(text.as_deref())?;
        let before = self.comment(project, thread, comment).await?;
        if before.author_user_id != who.user_id {
            return Err(CoreError::PermissionDenied("only a comment's author may change its text".into()));
        }
        let mentions = self.mentions(project, &text).await?;
        let now = Utc::now();
        let mut after = before.clone();
        (after.text, after.mentions, after.updated_at, after.edited_at) = (text, mentions, now, Some(now));
        let outcome = self.store.update_comment_text(&after, &before, who.user_id).await?;
        outcome.map_err(|refused| refusal(refused, thread, None))?;
        self.outbox_written(project);
        Ok(after)
    }

    async fn delete_comment(
        &self,
        who: &Principal,
        project: ProjectId,
        thread: ThreadId,
        comment: CommentId,
    ) -> CoreResult<Vec<CommentId>> {
        let (_, role) = self.access.require_role_to_write(who, project, ProjectRole::Viewer).await?;
        let found = self.comment(project, thread, comment).await?;
        if found.author_user_id != who.user_id && role < ProjectRole::Manager {
            return Err(CoreError::PermissionDenied(
                "only a comment's author, a Manager or an Admin may delete it".into(),
            ));
        }
        let outcome = self.store.delete_comment(project, thread, comment, who.user_id, Utc::now()).await?;
        let deleted = outcome.map_err(|refused| refusal(refused, thread, None))?;
        self.outbox_written(project);
        Ok(deleted)
    }

    /// A comment of a thread of the project, or the 404 naming what is missing.
    async fn comment(&self, project: ProjectId, thread: ThreadId, comment: CommentId) -> CoreResult<CommentRow> {
        match self.store.get_comment(project, thread, comment).await? {
            Some(row) => Ok(row),
            None if comment == thread.opening() => Err(CoreError::not_found("thread", thread)),
            None => match self.store.get_thread(project, thread).await? {
                Some(_) => Err(CoreError::not_found("comment", comment)),
                None => Err(CoreError::not_found("thread", thread)),
            },
        }
    }

    async fn thread_view(&self, project: ProjectId, thread: ThreadId) -> CoreResult<ThreadView> {
        let row =
            self.store.get_thread(project, thread).await?.ok_or_else(|| CoreError::not_found("thread", thread))?;
        let mut views = self.with_comments(project, vec![row]).await?;
        views.pop().ok_or_else(|| CoreError::not_found("thread", thread))
    }

    /// The threads with their comments (one read for all of them).
    async fn with_comments(&self, project: ProjectId, threads: Vec<ThreadRow>) -> CoreResult<Vec<ThreadView>> {
        let ids: Vec<ThreadId> = threads.iter().map(|t| t.id).collect();
        let mut views = Vec::with_capacity(threads.len());
        let mut by_thread: std::collections::HashMap<ThreadId, Vec<CommentRow>> = std::collections::HashMap::new();
        for comment in self.store.comments_of(project, &ids).await? {
            by_thread.entry(comment.thread_id).or_default().push(comment);
        }
        for thread in threads {
            let mut all = by_thread.remove(&thread.id).unwrap_or_default();
            // The first comment has the thread's id; a thread read between its delete's statements
            // (never committed without it) is skipped rather than shown half.
            let Some(at) = all.iter().position(|c| c.id == thread.id.opening()) else { continue };
            let opening = all.remove(at);
            views.push(ThreadView { thread, opening, replies: all });
        }
        Ok(views)
    }

    /// The members `text` mentions by login, each once, in the order first mentioned.
    async fn mentions(&self, project: ProjectId, text: &str) -> CoreResult<Mentions> {
        let logins = mentioned_logins(text);
        let members = self.access.members_by_login(project, &logins).await?;
        let ids: Vec<UserId> =
            logins.iter().filter_map(|login| members.iter().find(|(_, l)| l == login).map(|(id, _)| *id)).collect();
        check_mention_count(ids.len())?;
        Ok(Mentions(ids))
    }
}

fn comment_row(
    id: CommentId,
    thread: &ThreadRow,
    author: UserId,
    text: String,
    mentions: Mentions,
    now: DateTime<Utc>,
) -> CommentRow {
    CommentRow {
        id,
        thread_id: thread.id,
        project_id: thread.project_id,
        author_user_id: author,
        text,
        mentions,
        created_at: now,
        updated_at: now,
        edited_at: None,
    }
}

/// The reply paths name replies; a thread's first comment is the thread's own.
fn not_the_opening(thread: ThreadId, comment: CommentId) -> CoreResult<()> {
    if comment == thread.opening() {
        return Err(CoreError::invalid(
            "commentId",
            "names the thread's first comment: change or delete it through the thread (.../comments/{threadId})",
        ));
    }
    Ok(())
}

fn item_gone(item: ItemId) -> CoreError {
    CoreError::invalid("itemId", format!("no item '{item}' in this project"))
}

/// Why a comment write was refused, as the caller is told.
fn refusal(refusal: CommentRefusal, thread: ThreadId, item: Option<ItemId>) -> CoreError {
    match refusal {
        CommentRefusal::TooManyThreads => CoreError::Conflict(format!(
            "the project has {MAX_THREADS_PER_PROJECT} comment threads, the most a project may have; delete resolved ones first"
        )),
        CommentRefusal::TooManyReplies => CoreError::Conflict(format!(
            "the thread has {MAX_REPLIES} replies, the most a thread may have; open a new thread"
        )),
        CommentRefusal::Missing => CoreError::not_found("thread", thread),
        CommentRefusal::ItemGone => match item {
            Some(item) => CoreError::invalid("itemId", format!("no item '{item}' in this project (it was deleted)")),
            None => CoreError::not_found("thread", thread),
        },
    }
}
