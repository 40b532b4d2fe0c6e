//! The diagram record calls of `canvas.v1.ItemService` (`GetDiagram`, `ListDiagrams`,
//! `UpdateDiagram`, `DeleteDiagram`, `ExportItems`): validate ids, authenticate, call the service
//! layer (`service/diagram_records.rs`), convert. `items.rs` forwards the trait methods here.

use canvas_proto::v1 as pb;
use tonic::{Request, Response, Status};

use super::status::invalid;
use super::{authenticate, authenticate_reader, convert};
use crate::domain::{DiagramId, ItemId, ProjectId};
use crate::service::items::diagram_records::{DiagramRecord, DiagramWritten, WriteGuards};
use crate::service::items::item_filters::Region;
use crate::service::Core;
use crate::storage::DiagramRow;

type Reply<T> = Result<Response<T>, Status>;

fn ids(project: &str, diagram: &str) -> Result<(ProjectId, DiagramId), Status> {
    Ok((ProjectId::parse(project).map_err(invalid)?, DiagramId::parse(diagram).map_err(invalid)?))
}

fn record(row: DiagramRow) -> pb::DiagramRecord {
    pb::DiagramRecord {
        diagram_id: row.id.to_string(),
        project_id: row.project_id.to_string(),
        kind: row.kind,
        format: row.format,
        source: row.source,
        version: row.version,
        elements: Vec::new(),
        created_at: Some(convert::timestamp(row.created_at)),
        updated_at: Some(convert::timestamp(row.updated_at)),
        x: row.origin_x,
        y: row.origin_y,
        drawn: String::new(),
    }
}

fn with_elements(found: DiagramRecord) -> pb::DiagramRecord {
    let elements = found
        .elements
        .into_iter()
        .map(|e| pb::DiagramElement {
            element: e.element,
            part: e.part,
            item_id: e.item_id.to_string(),
            item_type: e.item_type,
        })
        .collect();
    pb::DiagramRecord { elements, ..record(found.row) }
}

fn strings(ids: Vec<ItemId>) -> Vec<String> {
    ids.iter().map(ToString::to_string).collect()
}

fn written(done: DiagramWritten) -> pb::DiagramWriteResponse {
    pb::DiagramWriteResponse {
        diagram_id: done.diagram.map(|d| d.to_string()).unwrap_or_default(),
        version: done.version,
        item_ids: strings(done.item_ids),
        nodes: done.nodes.into_iter().map(|(node, id)| (node, id.to_string())).collect(),
        created: strings(done.created),
        updated: strings(done.updated),
        deleted: strings(done.deleted),
    }
}

pub(super) async fn get(core: &Core, request: Request<pb::GetDiagramRequest>) -> Reply<pb::DiagramRecord> {
    let who = authenticate_reader(core, &request).await?;
    let req = request.get_ref();
    let (project, diagram) = ids(&req.project_id, &req.diagram_id)?;
    if !req.as_drawn {
        return Ok(Response::new(with_elements(core.items().get_diagram(&who, project, diagram).await?)));
    }
    let (found, drawn) = core.items().diagram_as_mermaid(&who, project, diagram).await?;
    Ok(Response::new(pb::DiagramRecord { drawn, ..with_elements(found) }))
}

pub(super) async fn list(core: &Core, request: Request<pb::ListDiagramsRequest>) -> Reply<pb::ListDiagramsResponse> {
    let who = authenticate_reader(core, &request).await?;
    let req = request.into_inner();
    let project = ProjectId::parse(&req.project_id).map_err(invalid)?;
    let (rows, next) = core.items().list_diagrams(&who, project, req.page_size, Some(&req.page_token)).await?;
    Ok(Response::new(pb::ListDiagramsResponse {
        diagrams: rows.into_iter().map(record).collect(),
        next_page_token: next.unwrap_or_default(),
    }))
}

pub(super) async fn update(core: &Core, request: Request<pb::UpdateDiagramRequest>) -> Reply<pb::DiagramWriteResponse> {
    let who = authenticate(core, &request).await?;
    let req = request.into_inner();
    let (project, diagram) = ids(&req.project_id, &req.diagram_id)?;
    let expected =
        super::convert::conditions(req.expected_version, req.expected_versions.as_ref(), req.preconditions.as_ref())?;
    let guards = WriteGuards { conditions: expected, ask_above: req.ask_above };
    let done = core.items().update_diagram(&who, project, diagram, &req.source, req.kind.as_deref(), guards).await?;
    Ok(Response::new(written(done)))
}

pub(super) async fn delete(core: &Core, request: Request<pb::DeleteDiagramRequest>) -> Reply<pb::DiagramWriteResponse> {
    let who = authenticate(core, &request).await?;
    let req = request.into_inner();
    let (project, diagram) = ids(&req.project_id, &req.diagram_id)?;
    let expected =
        super::convert::conditions(req.expected_version, req.expected_versions.as_ref(), req.preconditions.as_ref())?;
    let guards = WriteGuards { conditions: expected, ask_above: req.ask_above };
    let done = core.items().delete_diagram(&who, project, diagram, req.keep_items, guards).await?;
    Ok(Response::new(written(done)))
}

pub(super) async fn export(core: &Core, request: Request<pb::ExportItemsRequest>) -> Reply<pb::ExportedText> {
    let who = authenticate_reader(core, &request).await?;
    let req = request.into_inner();
    let project = ProjectId::parse(&req.project_id).map_err(invalid)?;
    let region = match req.region {
        Some(r) => Some(Region::new(r.x, r.y, r.width, r.height)?),
        None => None,
    };
    let (format, text) = core.items().export_items(&who, project, &req.format, region, req.frame.as_deref()).await?;
    Ok(Response::new(pb::ExportedText { format, text }))
}
