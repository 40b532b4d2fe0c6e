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
//!   the offending argument and the rule, so an agent can correct itself, and
//!   whose `_meta["canvas/errorReason"]` names the reason. core-service's
//!   answers are read by their `ErrorReason` (`canvas_proto::failure`), never
//!   by their message.

use axum::http::header::{
    ALLOW, CONNECTION, CONTENT_LENGTH, CONTENT_TYPE, RETRY_AFTER, TRANSFER_ENCODING, WWW_AUTHENTICATE,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use canvas_proto::failure::{classify, CallFailure, Refusal, Violation};
use canvas_proto::v1::{ErrorReason, ViolationReason};
use rmcp::model::MetaObject;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::ErrorData;
use serde_json::{json, Map, Value};

/// JSON-RPC code of the spec's 401 answer.
pub const UNAUTHORIZED_CODE: i64 = -32001;
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const INTERNAL_ERROR: i64 = -32603;
/// Implementation-defined server error (JSON-RPC reserves -32000..-32099).
const SERVER_ERROR: i64 = -32000;
/// The caller's request rate limit is used up (a server error of JSON-RPC's reserved range); the
/// error's `data` holds `retryAfter` (seconds), `rateLimitPolicy` and `rateLimit`, the HTTP answer
/// the same as `Retry-After`, `RateLimit-Policy` and `RateLimit` fields.
pub const RATE_LIMITED_CODE: i64 = -32029;

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
    /// The JSON-RPC error's `data`, when it has any (boxed: a rejection travels in `Result`s).
    pub data: Option<Box<Value>>,
}

impl Rejection {
    fn new(status: StatusCode, code: i64, message: impl Into<String>) -> Self {
        Self { status, code, message: message.into(), id: Value::Null, headers: Vec::new(), data: None }
    }

    /// The caller's rate limit is used up: 429 with `Retry-After`, `RateLimit-Policy` and
    /// `RateLimit`, and the same in the JSON-RPC error's `data`.
    pub fn rate_limited(refusal: &Refusal) -> Self {
        let mut rejection = Self::new(StatusCode::TOO_MANY_REQUESTS, RATE_LIMITED_CODE, refusal.message.clone());
        let data = rate_limit_data(refusal);
        if let Some(secs) = data["retryAfter"].as_u64() {
            rejection.headers.push((RETRY_AFTER, HeaderValue::from(secs)));
        }
        if let Some((policy, state)) = refusal.rate_limit_fields() {
            for (name, value) in [("ratelimit-policy", policy), ("ratelimit", state)] {
                if let Ok(value) = HeaderValue::from_str(value) {
                    rejection.headers.push((http::HeaderName::from_static(name), value));
                }
            }
        }
        rejection.data = Some(Box::new(data));
        rejection
    }

    /// The spec's 401: `-32001`, `id` null, a Bearer challenge naming the
    /// realm, `error="invalid_token"` when a token was sent, and where the protected-resource
    /// metadata is (`resource_metadata`, RFC 9728 §5.1), from which an MCP client finds the
    /// authorization server.
    pub fn unauthorized(realm: &str, token_sent: bool, resource_metadata: &str) -> Self {
        let message = if token_sent {
            "A valid API token is required: the token sent is unknown, revoked or of another environment"
        } else {
            "A valid API token is required: send 'Authorization: Bearer <API_TOKEN>' (or 'ServiceApiKey <API_TOKEN>')"
        };
        let mut rejection = Self::new(StatusCode::UNAUTHORIZED, UNAUTHORIZED_CODE, message);
        if let Ok(value) = HeaderValue::from_str(&challenge(realm, token_sent, resource_metadata)) {
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

    /// This answer leaves the request's body unread. When the request announced one
    /// (`Content-Length` above 0, or `Transfer-Encoding`), the answer says the connection ends
    /// (`Connection: close`), so an HTTP/1.1 client opens a new one for its next request instead
    /// of reusing one the server closes after answering (RFC 9112, section 9.6). Without it, a
    /// client that reused the connection at the wrong moment met "Server disconnected without
    /// sending a response" (the MCP Python SDK fetching the resource metadata after its 401). A
    /// request without a body (the SDK's `GET /mcp`) keeps its connection.
    pub fn body_unread(mut self, headers: &HeaderMap) -> Self {
        let announced = headers.contains_key(TRANSFER_ENCODING)
            || headers
                .get(CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.trim().parse::<u64>().map_or(true, |n| n > 0));
        if announced {
            self.headers.push((CONNECTION, HeaderValue::from_static("close")));
        }
        self
    }

    /// A refusal of an oversized body, after the edge's drain rule
    /// (`canvas_runtime::edge::drain`): when the body could not be read to its end, the answer
    /// says the connection ends, as [`Self::body_unread`] does.
    pub fn after_drain(mut self, oversized: canvas_runtime::edge::drain::Oversized) -> Self {
        if oversized == canvas_runtime::edge::drain::Oversized::Unread {
            self.headers.push((CONNECTION, HeaderValue::from_static("close")));
        }
        self
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

    /// A request head over the edge limits (`canvas_runtime::edge::head`): its status, an invalid
    /// request, and the problem's reason in `data`.
    pub fn edge(refusal: canvas_runtime::edge::head::EdgeRefusal) -> Self {
        let mut rejection = Self::new(refusal.status, INVALID_REQUEST, refusal.detail);
        rejection.data = Some(Box::new(json!({"reason": refusal.reason})));
        rejection
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
        let mut rejection = Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            INTERNAL_ERROR,
            "core-service is unreachable; try again shortly",
        );
        rejection.headers.push((RETRY_AFTER, HeaderValue::from_static("1")));
        rejection
    }

    /// core-service did not answer the token check within the deadline.
    pub fn core_timed_out() -> Self {
        Self::new(StatusCode::GATEWAY_TIMEOUT, INTERNAL_ERROR, "core-service did not answer in time; try again")
    }

    /// A dependency of core-service (its database) could not check the token.
    pub fn dependency_unavailable(refusal: &Refusal) -> Self {
        let mut rejection = Self::new(StatusCode::SERVICE_UNAVAILABLE, SERVER_ERROR, refusal.message.clone());
        if let Some(delay) = refusal.retry_after {
            rejection.headers.push((RETRY_AFTER, HeaderValue::from(delay.as_secs().max(1))));
        }
        rejection
    }

    /// A browser page of another origin (DNS rebinding, cross-site requests): the MCP transport
    /// requires servers to refuse it with 403.
    pub fn origin_not_allowed(origin: &str) -> Self {
        let shown: String = origin.chars().filter(|c| !c.is_control()).take(100).collect();
        Self::new(
            StatusCode::FORBIDDEN,
            SERVER_ERROR,
            format!("Forbidden: Origin '{shown}' is not allowed; add it to CANVAS_MCP_ALLOWED_ORIGINS"),
        )
    }

    /// The body arrived slower than `--body-timeout-secs`.
    pub fn body_timeout() -> Self {
        Self::new(
            StatusCode::REQUEST_TIMEOUT,
            INVALID_REQUEST,
            "the request body did not arrive within the time limit (CANVAS_BODY_TIMEOUT_SECS)",
        )
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
        let mut error = json!({"code": self.code, "message": self.message});
        if let Some(data) = &self.data {
            error["data"] = (**data).clone();
        }
        json!({"jsonrpc": "2.0", "id": self.id, "error": error})
    }
}

/// The `WWW-Authenticate` value of a 401. Quotes and backslashes are dropped from the configured
/// values, which a quoted-string could only carry escaped.
pub fn challenge(realm: &str, token_sent: bool, resource_metadata: &str) -> String {
    let quoted = |value: &str| value.replace(['"', '\\'], "");
    let error = if token_sent { ", error=\"invalid_token\"" } else { "" };
    format!("Bearer realm=\"{}\"{error}, resource_metadata=\"{}\"", quoted(realm), quoted(resource_metadata))
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

/// The JSON-RPC error `data` of a rate-limit refusal: the reason, the seconds to wait and the
/// draft-ietf-httpapi-ratelimit-headers field values.
pub fn rate_limit_data(refusal: &Refusal) -> Value {
    let mut data = json!({
        "reason": refusal.reason.as_str_name(),
        "retryAfter": refusal.retry_after.map_or(1, |delay| delay.as_secs().max(1)),
    });
    if let Some((policy, state)) = refusal.rate_limit_fields() {
        data["rateLimitPolicy"] = Value::from(policy);
        data["rateLimit"] = Value::from(state);
    }
    data
}

/// A tool call refused by the caller's rate limit: a JSON-RPC error rather than a tool result, so
/// that clients back off as they do for any server error.
pub fn rate_limited_call(refusal: &Refusal) -> ErrorData {
    ErrorData::new(
        rmcp::model::ErrorCode(RATE_LIMITED_CODE as i32),
        refusal.message.clone(),
        Some(rate_limit_data(refusal)),
    )
}

/// `tools/call` named a tool this server does not have.
pub fn unknown_tool(name: &str, known: &[&str]) -> ErrorData {
    ErrorData::invalid_params(format!("Unknown tool '{name}'; the tools are: {}", known.join(", ")), None)
}

/// Arguments that do not have the shape of the tool's input schema: a
/// missing required argument, an unknown one, or a value of the wrong JSON
/// type. The message and `data.argument` name the argument: found in the
/// schema itself (a required name missing, a name it does not list) or, for a
/// wrong value, from the path serde reports — never by reading error text.
pub fn invalid_arguments(
    tool: &str,
    schema: &rmcp::model::JsonObject,
    arguments: &Map<String, Value>,
    error: serde_path_to_error::Error<serde_json::Error>,
) -> ErrorData {
    let path = error.path().to_string();
    let inner = error.into_inner().to_string();
    let listed = schema.get("properties").and_then(Value::as_object);
    let missing = schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .find(|name| !arguments.contains_key(*name));
    let unknown = arguments.keys().find(|name| listed.is_some_and(|listed| !listed.contains_key(name.as_str())));
    let argument = match (path.as_str(), missing, unknown) {
        (".", Some(name), _) => name.to_owned(),
        (".", None, Some(name)) => name.clone(),
        (".", None, None) => String::new(),
        (path, _, _) => path.to_owned(),
    };
    let message = if argument.is_empty() {
        format!("Invalid arguments for {tool}: {inner}")
    } else {
        format!("Invalid arguments for {tool}: argument '{argument}': {inner}")
    };
    ErrorData::invalid_params(message, Some(json!({"tool": tool, "argument": argument})))
}

/// Why a tool call failed, in terms the agent can act on.
#[derive(Debug)]
pub enum ToolFailure {
    /// core-service refused the call with a typed reason, or the gateway could not decode an
    /// argument (then the reason is `VALIDATION_FAILED`).
    Refused(Box<Refusal>),
    /// No answer from core-service (connection refused or broken). Read-only tools are run once
    /// more when they meet it.
    Unreachable,
    /// core-service's transport refused this one call (its stream was reset) while serving others.
    Rejected,
    /// core-service did not answer within the gateway's deadline.
    TimedOut,
    /// core-service answered without a typed reason (logged).
    Internal,
}

impl ToolFailure {
    /// A rejected argument found by the gateway itself (decoding, not a
    /// canvas rule: base64 that does not decode, an empty style).
    pub fn invalid(argument: &str, rule: impl Into<String>) -> Self {
        let description = rule.into();
        Self::Refused(Box::new(Refusal {
            reason: ErrorReason::ValidationFailed,
            message: format!("{argument}: {description}"),
            violations: vec![Violation {
                field: argument.to_owned(),
                description,
                reason: ViolationReason::InvalidValue,
            }],
            resource: None,
            retry_after: None,
            metadata: Default::default(),
        }))
    }

    /// The reason named in the result's `_meta`, for clients that branch on it.
    fn reason_name(&self) -> &'static str {
        match self {
            Self::Refused(refusal) => refusal.reason.as_str_name(),
            Self::Unreachable => "CORE_UNREACHABLE",
            Self::Rejected => "CORE_REJECTED_CALL",
            Self::TimedOut => ErrorReason::DeadlineExceeded.as_str_name(),
            Self::Internal => ErrorReason::Internal.as_str_name(),
        }
    }

    /// Renders the failure as an `isError` tool result whose text says what to do, with
    /// `_meta["canvas/errorReason"]` naming the reason. `argument_for` turns a core field
    /// violation into the tool argument that carried it; `arguments` are the call's
    /// arguments, searched for the id of a not-found resource.
    pub fn into_result(
        self,
        argument_for: &dyn Fn(&Violation) -> String,
        arguments: &Map<String, Value>,
    ) -> CallToolResult {
        let reason = self.reason_name();
        let text = match self {
            Self::Refused(refusal) => refusal_text(*refusal, argument_for, arguments),
            Self::Unreachable => "core-service is unreachable; try again shortly".to_owned(),
            Self::Rejected => "core-service refused this call at the transport level (its stream was reset); \
                nothing was applied if it was a refusal of a new call; try again, with smaller arguments if they are large"
                .to_owned(),
            Self::TimedOut => "core-service did not answer in time; a change may still have been applied, so \
                read the item before you try again"
                .to_owned(),
            Self::Internal => "internal error in core-service; try again later".to_owned(),
        };
        let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
        let mut meta = Map::new();
        meta.insert(ERROR_REASON_META.to_owned(), Value::from(reason));
        result.meta = Some(MetaObject(meta));
        result
    }
}

/// The `_meta` key of a failed tool result naming its reason.
pub const ERROR_REASON_META: &str = "canvas/errorReason";

/// What the agent reads for each reason: docs/ERRORS.md's error table, MCP column.
fn refusal_text(
    refusal: Refusal,
    argument_for: &dyn Fn(&Violation) -> String,
    arguments: &Map<String, Value>,
) -> String {
    let retry = refusal.retry_after.map(|d| format!("; try again in {} s", d.as_secs().max(1))).unwrap_or_default();
    let asks = |v: &Violation| v.reason == ViolationReason::ConfirmationRequired;
    match refusal.reason {
        ErrorReason::ValidationFailed if refusal.violations.iter().any(asks) => {
            let asked = refusal.violations.iter().find(|v| asks(v)).map(|v| v.description.as_str()).unwrap_or("");
            format!(
                "needs the person's agreement (argument '{}'): {asked}. Nothing was changed. Ask the person; if they \
                 agree, call the tool again with {}: true.",
                canvas_vocabulary::limits::confirm::ARGUMENT,
                canvas_vocabulary::limits::confirm::ARGUMENT
            )
        }
        ErrorReason::ValidationFailed | ErrorReason::MalformedRequest if !refusal.violations.is_empty() => {
            let lines: Vec<String> = refusal
                .violations
                .iter()
                .map(|v| format!("invalid argument '{}': {}", argument_for(v), v.description))
                .collect();
            format!("{}. Correct the argument and call the tool again.", lines.join("; "))
        }
        ErrorReason::ValidationFailed | ErrorReason::MalformedRequest => format!("rejected: {}", refusal.message),
        ErrorReason::PermissionDenied => format!(
            "permission denied (argument 'projectId'): {}. Call list_projects to see the projects you can access and your role in each.",
            refusal.message
        ),
        ErrorReason::NotFound => {
            let (kind, id) = refusal.resource.clone().unwrap_or_default();
            let argument = argument_holding(arguments, &id).unwrap_or_else(|| match kind.as_str() {
                "project" => "projectId".to_owned(),
                _ => "itemId".to_owned(),
            });
            format!(
                "not found (argument '{argument}'): {}. Check the id with list_projects, list_items or find_item.",
                refusal.message
            )
        }
        ErrorReason::Unauthenticated => "a valid API token is required: the token was rejected".to_owned(),
        ErrorReason::PreconditionFailed => {
            // A diagram's version is read with its text (update_diagram takes a diagramId).
            let (what, reader) =
                if arguments.contains_key("diagramId") { ("diagram", "read_diagram") } else { ("item", "get_item") };
            format!(
                "the {what} changed since you read it (argument 'expectedVersion'): {}. Read it again with {reader}, \
                 then decide whether your change still applies.",
                refusal.message
            )
        }
        ErrorReason::Conflict => format!("conflict: {}", refusal.message),
        ErrorReason::RateLimited | ErrorReason::TooManyRequests => format!("rate limited: {}{retry}", refusal.message),
        ErrorReason::PayloadTooLarge => format!("too large: {}", refusal.message),
        ErrorReason::DependencyUnavailable => format!("{}{retry}", refusal.message),
        ErrorReason::DeadlineExceeded => "core-service did not answer in time; try again".to_owned(),
        ErrorReason::Unimplemented => "this operation is not available on this server yet".to_owned(),
        ErrorReason::IdempotencyKeyReused => format!(
            "idempotencyKey reused (argument 'idempotencyKey'): {}. Use a new key for a new request.",
            refusal.message
        ),
        ErrorReason::IdempotencyKeyInUse => format!(
            "in progress (argument 'idempotencyKey'): {}. Call the tool again with the same arguments and key \
             to get its result.",
            refusal.message
        ),
        ErrorReason::Internal | ErrorReason::Unspecified => "internal error in core-service; try again later".to_owned(),
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

impl From<tonic::Status> for ToolFailure {
    fn from(status: tonic::Status) -> Self {
        match classify(&status) {
            CallFailure::Refused(refusal) => {
                if refusal.reason == ErrorReason::Internal {
                    tracing::error!(message = %refusal.message, "core-service failed internally");
                }
                Self::Refused(Box::new(refusal))
            }
            CallFailure::Unreachable { cause } => {
                tracing::warn!(%cause, "core-service call failed in transport");
                Self::Unreachable
            }
            CallFailure::Rejected { cause } => {
                tracing::warn!(%cause, "core-service reset the call's stream");
                Self::Rejected
            }
            CallFailure::TimedOut => Self::TimedOut,
            CallFailure::Untyped { cause } => {
                tracing::error!(%cause, "core-service answered without a typed reason");
                Self::Internal
            }
        }
    }
}

/// The shared retry rule read through a tool's failure: [`ToolFailure::Unreachable`] is exactly
/// the status `canvas_proto::channel::retryable` accepts (both are `CallFailure::Unreachable`).
impl canvas_proto::client::Retryable for ToolFailure {
    fn retryable(&self) -> bool {
        matches!(self, Self::Unreachable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(result: &CallToolResult) -> String {
        result.content.iter().filter_map(|c| c.as_text().map(|t| t.text.clone())).collect()
    }

    fn violation(field: &str, rule: &str, reason: ViolationReason) -> Violation {
        Violation { field: field.into(), description: rule.into(), reason }
    }

    #[test]
    fn the_challenge_names_the_resource_metadata() {
        let metadata = "https://canvas.example/.well-known/oauth-protected-resource/mcp";
        assert_eq!(
            challenge("canvas", false, metadata),
            "Bearer realm=\"canvas\", resource_metadata=\"https://canvas.example/.well-known/oauth-protected-resource/mcp\""
        );
        assert_eq!(
            challenge("ca\"nv\\as", true, metadata),
            "Bearer realm=\"canvas\", error=\"invalid_token\", \
             resource_metadata=\"https://canvas.example/.well-known/oauth-protected-resource/mcp\""
        );
        let rejection = Rejection::unauthorized("canvas", true, metadata);
        assert_eq!((rejection.status, rejection.code), (StatusCode::UNAUTHORIZED, UNAUTHORIZED_CODE));
    }

    #[test]
    fn validation_names_the_argument_and_the_reason() {
        let failure = ToolFailure::Refused(Box::new(Refusal {
            reason: ErrorReason::ValidationFailed,
            message: "fontSize: must be >= 1".into(),
            violations: vec![violation("fontSize", "must be >= 1", ViolationReason::InvalidValue)],
            resource: None,
            retry_after: None,
            metadata: Default::default(),
        }));
        let result = failure.into_result(&|v| format!("properties.{}", v.field), &Map::new());
        assert_eq!(result.is_error, Some(true));
        assert!(text(&result).contains("'properties.fontSize': must be >= 1"));
        let meta = result.meta.expect("_meta");
        assert_eq!(meta.0.get(ERROR_REASON_META), Some(&json!("VALIDATION_FAILED")));
    }

    #[test]
    fn not_found_names_the_argument_holding_the_id() {
        let mut args = Map::new();
        args.insert("toItemId".into(), json!("ABC"));
        let failure = ToolFailure::Refused(Box::new(Refusal {
            reason: ErrorReason::NotFound,
            message: "gone".into(),
            violations: Vec::new(),
            resource: Some(("item".into(), "abc".into())),
            retry_after: None,
            metadata: Default::default(),
        }));
        assert!(text(&failure.into_result(&|v| v.field.clone(), &args)).contains("'toItemId'"));
    }

    #[test]
    fn a_transport_failure_is_said_only_for_a_client_side_error() {
        // An answer whose text mentions transport is still an answer.
        let answered = ToolFailure::from(tonic::Status::unavailable("transport error"));
        assert!(matches!(answered, ToolFailure::Internal));
        let mut dropped = tonic::Status::unavailable("connection reset");
        dropped.set_source(std::sync::Arc::new(std::io::Error::from(std::io::ErrorKind::ConnectionReset)));
        assert!(matches!(ToolFailure::from(dropped), ToolFailure::Unreachable));
    }

    #[test]
    fn missing_and_unknown_arguments_are_found_in_the_schema() {
        let schema: rmcp::model::JsonObject = serde_json::from_value(json!({
            "type": "object", "required": ["projectId"], "properties": {"projectId": {}, "limit": {}}
        }))
        .unwrap();
        #[derive(Debug, serde::Deserialize)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        #[allow(dead_code)]
        struct Args {
            project_id: String,
            #[serde(default)]
            limit: u32,
        }
        let decode = |value: Value| {
            let arguments = value.as_object().cloned().unwrap();
            let error = serde_path_to_error::deserialize::<_, Args>(value).unwrap_err();
            invalid_arguments("t", &schema, &arguments, error).data.unwrap()["argument"].clone()
        };
        assert_eq!(decode(json!({})), json!("projectId"));
        assert_eq!(decode(json!({"projectId": "p", "limti": 1})), json!("limti"));
        assert_eq!(decode(json!({"projectId": "p", "limit": "x"})), json!("limit"));
    }
}
