//! The `canvas.v1` gRPC contract shared by every component.
//!
//! # Layout
//! - [`v1`]: the generated messages, clients and servers.
//! - [`FILE_DESCRIPTOR_SET`]: the encoded descriptors, for gRPC reflection.
//! - [`channel`]: `CoreChannel`, the replica-aware channel every client uses.
//! - [`discovery`]: its replicas found by name (`dns:///core-service-headless:50051`).
//! - [`client`]: the frame of a gateway's call: credentials and context, the retry rule of
//!   idempotent calls, reading every page of a listing.
//! - [`failure`]: how a failed call is read (`ErrorReason`, or no answer at all).
//! - [`json`]: lossless conversion between `serde_json::Value` and the
//!   protobuf `Struct`/`Value` types that carry item properties.

pub mod channel;
pub mod client;
pub mod discovery;
pub mod failure;
pub mod json;
pub mod limits;
pub mod placement;

/// Generated code for package `canvas.v1`.
pub mod v1 {
    tonic::include_proto!("canvas.v1");
}

/// The encoded `FileDescriptorSet` of every `.proto` file, imports included.
pub const FILE_DESCRIPTOR_SET: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/canvas_descriptor.bin"));
