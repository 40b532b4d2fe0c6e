//! An archive's comment threads (`comments.jsonl`, version 3; docs/ARCHIVE.md), both ways: each
//! thread written as one line with its comments, people named by login; and each line read back
//! by the rules of a create, its item remapped to the new one, its authors found by login (the
//! importing person where none matches), with new ids.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde_json::{json, Map, Value};

use super::super::comment_rules::{comment_text, mentioned_logins, thread_point};
use super::offences::{at, Offences};
use super::{named, IdMap};
use crate::domain::{CommentId, ProjectId, ThreadId, UserId};
use crate::error::CoreError;
use crate::service::Principal;
use crate::storage::{ArchivedThreads, CommentRow, Mentions, ThreadRow};
use canvas_vocabulary::limits::comments::MAX_REPLIES;

const ENTRY: &str = "comments.jsonl";
/// The members of a thread line and of one of its comments: any other is refused.
const THREAD_MEMBERS: [&str; 7] = ["threadId", "itemId", "position", "resolved", "resolvedAt", "createdAt", "comments"];
const COMMENT_MEMBERS: [&str; 5] = ["commentId", "author", "text", "createdAt", "editedAt"];

fn time(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// The line of `thread` with its `comments` (the first its own), people named by `logins`.
pub fn line(thread: &ThreadRow, comments: &[&CommentRow], logins: &HashMap<UserId, String>) -> Value {
    let person = |user: UserId| logins.get(&user).cloned();
    let comments: Vec<Value> = comments
        .iter()
        .map(|c| {
            json!({
                "commentId": c.id.to_string(),
                "author": person(c.author_user_id),
                "text": c.text,
                "createdAt": time(c.created_at),
                "editedAt": c.edited_at.map(time),
            })
        })
        .collect();
    json!({
        "threadId": thread.id.to_string(),
        "itemId": thread.item_id.map(|id| id.to_string()),
        "position": match (thread.x, thread.y) {
            (Some(x), Some(y)) => json!({"x": x, "y": y}),
            _ => Value::Null,
        },
        "resolved": thread.resolved_at.is_some(),
        "resolvedAt": thread.resolved_at.map(time),
        "createdAt": time(thread.created_at),
        "comments": comments,
    })
}

/// The archive's threads as rows of the new project (its id filled in at the write). `people`
/// are the users here by login (the archive's members and authors who have an account here).
pub fn plan(
    who: &Principal,
    lines: &[Value],
    items: &IdMap,
    people: &HashMap<String, UserId>,
    offences: &mut Offences,
) -> ArchivedThreads {
    let mut planned = ArchivedThreads::default();
    let mut seen: Vec<ThreadId> = Vec::new();
    let placeholder = ProjectId::from_uuid(uuid::Uuid::nil());
    for (i, line) in lines.iter().enumerate() {
        if offences.full() {
            break;
        }
        let field = |member: &str| at(ENTRY, i, member);
        let Some(object) = line.as_object() else {
            offences.push(at(ENTRY, i, ""), "must be a thread {threadId, itemId or position, comments, …}");
            continue;
        };
        if !known_members(object, &THREAD_MEMBERS, &field, offences) {
            continue;
        }
        let Some(old) = object.get("threadId").and_then(Value::as_str).and_then(|id| ThreadId::parse(id).ok()) else {
            offences.push(field("threadId"), "must be a GUID");
            continue;
        };
        if seen.contains(&old) {
            offences.push(field("threadId"), format!("repeats the thread '{old}'"));
            continue;
        }
        seen.push(old);
        let item = match object.get("itemId") {
            None | Some(Value::Null) => None,
            Some(Value::String(raw)) => match named(items, raw) {
                Some(renamed) => Some(renamed.id),
                None => {
                    offences.push(field("itemId"), format!("names no item of items.jsonl ('{raw}')"));
                    continue;
                }
            },
            Some(_) => {
                offences.push(field("itemId"), "must be an item id or null");
                continue;
            }
        };
        let point = match (item, object.get("position")) {
            (Some(_), None | Some(Value::Null)) => None,
            (None, Some(Value::Object(p))) => {
                match (p.get("x").and_then(Value::as_f64), p.get("y").and_then(Value::as_f64)) {
                    (Some(x), Some(y)) => match thread_point(x, y) {
                        Ok(point) => Some(point),
                        Err(error) => {
                            offences.push(field("position"), error.to_string());
                            continue;
                        }
                    },
                    _ => {
                        offences.push(field("position"), "must be {x, y}, two numbers");
                        continue;
                    }
                }
            }
            _ => {
                offences.push(field("itemId"), "a thread is on an item (itemId) or a point (position), exactly one");
                continue;
            }
        };
        let created_at = when(object.get("createdAt"), &field("createdAt"), offences).unwrap_or_else(Utc::now);
        let resolved = match object.get("resolved") {
            None | Some(Value::Bool(false)) => None,
            Some(Value::Bool(true)) => {
                Some(when(object.get("resolvedAt"), &field("resolvedAt"), offences).unwrap_or(created_at))
            }
            Some(_) => {
                offences.push(field("resolved"), "must be true or false");
                continue;
            }
        };
        let list = match object.get("comments") {
            Some(Value::Array(list)) if !list.is_empty() && list.len() <= MAX_REPLIES + 1 => list,
            _ => {
                offences.push(
                    field("comments"),
                    format!("must list the thread's comments, its own first: 1 to {}", MAX_REPLIES + 1),
                );
                continue;
            }
        };
        let id = ThreadId::new();
        let thread = ThreadRow {
            id,
            project_id: placeholder,
            item_id: item,
            former_item_id: None,
            x: point.map(|p| p.0),
            y: point.map(|p| p.1),
            resolved_at: resolved,
            resolved_by: resolved.map(|_| who.user_id),
            version: 1,
            created_by: who.user_id,
            created_at,
            updated_at: created_at,
        };
        let mut rows = Vec::with_capacity(list.len());
        for (j, comment) in list.iter().enumerate() {
            let member = |name: &str| field(&format!("comments[{j}].{name}"));
            let Some(comment) = comment.as_object() else {
                offences.push(field(&format!("comments[{j}]")), "must be a comment {author, text, createdAt, …}");
                continue;
            };
            if !known_members(comment, &COMMENT_MEMBERS, &member, offences) {
                continue;
            }
            let text = match comment_text(comment.get("text").and_then(Value::as_str)) {
                Ok(text) => text,
                Err(CoreError::Validation(violations)) => {
                    offences.extend_under(&field(&format!("comments[{j}]")), violations);
                    continue;
                }
                Err(other) => {
                    offences.push(member("text"), other.to_string());
                    continue;
                }
            };
            let author = comment.get("author").and_then(Value::as_str).map(str::to_lowercase);
            let author = author.and_then(|login| people.get(&login).copied()).unwrap_or(who.user_id);
            let mentions = mentioned_logins(&text).iter().filter_map(|login| people.get(login).copied()).collect();
            let written = when(comment.get("createdAt"), &member("createdAt"), offences).unwrap_or(created_at);
            let edited = match comment.get("editedAt") {
                None | Some(Value::Null) => None,
                raw => when(raw, &member("editedAt"), offences),
            };
            rows.push(CommentRow {
                id: if j == 0 { id.opening() } else { CommentId::new() },
                thread_id: id,
                project_id: placeholder,
                author_user_id: author,
                text,
                mentions: Mentions(mentions),
                created_at: written,
                updated_at: edited.unwrap_or(written),
                edited_at: edited,
            });
        }
        if rows.len() == list.len() {
            planned.threads.push(thread);
            planned.comments.extend(rows);
        }
    }
    planned
}

/// Whether `object` has only `members`; each other one is an offence.
fn known_members(
    object: &Map<String, Value>,
    members: &[&str],
    field: &dyn Fn(&str) -> String,
    offences: &mut Offences,
) -> bool {
    let unknown: Vec<&String> = object.keys().filter(|k| !members.contains(&k.as_str())).collect();
    for name in &unknown {
        offences.push(field(name), format!("is not a member here ({})", members.join(", ")));
    }
    unknown.is_empty()
}

/// An RFC 3339 time; None (and an offence when something else was sent) otherwise.
fn when(raw: Option<&Value>, field: &str, offences: &mut Offences) -> Option<DateTime<Utc>> {
    match raw {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => match DateTime::parse_from_rfc3339(text) {
            Ok(at) => Some(at.with_timezone(&Utc)),
            Err(_) => {
                offences.push(field, "must be an RFC 3339 time");
                None
            }
        },
        Some(_) => {
            offences.push(field, "must be an RFC 3339 time");
            None
        }
    }
}
