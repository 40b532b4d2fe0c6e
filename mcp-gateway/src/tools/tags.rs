//! `list_tags`, `create_tag`, `update_tag` and `delete_tag`: a project's tags (beyond the spec),
//! which items carry by id in their `tags` property (set with `update_item_property`, filtered
//! with `list_items`' `tag`). Each is one TagService call; the rules are core-service's.

use canvas_proto::v1 as pb;
use canvas_proto::v1::tag_service_client::TagServiceClient;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::output::rfc3339;
use super::{CanvasTool, Hints, ToolContext};
use crate::error::ToolFailure;

fn client(ctx: &ToolContext) -> TagServiceClient<canvas_proto::channel::CoreChannel> {
    TagServiceClient::new(ctx.state.channel.clone())
}

/// A tag of the project.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TagOut {
    /// The id items carry in their `tags` property.
    pub tag_id: String,
    pub name: String,
    /// Hex colour (#RRGGBB, #AARRGGBB or #RGB).
    pub color: String,
    /// Bumped by every change.
    pub version: i64,
    /// When it was last changed (RFC 3339).
    pub updated_at: String,
}

impl From<pb::Tag> for TagOut {
    fn from(tag: pb::Tag) -> Self {
        TagOut {
            tag_id: tag.tag_id,
            name: tag.name,
            color: tag.color,
            version: tag.version,
            updated_at: rfc3339(tag.updated_at),
        }
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ListTagsArgs {
    /// The project (GUID).
    pub project_id: String,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListTagsOut {
    /// Every tag of the project, by name.
    pub tags: Vec<TagOut>,
    pub count: usize,
}

pub struct ListTags;

impl CanvasTool for ListTags {
    const NAME: &'static str = "list_tags";
    const TITLE: &'static str = "List tags";
    const DESCRIPTION: &'static str = "Lists the project's tags (name, colour and the tagId items carry). To tag an \
        item, set its `tags` property to the tag ids with update_item_property (the whole list: it replaces the \
        item's tags); to find the items with a tag, call list_items with `tag` (the tag's id or name).";
    const HINTS: Hints = Hints::READ;
    type Args = ListTagsArgs;
    type Output = ListTagsOut;

    async fn run(ctx: &ToolContext, args: ListTagsArgs) -> Result<ListTagsOut, ToolFailure> {
        let request = ctx.request(pb::ListTagsRequest { project_id: args.project_id });
        let tags: Vec<TagOut> =
            client(ctx).list_tags(request).await?.into_inner().tags.into_iter().map(Into::into).collect();
        Ok(ListTagsOut { count: tags.len(), tags })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateTagArgs {
    /// The project (GUID).
    pub project_id: String,
    /// 1 to 120 characters; no other tag of the project may have it (ignoring case).
    pub name: String,
    /// Hex colour (#RRGGBB, #AARRGGBB or #RGB); a grey when omitted.
    #[serde(default)]
    pub color: Option<String>,
}

pub struct CreateTag;

impl CanvasTool for CreateTag {
    const NAME: &'static str = "create_tag";
    const TITLE: &'static str = "Create a tag";
    const DESCRIPTION: &'static str = "Creates a tag in the project (Editor or above) and returns it with its tagId. \
        A name the project already has is refused: use list_tags first and reuse the existing tag.";
    const HINTS: Hints = Hints::CREATE;
    type Args = CreateTagArgs;
    type Output = TagOut;

    async fn run(ctx: &ToolContext, args: CreateTagArgs) -> Result<TagOut, ToolFailure> {
        let message = pb::CreateTagRequest { project_id: args.project_id, name: Some(args.name), color: args.color };
        Ok(client(ctx).create_tag(ctx.request(message)).await?.into_inner().into())
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateTagArgs {
    /// The project (GUID).
    pub project_id: String,
    /// The tag (GUID).
    pub tag_id: String,
    /// The new name; omit to keep it.
    #[serde(default)]
    pub name: Option<String>,
    /// The new hex colour; omit to keep it.
    #[serde(default)]
    pub color: Option<String>,
}

pub struct UpdateTag;

impl CanvasTool for UpdateTag {
    const NAME: &'static str = "update_tag";
    const TITLE: &'static str = "Rename or recolour a tag";
    const DESCRIPTION: &'static str = "Changes a tag's name or colour (Editor or above). The items carrying it keep \
        it: they name it by id.";
    const HINTS: Hints = Hints::OVERWRITE;
    type Args = UpdateTagArgs;
    type Output = TagOut;

    async fn run(ctx: &ToolContext, args: UpdateTagArgs) -> Result<TagOut, ToolFailure> {
        let message = pb::UpdateTagRequest {
            project_id: args.project_id,
            tag_id: args.tag_id,
            name: args.name,
            color: args.color,
        };
        Ok(client(ctx).update_tag(ctx.request(message)).await?.into_inner().into())
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeleteTagArgs {
    /// The project (GUID).
    pub project_id: String,
    /// The tag (GUID).
    pub tag_id: String,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeleteTagOut {
    /// The tag as it was.
    pub tag: Option<TagOut>,
    /// The items it was taken off.
    pub untagged_item_ids: Vec<String>,
}

pub struct DeleteTag;

impl CanvasTool for DeleteTag {
    const NAME: &'static str = "delete_tag";
    const TITLE: &'static str = "Delete a tag";
    const DESCRIPTION: &'static str = "Deletes a tag (Editor or above) and takes it off every item carrying it, in \
        one change; returns the ids of those items.";
    const HINTS: Hints = Hints::OVERWRITE;
    type Args = DeleteTagArgs;
    type Output = DeleteTagOut;

    async fn run(ctx: &ToolContext, args: DeleteTagArgs) -> Result<DeleteTagOut, ToolFailure> {
        let message = pb::TagRequest { project_id: args.project_id, tag_id: args.tag_id };
        let done = client(ctx).delete_tag(ctx.request(message)).await?.into_inner();
        Ok(DeleteTagOut { tag: done.tag.map(Into::into), untagged_item_ids: done.untagged_item_ids })
    }
}
