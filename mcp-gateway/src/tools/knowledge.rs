//! `retrieve_knowledge`: hybrid semantic and keyword search over a project's
//! content, answered by core-service's KnowledgeService.

use canvas_proto::v1 as pb;
use canvas_vocabulary::limits::retrieval;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{CanvasTool, Hints, ToolContext};
use crate::error::ToolFailure;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RetrieveKnowledgeArgs {
    /// The project (GUID) to search.
    pub project_id: String,
    /// What to look for, in natural language; must not be empty.
    pub query: String,
    /// Extra keywords that refine the keyword part of the search.
    #[serde(default)]
    pub keywords: Vec<String>,
    /// How many citations to return.
    #[serde(default, deserialize_with = "super::schema::count_opt")]
    pub max_results: Option<u32>,
    /// true: rerank the results with an LLM and write an answer; false: the
    /// answer is the retrieved content joined together.
    #[serde(default)]
    pub post_process: bool,
    /// Only search these items (GUIDs); empty searches the whole project.
    #[serde(default)]
    pub item_ids: Vec<String>,
    /// The agent configuration used for retrieval; omitted: the service's default configuration.
    #[serde(default)]
    pub agent_config_id: String,
}

/// `maxResults` with core-service's default and ceilings.
fn max_results() -> serde_json::Value {
    serde_json::json!({
        "type": "integer",
        "minimum": 1,
        "maximum": retrieval::MAX_RESULTS,
        "default": retrieval::DEFAULT_MAX_RESULTS,
        "description": retrieval::max_results_rule(),
    })
}

/// One source the answer draws on.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CitationOut {
    /// The cited item's id.
    pub id: String,
    /// Rank, from 1.
    pub index: u32,
    /// Relevance score, comparable within one answer.
    pub relevance: f64,
    /// The matched content; absent when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunk: Option<String>,
    /// The cited item's project.
    pub project_id: String,
    /// Where a user sees the cited item: {web_url}/map/{projectId}?node={id}.
    pub link: String,
    /// Present when the cited content is an open comment thread: its id (reply with
    /// reply_comment); `id` is then the item it is on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread_id: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RetrieveKnowledgeOut {
    /// The answer: written by an LLM with postProcess, else the retrieved
    /// content joined together.
    pub answer: String,
    /// The sources, best first.
    pub citations: Vec<CitationOut>,
}

pub struct RetrieveKnowledge;

impl CanvasTool for RetrieveKnowledge {
    const NAME: &'static str = "retrieve_knowledge";
    const TITLE: &'static str = "Search a project's knowledge";
    const DESCRIPTION: &'static str = "Searches the content of a project (labels, sticky notes, documents, \
        images and more) with combined semantic and keyword search and returns an answer with citations; each \
        citation names the item it comes from and links to it. Narrow the search with keywords or itemIds; \
        postProcess true reranks with an LLM and writes the answer (maxResults has a lower ceiling then).";
    const HINTS: Hints = Hints::READ;
    type Args = RetrieveKnowledgeArgs;
    type Output = RetrieveKnowledgeOut;

    /// `maxResults` with core-service's default and ceilings.
    fn input_schema() -> std::sync::Arc<rmcp::model::JsonObject> {
        let arguments = vec![("maxResults", max_results())];
        super::schema::with_properties(super::schema::input::<RetrieveKnowledgeArgs>(), arguments)
    }

    async fn run(ctx: &ToolContext, args: RetrieveKnowledgeArgs) -> Result<RetrieveKnowledgeOut, ToolFailure> {
        let project_id = args.project_id.clone();
        let request = pb::RetrieveRequest {
            project_id: args.project_id,
            query: args.query,
            keywords: args.keywords,
            max_results: args.max_results,
            post_process: args.post_process,
            item_ids: args.item_ids,
            agent_config_id: args.agent_config_id,
            mode: pb::SearchMode::Hybrid as i32,
        };
        // Retrieval needs the project's search index: placed on the project's replica.
        let mut request = ctx.request(request);
        canvas_proto::placement::place_by_project(&mut request, &project_id);
        let reply = ctx.state.knowledge.clone().retrieve(request).await?.into_inner();
        let citations = reply
            .citations
            .into_iter()
            .map(|c| {
                let cited_project = c.project_id.filter(|p| !p.is_empty()).unwrap_or_else(|| project_id.clone());
                CitationOut {
                    link: ctx.state.item_link(&cited_project, &c.id),
                    id: c.id,
                    index: c.index,
                    relevance: c.relevance,
                    chunk: c.chunk,
                    project_id: cited_project,
                    thread_id: c.thread_id,
                }
            })
            .collect();
        Ok(RetrieveKnowledgeOut { answer: reply.answer, citations })
    }
}
