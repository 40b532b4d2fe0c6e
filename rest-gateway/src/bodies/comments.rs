//! Bodies of comment threads (beyond the spec; docs/COMMENTS.md). The request types are what
//! `routes::comments` deserialises bodies with ([`super::parse`]), so the schema is the parser;
//! the rules (text, anchors, limits) are core-service's, from `canvas_vocabulary::limits::comments`.

use canvas_vocabulary::limits::comments::{MAX_COORDINATE, MAX_MENTIONS, MAX_REPLIES, MAX_TEXT_CHARS};
use serde::{Deserialize, Serialize};
use utoipa::openapi::schema::{Object, ObjectBuilder, Type};
use utoipa::ToSchema;

/// A point of the map, as a request sends it.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, expecting = "a point {x, y}")]
pub struct CommentPosition {
    #[schema(schema_with = coordinate)]
    pub x: f64,
    #[schema(schema_with = coordinate)]
    pub y: f64,
}

fn coordinate() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::Number)
        .minimum(Some(-MAX_COORDINATE))
        .maximum(Some(MAX_COORDINATE))
        .description(Some("map coordinate"))
        .build()
}

fn comment_text() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(1))
        .max_length(Some(MAX_TEXT_CHARS))
        .pattern(Some("\\S"))
        .description(Some(format!(
            "plain text or HTML under the label rule, 1 to {MAX_TEXT_CHARS} characters; `@login` mentions a member \
             (at most {MAX_MENTIONS} people)"
        )))
        .build()
}

/// `POST .../comments`: a thread's first comment and where it is (an item or a point, not both).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, expecting = "a thread {text, itemId} or {text, position}")]
pub struct ThreadRequest {
    #[serde(default)]
    #[schema(schema_with = comment_text)]
    pub text: Option<String>,
    #[serde(default)]
    #[schema(format = "uuid")]
    pub item_id: Option<String>,
    #[serde(default)]
    pub position: Option<CommentPosition>,
}

/// `PATCH .../comments/{threadId}`: the first comment's new text (its author only), resolve
/// (`true`) or reopen (`false`); a field not sent is kept.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, expecting = "a thread change {text, resolved}")]
pub struct ThreadChange {
    #[serde(default)]
    #[schema(schema_with = comment_text)]
    pub text: Option<String>,
    #[serde(default)]
    pub resolved: Option<bool>,
}

/// `POST .../comments/{threadId}/replies` and `PATCH .../replies/{commentId}`.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, expecting = "a reply {text}")]
pub struct ReplyRequest {
    #[serde(default)]
    #[schema(schema_with = comment_text)]
    pub text: Option<String>,
}

/// A point of the map, as an answer shows it (in the answer's casing, as every member).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct CommentPoint {
    pub x: f64,
    pub y: f64,
}

/// One reply.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct Comment {
    #[schema(format = "uuid")]
    pub comment_id: String,
    #[schema(format = "uuid")]
    pub thread_id: String,
    pub text: String,
    /// The ids of the members its text mentions.
    pub mentions: Vec<String>,
    #[schema(format = "uuid")]
    pub author_user_id: String,
    #[schema(format = "date-time")]
    pub created_at: String,
    #[schema(format = "date-time")]
    pub updated_at: String,
    /// When its text was last changed; null if never.
    #[schema(format = "date-time")]
    pub edited_at: Option<String>,
}

/// A thread: its first comment's fields, where it is, its state and its replies.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct CommentThread {
    #[schema(format = "uuid")]
    pub thread_id: String,
    #[schema(format = "uuid")]
    pub project_id: String,
    /// The item it is on; null for a thread on a point.
    #[schema(format = "uuid")]
    pub item_id: Option<String>,
    /// The item it was on, once that item was deleted.
    #[schema(format = "uuid")]
    pub former_item_id: Option<String>,
    /// The point it is on; null for a thread on an item.
    pub position: Option<CommentPoint>,
    pub text: String,
    pub mentions: Vec<String>,
    #[schema(format = "uuid")]
    pub author_user_id: String,
    pub resolved: bool,
    #[schema(format = "date-time")]
    pub resolved_at: Option<String>,
    #[schema(format = "uuid")]
    pub resolved_by_user_id: Option<String>,
    /// Oldest first.
    pub replies: Vec<Comment>,
    #[schema(schema_with = reply_count)]
    pub reply_count: u32,
    /// Bumped by every change of the thread or its replies.
    pub version: i64,
    #[schema(format = "date-time")]
    pub created_at: String,
    #[schema(format = "date-time")]
    pub updated_at: String,
    #[schema(format = "date-time")]
    pub edited_at: Option<String>,
}

fn reply_count() -> Object {
    ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(0)).maximum(Some(MAX_REPLIES as f64)).build()
}

/// One page of threads.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ThreadPage {
    pub threads: Vec<CommentThread>,
    /// The `cursor` of the next page; null on the last.
    pub next_cursor: Option<String>,
}

/// What a delete removed.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct CommentsDeleted {
    /// A thread's replies then the thread's own id; or the one reply.
    pub deleted_comment_ids: Vec<String>,
}
