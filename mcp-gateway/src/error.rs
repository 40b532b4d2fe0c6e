//! Every error the gateway shows, mapped in one place.
//!
//! Three kinds, because MCP has three places for them:
//! - [`Rejection`]: the HTTP request is refused before any MCP method runs
//!   (401, 405, 413, malformed JSON, …). Rendered as an HTTP status with a
//!   JSON-RPC error body, never as plain text, so every client can read it.
//! - [`invalid_arguments`] / [`unknown_tool`]: a `tools/call` that cannot be
//!   routed or whose arguments do not have the declared shape. JSON-RPC
//!   error -32602, as the MCP specification asks.
//! - [`ToolFailure`]: the tool ran and core-service (or argument decoding)
//!   said no. Becomes a tool result with `isError: true` whose text names
//!   the offending argument and the rule, so an agent can correct itself.

use axum::http::header::{ALLOW, CONTENT_TYPE, WWW_AUTHENTICATE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::ErrorData;
use serde_json::{json, Map, Value};
use tonic::Code;
use tonic_types::StatusExt;

/// JSON-RPC code of the spec's 401 answer.
pub const UNAUTHORIZED_CODE: i64 = -32001;
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const INTERNAL_ERROR: i64 = -32603;
/// Implementation-defined server error (JSON-RPC reserves -32000..-32099).
const SERVER_ERROR: i64 = -32000;

/// An HTTP request refused before it reached an MCP method.
#[derive(Debug)]
pub struct Rejection {
    /// HTTP status of the answer.
    pub status: StatusCode,
    /// JSON-RPC error code in the body.
    pub code: i64,
    /// Human-readable reason, phrased so the caller knows what to change.
    pub message: String,
    /// The request id when it could be read, else JSON `null`.
    pub id: Value,
    /// Extra headers (`WWW-Authenticate`, `Allow`).
    pub headers: Vec<(http::HeaderName, HeaderValue)>,
}

impl Rejection {
    fn new(status: StatusCode, code: i64, message: impl Into<String>) -> Self {
        Self { status, code, message: message.into(), id: Value::Null, headers: Vec::new() }
    }

    /// The spec's 401: `-32001`, `id` null, a Bearer challenge naming the
    /// realm, and `error="invalid_token"` when a token was sent.
    pub fn unauthorized(realm: &str, token_sent: bool) -> Self {
        let realm = realm.replace(['"', '\\'], "");
        let challenge = if token_sent {
            format!("Bearer realm=\"{realm}\", error=\"invalid_token\"")
        } else {
            format!("Bearer realm=\"{realm}\"")
        };
        let message = if token_sent {
            "A valid API token is required: the token sent is unknown, revoked or of another environment"
        } else {
            "A valid API token is required: send 'Authorization: Bearer <API_TOKEN>' (or 'ServiceApiKey <API_TOKEN>')"
        };
        let mut rejection = Self::new(StatusCode::UNAUTHORIZED, UNAUTHORIZED_CODE, message);
        if let Ok(value) = HeaderValue::from_str(&challenge) {
            rejection.headers.push((WWW_AUTHENTICATE, value));
        }
        rejection
    }

    pub fn method_not_allowed() -> Self {
        let mut rejection = Self::new(
            StatusCode::METHOD_NOT_ALLOWED,
            INVALID_REQUEST,
            "Method Not Allowed: this MCP endpoint is stateless and accepts only POST (no SSE stream to GET, no session to DELETE)",
        );
        rejection.headers.push((ALLOW, HeaderValue::from_static("POST")));
        rejection
    }

    pub fn host_not_allowed(host: &str) -> Self {
        let shown: String = host.chars().filter(|c| !c.is_control()).take(100).collect();
        Self::new(
            StatusCode::FORBIDDEN,
            SERVER_ERROR,
            format!("Forbidden: Host '{shown}' is not allowed; add it to CANVAS_MCP_ALLOWED_HOSTS"),
        )
    }

    pub fn unsupported_media_type() -> Self {
        Self::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, INVALID_REQUEST, "Content-Type must be application/json")
    }

    pub fn not_acceptable() -> Self {
        Self::new(
            StatusCode::NOT_ACCEPTABLE,
            INVALID_REQUEST,
            "Accept must allow application/json or text/event-stream (MCP clients send both)",
        )
    }

    pub fn payload_too_large(limit: usize) -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            INVALID_REQUEST,
            format!("Request body too large: at most {limit} bytes (25 MB) are accepted"),
        )
    }

    pub fn parse_error(detail: impl std::fmt::Display) -> Self {
        Self::new(StatusCode::BAD_REQUEST, PARSE_ERROR, format!("Parse error: the body is not valid JSON ({detail})"))
    }

    /// A message that is JSON but not a JSON-RPC 2.0 message this server
    /// takes; `id` is echoed when it could be read.
    pub fn invalid_request(id: Value, message: impl Into<String>) -> Self {
        Self { id, ..Self::new(StatusCode::BAD_REQUEST, INVALID_REQUEST, message) }
    }

    /// A request whose method is known but whose `params` do not fit it.
    pub fn invalid_params(id: Value, message: impl Into<String>) -> Self {
        Self { id, ..Self::new(StatusCode::BAD_REQUEST, -32602, message) }
    }

    /// core-service did not answer the token check.
    pub fn core_unreachable() -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, INTERNAL_ERROR, "core-service is unreachable; try again shortly")
    }

    pub fn internal() -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, INTERNAL_ERROR, "internal error")
    }

    /// A plain-text refusal from rmcp, kept with its status and text.
    pub fn from_plain(status: StatusCode, text: &str) -> Self {
        let code = if status.is_server_error() { INTERNAL_ERROR } else { INVALID_REQUEST };
        let message = if text.is_empty() { status.canonical_reason().unwrap_or("error") } else { text };
        Self::new(status, code, message)
    }

    /// The JSON-RPC error object alone, for answers that carry several.
    pub fn body(&self) -> Value {
        json!({"jsonrpc": "2.0", "id": self.id, "error": {"code": self.code, "message": self.message}})
    }
}

impl IntoResponse for Rejection {
    fn into_response(self) -> Response {
        let bytes = serde_json::to_vec(&self.body()).unwrap_or_default();
        let mut response =
            (self.status, [(CONTENT_TYPE, HeaderValue::from_static("application/json"))], bytes).into_response();
        for (name, value) in self.headers {
            response.headers_mut().insert(name, value);
        }
        response
    }
}

/// `tools/call` named a tool this server does not have.
pub fn unknown_tool(name: &str, known: &[&str]) -> ErrorData {
    ErrorData::invalid_params(format!("Unknown tool '{name}'; the tools are: {}", known.join(", ")), None)
}

/// Arguments that do not have the shape of the tool's input schema: a
/// missing required argument, an unknown one, or a value of the wrong JSON
/// type. The message and `data.argument` name the argument.
pub fn invalid_arguments(tool: &str, error: serde_path_to_error::Error<serde_json::Error>) -> ErrorData {
    let path = error.path().to_string();
    let inner = error.into_inner().to_string();
    let argument = if path == "." { missing_or_unknown(&inner).unwrap_or_default() } else { path.clone() };
    let message = if path == "." {
        format!("Invalid arguments for {tool}: {inner}")
    } else {
        format!("Invalid arguments for {tool}: argument '{path}': {inner}")
    };
    ErrorData::invalid_params(message, Some(json!({"tool": tool, "argument": argument})))
}

/// `missing field `x`` / `unknown field `x`, expected …` → `x`.
fn missing_or_unknown(message: &str) -> Option<String> {
    let start = message.find('`')? + 1;
    let end = start + message[start..].find('`')?;
    Some(message[start..end].to_owned())
}

/// Why a tool call failed, in terms the agent can act on.
#[derive(Debug)]
pub enum ToolFailure {
    /// Arguments to fix: `(core field or argument, rule)`.
    Invalid(Vec<(String, String)>),
    /// No access to the project (or not the role the call needs).
    Denied(String),
    /// A project or item that does not exist for this caller.
    NotFound {
        /// `project` or `item`, from core's `ResourceInfo`.
        kind: String,
        /// The id that was not found, to find the argument that held it.
        id: String,
        message: String,
    },
    /// The feature or core-service cannot serve the call now.
    Unavailable(String),
    /// Anything else; the text says what happened.
    Other(String),
}

impl ToolFailure {
    /// A rejected argument found by the gateway itself (decoding, not a
    /// canvas rule: base64 that does not decode, an empty style).
    pub fn invalid(argument: &str, rule: impl Into<String>) -> Self {
        Self::Invalid(vec![(argument.to_owned(), rule.into())])
    }

    /// Renders the failure. `argument_for` turns a core field name (and the
    /// rule it broke) into the tool argument that carried it; `arguments` are the call's arguments,
    /// searched for the id of a not-found resource.
    pub fn into_result(
        self,
        argument_for: &dyn Fn(&str, &str) -> String,
        arguments: &Map<String, Value>,
    ) -> CallToolResult {
        let text = match self {
            Self::Invalid(violations) => {
                let lines: Vec<String> = violations
                    .iter()
                    .map(|(field, rule)| format!("invalid argument '{}': {rule}", argument_for(field, rule)))
                    .collect();
                format!("{}. Correct the argument and call the tool again.", lines.join("; "))
            }
            Self::Denied(message) => format!(
                "permission denied (argument 'projectId'): {message}. Call list_projects to see the projects you can access and your role in each."
            ),
            Self::NotFound { kind, id, message } => {
                let argument = argument_holding(arguments, &id).unwrap_or_else(|| match kind.as_str() {
                    "project" => "projectId".to_owned(),
                    _ => "itemId".to_owned(),
                });
                format!("not found (argument '{argument}'): {message}. Check the id with list_projects, list_items or find_item.")
            }
            Self::Unavailable(message) | Self::Other(message) => message,
        };
        CallToolResult::error(vec![ContentBlock::text(text)])
    }
}

/// The name of the argument (at any depth) whose string value is `id`.
fn argument_holding(arguments: &Map<String, Value>, id: &str) -> Option<String> {
    arguments.iter().find_map(|(name, value)| match value {
        Value::String(s) if !id.is_empty() && s.trim().eq_ignore_ascii_case(id) => Some(name.clone()),
        Value::Array(list) if list.iter().any(|v| v.as_str().is_some_and(|s| s.eq_ignore_ascii_case(id))) => {
            Some(name.clone())
        }
        _ => None,
    })
}

/// The text of a failure in transport (the core-service replica went away); read-only tools are
/// run once more when they meet it.
pub const TRANSPORT_FAILURE: &str = "core-service is unreachable; try again shortly";

impl From<tonic::Status> for ToolFailure {
    fn from(status: tonic::Status) -> Self {
        if canvas_proto::channel::retryable(&status) {
            return Self::Unavailable(TRANSPORT_FAILURE.to_owned());
        }
        let details = status.get_error_details();
        let message = status.message().to_owned();
        match status.code() {
            Code::InvalidArgument | Code::OutOfRange | Code::FailedPrecondition => {
                let fields: Vec<(String, String)> = details
                    .bad_request()
                    .map(|br| br.field_violations.iter().map(|v| (v.field.clone(), v.description.clone())).collect())
                    .unwrap_or_default();
                if fields.is_empty() {
                    Self::Other(format!("rejected: {message}"))
                } else {
                    Self::Invalid(fields)
                }
            }
            Code::PermissionDenied => Self::Denied(message),
            Code::NotFound => {
                let (kind, id) = details
                    .resource_info()
                    .map(|info| (info.resource_type.clone(), info.resource_name.clone()))
                    .unwrap_or_default();
                Self::NotFound { kind, id, message }
            }
            Code::Unauthenticated => Self::Other("a valid API token is required: the token was rejected".to_owned()),
            Code::AlreadyExists | Code::Aborted => Self::Other(format!("conflict: {message}; try again")),
            Code::ResourceExhausted => Self::Unavailable(format!("rate limited: {message}")),
            Code::Unavailable if message.contains("transport") || message.contains("connect") => {
                Self::Unavailable(TRANSPORT_FAILURE.to_owned())
            }
            Code::Unavailable | Code::DeadlineExceeded => Self::Unavailable(format!("{message}; try again shortly")),
            Code::Unimplemented => Self::Unavailable("this operation is not available on this server yet".to_owned()),
            Code::Ok | Code::Cancelled | Code::Unknown | Code::Internal | Code::DataLoss => {
                tracing::error!(code = ?status.code(), message = %message, "core-service call failed");
                Self::Other("internal error in core-service; try again later".to_owned())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(result: &CallToolResult) -> String {
        result.content.iter().filter_map(|c| c.as_text().map(|t| t.text.clone())).collect()
    }

    #[test]
    fn validation_names_the_argument() {
        let failure = ToolFailure::Invalid(vec![("fontSize".into(), "must be >= 1".into())]);
        let result = failure.into_result(&|f, _| format!("properties.{f}"), &Map::new());
        assert_eq!(result.is_error, Some(true));
        assert!(text(&result).contains("'properties.fontSize': must be >= 1"));
    }

    #[test]
    fn not_found_names_the_argument_holding_the_id() {
        let mut args = Map::new();
        args.insert("toItemId".into(), json!("ABC"));
        let failure = ToolFailure::NotFound { kind: "item".into(), id: "abc".into(), message: "gone".into() };
        assert!(text(&failure.into_result(&|f, _| f.to_owned(), &args)).contains("'toItemId'"));
    }

    #[test]
    fn unknown_field_errors_name_the_argument() {
        assert_eq!(missing_or_unknown("missing field `projectId`").as_deref(), Some("projectId"));
    }
}
