//! The served request's context on a gateway's core-service call: its request id, its trace
//! context and its client address, all read from this process's task-locals. Both gateways hand
//! [`stamp`] to `canvas_proto::client::carry_context` (canvas-proto cannot call into this crate,
//! which depends on it), so each call carries the same context however it was made.

use tonic::metadata::{MetadataMap, MetadataValue};

/// Writes the served request's context into a call's `metadata`.
pub fn stamp(metadata: &mut MetadataMap) {
    if let Some(id) = crate::request_id::current().and_then(|id| MetadataValue::try_from(id).ok()) {
        metadata.insert(crate::request_id::HEADER, id);
    }
    crate::trace_context::inject_grpc(metadata);
    crate::client_address::inject_grpc(metadata);
}
