//! The HTTP edge both gateways share: the rules a request meets before any handler of rest-gateway
//! or mcp-gateway reads it, written once so the two gateways cannot answer the same request
//! differently.
//!
//! - [`limits`]: the settings ([`GatewayArgs`], [`EdgeLimits`]) every limit below is read from.
//! - [`head`]: a request head over the URI or header limits is answered 414 or 431.
//! - [`deadline`]: the whole body must arrive within `--body-timeout-secs` (then 408).
//! - [`drain`]: the body of a request refused for its size is read and dropped within one budget
//!   and one time cap, or the refusal closes the connection.
//! - [`content_type`]: which bodies are JSON (`application/json`, `application/*+json`, UTF-8).
//!
//! The server loop that applies the head limits is [`crate::server`]; what each gateway answers
//! (a problem body, a JSON-RPC error) stays with the gateway.

pub mod content_type;
pub mod deadline;
pub mod drain;
pub mod head;
pub mod limits;

pub use limits::{EdgeLimits, GatewayArgs};
