//! The MCP server proper: what `initialize`/`server/discover` announce,
//! `tools/list` and `tools/call` handed to the [`tools`](crate::tools)
//! registry (a long call as a task: [`tasks`](crate::tasks), with `tasks/get|update|cancel`), and the map view's `resources/list` and `resources/read` ([`app`](crate::app)). rmcp does the protocol (version negotiation, JSON-RPC framing,
//! per-request metadata of the newest revision); this type only answers.

use std::borrow::Cow;

use canvas_proto::v1 as pb;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, GetTaskParams, GetTaskResult, Implementation,
    InitializeResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, ServerConfig, Tool, UpdateTaskParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use crate::confirm::{self, Answer};
use crate::state::{Caller, McpState};
use crate::tasks;
use crate::token_check::Verdict;
use crate::tools::{self, Called, ToolContext};

/// What `initialize` tells the agent about using this server.
const INSTRUCTIONS: &str = "Tools for the project maps (canvases) of the canvas service. Every call acts as the \
    user of the API token. Start with list_projects to get a projectId (or find_item when you only have an item \
    id), read with list_items and get_item, build with create_item, connect_items and upload_image, change with \
    update_item_property, style_item and arrange_item, and search content with retrieve_knowledge. Results carry \
    a link to show the user where an item is. Errors name the argument to fix and the allowed values.";

/// One MCP server instance. rmcp builds one per HTTP request (the transport
/// is stateless), so it is a cheap clone of the shared state.
#[derive(Clone)]
pub struct CanvasMcp {
    /// The gRPC clients and settings every tool uses.
    state: McpState,
}

impl CanvasMcp {
    pub fn new(state: McpState) -> Self {
        Self { state }
    }
}

impl ServerHandler for CanvasMcp {
    fn get_info(&self) -> ServerConfig {
        let mut info = Implementation::new("canvas-mcp", env!("CARGO_PKG_VERSION"));
        info.title = Some("Canvas project service".to_owned());
        // Tools, and the map view of the MCP Apps extension (`crate::app`) as the one resource.
        let capabilities = ServerCapabilities::builder()
            .enable_extensions_with(extensions())
            .enable_resources()
            .enable_tools()
            .build();
        InitializeResult::new(capabilities).with_server_info(info).with_instructions(INSTRUCTIONS)
    }

    /// Every revision rmcp speaks, from 2024-11-05 (with `initialize`) to
    /// the newest (per-request metadata, `server/discover`).
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::KNOWN_VERSIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools::definitions()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let caller = self.caller_of(&context);
        let ctx = ToolContext::new(self.state.clone(), caller);
        let mut arguments = request.arguments.unwrap_or_default();
        // A retry after `input_required` carries the person's answer (`crate::confirm`).
        match confirm::answer(request.input_responses.as_ref()) {
            Answer::NotAsked => {}
            Answer::Agreed if tools::takes_confirm(&request.name) => {
                arguments.insert(canvas_vocabulary::limits::confirm::ARGUMENT.to_owned(), true.into());
            }
            Answer::Agreed => {}
            Answer::Declined(action) => return Ok(confirm::declined(&action).into()),
        }
        // Long work for a client that declared the tasks extension on this request: the handle
        // now, the work in the background (`crate::tasks`). Bad arguments still answer at once.
        let declared_tasks = context.client_capabilities().is_some_and(|caps| caps.supports_tasks());
        if declared_tasks && tasks::runs_as_task(&request.name, &arguments) {
            tools::check_arguments(&request.name, &arguments)?;
            // The work outlives this request: its calls fill in a token check of their own.
            let worker = Caller { check: Default::default(), ..ctx.caller.clone() };
            if let Some(handle) =
                tasks::start(ToolContext::new(self.state.clone(), worker), &request.name, arguments.clone()).await
            {
                // core-service recorded the task as this caller: the token was accepted.
                ctx.caller.check.sent();
                ctx.caller.check.settle(Verdict::Accepted);
                return Ok(CallToolResponse::Task(handle));
            }
        }
        Ok(match tools::call(&request.name, &ctx, arguments).await? {
            Called::Done(result) => result.into(),
            Called::AskFirst { question, cannot_ask } => {
                let asking =
                    confirm::can_ask(context.protocol_version().as_ref(), context.client_capabilities().as_ref());
                match asking.then(|| confirm::ask(&question)).flatten() {
                    Some(asked) => CallToolResponse::InputRequired(asked),
                    None => cannot_ask.into(),
                }
            }
        })
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(crate::app::resources()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        crate::app::read(&request.uri).map(ReadResourceResponse::from)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tools::find(name)
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let caller = self.caller_of(&context);
        let task = pb::TaskRef { task_id: request.task_id };
        match self.state.tasks.clone().get_task(caller.request(task)).await {
            Ok(task) => Ok(tasks::detailed(task.get_ref())),
            Err(status) => Err(tasks::task_error(&status)),
        }
    }

    /// No task of ours asks for input (a confirmation is asked before a task starts), so every
    /// response is for a key that is not outstanding, which the extension says to ignore; an
    /// unknown task is still an error.
    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let caller = self.caller_of(&context);
        let task = pb::TaskRef { task_id: request.task_id };
        self.state.tasks.clone().get_task(caller.request(task)).await.map_err(|status| tasks::task_error(&status))?;
        Ok(())
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let caller = self.caller_of(&context);
        let task = pb::TaskRef { task_id: request.task_id };
        self.state
            .tasks
            .clone()
            .cancel_task(caller.request(task))
            .await
            .map_err(|status| tasks::task_error(&status))?;
        Ok(())
    }
}

impl CanvasMcp {
    /// The caller the HTTP layer left in the request's extensions (credentials, and the token
    /// check its core-service calls fill in); rmcp hands those over as `http::request::Parts`.
    fn caller_of(&self, context: &RequestContext<RoleServer>) -> Caller {
        context
            .extensions
            .get::<http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Caller>())
            .cloned()
            .unwrap_or_else(|| self.state.caller(None))
    }
}

/// The extensions this server speaks: the map view (MCP Apps) and tasks.
fn extensions() -> rmcp::model::ExtensionCapabilities {
    let mut extensions = crate::app::capability();
    extensions.insert(rmcp::model::TASKS_EXTENSION_ID.to_owned(), rmcp::model::JsonObject::new());
    extensions
}
