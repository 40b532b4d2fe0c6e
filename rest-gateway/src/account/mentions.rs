//! `GET /account/mentions`: "Mentions of me" (docs/COMMENTS.md): the open comment threads that
//! mention the signed-in person, in every project they are a member of, the most recently changed
//! first (`CommentService.ListMyMentions`), each with the comment that mentions them, who wrote
//! it, when, and a link to the thread's place on the map.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use canvas_proto::v1 as pb;
use canvas_proto::v1::comment_service_client::CommentServiceClient;

use super::calls;
use super::html::{self, escape, Page};
use super::pages::{path_segment, signed_in};
use super::site::{self, Visitor};
use crate::state::AppState;

/// Characters of a comment shown on the page (the map shows it whole).
const EXCERPT_CHARS: usize = 280;

pub(crate) async fn page(State(state): State<AppState>, visitor: Visitor) -> Response {
    let info = signed_in!(state, visitor);
    let me = info.user.as_ref().map(|u| u.user_id.clone()).unwrap_or_default();
    let reply = calls::read(pb::ListMyMentionsRequest { page_size: None }, visitor.session.as_deref(), |r| {
        let mut client = CommentServiceClient::new(state.channel.clone());
        async move { client.list_my_mentions(r).await }
    })
    .await;
    let reply = match reply {
        Ok(reply) => reply,
        Err(failure) => return failure.respond(&visitor, &visitor.here, false),
    };
    let body = if reply.threads.is_empty() {
        "<p>Nobody mentions you in an open thread. When someone writes <code>@your-login</code> in a comment, \
         it shows here.</p>"
            .to_owned()
    } else {
        let rows: String = reply.threads.iter().filter_map(|m| row(m, &me, &reply.logins)).collect();
        format!(
            "<table class=\"records mentions\"><caption>Open threads that mention you, newest first</caption>\
             <thead><tr><th scope=\"col\">Project</th><th scope=\"col\">Who</th><th scope=\"col\">Comment</th>\
             <th scope=\"col\">When</th><th scope=\"col\">Where</th></tr></thead><tbody>{rows}</tbody></table>"
        )
    };
    Page::new("Mentions of me", body).nav(site::nav(&info, "/account/mentions")).into_response()
}

/// One thread: the newest of its comments that mentions `me` (the opening one otherwise).
fn row(
    mentioned: &pb::MentionedThread,
    me: &str,
    logins: &std::collections::HashMap<String, String>,
) -> Option<String> {
    let thread = mentioned.thread.as_ref()?;
    let opening = thread.opening.as_ref()?;
    let comment = thread
        .replies
        .iter()
        .rev()
        .chain(std::iter::once(opening))
        .find(|c| c.mention_user_ids.iter().any(|id| id == me))
        .unwrap_or(opening);
    let text = canvas_html::to_text(&comment.text);
    let mut excerpt: String = text.chars().take(EXCERPT_CHARS).collect();
    if text.chars().count() > EXCERPT_CHARS {
        excerpt.push('…');
    }
    let who = logins.get(&comment.author_user_id).map_or("someone", String::as_str);
    let project = if mentioned.project_name.is_empty() { &thread.project_id } else { &mentioned.project_name };
    let map = format!("/map/{}", path_segment(&thread.project_id));
    let (href, place) = match &thread.item_id {
        Some(item) => (format!("{map}?node={}", path_segment(item)), "on an item"),
        None => (map, "on the map"),
    };
    Some(format!(
        "<tr data-thread-id=\"{id}\"><td>{project}</td><td>@{who}</td><td>{excerpt}</td><td>{at}</td>\
         <td><a class=\"map-link\" href=\"{href}\">Open {place}</a></td></tr>",
        id = escape(&thread.thread_id),
        project = escape(project),
        who = escape(who),
        excerpt = escape(&excerpt),
        at = html::time(comment.updated_at.as_ref(), ""),
        href = escape(&href),
    ))
}
