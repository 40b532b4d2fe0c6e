//! `canvas.v1.ItemService`: validate ids, authenticate, call the service
//! layer, convert. The creating calls run through [`Once`] (`idempotency-key`).

use crate::grpc::status::invalid;
use std::sync::Arc;

use canvas_proto::json::{from_proto_struct, to_proto_value};
use canvas_proto::v1 as pb;
use canvas_proto::v1::item_service_server::ItemService;
use tonic::{Request, Response, Status};

use super::idempotency::Once;
use super::{authenticate, authenticate_reader, convert};
use crate::domain::{AgentTaskId, ItemId, ProjectId};
use crate::error::CoreError;
use crate::service::items::bulk::BulkItem;
use crate::service::items::crud::{ListQuery, Upload, Written};
use crate::service::items::item_filters::{ItemMatch, Region};
use crate::service::Core;
use crate::storage::Landed;

/// gRPC face of the item operations.
pub struct ItemGrpc {
    pub core: Arc<Core>,
}

type Reply<T> = Result<Response<T>, Status>;

fn item_ref(written: Written) -> Response<pb::ItemRef> {
    Response::new(written_ref(written))
}

fn written_ref(written: Written) -> pb::ItemRef {
    pb::ItemRef {
        item_id: written.item.to_string(),
        version: written.version,
        item_type: written.item_type.to_string(),
    }
}

#[tonic::async_trait]
impl ItemService for ItemGrpc {
    async fn create_item(&self, request: Request<pb::CreateItemRequest>) -> Reply<pb::ItemRef> {
        let who = authenticate(&self.core, &request).await?;
        let once = Once::of(&request, &who, "/canvas.v1.ItemService/CreateItem", &request.get_ref().project_id)?;
        let (core, req) = (self.core.clone(), request.into_inner());
        let rebuild = |landed: &Landed| {
            landed.items().first().map(|item| pb::ItemRef {
                item_id: item.id.to_string(),
                version: item.version,
                item_type: item.item_type.clone(),
            })
        };
        once.run_rebuilding(
            &self.core,
            async move {
                let project = ProjectId::parse(&req.project_id)?;
                let properties = req.properties.map(from_proto_struct).unwrap_or_default();
                let upload = req.file.map(|f| Upload {
                    file_name: f.file_name,
                    declared_mime_type: f.declared_mime_type,
                    content: f.content,
                });
                let created =
                    core.items().create_item(&who, project, &req.parent, &req.item_type, properties, upload).await?;
                Ok(written_ref(created))
            },
            rebuild,
        )
        .await
    }

    async fn get_item(&self, request: Request<pb::GetItemRequest>) -> Reply<pb::Item> {
        let who = authenticate_reader(&self.core, &request).await?;
        let req = request.get_ref();
        let (project, item) =
            (ProjectId::parse(&req.project_id).map_err(invalid)?, ItemId::parse(&req.item_id).map_err(invalid)?);
        let row = self.core.items().get_item(&who, project, item).await?;
        let as_json = req.properties_as_json;
        Ok(Response::new(if as_json { convert::item_with_json_properties(row)? } else { convert::item(row) }))
    }

    async fn get_item_property(&self, request: Request<pb::GetItemPropertyRequest>) -> Reply<pb::ItemPropertyValue> {
        let who = authenticate_reader(&self.core, &request).await?;
        let req = request.get_ref();
        let (project, item) =
            (ProjectId::parse(&req.project_id).map_err(invalid)?, ItemId::parse(&req.item_id).map_err(invalid)?);
        let (name, value) = self.core.items().get_item_property(&who, project, item, &req.property).await?;
        Ok(Response::new(pb::ItemPropertyValue { property: name.to_owned(), value: Some(to_proto_value(value)) }))
    }

    async fn update_item(&self, request: Request<pb::UpdateItemRequest>) -> Reply<pb::ItemRef> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.into_inner();
        let (project, item) =
            (ProjectId::parse(&req.project_id).map_err(invalid)?, ItemId::parse(&req.item_id).map_err(invalid)?);
        let patch = req.properties.map(from_proto_struct).unwrap_or_default();
        let expected =
            convert::conditions(req.expected_version, req.expected_versions.as_ref(), req.preconditions.as_ref())?;
        let named_type = Some(req.item_type.as_str()).filter(|named| !named.is_empty());
        let parent = req.parent.as_deref();
        let written = self.core.items().update_item(&who, project, named_type, item, patch, parent, expected).await?;
        Ok(item_ref(written))
    }

    async fn delete_item(&self, request: Request<pb::DeleteItemRequest>) -> Reply<pb::ItemRef> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.get_ref();
        let (project, item) =
            (ProjectId::parse(&req.project_id).map_err(invalid)?, ItemId::parse(&req.item_id).map_err(invalid)?);
        let expected =
            convert::conditions(req.expected_version, req.expected_versions.as_ref(), req.preconditions.as_ref())?;
        let written = self.core.items().delete_item(&who, project, item, expected, req.ask_above).await?;
        Ok(item_ref(written))
    }

    async fn list_items(&self, request: Request<pb::ListItemsRequest>) -> Reply<pb::ListItemsResponse> {
        let who = authenticate_reader(&self.core, &request).await?;
        let req = request.into_inner();
        let project = ProjectId::parse(&req.project_id).map_err(invalid)?;
        let region = match req.region {
            Some(r) => Some(Region::new(r.x, r.y, r.width, r.height)?),
            None => None,
        };
        let changed_since = convert::changed_since(req.changed_since)?;
        let query = ListQuery {
            item_type: Some(req.item_type),
            parent: Some(req.parent),
            page_size: req.page_size,
            cursor: Some(req.page_token),
            matching: ItemMatch::new(region, Some(&req.text_contains), changed_since),
            tag: Some(req.tag),
            frame: Some(req.frame),
        };
        let page = self.core.items().list_items(&who, project, query).await?;
        Ok(Response::new(pb::ListItemsResponse {
            items: page.items.into_iter().map(convert::item).collect(),
            next_page_token: page.next_cursor.unwrap_or_default(),
        }))
    }

    async fn get_item_content(&self, request: Request<pb::GetItemContentRequest>) -> Reply<pb::ItemContent> {
        let who = authenticate_reader(&self.core, &request).await?;
        let req = request.get_ref();
        let (project, item) =
            (ProjectId::parse(&req.project_id).map_err(invalid)?, ItemId::parse(&req.item_id).map_err(invalid)?);
        let (mime_type, file_name, content) = self.core.items().get_item_content(&who, project, item).await?;
        Ok(Response::new(pb::ItemContent { mime_type, file_name, content }))
    }

    async fn find_item(&self, request: Request<pb::FindItemRequest>) -> Reply<pb::Item> {
        let who = authenticate_reader(&self.core, &request).await?;
        let item = ItemId::parse(&request.get_ref().item_id).map_err(invalid)?;
        let row = self.core.items().find_item(&who, item).await?;
        Ok(Response::new(convert::item(row)))
    }

    async fn create_items(&self, request: Request<pb::CreateItemsRequest>) -> Reply<pb::CreateItemsResponse> {
        let who = authenticate(&self.core, &request).await?;
        let once = Once::of(&request, &who, "/canvas.v1.ItemService/CreateItems", &request.get_ref().project_id)?;
        let (core, req) = (self.core.clone(), request.into_inner());
        // The answer lists the items in request order with their references; the write inserts
        // them in that order.
        let references: Vec<Option<String>> = req.items.iter().map(|item| item.reference.clone()).collect();
        let rebuild = move |landed: &Landed| {
            let landed = landed.items();
            (landed.len() == references.len()).then(|| pb::CreateItemsResponse {
                items: references
                    .iter()
                    .zip(landed)
                    .map(|(reference, item)| pb::CreatedItem {
                        reference: reference.clone(),
                        item_id: item.id.to_string(),
                    })
                    .collect(),
            })
        };
        once.run_rebuilding(
            &self.core,
            async move {
                let project = ProjectId::parse(&req.project_id)?;
                let batch = req
                    .items
                    .into_iter()
                    .map(|item| BulkItem {
                        reference: item.reference,
                        item_type: item.item_type,
                        parent: Some(item.parent).filter(|p| !p.trim().is_empty()),
                        properties: item.properties.map(from_proto_struct).unwrap_or_default(),
                    })
                    .collect();
                // Boxed: the write is a large future, and scoped to a task it would be two.
                let create = Box::pin(core.items().create_items(&who, project, batch));
                let created = match req.task_id.as_deref() {
                    Some(task) => {
                        let claim = core.items().task_claim(&who, AgentTaskId::parse(task)?).await?;
                        claim.scope(create).await?
                    }
                    None => create.await?,
                };
                Ok(pb::CreateItemsResponse {
                    items: created
                        .into_iter()
                        .map(|c| pb::CreatedItem { reference: c.reference, item_id: c.item.to_string() })
                        .collect(),
                })
            },
            rebuild,
        )
        .await
    }

    async fn arrange_items(&self, request: Request<pb::ArrangeItemsRequest>) -> Reply<pb::ArrangeItemsResponse> {
        let who = authenticate(&self.core, &request).await?;
        let once = Once::of(&request, &who, "/canvas.v1.ItemService/ArrangeItems", &request.get_ref().project_id)?;
        let (core, req) = (self.core.clone(), request.into_inner());
        // Boxed: an arrangement that moves frames reads what they hold, a large future.
        once.run(
            &self.core,
            Box::pin(async move {
                let project = ProjectId::parse(&req.project_id)?;
                let origin = match (req.x, req.y) {
                    (Some(x), Some(y)) => Some((x, y)),
                    (None, None) => None,
                    _ => return Err(CoreError::invalid("position", "give both x and y, or neither")),
                };
                let moved =
                    core.items().arrange_items(&who, project, &req.item_ids, &req.style, origin, req.ask_above).await?;
                Ok(pb::ArrangeItemsResponse { items: moved.into_iter().map(written_ref).collect() })
            }),
        )
        .await
    }

    async fn create_diagram(&self, request: Request<pb::CreateDiagramRequest>) -> Reply<pb::CreateDiagramResponse> {
        let who = authenticate(&self.core, &request).await?;
        let once = Once::of(&request, &who, "/canvas.v1.ItemService/CreateDiagram", &request.get_ref().project_id)?;
        let (core, req) = (self.core.clone(), request.into_inner());
        // A retry after a lost answer answers from what the write recorded (`LandedDiagram`).
        let rebuild = |landed: &Landed| match landed {
            Landed::Diagram(diagram) => Some(pb::CreateDiagramResponse {
                item_ids: diagram.items.iter().map(ToString::to_string).collect(),
                nodes: diagram.nodes.iter().map(|(node, id)| (node.clone(), id.to_string())).collect(),
                diagram_id: diagram.diagram.to_string(),
            }),
            Landed::Items(_) => None,
        };
        // Boxed: laying out and writing a diagram is a large future.
        once.run_rebuilding(
            &self.core,
            Box::pin(async move {
                let project = ProjectId::parse(&req.project_id)?;
                let position = match (req.x, req.y) {
                    (Some(x), Some(y)) => Some((x, y)),
                    (None, None) => None,
                    _ => return Err(CoreError::invalid("position", "give both x and y, or neither")),
                };
                let frame = req.frame.as_deref();
                let create = core.items().create_diagram(&who, project, &req.format, &req.source, position, frame);
                let created = match req.task_id.as_deref() {
                    Some(task) => {
                        let claim = core.items().task_claim(&who, AgentTaskId::parse(task)?).await?;
                        claim.scope(create).await?
                    }
                    None => create.await?,
                };
                Ok(pb::CreateDiagramResponse {
                    item_ids: created.item_ids.iter().map(ToString::to_string).collect(),
                    nodes: created.nodes.into_iter().map(|(node, id)| (node, id.to_string())).collect(),
                    diagram_id: created.diagram.map(|d| d.to_string()).unwrap_or_default(),
                })
            }),
            rebuild,
        )
        .await
    }

    // Diagram records: `diagrams.rs`.
    async fn get_diagram(&self, request: Request<pb::GetDiagramRequest>) -> Reply<pb::DiagramRecord> {
        super::diagrams::get(&self.core, request).await
    }

    async fn list_diagrams(&self, request: Request<pb::ListDiagramsRequest>) -> Reply<pb::ListDiagramsResponse> {
        super::diagrams::list(&self.core, request).await
    }

    async fn update_diagram(&self, request: Request<pb::UpdateDiagramRequest>) -> Reply<pb::DiagramWriteResponse> {
        super::diagrams::update(&self.core, request).await
    }

    async fn delete_diagram(&self, request: Request<pb::DeleteDiagramRequest>) -> Reply<pb::DiagramWriteResponse> {
        super::diagrams::delete(&self.core, request).await
    }

    async fn export_items(&self, request: Request<pb::ExportItemsRequest>) -> Reply<pb::ExportedText> {
        super::diagrams::export(&self.core, request).await
    }
}
