//! `list_comments`, `add_comment`, `reply_comment` and `resolve_comment`: comment threads on the
//! map (beyond the spec; docs/COMMENTS.md), how a person tells an agent what to change and how an
//! agent asks before it changes someone's work. Each is one CommentService call; the rules are
//! core-service's.

use canvas_proto::v1 as pb;
use canvas_proto::v1::comment_service_client::CommentServiceClient;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::output::rfc3339;
use super::{CanvasTool, Hints, ToolContext};
use crate::error::ToolFailure;

fn client(ctx: &ToolContext) -> CommentServiceClient<canvas_proto::channel::CoreChannel> {
    CommentServiceClient::new(ctx.state.channel.clone())
}

/// A point of the map.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PointOut {
    pub x: f64,
    pub y: f64,
}

/// One comment of a thread.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommentOut {
    pub comment_id: String,
    pub text: String,
    pub author_user_id: String,
    /// The ids of the members it mentions.
    pub mentions: Vec<String>,
    /// When it was written (RFC 3339).
    pub created_at: String,
}

impl From<pb::Comment> for CommentOut {
    fn from(comment: pb::Comment) -> Self {
        CommentOut {
            comment_id: comment.comment_id,
            text: comment.text,
            author_user_id: comment.author_user_id,
            mentions: comment.mention_user_ids,
            created_at: rfc3339(comment.created_at),
        }
    }
}

/// A thread: what it is about, where, its state and every comment, oldest first.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ThreadOut {
    pub thread_id: String,
    /// The item it is about; absent for a thread on a point of the map.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item_id: Option<String>,
    /// The item it was about, once that item was deleted; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub former_item_id: Option<String>,
    /// The point it is on, for a thread not on an item; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<PointOut>,
    pub resolved: bool,
    /// The first comment, then the replies.
    pub comments: Vec<CommentOut>,
    /// Bumped by every change of the thread.
    pub version: i64,
}

impl From<pb::CommentThread> for ThreadOut {
    fn from(thread: pb::CommentThread) -> Self {
        let comments = thread.opening.into_iter().chain(thread.replies).map(Into::into).collect();
        ThreadOut {
            thread_id: thread.thread_id,
            item_id: thread.item_id,
            former_item_id: thread.former_item_id,
            position: thread.position.map(|p| PointOut { x: p.x, y: p.y }),
            resolved: thread.resolved,
            comments,
            version: thread.version,
        }
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ListCommentsArgs {
    /// The project (GUID).
    pub project_id: String,
    /// Only threads about this item (GUID).
    #[serde(default)]
    pub item_id: Option<String>,
    /// `open` (the default), `resolved` or `all`.
    #[serde(default)]
    pub status: Option<String>,
    /// Only threads that mention you.
    #[serde(default)]
    pub mentions_me: bool,
    /// `nextCursor` of the previous call, for the next page.
    #[serde(default)]
    pub cursor: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListCommentsOut {
    pub threads: Vec<ThreadOut>,
    pub count: usize,
    /// Pass as `cursor` for more; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

pub struct ListComments;

impl CanvasTool for ListComments {
    const NAME: &'static str = "list_comments";
    const TITLE: &'static str = "List comment threads";
    const DESCRIPTION: &'static str =
        "Lists the project's comment threads (open ones unless `status` says otherwise), \
        each with all its comments, oldest first. People leave comments on items to ask for changes: read the item a \
        thread names (itemId), make the change, reply_comment to say what you did, then resolve_comment.";
    const HINTS: Hints = Hints::READ;
    type Args = ListCommentsArgs;
    type Output = ListCommentsOut;

    async fn run(ctx: &ToolContext, args: ListCommentsArgs) -> Result<ListCommentsOut, ToolFailure> {
        let request = pb::ListThreadsRequest {
            project_id: args.project_id,
            item_id: args.item_id,
            status: Some(args.status.unwrap_or_else(|| "open".into())),
            mentions: args.mentions_me.then(|| "me".into()),
            page_token: args.cursor.unwrap_or_default(),
            ..Default::default()
        };
        let reply = client(ctx).list_threads(ctx.request(request)).await?.into_inner();
        let threads: Vec<ThreadOut> = reply.threads.into_iter().map(Into::into).collect();
        let next_cursor = (!reply.next_page_token.is_empty()).then_some(reply.next_page_token);
        Ok(ListCommentsOut { count: threads.len(), threads, next_cursor })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AddCommentArgs {
    /// The project (GUID).
    pub project_id: String,
    /// Plain text (or HTML without scripts); `@login` mentions a member of the project.
    pub text: String,
    /// The item the comment is about (GUID); or give `x` and `y` for a point of the map.
    #[serde(default)]
    pub item_id: Option<String>,
    /// A point of the map, with `y`, for a comment not about one item.
    #[serde(default)]
    pub x: Option<f64>,
    #[serde(default)]
    pub y: Option<f64>,
}

pub struct AddComment;

impl CanvasTool for AddComment {
    const NAME: &'static str = "add_comment";
    const TITLE: &'static str = "Comment on an item or a point";
    const DESCRIPTION: &'static str = "Opens a comment thread on an item (itemId) or a point of the map (x, y), shown \
        to the people on the map. Use it to ask before changing someone's work, or to explain a change.";
    const HINTS: Hints = Hints::CREATE;
    type Args = AddCommentArgs;
    type Output = ThreadOut;

    async fn run(ctx: &ToolContext, args: AddCommentArgs) -> Result<ThreadOut, ToolFailure> {
        let position = match (args.x, args.y) {
            (None, None) => None,
            (x, y) => Some(pb::CommentPosition { x: x.unwrap_or(f64::NAN), y: y.unwrap_or(f64::NAN) }),
        };
        let message = pb::CreateThreadRequest {
            project_id: args.project_id,
            text: Some(args.text),
            item_id: args.item_id,
            position,
        };
        Ok(client(ctx).create_thread(ctx.request(message)).await?.into_inner().into())
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReplyCommentArgs {
    /// The project (GUID).
    pub project_id: String,
    /// The thread (GUID), from list_comments.
    pub thread_id: String,
    /// Plain text (or HTML without scripts); `@login` mentions a member of the project.
    pub text: String,
}

pub struct ReplyComment;

impl CanvasTool for ReplyComment {
    const NAME: &'static str = "reply_comment";
    const TITLE: &'static str = "Reply to a comment thread";
    const DESCRIPTION: &'static str = "Adds a reply to a comment thread: say what you changed, or ask what is meant.";
    const HINTS: Hints = Hints::CREATE;
    type Args = ReplyCommentArgs;
    type Output = CommentOut;

    async fn run(ctx: &ToolContext, args: ReplyCommentArgs) -> Result<CommentOut, ToolFailure> {
        let message =
            pb::AddReplyRequest { project_id: args.project_id, thread_id: args.thread_id, text: Some(args.text) };
        Ok(client(ctx).add_reply(ctx.request(message)).await?.into_inner().into())
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResolveCommentArgs {
    /// The project (GUID).
    pub project_id: String,
    /// The thread (GUID).
    pub thread_id: String,
    /// true to reopen a resolved thread instead.
    #[serde(default)]
    pub reopen: bool,
}

pub struct ResolveComment;

impl CanvasTool for ResolveComment {
    const NAME: &'static str = "resolve_comment";
    const TITLE: &'static str = "Resolve a comment thread";
    const DESCRIPTION: &'static str = "Marks a comment thread resolved once what it asked is done (or reopens it with \
        `reopen`). Resolving a resolved thread changes nothing.";
    const HINTS: Hints = Hints::OVERWRITE;
    type Args = ResolveCommentArgs;
    type Output = ThreadOut;

    async fn run(ctx: &ToolContext, args: ResolveCommentArgs) -> Result<ThreadOut, ToolFailure> {
        let message = pb::UpdateThreadRequest {
            project_id: args.project_id,
            thread_id: args.thread_id,
            text: None,
            resolved: Some(!args.reopen),
        };
        Ok(client(ctx).update_thread(ctx.request(message)).await?.into_inner().into())
    }
}
