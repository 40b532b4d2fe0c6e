//! The MCP tools: one type per tool implementing [`CanvasTool`], and the
//! registry that lists and calls them.
//!
//! A tool declares its arguments and its output as Rust types; their JSON
//! Schemas are generated from the same types ([`schema`]), so what a client
//! is told and what the gateway accepts cannot drift apart. A tool only
//! translates: it turns arguments into one or two core-service calls and the
//! answer into its output. Every canvas rule is core-service's.

pub mod bulk;
pub mod comments;
pub mod diagrams;
pub mod frames;
pub mod items;
pub mod knowledge;
pub mod layout;
pub mod map;
pub mod media;
pub mod output;
pub mod progress;
pub mod projects;
pub mod schema;
pub mod tags;

use std::future::Future;
use std::sync::{Arc, LazyLock};

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};
use rmcp::ErrorData;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use canvas_proto::failure::Violation;
use canvas_proto::v1::{ErrorReason, ViolationReason};

use crate::error::{invalid_arguments, unknown_tool, ToolFailure};
use crate::state::{Caller, McpState};
use crate::token_check::Verdict;

/// What a tool call runs with.
pub struct ToolContext {
    /// The clients and settings of the gateway.
    pub state: McpState,
    /// Whose token the core-service calls carry.
    pub caller: Caller,
    /// The MCP task the call runs as (`crate::tasks`): its writes claim it in their transaction.
    pub task: Option<String>,
    /// Where a task's work says how far it got; unread outside a task.
    pub progress: progress::Progress,
}

impl ToolContext {
    /// The context of a call made by `caller`, not (yet) a task.
    pub fn new(state: McpState, caller: Caller) -> Self {
        Self { state, caller, task: None, progress: progress::Progress::default() }
    }

    /// Tells a task's client how far the work got (`statusMessage` of `tasks/get`).
    pub fn say(&self, message: impl Into<String>) {
        if self.task.is_some() {
            self.progress.say(message.into());
        }
    }

    /// A gRPC request carrying the caller's credentials.
    pub fn request<T>(&self, message: T) -> tonic::Request<T> {
        self.caller.request(message)
    }

    /// A creating call's request, carrying the `idempotencyKey` argument (when given) as the
    /// `idempotency-key` metadata; core-service checks it and runs the call once per caller and key.
    pub fn request_once<T>(&self, message: T, key: Option<&str>) -> Result<tonic::Request<T>, ToolFailure> {
        let mut request = self.request(message);
        if let Some(key) = key {
            let value = tonic::metadata::MetadataValue::try_from(key).map_err(|_| {
                ToolFailure::invalid(IDEMPOTENCY_ARGUMENT, "must be 1 to 255 printable ASCII characters")
            })?;
            request.metadata_mut().insert(canvas_proto::client::IDEMPOTENCY_KEY, value);
        }
        Ok(request)
    }
}

/// The `ask_above` of a destructive tool's request: the bound of `canvas_vocabulary::limits::confirm`
/// until the person agreed (`confirm: true`), then none.
pub fn ask_above(confirmed: bool) -> Option<u32> {
    (!confirmed).then_some(canvas_vocabulary::limits::confirm::ASK_ABOVE)
}

/// What a destructive tool's description says about asking first.
pub fn confirm_details(doing: &str) -> String {
    format!(
        "A call that would {doing} more than {} items asks the person first ({}: true once they agreed).",
        canvas_vocabulary::limits::confirm::ASK_ABOVE,
        canvas_vocabulary::limits::confirm::ARGUMENT
    )
}

/// The argument of the creating tools that carries an `Idempotency-Key`.
pub const IDEMPOTENCY_ARGUMENT: &str = "idempotencyKey";

/// The argument that carried the field core-service names: `Idempotency-Key` is the creating
/// tools' `idempotencyKey`; any other field is the tool's to map.
fn argument_of<T: CanvasTool>(violation: &Violation) -> String {
    if violation.field == "Idempotency-Key" {
        IDEMPOTENCY_ARGUMENT.to_owned()
    } else if violation.reason == ViolationReason::ConfirmationRequired {
        canvas_vocabulary::limits::confirm::ARGUMENT.to_owned()
    } else {
        T::argument_for(violation)
    }
}

/// How a tool behaves, for the `readOnlyHint`, `destructiveHint` and
/// `idempotentHint` annotations clients use to decide what needs a
/// confirmation.
#[derive(Debug, Clone, Copy)]
pub struct Hints {
    /// Changes nothing.
    pub read_only: bool,
    /// May remove or overwrite what exists (meaningful when not read-only).
    pub destructive: bool,
    /// Calling it twice with the same arguments has the effect of once.
    pub idempotent: bool,
}

impl Hints {
    pub const READ: Hints = Hints { read_only: true, destructive: false, idempotent: true };
    pub const CREATE: Hints = Hints { read_only: false, destructive: false, idempotent: false };
    pub const OVERWRITE: Hints = Hints { read_only: false, destructive: true, idempotent: true };
}

/// One MCP tool.
pub trait CanvasTool {
    /// The name clients call it by.
    const NAME: &'static str;
    /// A short human-readable title.
    const TITLE: &'static str;
    /// What it does, when to use it and what it returns, for the agent.
    const DESCRIPTION: &'static str;
    const HINTS: Hints;
    /// The arguments; their schema is the tool's `inputSchema`.
    type Args: DeserializeOwned + JsonSchema;
    /// The structured result; its schema is the tool's `outputSchema`.
    type Output: Serialize + JsonSchema;

    /// Facts appended to [`CanvasTool::DESCRIPTION`] that are core-service's (property rules,
    /// limits), written from `canvas_vocabulary` so the description cannot drift from them.
    fn details() -> String {
        String::new()
    }

    /// The `inputSchema`: generated from [`CanvasTool::Args`]; tools whose arguments carry item
    /// properties or limits take those schemas from `canvas_vocabulary`.
    fn input_schema() -> Arc<JsonObject> {
        schema::input::<Self::Args>()
    }

    /// The argument that carried the property core-service names in a field
    /// violation (its reason says whether the name or the value was wrong). Most
    /// tools pass the name through unchanged.
    fn argument_for(violation: &Violation) -> String {
        violation.field.clone()
    }

    /// Whether the result's item links are a place on the map a person would look at: the tool's
    /// definition then names the map view (`crate::app`), which MCP Apps hosts show inline.
    const SHOWN_ON_THE_MAP: bool = false;

    /// Content blocks added after the structured result's text block (an image, say).
    fn attachments(_output: &Self::Output) -> Vec<ContentBlock> {
        Vec::new()
    }

    fn run(ctx: &ToolContext, args: Self::Args) -> impl Future<Output = Result<Self::Output, ToolFailure>> + Send;
}

/// The `tools/list` entry of a tool.
fn definition<T: CanvasTool>() -> Tool {
    let annotations = ToolAnnotations::with_title(T::TITLE)
        .read_only(T::HINTS.read_only)
        .destructive(T::HINTS.destructive)
        .idempotent(T::HINTS.idempotent)
        .open_world(false);
    let details = T::details();
    let description =
        if details.is_empty() { T::DESCRIPTION.to_owned() } else { format!("{}\n{details}", T::DESCRIPTION) };
    let tool = Tool::new(T::NAME, description, T::input_schema())
        .with_title(T::TITLE)
        .with_raw_output_schema(schema::output::<T::Output>())
        .with_annotations(annotations);
    if T::SHOWN_ON_THE_MAP {
        tool.with_meta(crate::app::tool_meta())
    } else {
        tool
    }
}

/// What a tool call came to.
pub enum Called {
    /// Its result, a tool error included.
    Done(CallToolResult),
    /// It would change more items than may be changed unasked (core-service's
    /// `CONFIRMATION_REQUIRED`): the question to put to the person, and the tool error for a
    /// client that cannot ask, which names the `confirm` argument.
    AskFirst { question: String, cannot_ask: CallToolResult },
}

/// The question of a refusal that asks for a confirmation, if it is one.
fn confirmation_question<T: CanvasTool>(failure: &ToolFailure) -> Option<String> {
    let ToolFailure::Refused(refusal) = failure else { return None };
    let asked = refusal.violations.iter().find(|v| v.reason == ViolationReason::ConfirmationRequired)?;
    Some(format!("{}: {}. Go ahead?", T::TITLE, asked.description))
}

/// The tool's arguments, or the JSON-RPC error naming what is wrong with them.
fn parse<T: CanvasTool>(arguments: &Map<String, Value>) -> Result<T::Args, ErrorData> {
    serde_path_to_error::deserialize::<_, T::Args>(Value::Object(arguments.clone()))
        .map_err(|error| invalid_arguments(T::NAME, &schema::input::<T::Args>(), arguments, error))
}

/// Parses the arguments, runs the tool and renders its outcome: the output
/// as structured content and as the same JSON in a text block (for clients
/// older than structured content), or the failure as an `isError` result.
async fn run<T: CanvasTool>(ctx: &ToolContext, arguments: Map<String, Value>) -> Result<Called, ErrorData> {
    let parse = || parse::<T>(&arguments);
    let args = parse()?;
    let outcome = if T::HINTS.read_only {
        // The shared retry rule: a read whose core-service replica went away runs once more, on
        // another replica. (Arguments that parsed once parse again.)
        let mut first = Some(args);
        canvas_proto::client::idempotent(|| {
            let args = first.take().map_or_else(parse, Ok);
            async move {
                match args {
                    Ok(args) => T::run(ctx, args).await,
                    Err(_) => Err(ToolFailure::Internal),
                }
            }
        })
        .await
    } else {
        T::run(ctx, args).await
    };
    ctx.caller.check.settle(match &outcome {
        Ok(_) => Verdict::Accepted,
        Err(ToolFailure::Refused(refusal)) if refusal.reason == ErrorReason::Unauthenticated => Verdict::Refused,
        // core-service authenticates before anything else, and the gateway's own argument checks
        // count only after a call was sent (`TokenCheck::verdict`).
        Err(ToolFailure::Refused(_)) => Verdict::Accepted,
        Err(_) => Verdict::Unknown,
    });
    match outcome {
        Ok(output) => {
            let value = serde_json::to_value(&output)
                .map_err(|err| ErrorData::internal_error(format!("cannot render the result: {err}"), None))?;
            tracing::info!(tool = T::NAME, "tool call succeeded");
            let mut result = CallToolResult::structured(value);
            result.content.extend(T::attachments(&output));
            Ok(Called::Done(result))
        }
        Err(ToolFailure::Refused(refusal)) if refusal.reason == ErrorReason::TooManyRequests => {
            tracing::info!(tool = T::NAME, "tool call refused by the caller's rate limit");
            // The transport answers it with HTTP 429 and the rate-limit fields.
            ctx.caller.check.rate_limited(&refusal);
            Err(crate::error::rate_limited_call(&refusal))
        }
        Err(failure) => {
            tracing::info!(tool = T::NAME, failure = ?failure, "tool call failed");
            let question = confirmation_question::<T>(&failure);
            let result = failure.into_result(&argument_of::<T>, &arguments);
            Ok(match question {
                Some(question) => Called::AskFirst { question, cannot_ask: result },
                None => Called::Done(result),
            })
        }
    }
}

macro_rules! registry {
    ($($tool:ty),+ $(,)?) => {
        /// Every tool's name, in the order `tools/list` shows them.
        pub const NAMES: &[&str] = &[$(<$tool as CanvasTool>::NAME),+];

        static DEFINITIONS: LazyLock<Vec<Tool>> = LazyLock::new(|| vec![$(definition::<$tool>()),+]);

        /// Whether `arguments` are the tool `name`'s (the JSON-RPC error a call would answer, if not),
        /// checked before a call is made a task so that bad arguments answer at once.
        pub fn check_arguments(name: &str, arguments: &Map<String, Value>) -> Result<(), ErrorData> {
            $(
                if name == <$tool as CanvasTool>::NAME {
                    return parse::<$tool>(arguments).map(drop);
                }
            )+
            Err(unknown_tool(name, NAMES))
        }

        /// Calls the tool `name`; an unknown name is a JSON-RPC error.
        pub async fn call(name: &str, ctx: &ToolContext, arguments: Map<String, Value>) -> Result<Called, ErrorData> {
            $(
                if name == <$tool as CanvasTool>::NAME {
                    return run::<$tool>(ctx, arguments).await;
                }
            )+
            Err(unknown_tool(name, NAMES))
        }
    };
}

registry!(
    projects::ListProjects,
    projects::FindItem,
    items::CreateItem,
    frames::CreateFrame,
    bulk::CreateItems,
    bulk::CreateDiagram,
    diagrams::ReadDiagram,
    diagrams::UpdateDiagram,
    diagrams::DeleteDiagram,
    diagrams::ExportMermaid,
    bulk::ArrangeItems,
    items::GetItem,
    items::ListItems,
    map::ReadMap,
    map::RenderMap,
    items::UpdateItemProperty,
    layout::StyleItem,
    layout::ArrangeItem,
    items::DeleteItem,
    layout::ConnectItems,
    media::UploadImage,
    knowledge::RetrieveKnowledge,
    tags::ListTags,
    tags::CreateTag,
    tags::UpdateTag,
    tags::DeleteTag,
    comments::ListComments,
    comments::AddComment,
    comments::ReplyComment,
    comments::ResolveComment,
);

/// The `tools/list` answer.
pub fn definitions() -> Vec<Tool> {
    DEFINITIONS.clone()
}

/// Whether the tool `name` has the `confirm` argument (`canvas_vocabulary::limits::confirm`).
pub fn takes_confirm(name: &str) -> bool {
    DEFINITIONS.iter().any(|tool| {
        tool.name == name
            && tool
                .input_schema
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|properties| properties.contains_key(canvas_vocabulary::limits::confirm::ARGUMENT))
    })
}

/// One tool's definition, for the transport's header checks.
pub fn find(name: &str) -> Option<Tool> {
    DEFINITIONS.iter().find(|tool| tool.name == name).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `null` value anywhere (a `default: null`, say).
    fn has_null(value: &Value) -> bool {
        match value {
            Value::Null => true,
            Value::Array(items) => items.iter().any(has_null),
            Value::Object(map) => map.values().any(has_null),
            _ => false,
        }
    }

    /// Every `format` value anywhere in a schema.
    fn formats(value: &Value, found: &mut Vec<String>) {
        match value {
            Value::Array(items) => items.iter().for_each(|v| formats(v, found)),
            Value::Object(map) => {
                if let Some(Value::String(format)) = map.get("format") {
                    found.push(format.clone());
                }
                map.values().for_each(|v| formats(v, found));
            }
            _ => {}
        }
    }

    #[test]
    fn schemas_use_only_the_formats_json_schema_defines() {
        for tool in definitions() {
            let mut found = Vec::new();
            formats(&Value::Object((*tool.input_schema).clone()), &mut found);
            if let Some(output) = &tool.output_schema {
                formats(&Value::Object((**output).clone()), &mut found);
            }
            found.retain(|f| !schema::STANDARD_FORMATS.contains(&f.as_str()));
            assert!(found.is_empty(), "{} uses formats JSON Schema 2020-12 does not define: {found:?}", tool.name);
        }
    }

    #[test]
    fn every_tool_has_object_schemas_and_hints() {
        let tools = definitions();
        assert_eq!(tools.len(), NAMES.len());
        for tool in tools {
            assert_eq!(tool.input_schema.get("type"), Some(&Value::from("object")), "{}", tool.name);
            let output = tool.output_schema.as_ref().expect("output schema");
            assert_eq!(output.get("type"), Some(&Value::from("object")), "{}", tool.name);
            for schema in [&tool.input_schema, output] {
                let text = serde_json::to_string(schema).unwrap_or_default();
                assert!(
                    !text.contains("\"null\"") && !has_null(&Value::Object((**schema).clone())),
                    "{} schema mentions null: {text}",
                    tool.name
                );
            }
            assert!(tool.annotations.is_some());
        }
    }
}
