//! The small domain types every context of core-service shares, with no I/O and no transport:
//! identifier newtypes parsed at the edge ([`ids`]), where an item lives ([`parent`]: the panel,
//! the inbox or a container item), a refused request's field violations ([`violation`]), and the
//! one rule of stored text ([`text`]).
//!
//! The item rules (`canvas-items`) and core-service both build on these; core-service turns an
//! [`Invalid`] into its `CoreError::Validation`, and its gRPC layer maps a [`ViolationReason`] to
//! the wire's `canvas.v1.ViolationReason` of the same name.

pub mod ids;
pub mod parent;
pub mod text;
pub mod violation;

pub use ids::{AgentTaskId, CommentId, DiagramId, EventId, ItemId, ProjectId, TagId, ThreadId, TokenId, UserId};
pub use parent::Parent;
pub use violation::{FieldViolation, Invalid, ViolationReason};
