//! Diagrams edited in place and the map read back as Mermaid (beyond the spec): `read_diagram`,
//! `update_diagram`, `delete_diagram` and `export_mermaid`, each one ItemService call (the REST
//! faces are `rest-gateway/src/routes/diagrams.rs`).

use canvas_proto::v1 as pb;
use canvas_vocabulary::limits::diagrams::FORMATS;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::items::RegionArgs;
use super::{CanvasTool, Hints, ToolContext};
use crate::error::ToolFailure;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DiagramArgs {
    /// The project (GUID) from list_projects.
    pub project_id: String,
    /// The diagramId create_diagram returned (or list_diagrams lists).
    pub diagram_id: String,
}

/// Which item draws which part of a Mermaid element.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ElementOut {
    /// `node:A`, `subgraph:S`, `edge:A->B#0` (the first edge from A to B), `participant:A`, …
    pub element: String,
    /// `shape`, `label`, `title`, `connector` or `note`.
    pub part: String,
    pub item_id: String,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadDiagramOut {
    pub diagram_id: String,
    /// `flowchart`, `mindmap`, `sequence`, `class`, `er` or `state`.
    pub kind: String,
    /// The source as last written by create_diagram or update_diagram.
    pub source: String,
    /// The diagram as Mermaid in its own kind: while nobody changed its items on the map, the
    /// source itself; after, the diagram as it is now on the map (texts people changed, items they
    /// deleted gone, connectors they drew added). Edit this and pass it to update_diagram: sent
    /// back unchanged, it changes nothing (or, the first time after people's changes, only draws
    /// what their connectors lack and removes links a deleted node left dangling).
    pub mermaid: String,
    /// The record's version (pass as expectedVersion to update only this version).
    pub version: i64,
    /// The items the diagram still has.
    pub elements: Vec<ElementOut>,
}

pub struct ReadDiagram;

impl CanvasTool for ReadDiagram {
    const NAME: &'static str = "read_diagram";
    const TITLE: &'static str = "Read a diagram back as Mermaid";
    const DESCRIPTION: &'static str = "Returns a diagram made by create_diagram as Mermaid in its own kind, with \
        the source as last written and which item draws which node, edge and subgraph. A diagram people changed on \
        the map is written as it is now, in its own kind (edited texts, deleted nodes, connectors they drew); \
        otherwise the Mermaid is the source itself. Passing it to update_diagram unchanged keeps the map as it \
        is.";
    const HINTS: Hints = Hints::READ;
    type Args = DiagramArgs;
    type Output = ReadDiagramOut;

    async fn run(ctx: &ToolContext, args: DiagramArgs) -> Result<ReadDiagramOut, ToolFailure> {
        let request =
            pb::GetDiagramRequest { project_id: args.project_id, diagram_id: args.diagram_id, as_drawn: true };
        let record = ctx.state.items.clone().get_diagram(ctx.request(request)).await?.into_inner();
        Ok(ReadDiagramOut {
            diagram_id: record.diagram_id,
            kind: record.kind,
            source: record.source,
            mermaid: record.drawn,
            version: record.version,
            elements: record
                .elements
                .into_iter()
                .map(|e| ElementOut { element: e.element, part: e.part, item_id: e.item_id })
                .collect(),
        })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateDiagramArgs {
    /// The project (GUID) from list_projects.
    pub project_id: String,
    /// The diagramId create_diagram returned.
    pub diagram_id: String,
    /// The whole new Mermaid source (edit what read_diagram returned).
    pub source: String,
    /// Update only if the diagram is still at this version (read_diagram's); omit to apply after
    /// any update in between.
    #[serde(default)]
    pub expected_version: Option<i64>,
    /// Only to change the diagram's kind: the kind of the new source (flowchart, sequence, mindmap,
    /// class, er, state). A source of another kind than the diagram's is refused without it.
    #[serde(default)]
    pub kind: Option<String>,
    /// true once the person agreed to this change: a call that would delete or move more items
    /// than the description's bound asks the person first (or, when the client cannot ask, fails
    /// naming this argument). Omit it otherwise.
    #[serde(default)]
    pub confirm: bool,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdateDiagramOut {
    /// The diagram's new version.
    pub version: i64,
    /// Mermaid node or participant id → the id of its shape, after the update.
    pub nodes: std::collections::BTreeMap<String, String>,
    /// Items created, changed and deleted.
    pub created: Vec<String>,
    pub updated: Vec<String>,
    pub deleted: Vec<String>,
    /// Where a user sees the map: {web_url}/map/{projectId}.
    pub link: String,
}

pub struct UpdateDiagram;

impl CanvasTool for UpdateDiagram {
    const NAME: &'static str = "update_diagram";
    const TITLE: &'static str = "Update a diagram in place from edited Mermaid";
    const DESCRIPTION: &'static str = "Changes a diagram made by create_diagram to match a new Mermaid source, in \
        one all-or-nothing step, instead of drawing it again: nodes, edges and subgraphs kept by id keep their \
        items, where people moved them and what people changed on the map (unless the new source changes that \
        very thing); new nodes appear beside their neighbours; removed ones are deleted with their edges. \
        Unsupported syntax is an error naming the line and column, and changes nothing.";
    const HINTS: Hints = Hints::OVERWRITE;
    type Args = UpdateDiagramArgs;
    type Output = UpdateDiagramOut;
    const SHOWN_ON_THE_MAP: bool = true;

    fn details() -> String {
        super::confirm_details("delete")
    }

    async fn run(ctx: &ToolContext, args: UpdateDiagramArgs) -> Result<UpdateDiagramOut, ToolFailure> {
        let request = pb::UpdateDiagramRequest {
            project_id: args.project_id.clone(),
            diagram_id: args.diagram_id,
            source: args.source,
            expected_version: args.expected_version,
            expected_versions: None,
            preconditions: None,
            kind: args.kind,
            ask_above: super::ask_above(args.confirm),
        };
        let done = ctx.state.items.clone().update_diagram(ctx.request(request)).await?.into_inner();
        Ok(UpdateDiagramOut {
            version: done.version,
            nodes: done.nodes.into_iter().collect(),
            created: done.created,
            updated: done.updated,
            deleted: done.deleted,
            link: ctx.state.project_link(&args.project_id),
        })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeleteDiagramArgs {
    /// The project (GUID) from list_projects.
    pub project_id: String,
    /// The diagramId create_diagram returned.
    pub diagram_id: String,
    /// true: keep the items on the map as ordinary items and forget only the diagram; omit to
    /// delete them with it.
    #[serde(default)]
    pub keep_items: bool,
    /// Delete only if the diagram is still at this version (read_diagram's).
    #[serde(default)]
    pub expected_version: Option<i64>,
    /// true once the person agreed to this change: a call that would delete more items than the
    /// description's bound asks the person first (or, when the client cannot ask, fails naming
    /// this argument). Omit it otherwise.
    #[serde(default)]
    pub confirm: bool,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeleteDiagramOut {
    /// The items deleted with it (none with keepItems).
    pub deleted: Vec<String>,
    /// Where a user sees the map: {web_url}/map/{projectId}.
    pub link: String,
}

pub struct DeleteDiagram;

impl CanvasTool for DeleteDiagram {
    const NAME: &'static str = "delete_diagram";
    const TITLE: &'static str = "Delete a diagram with its items";
    const DESCRIPTION: &'static str = "Deletes a diagram made by create_diagram and, unless keepItems, every item         it still has (people's connectors attached to them stay, detached), in one all-or-nothing step.";
    const HINTS: Hints = Hints::OVERWRITE;
    type Args = DeleteDiagramArgs;
    type Output = DeleteDiagramOut;

    fn details() -> String {
        super::confirm_details("delete")
    }

    async fn run(ctx: &ToolContext, args: DeleteDiagramArgs) -> Result<DeleteDiagramOut, ToolFailure> {
        let request = pb::DeleteDiagramRequest {
            project_id: args.project_id.clone(),
            diagram_id: args.diagram_id,
            keep_items: args.keep_items,
            expected_version: args.expected_version,
            expected_versions: None,
            preconditions: None,
            ask_above: super::ask_above(args.confirm),
        };
        let done = ctx.state.items.clone().delete_diagram(ctx.request(request)).await?.into_inner();
        Ok(DeleteDiagramOut { deleted: done.deleted, link: ctx.state.project_link(&args.project_id) })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExportMermaidArgs {
    /// The project (GUID) from list_projects.
    pub project_id: String,
    /// Only the items whose drawn box meets this rectangle of the map (top-left x, y, width,
    /// height); omit for the whole map.
    #[serde(default)]
    pub region: Option<RegionArgs>,
    /// Only this frame (its id) and what it holds, written as a subgraph titled as the frame.
    #[serde(default)]
    pub frame: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportMermaidOut {
    /// A Mermaid flowchart of those items.
    pub mermaid: String,
}

pub struct ExportMermaid;

impl CanvasTool for ExportMermaid {
    const NAME: &'static str = "export_mermaid";
    const TITLE: &'static str = "Write part of the map as Mermaid";
    const DESCRIPTION: &'static str =
        "Writes the items of the map (or of a region of it, or of one frame) as a Mermaid flowchart: \
        shapes and sticky notes as nodes with their text, connectors attached at both ends as links, containers \
        as subgraphs. Use it to read any part of the map as a graph, whoever drew it.";
    const HINTS: Hints = Hints::READ;
    type Args = ExportMermaidArgs;
    type Output = ExportMermaidOut;

    async fn run(ctx: &ToolContext, args: ExportMermaidArgs) -> Result<ExportMermaidOut, ToolFailure> {
        let request = pb::ExportItemsRequest {
            project_id: args.project_id,
            format: FORMATS[0].to_owned(),
            region: args.region.map(|r| pb::Region { x: r.x, y: r.y, width: r.width, height: r.height }),
            frame: args.frame.filter(|f| !f.trim().is_empty()),
        };
        let exported = ctx.state.items.clone().export_items(ctx.request(request)).await?.into_inner();
        Ok(ExportMermaidOut { mermaid: exported.text })
    }
}
