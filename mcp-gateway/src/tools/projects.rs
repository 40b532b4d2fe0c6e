//! `list_projects` and `find_item`: where an agent starts when it knows
//! nothing, or only an item id from a link.

use canvas_proto::v1 as pb;
use canvas_vocabulary::limits::PROJECTS_PAGE;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::output::{rfc3339, role_name, ItemOut};
use super::{CanvasTool, Hints, ToolContext};
use crate::error::ToolFailure;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ListProjectsArgs {
    /// How many projects to return.
    #[serde(default, deserialize_with = "super::schema::count_opt")]
    pub amount: Option<u32>,
}

/// A project the caller can access.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProjectOut {
    /// The id every item tool expects as projectId.
    pub project_id: String,
    /// The project's name.
    pub name: String,
    /// The caller's role: Viewer (read), Editor (also change items),
    /// Manager (also webhooks) or Admin (also members).
    pub role: String,
    /// When the project was created (RFC 3339).
    pub created_at: String,
    /// The project's map: {web_url}/map/{projectId}.
    pub link: String,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListProjectsOut {
    /// The caller's projects.
    pub projects: Vec<ProjectOut>,
    /// How many projects were returned.
    pub count: usize,
}

pub struct ListProjects;

impl CanvasTool for ListProjects {
    const NAME: &'static str = "list_projects";
    const TITLE: &'static str = "List my projects";
    const DESCRIPTION: &'static str = "Lists the projects the API token's user can access, with each project's \
        projectId, name, the user's role (Viewer can read; Editor and above can also create, change and delete \
        items) and a link to its map. Call this first to find the projectId the other tools need. `amount` \
        limits how many projects are returned.";
    const HINTS: Hints = Hints::READ;
    type Args = ListProjectsArgs;
    type Output = ListProjectsOut;

    /// `amount` with core-service's page size.
    fn input_schema() -> std::sync::Arc<rmcp::model::JsonObject> {
        let arguments = vec![("amount", super::schema::page(PROJECTS_PAGE))];
        super::schema::with_properties(super::schema::input::<ListProjectsArgs>(), arguments)
    }

    async fn run(ctx: &ToolContext, args: ListProjectsArgs) -> Result<ListProjectsOut, ToolFailure> {
        let request = ctx.request(pb::ListMyProjectsRequest { page_size: args.amount, with_webhook_alerts: false });
        let reply = ctx.state.projects.clone().list_my_projects(request).await?.into_inner();
        let projects: Vec<ProjectOut> = reply
            .projects
            .into_iter()
            .map(|p| ProjectOut {
                link: ctx.state.project_link(&p.project_id),
                role: role_name(p.role).to_owned(),
                created_at: rfc3339(p.created_at),
                project_id: p.project_id,
                name: p.name,
            })
            .collect();
        Ok(ListProjectsOut { count: projects.len(), projects })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FindItemArgs {
    /// The item's id (GUID), for example the `node` value of an item link.
    pub item_id: String,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FindItemOut {
    /// The project holding the item: pass it as projectId to the other tools.
    pub project_id: String,
    /// Where a user sees the item: {web_url}/map/{projectId}?node={itemId}.
    pub link: String,
    /// The item with every property.
    pub item: ItemOut,
}

pub struct FindItem;

impl CanvasTool for FindItem {
    const NAME: &'static str = "find_item";
    const TITLE: &'static str = "Find an item by id";
    const DESCRIPTION: &'static str = "Finds an item by its id alone, searching every project the caller can \
        access, and returns the item with all its properties, its projectId and its link. Use it when you have \
        an item id (for example from a link's `node` parameter) but not its project.";
    const HINTS: Hints = Hints::READ;
    type Args = FindItemArgs;
    type Output = FindItemOut;
    const SHOWN_ON_THE_MAP: bool = true;

    async fn run(ctx: &ToolContext, args: FindItemArgs) -> Result<FindItemOut, ToolFailure> {
        let request = ctx.request(pb::FindItemRequest { item_id: args.item_id });
        let item = ItemOut::from_proto(&ctx.state, ctx.state.items.clone().find_item(request).await?.into_inner());
        Ok(FindItemOut { project_id: item.project_id.clone(), link: item.link.clone(), item })
    }
}
