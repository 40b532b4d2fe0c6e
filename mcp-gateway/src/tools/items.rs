//! The item tools beyond the spec that an agent needs to build a map
//! (`create_item`, `get_item`, `list_items`) and the spec's plain item
//! changes (`update_item_property`, `delete_item`).

use std::sync::Arc;

use canvas_proto::failure::Violation;
use canvas_proto::json::to_proto_struct;
use canvas_proto::v1 as pb;
use canvas_proto::v1::ViolationReason;
use canvas_vocabulary::items::{Creation, ItemTypeDef, ITEM_TYPES};
use canvas_vocabulary::json_schema;
use canvas_vocabulary::limits::ITEMS_PAGE;
use rmcp::model::JsonObject;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::output::{CreatedOut, ItemOut, UpdatedOut};
use super::{CanvasTool, Hints, ToolContext};
use crate::error::ToolFailure;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateItemArgs {
    /// The project (GUID) from list_projects.
    pub project_id: String,
    /// The item type, one of those in this tool's description (images: use upload_image).
    #[serde(rename = "type")]
    pub item_type: String,
    /// The item's properties with camelCase names, as described for the type
    /// in this tool's description. Omitted properties get their defaults.
    #[serde(default)]
    pub properties: Map<String, Value>,
    /// "panel" (on the canvas), "inbox" (off the canvas) or the id of a
    /// container item of the project; omitted: on the canvas.
    #[serde(default)]
    pub parent: String,
    /// The frame (its id) to put it in: the same as `parent`, named for agents working in frames.
    #[serde(default)]
    pub frame: String,
    /// Makes a retry safe: 1 to 255 printable ASCII characters, new for each change you mean (a UUID,
    /// say). Calling again with the same key and the same arguments within 24 hours returns the first
    /// call's result and creates nothing more; the same key with other arguments is an error.
    #[serde(default)]
    pub idempotency_key: Option<String>,
}

pub struct CreateItem;

impl CanvasTool for CreateItem {
    const NAME: &'static str = "create_item";
    const TITLE: &'static str = "Create an item";
    const DESCRIPTION: &'static str = "Creates an item on a project map and returns its itemId and link. \
        `type` is one of the types below and `properties` holds its properties. Images need their bytes: use \
        upload_image. An invalid property comes back as an error naming it and the allowed values.";
    const HINTS: Hints = Hints::CREATE;
    type Args = CreateItemArgs;
    type Output = CreatedOut;
    const SHOWN_ON_THE_MAP: bool = true;

    /// Every type created from properties, with each property's rule, default and flags, from
    /// core-service's property table.
    fn details() -> String {
        let mut lines = vec!["Types and their properties (camelCase, any casing accepted):".to_owned()];
        let creatable = ITEM_TYPES.iter().filter(|t| t.creation == Creation::Json);
        let mut listed: Vec<&ItemTypeDef> = Vec::new();
        for item_type in creatable {
            let accepted = |t: &ItemTypeDef| t.properties.iter().filter(|d| !d.ignored).copied().collect::<Vec<_>>();
            let mine = accepted(item_type);
            let alike = |other: &ItemTypeDef| {
                let theirs = accepted(other);
                theirs.len() == mine.len()
                    && theirs.iter().zip(&mine).all(|(a, b)| {
                        (a.name, a.kind, a.required, a.updatable) == (b.name, b.kind, b.required, b.updatable)
                    })
            };
            match listed.iter().find(|other| alike(other)) {
                Some(same) => {
                    let defaults: Vec<String> = mine
                        .iter()
                        .zip(same.properties.iter().filter(|d| !d.ignored))
                        .filter(|(a, b)| a.default != b.default)
                        .map(|(a, _)| format!("{} {}", a.name, a.default.unwrap_or("none")))
                        .collect();
                    lines.push(format!(
                        "- {}: as {}, with the defaults {}.",
                        item_type.name,
                        same.name,
                        defaults.join(", ")
                    ));
                }
                None => {
                    let properties: Vec<String> = mine.iter().map(json_schema::describe).collect();
                    lines.push(format!("- {}: {}.", item_type.name, properties.join(", ")));
                }
            }
            listed.push(item_type);
        }
        lines.join("\n")
    }

    fn argument_for(violation: &Violation) -> String {
        let field = violation.field.as_str();
        match field {
            "projectId" | "parent" | "frame" => field.to_owned(),
            "itemType" => "type".to_owned(),
            "" => "properties".to_owned(),
            property => format!("properties.{property}"),
        }
    }

    async fn run(ctx: &ToolContext, args: CreateItemArgs) -> Result<CreatedOut, ToolFailure> {
        let request = pb::CreateItemRequest {
            project_id: args.project_id.clone(),
            parent: super::frames::parent_or_frame(args.parent, args.frame)?,
            item_type: args.item_type.clone(),
            properties: Some(to_proto_struct(args.properties)),
            file: None,
        };
        let request = ctx.request_once(request, args.idempotency_key.as_deref())?;
        let created = ctx.state.items.clone().create_item(request).await?.into_inner();
        Ok(CreatedOut::new(&ctx.state, &args.project_id, created.item_id, &args.item_type))
    }
}

/// The two ids that name an item.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ItemArgs {
    /// The project (GUID) from list_projects or find_item.
    pub project_id: String,
    /// The item (GUID).
    pub item_id: String,
}

/// A write's ids and, optionally, the version it expects.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeleteItemArgs {
    /// The project (GUID) from list_projects or find_item.
    pub project_id: String,
    /// The item (GUID).
    pub item_id: String,
    /// Delete only if the item is still at this version (the `version` get_item answered);
    /// otherwise nothing is deleted and the error says the current version. Omit to delete
    /// whatever the current version is.
    #[serde(default, deserialize_with = "super::schema::whole_opt")]
    pub expected_version: Option<i64>,
    /// true once the person agreed to this change: deleting a container with more items in it
    /// than the description's bound asks the person first (or, when the client cannot ask, fails
    /// naming this argument). Omit it otherwise.
    #[serde(default)]
    pub confirm: bool,
}

pub struct GetItem;

impl CanvasTool for GetItem {
    const NAME: &'static str = "get_item";
    const TITLE: &'static str = "Get an item";
    const DESCRIPTION: &'static str = "Returns one item with its type, parent, every property (defaults \
        included) and its link. Use it before changing an item to see its current values.";
    const HINTS: Hints = Hints::READ;
    type Args = ItemArgs;
    type Output = ItemOut;
    const SHOWN_ON_THE_MAP: bool = true;

    async fn run(ctx: &ToolContext, args: ItemArgs) -> Result<ItemOut, ToolFailure> {
        let request = ctx.request(pb::GetItemRequest {
            project_id: args.project_id,
            item_id: args.item_id,
            properties_as_json: false,
        });
        Ok(ItemOut::from_proto(&ctx.state, ctx.state.items.clone().get_item(request).await?.into_inner()))
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ListItemsArgs {
    /// The project (GUID).
    pub project_id: String,
    /// Only items of this type; empty for all.
    #[serde(rename = "type", default)]
    pub item_type: String,
    /// Only items with this parent ("panel", "inbox" or a container item's
    /// id); empty for all.
    #[serde(default)]
    pub parent: String,
    /// Items per page.
    #[serde(default, deserialize_with = "super::schema::count_opt")]
    pub limit: Option<u32>,
    /// The nextCursor of the previous page; empty for the first page.
    #[serde(default)]
    pub cursor: String,
    /// Only items whose drawn box meets this rectangle of the map (top-left x, y, width, height).
    #[serde(default)]
    pub region: Option<RegionArgs>,
    /// Only items whose text contains this, ignoring case (a label's or sticky note's text, a web
    /// item's url, a file's name).
    #[serde(default)]
    pub text: String,
    /// Only items created or changed at or after this time (RFC 3339, e.g. 2026-11-23T10:00:00Z).
    #[serde(default)]
    pub changed_since: String,
    /// Only items carrying this tag: its tagId or its name (see list_tags).
    #[serde(default)]
    pub tag: String,
    /// Only what this frame (its id) holds, at any depth.
    #[serde(default)]
    pub frame: String,
}

/// A rectangle of the map.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RegionArgs {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListItemsOut {
    /// The items of this page, oldest first.
    pub items: Vec<ItemOut>,
    /// How many items this page holds.
    pub count: usize,
    /// Pass as cursor to get the next page; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

pub struct ListItems;

impl CanvasTool for ListItems {
    const NAME: &'static str = "list_items";
    const TITLE: &'static str = "List items";
    const DESCRIPTION: &'static str = "Lists the items of a project with all their properties, optionally only \
        one `type`, one `parent` or what one `frame` holds, a page at a time (`limit`). When the answer has a nextCursor, call again \
        with it as `cursor` for the next page.";
    const HINTS: Hints = Hints::READ;
    type Args = ListItemsArgs;
    type Output = ListItemsOut;

    /// `limit` with core-service's page size, and the item types `type` filters by.
    fn input_schema() -> Arc<JsonObject> {
        let names: Vec<&str> = ITEM_TYPES.iter().map(|t| t.name).collect();
        let item_type = json!({"type": "string", "description": format!("one of {}", names.join(", "))});
        let arguments = vec![("limit", super::schema::page(ITEMS_PAGE)), ("type", item_type)];
        super::schema::with_properties(super::schema::input::<ListItemsArgs>(), arguments)
    }

    async fn run(ctx: &ToolContext, args: ListItemsArgs) -> Result<ListItemsOut, ToolFailure> {
        let request = pb::ListItemsRequest {
            project_id: args.project_id,
            item_type: args.item_type,
            parent: args.parent,
            page_size: args.limit,
            page_token: args.cursor,
            region: args.region.map(|r| pb::Region { x: r.x, y: r.y, width: r.width, height: r.height }),
            text_contains: args.text,
            changed_since: match args.changed_since.trim() {
                "" => None,
                raw => Some(timestamp(raw)?),
            },
            tag: args.tag,
            frame: args.frame,
        };
        let reply = ctx.state.items.clone().list_items(ctx.request(request)).await?.into_inner();
        let items: Vec<ItemOut> = reply.items.into_iter().map(|item| ItemOut::from_proto(&ctx.state, item)).collect();
        let next_cursor = Some(reply.next_page_token).filter(|token| !token.is_empty());
        Ok(ListItemsOut { count: items.len(), items, next_cursor })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateItemPropertyArgs {
    /// The project (GUID).
    pub project_id: String,
    /// The item (GUID).
    pub item_id: String,
    /// The property's camelCase name, for example text, fontSize, fillColor,
    /// position or url (names are case-insensitive).
    pub property: String,
    /// The new value: a string, number, boolean, object (such as {x, y} or
    /// {width, height}) or array, as the property takes.
    #[schemars(schema_with = "super::schema::any_value")]
    pub value: Value,
    /// Change only if the item is still at this version (the `version` get_item answered);
    /// otherwise nothing changes and the error says the current version. Omit to apply the
    /// change to whatever the current version is.
    #[serde(default, deserialize_with = "super::schema::whole_opt")]
    pub expected_version: Option<i64>,
}

pub struct UpdateItemProperty;

impl CanvasTool for UpdateItemProperty {
    const NAME: &'static str = "update_item_property";
    const TITLE: &'static str = "Change one property of an item";
    const DESCRIPTION: &'static str = "Sets one property of an item to a new value, for example a label's text \
        or a web item's url. The property names and rules are those of create_item for the item's type; an \
        unknown property or an invalid value comes back as an error naming the allowed properties or values. \
        For colours and fonts style_item, for position and size arrange_item change several at once. The \
        property `parent` moves the item into a frame or shape (its id) or out of one (\"panel\").";
    const HINTS: Hints = Hints::OVERWRITE;
    type Args = UpdateItemPropertyArgs;
    type Output = UpdatedOut;
    const SHOWN_ON_THE_MAP: bool = true;

    /// The properties an update can change, per type, from core-service's property table.
    fn details() -> String {
        let mut lines: Vec<(Vec<&str>, Vec<&str>)> = Vec::new();
        for item_type in &ITEM_TYPES {
            let names: Vec<&str> =
                item_type.properties.iter().filter(|d| d.updatable && !d.ignored).map(|d| d.name).collect();
            match lines.iter_mut().find(|(_, same)| *same == names) {
                Some((types, _)) => types.push(item_type.name),
                None => lines.push((vec![item_type.name], names)),
            }
        }
        let lines: Vec<String> =
            lines.iter().map(|(types, names)| format!("- {}: {}.", types.join(", "), names.join(", "))).collect();
        format!("Changeable properties:\n{}", lines.join("\n"))
    }

    fn argument_for(violation: &Violation) -> String {
        let field = violation.field.as_str();
        match violation.reason {
            _ if field == "projectId" || field == "itemId" || field == "expectedVersion" => field.to_owned(),
            ViolationReason::UnknownProperty
            | ViolationReason::ReadOnlyProperty
            | ViolationReason::DuplicateProperty => "property".to_owned(),
            _ => format!("value ({field})"),
        }
    }

    async fn run(ctx: &ToolContext, args: UpdateItemPropertyArgs) -> Result<UpdatedOut, ToolFailure> {
        if args.property.trim().is_empty() {
            return Err(ToolFailure::invalid("property", "must name a property, for example text or fontSize"));
        }
        // `parent` moves the item into or out of a frame or shape: core-service checks where.
        if canvas_vocabulary::names::fold_name(args.property.trim()) == "parent" {
            let Value::String(parent) = args.value else {
                return Err(ToolFailure::invalid("value", "a parent is \"panel\", \"inbox\" or an item id"));
            };
            return write(ctx, args.project_id, args.item_id, (Map::new(), Some(parent)), args.expected_version).await;
        }
        let patch = Map::from_iter([(args.property.trim().to_owned(), args.value)]);
        update_item(ctx, args.project_id, args.item_id, patch, args.expected_version).await
    }
}

/// Applies `patch` to an item: one core call, by id alone (core-service answers with the item's type).
pub async fn update_item(
    ctx: &ToolContext,
    project_id: String,
    item_id: String,
    patch: Map<String, Value>,
    expected_version: Option<i64>,
) -> Result<UpdatedOut, ToolFailure> {
    write(ctx, project_id, item_id, (patch, None), expected_version).await
}

/// One `UpdateItem` call: the properties of `patch` and, when given, the item's new parent.
async fn write(
    ctx: &ToolContext,
    project_id: String,
    item_id: String,
    (patch, parent): (Map<String, Value>, Option<String>),
    expected_version: Option<i64>,
) -> Result<UpdatedOut, ToolFailure> {
    let mut changed = patch.clone();
    if let Some(parent) = &parent {
        changed.insert("parent".into(), Value::String(parent.clone()));
    }
    let request = pb::UpdateItemRequest {
        project_id: project_id.clone(),
        item_id,
        properties: Some(to_proto_struct(patch)),
        expected_version,
        parent,
        ..Default::default()
    };
    let updated = ctx.state.items.clone().update_item(ctx.request(request)).await?.into_inner();
    Ok(UpdatedOut {
        link: ctx.state.item_link(&project_id, &updated.item_id),
        version: updated.version,
        item_id: updated.item_id,
        project_id,
        item_type: updated.item_type,
        changed,
    })
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeletedOut {
    /// The deleted item's id.
    pub item_id: String,
    /// Its project.
    pub project_id: String,
    /// Always true: the item is gone. Connectors attached to it stay, detached.
    pub deleted: bool,
}

pub struct DeleteItem;

impl CanvasTool for DeleteItem {
    const NAME: &'static str = "delete_item";
    const TITLE: &'static str = "Delete an item";
    const DESCRIPTION: &'static str = "Deletes an item from a project map together with every item inside it \
        (a shape's content, a connector's caption labels). This cannot be undone. Connectors attached to a \
        deleted item that are not inside it are kept and stay where they were drawn.";
    const HINTS: Hints = Hints::OVERWRITE;
    type Args = DeleteItemArgs;
    type Output = DeletedOut;

    fn details() -> String {
        super::confirm_details("delete (the item with what it holds)")
    }

    async fn run(ctx: &ToolContext, args: DeleteItemArgs) -> Result<DeletedOut, ToolFailure> {
        let request = pb::DeleteItemRequest {
            project_id: args.project_id.clone(),
            item_id: args.item_id,
            expected_version: args.expected_version,
            expected_versions: None,
            preconditions: None,
            ask_above: super::ask_above(args.confirm),
        };
        let deleted = ctx.state.items.clone().delete_item(ctx.request(request)).await?.into_inner();
        Ok(DeletedOut { item_id: deleted.item_id, project_id: args.project_id, deleted: true })
    }
}

/// An RFC 3339 time argument as a protobuf timestamp.
fn timestamp(raw: &str) -> Result<prost_types::Timestamp, ToolFailure> {
    let at = chrono::DateTime::parse_from_rfc3339(raw)
        .map_err(|_| ToolFailure::invalid("changedSince", "must be an RFC 3339 time such as 2026-11-23T10:00:00Z"))?;
    Ok(prost_types::Timestamp { seconds: at.timestamp(), nanos: at.timestamp_subsec_nanos() as i32 })
}
