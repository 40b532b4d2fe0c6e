//! `canvas.v1.ProjectArchiveService`: a project exported as a stream of chunks, and an archive
//! imported from one (docs/ARCHIVE.md). Each handler authenticates, reads the ids, and hands the
//! bytes to `service::projects`, which owns every rule.

use std::pin::Pin;
use std::sync::Arc;

use canvas_proto::v1 as pb;
use canvas_proto::v1::project_archive_service_server::ProjectArchiveService;
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::{Stream, StreamExt};
use tonic::{Request, Response, Status, Streaming};

use super::{authenticate, authenticate_reader};
use crate::domain::{ProjectId, UserId};
use crate::grpc::status::invalid;
use crate::service::projects::import::{ImportOptions, Spool};
use crate::service::Core;

/// gRPC face of project archives.
pub struct ArchiveGrpc {
    pub core: Arc<Core>,
}

type ChunkStream = Pin<Box<dyn Stream<Item = Result<pb::ArchiveChunk, Status>> + Send>>;

#[tonic::async_trait]
impl ProjectArchiveService for ArchiveGrpc {
    type ExportProjectStream = ChunkStream;

    async fn export_project(
        &self,
        request: Request<pb::ExportProjectRequest>,
    ) -> Result<Response<ChunkStream>, Status> {
        let who = authenticate_reader(&self.core, &request).await?;
        let project = ProjectId::parse(&request.get_ref().project_id).map_err(invalid)?;
        let archive = self.core.projects().export_project(&who, project).await?;
        let chunks = ReceiverStream::new(archive.chunks)
            .map(|chunk| chunk.map(|data| pb::ArchiveChunk { data }).map_err(Status::from));
        Ok(Response::new(Box::pin(chunks)))
    }

    async fn import_project(
        &self,
        request: Request<Streaming<pb::ImportProjectRequest>>,
    ) -> Result<Response<pb::ImportProjectResponse>, Status> {
        let who = authenticate(&self.core, &request).await?;
        // Refused before a byte of the archive is kept.
        self.core.projects().may_import(&who)?;
        let mut messages = request.into_inner();
        let mut spool = Spool::new().await?;
        let mut options: Option<ImportOptions> = None;
        while let Some(message) = messages.message().await? {
            if options.is_none() {
                let owner = match message.owner_user_id.trim() {
                    "" => None,
                    raw => Some(UserId::parse(raw).map_err(|_| {
                        Status::from(crate::error::CoreError::invalid("owner", "must be a GUID: the id of a user"))
                    })?),
                };
                options = Some(ImportOptions { owner, name: message.name.clone() });
            }
            spool.append(&message.data).await?;
        }
        let imported = self.core.projects().import_project(&who, options.unwrap_or_default(), spool).await?;
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Ok(Response::new(pb::ImportProjectResponse {
            project_id: imported.project.id.to_string(),
            name: imported.project.name,
            items: count(imported.items),
            diagrams: count(imported.diagrams),
            files: count(imported.files),
            webhooks: count(imported.webhooks),
            members_added: imported.members_added,
            members_skipped: imported.members_skipped,
        }))
    }
}
