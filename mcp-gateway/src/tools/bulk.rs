//! Whole diagrams in one call (beyond the spec): `create_items`, many items all or none, naming
//! each other by `ref`; and `create_diagram`, Mermaid laid out and created the same way.

use canvas_proto::json::to_proto_struct;
use canvas_proto::v1 as pb;
use canvas_vocabulary::limits::bulk::{ref_rule, MAX_ITEMS};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{CanvasTool, Hints, ToolContext};
use crate::error::ToolFailure;

/// One item of a `create_items` call.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BulkItemArgs {
    /// A name for this item within the call, so other items can write "ref:<name>" as their
    /// parent or as a connector end's itemId.
    #[serde(default, rename = "ref")]
    pub reference: Option<String>,
    /// The item type, as for create_item (images, documents and SVGs need their bytes: not here).
    #[serde(rename = "type")]
    pub item_type: String,
    /// "panel" (default), "inbox", an item id, or "ref:<name>" of an item of this call.
    #[serde(default)]
    pub parent: String,
    /// Exactly the properties create_item takes for the type.
    #[serde(default)]
    pub properties: Map<String, Value>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateItemsArgs {
    /// The project (GUID) from list_projects.
    pub project_id: String,
    /// The items, in the order they are created.
    pub items: Vec<BulkItemArgs>,
    /// The frame (its id) the items go in when they name no `parent` of their own.
    #[serde(default)]
    pub frame: String,
    /// Makes a retry safe: 1 to 255 printable ASCII characters, new for each change you mean (a UUID,
    /// say). Calling again with the same key and the same arguments within 24 hours returns the first
    /// call's result and creates nothing more; the same key with other arguments is an error.
    #[serde(default)]
    pub idempotency_key: Option<String>,
}

/// One created item.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedRefOut {
    /// The `ref` the call gave the item, if any.
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// The new item's id.
    pub item_id: String,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateItemsOut {
    /// In the order of the call's items.
    pub items: Vec<CreatedRefOut>,
    /// Where a user sees the map: {web_url}/map/{projectId}.
    pub link: String,
}

pub struct CreateItems;

impl CanvasTool for CreateItems {
    const NAME: &'static str = "create_items";
    const TITLE: &'static str = "Create many items at once";
    const DESCRIPTION: &'static str = "Creates many items of mixed types in one call, all or none: if any item \
        breaks a rule nothing is created and the error names each offence as items[i].<field>. Give an item a \
        `ref` and other items of the call can use \"ref:<ref>\" where an item id is expected (a connector's \
        startPoint.itemId / endPoint.itemId, a parent), so a connector can join notes created in the same call. \
        Returns each item's id in call order. Prefer it to many create_item calls.";
    const HINTS: Hints = Hints::CREATE;
    type Args = CreateItemsArgs;
    type Output = CreateItemsOut;
    const SHOWN_ON_THE_MAP: bool = true;

    fn details() -> String {
        format!("At most {MAX_ITEMS} items per call. A ref is {}.", ref_rule())
    }

    async fn run(ctx: &ToolContext, args: CreateItemsArgs) -> Result<CreateItemsOut, ToolFailure> {
        let args_len = args.items.len();
        let frame = args.frame;
        let items = args
            .items
            .into_iter()
            .map(|item| pb::BulkItem {
                reference: item.reference,
                item_type: item.item_type,
                parent: if item.parent.trim().is_empty() { frame.clone() } else { item.parent },
                properties: Some(to_proto_struct(item.properties)),
            })
            .collect();
        ctx.say(format!("Checking and writing {} items in one transaction.", args_len));
        let request = pb::CreateItemsRequest { project_id: args.project_id.clone(), items, task_id: ctx.task.clone() };
        let request = ctx.request_once(request, args.idempotency_key.as_deref())?;
        let created = ctx.state.items.clone().create_items(request).await?.into_inner();
        Ok(CreateItemsOut {
            items: created
                .items
                .into_iter()
                .map(|c| CreatedRefOut { reference: c.reference, item_id: c.item_id })
                .collect(),
            link: ctx.state.project_link(&args.project_id),
        })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateDiagramArgs {
    /// The project (GUID) from list_projects.
    pub project_id: String,
    /// The diagram in Mermaid; its first word names the kind (`flowchart TD`, `classDiagram`…: the
    /// tool's description lists them).
    pub source: String,
    /// The diagram's top-left corner on the map (x, y); omit both to place it in free space beside
    /// what is already there.
    #[serde(default)]
    pub x: Option<f64>,
    /// See x.
    #[serde(default)]
    pub y: Option<f64>,
    /// Draws the diagram inside this frame (its id): its outer items become the frame's, it starts
    /// inside the frame's top-left corner unless x and y are given, and the frame grows to hold it.
    #[serde(default)]
    pub frame: Option<String>,
    /// Makes a retry safe: 1 to 255 printable ASCII characters, new for each change you mean (a UUID,
    /// say). Calling again with the same key and the same arguments within 24 hours returns the first
    /// call's result and creates nothing more; the same key with other arguments is an error.
    #[serde(default)]
    pub idempotency_key: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateDiagramOut {
    /// Every item created (shapes, their labels, connectors, containers), in creation order.
    pub item_ids: Vec<String>,
    /// Mermaid node or participant id → the id of the shape that stands for it: use these ids to
    /// change, connect or style a node afterwards.
    pub nodes: std::collections::BTreeMap<String, String>,
    /// The diagram's record: pass it to read_diagram (the diagram as it is now, as Mermaid) and to
    /// update_diagram (change it in place from edited Mermaid).
    pub diagram_id: String,
    /// Where a user sees the map: {web_url}/map/{projectId}.
    pub link: String,
}

pub struct CreateDiagram;

impl CanvasTool for CreateDiagram {
    const NAME: &'static str = "create_diagram";
    const TITLE: &'static str = "Create a diagram from Mermaid";
    const DESCRIPTION: &'static str = "Lays out a Mermaid diagram automatically and creates it on the map as \
        ordinary, editable items in one all-or-nothing step: each node becomes a shape (Mermaid's node shapes map \
        to the nearest shape type) with a label, each edge a connector attached to its two nodes (edge text \
        becomes a label), each subgraph a container holding its nodes; a class or entity is a box with its \
        compartments or attributes as labels, a composite state a container. Unsupported syntax is an error \
        naming the line and column. Returns the item id of every node and a diagramId for read_diagram and \
        update_diagram.";
    const HINTS: Hints = Hints::CREATE;
    type Args = CreateDiagramArgs;
    type Output = CreateDiagramOut;
    const SHOWN_ON_THE_MAP: bool = true;

    fn details() -> String {
        format!("Mermaid kinds: {}.", canvas_vocabulary::limits::diagrams::KINDS_IN_WORDS)
    }

    async fn run(ctx: &ToolContext, args: CreateDiagramArgs) -> Result<CreateDiagramOut, ToolFailure> {
        let request = pb::CreateDiagramRequest {
            project_id: args.project_id.clone(),
            format: canvas_vocabulary::limits::diagrams::FORMATS[0].to_owned(),
            source: args.source,
            x: args.x,
            y: args.y,
            task_id: ctx.task.clone(),
            frame: args.frame.filter(|f| !f.trim().is_empty()),
        };
        ctx.say("Laying out the diagram and writing its items in one transaction.");
        let request = ctx.request_once(request, args.idempotency_key.as_deref())?;
        let created = ctx.state.items.clone().create_diagram(request).await?.into_inner();
        Ok(CreateDiagramOut {
            item_ids: created.item_ids,
            nodes: created.nodes.into_iter().collect(),
            diagram_id: created.diagram_id,
            link: ctx.state.project_link(&args.project_id),
        })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ArrangeItemsArgs {
    /// The project (GUID) from list_projects.
    pub project_id: String,
    /// The items to move (GUIDs); connectors among them are skipped, they follow their ends.
    pub item_ids: Vec<String>,
    /// "grid" (in the order given), "layered" (along the connectors between the items, as a
    /// flowchart) or "tree" (from the items no connector points to).
    pub style: String,
    /// Top-left corner of the arrangement (x, y); omit both to keep the items' corner.
    #[serde(default)]
    pub x: Option<f64>,
    /// See x.
    #[serde(default)]
    pub y: Option<f64>,
    /// true once the person agreed to this change: a call that would delete or move more items
    /// than the description's bound asks the person first (or, when the client cannot ask, fails
    /// naming this argument). Omit it otherwise.
    #[serde(default)]
    pub confirm: bool,
    /// Makes a retry safe: 1 to 255 printable ASCII characters, new for each change you mean (a UUID,
    /// say). Calling again with the same key and the same arguments within 24 hours returns the first
    /// call's result and creates nothing more; the same key with other arguments is an error.
    #[serde(default)]
    pub idempotency_key: Option<String>,
}

/// One moved item.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ArrangedOut {
    pub item_id: String,
    /// Its new version.
    pub version: i64,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ArrangeItemsOut {
    /// Each moved item, in the order given.
    pub items: Vec<ArrangedOut>,
}

pub struct ArrangeItems;

impl CanvasTool for ArrangeItems {
    const NAME: &'static str = "arrange_items";
    const TITLE: &'static str = "Lay out many items";
    const DESCRIPTION: &'static str = "Moves existing items into a tidy layout in one all-or-nothing update: \
        style grid (in the order given), layered (along the connectors between them, like a flowchart) or tree \
        (from the items no connector points to). Connectors are not moved: attached ones follow their items. \
        Use it to tidy a map an agent built item by item.";
    const HINTS: Hints = Hints::OVERWRITE;
    type Args = ArrangeItemsArgs;
    type Output = ArrangeItemsOut;
    const SHOWN_ON_THE_MAP: bool = true;

    fn details() -> String {
        format!(
            "style: one of {}; at most {} items; more than {} asks the person first ({}: true once they agreed).",
            canvas_vocabulary::limits::arrange::STYLES.join(", "),
            canvas_vocabulary::limits::arrange::MAX_ITEMS,
            canvas_vocabulary::limits::confirm::ASK_ABOVE,
            canvas_vocabulary::limits::confirm::ARGUMENT,
        )
    }

    async fn run(ctx: &ToolContext, args: ArrangeItemsArgs) -> Result<ArrangeItemsOut, ToolFailure> {
        let request = pb::ArrangeItemsRequest {
            project_id: args.project_id,
            item_ids: args.item_ids,
            style: args.style,
            x: args.x,
            y: args.y,
            ask_above: super::ask_above(args.confirm),
        };
        let request = ctx.request_once(request, args.idempotency_key.as_deref())?;
        let moved = ctx.state.items.clone().arrange_items(request).await?.into_inner();
        Ok(ArrangeItemsOut {
            items: moved.items.into_iter().map(|r| ArrangedOut { item_id: r.item_id, version: r.version }).collect(),
        })
    }
}
