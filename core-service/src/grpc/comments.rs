//! `canvas.v1.CommentService`: comment threads (beyond the spec; docs/COMMENTS.md). Validate
//! ids, authenticate, call the service layer (`service/items/comments.rs`), convert.

use std::sync::Arc;

use canvas_proto::v1 as pb;
use canvas_proto::v1::comment_service_server::CommentService;
use tonic::{Request, Response, Status};

use super::status::invalid;
use super::{authenticate, authenticate_reader, convert};
use crate::domain::{CommentId, ProjectId, ThreadId};
use crate::service::items::comments::{NewThread, ThreadQuery, ThreadView};
use crate::service::Core;
use crate::storage::CommentRow;

/// gRPC face of the comment operations.
pub struct CommentGrpc {
    pub core: Arc<Core>,
}

type Reply<T> = Result<Response<T>, Status>;

fn ids(project: &str, thread: &str) -> Result<(ProjectId, ThreadId), Status> {
    Ok((ProjectId::parse(project).map_err(invalid)?, ThreadId::parse(thread).map_err(invalid)?))
}

fn comment(row: CommentRow) -> pb::Comment {
    pb::Comment {
        comment_id: row.id.to_string(),
        thread_id: row.thread_id.to_string(),
        text: row.text,
        mention_user_ids: row.mentions.0.iter().map(ToString::to_string).collect(),
        author_user_id: row.author_user_id.to_string(),
        created_at: Some(convert::timestamp(row.created_at)),
        updated_at: Some(convert::timestamp(row.updated_at)),
        edited_at: row.edited_at.map(convert::timestamp),
    }
}

fn thread(view: ThreadView) -> pb::CommentThread {
    let row = view.thread;
    pb::CommentThread {
        thread_id: row.id.to_string(),
        project_id: row.project_id.to_string(),
        item_id: row.item_id.map(|id| id.to_string()),
        former_item_id: row.former_item_id.map(|id| id.to_string()),
        position: match (row.x, row.y) {
            (Some(x), Some(y)) => Some(pb::CommentPosition { x, y }),
            _ => None,
        },
        opening: Some(comment(view.opening)),
        replies: view.replies.into_iter().map(comment).collect(),
        resolved: row.resolved_at.is_some(),
        resolved_at: row.resolved_at.map(convert::timestamp),
        resolved_by_user_id: row.resolved_by.map(|id| id.to_string()),
        version: row.version,
        created_at: Some(convert::timestamp(row.created_at)),
        updated_at: Some(convert::timestamp(row.updated_at)),
    }
}

fn deleted(ids: Vec<CommentId>) -> pb::DeleteCommentResponse {
    pb::DeleteCommentResponse { deleted_comment_ids: ids.iter().map(ToString::to_string).collect() }
}

#[tonic::async_trait]
impl CommentService for CommentGrpc {
    async fn list_threads(&self, request: Request<pb::ListThreadsRequest>) -> Reply<pb::ListThreadsResponse> {
        let who = authenticate_reader(&self.core, &request).await?;
        let req = request.into_inner();
        let project = ProjectId::parse(&req.project_id).map_err(invalid)?;
        let changed_since = convert::changed_since(req.changed_since)?;
        let query = ThreadQuery {
            item: req.item_id,
            status: req.status,
            author: req.author,
            mentions: req.mentions,
            changed_since,
            page_size: req.page_size,
            cursor: Some(req.page_token),
        };
        let page = self.core.items().list_threads(&who, project, query).await?;
        Ok(Response::new(pb::ListThreadsResponse {
            threads: page.threads.into_iter().map(thread).collect(),
            next_page_token: page.next_cursor.unwrap_or_default(),
        }))
    }

    async fn list_my_mentions(&self, request: Request<pb::ListMyMentionsRequest>) -> Reply<pb::ListMyMentionsResponse> {
        let who = authenticate_reader(&self.core, &request).await?;
        let found = self.core.projects().mentions_of_me(&who, request.get_ref().page_size).await?;
        let threads = found
            .threads
            .into_iter()
            .map(|(project_name, view)| pb::MentionedThread { project_name, thread: Some(thread(view)) })
            .collect();
        let logins = found.logins.into_iter().map(|(user, login)| (user.to_string(), login)).collect();
        Ok(Response::new(pb::ListMyMentionsResponse { threads, logins }))
    }

    async fn get_thread(&self, request: Request<pb::ThreadRequest>) -> Reply<pb::CommentThread> {
        let who = authenticate_reader(&self.core, &request).await?;
        let (project, id) = ids(&request.get_ref().project_id, &request.get_ref().thread_id)?;
        Ok(Response::new(thread(self.core.items().get_thread(&who, project, id).await?)))
    }

    async fn create_thread(&self, request: Request<pb::CreateThreadRequest>) -> Reply<pb::CommentThread> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.into_inner();
        let project = ProjectId::parse(&req.project_id).map_err(invalid)?;
        let new = NewThread { text: req.text, item: req.item_id, position: req.position.map(|p| (p.x, p.y)) };
        Ok(Response::new(thread(self.core.items().create_thread(&who, project, new).await?)))
    }

    async fn update_thread(&self, request: Request<pb::UpdateThreadRequest>) -> Reply<pb::CommentThread> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.into_inner();
        let (project, id) = ids(&req.project_id, &req.thread_id)?;
        let view = self.core.items().update_thread(&who, project, id, req.text, req.resolved).await?;
        Ok(Response::new(thread(view)))
    }

    async fn delete_thread(&self, request: Request<pb::ThreadRequest>) -> Reply<pb::DeleteCommentResponse> {
        let who = authenticate(&self.core, &request).await?;
        let (project, id) = ids(&request.get_ref().project_id, &request.get_ref().thread_id)?;
        Ok(Response::new(deleted(self.core.items().delete_thread(&who, project, id).await?)))
    }

    async fn add_reply(&self, request: Request<pb::AddReplyRequest>) -> Reply<pb::Comment> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.into_inner();
        let (project, id) = ids(&req.project_id, &req.thread_id)?;
        Ok(Response::new(comment(self.core.items().add_reply(&who, project, id, req.text).await?)))
    }

    async fn update_reply(&self, request: Request<pb::UpdateReplyRequest>) -> Reply<pb::Comment> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.into_inner();
        let (project, id) = ids(&req.project_id, &req.thread_id)?;
        let reply = CommentId::parse(&req.comment_id).map_err(invalid)?;
        Ok(Response::new(comment(self.core.items().update_reply(&who, project, id, reply, req.text).await?)))
    }

    async fn delete_reply(&self, request: Request<pb::ReplyRequest>) -> Reply<pb::DeleteCommentResponse> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.into_inner();
        let (project, id) = ids(&req.project_id, &req.thread_id)?;
        let reply = CommentId::parse(&req.comment_id).map_err(invalid)?;
        Ok(Response::new(deleted(self.core.items().delete_reply(&who, project, id, reply).await?)))
    }
}
