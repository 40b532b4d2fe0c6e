//! Small domain types parsed at the edge. Ids, field violations and the one rule of stored text
//! (`text`) are shared with the pure crates and live in `canvas-domain`; token secrets and
//! passwords are `canvas-accounts`'s; event kinds, roles and environments are core-service's own.

pub mod events;
pub mod roles;
pub mod tasks;

pub use canvas_accounts::{passwords, tokens};
pub use canvas_domain::{ids, text};
pub use canvas_domain::{
    AgentTaskId, CommentId, DiagramId, EventId, ItemId, ProjectId, TagId, ThreadId, TokenId, UserId,
};
pub use events::{EventKind, SERVICE_ACTOR};
pub use roles::{Environment, ProjectRole};
pub use tasks::TaskStatus;
