//! `canvas.v1.TagService`: a project's tags (beyond the spec). Validate ids, authenticate, call
//! the service layer (`service/items/tags.rs`), convert.

use std::sync::Arc;

use canvas_proto::v1 as pb;
use canvas_proto::v1::tag_service_server::TagService;
use tonic::{Request, Response, Status};

use super::status::invalid;
use super::{authenticate, authenticate_reader, convert};
use crate::domain::{ProjectId, TagId};
use crate::service::items::tags::TagFields;
use crate::service::Core;
use crate::storage::TagRow;

/// gRPC face of the tag operations.
pub struct TagGrpc {
    pub core: Arc<Core>,
}

type Reply<T> = Result<Response<T>, Status>;

fn ids(project: &str, tag: &str) -> Result<(ProjectId, TagId), Status> {
    Ok((ProjectId::parse(project).map_err(invalid)?, TagId::parse(tag).map_err(invalid)?))
}

pub(super) fn tag(row: TagRow) -> pb::Tag {
    pb::Tag {
        tag_id: row.id.to_string(),
        project_id: row.project_id.to_string(),
        name: row.name,
        color: row.color,
        version: row.version,
        created_at: Some(convert::timestamp(row.created_at)),
        updated_at: Some(convert::timestamp(row.updated_at)),
    }
}

#[tonic::async_trait]
impl TagService for TagGrpc {
    async fn list_tags(&self, request: Request<pb::ListTagsRequest>) -> Reply<pb::ListTagsResponse> {
        let who = authenticate_reader(&self.core, &request).await?;
        let project = ProjectId::parse(&request.get_ref().project_id).map_err(invalid)?;
        let rows = self.core.items().list_tags(&who, project).await?;
        Ok(Response::new(pb::ListTagsResponse { tags: rows.into_iter().map(tag).collect() }))
    }

    async fn get_tag(&self, request: Request<pb::TagRequest>) -> Reply<pb::Tag> {
        let who = authenticate_reader(&self.core, &request).await?;
        let (project, id) = ids(&request.get_ref().project_id, &request.get_ref().tag_id)?;
        Ok(Response::new(tag(self.core.items().get_tag(&who, project, id).await?)))
    }

    async fn create_tag(&self, request: Request<pb::CreateTagRequest>) -> Reply<pb::Tag> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.into_inner();
        let project = ProjectId::parse(&req.project_id).map_err(invalid)?;
        let fields = TagFields { name: req.name, color: req.color };
        Ok(Response::new(tag(self.core.items().create_tag(&who, project, fields).await?)))
    }

    async fn update_tag(&self, request: Request<pb::UpdateTagRequest>) -> Reply<pb::Tag> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.into_inner();
        let (project, id) = ids(&req.project_id, &req.tag_id)?;
        let fields = TagFields { name: req.name, color: req.color };
        Ok(Response::new(tag(self.core.items().update_tag(&who, project, id, fields).await?)))
    }

    async fn delete_tag(&self, request: Request<pb::TagRequest>) -> Reply<pb::DeleteTagResponse> {
        let who = authenticate(&self.core, &request).await?;
        let (project, id) = ids(&request.get_ref().project_id, &request.get_ref().tag_id)?;
        let done = self.core.items().delete_tag(&who, project, id).await?;
        Ok(Response::new(pb::DeleteTagResponse {
            tag: Some(tag(done.tag)),
            untagged_item_ids: done.untagged.iter().map(ToString::to_string).collect(),
        }))
    }
}
