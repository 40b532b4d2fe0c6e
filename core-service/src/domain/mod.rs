//! Small domain types parsed at the edge: ids, roles, environments, token
//! secrets; and the one rule of stored text (`text`).

pub mod ids;
pub mod passwords;
pub mod roles;
pub mod text;
pub mod tokens;

pub use ids::{EventId, ItemId, ProjectId, TokenId, UserId};
pub use roles::{Environment, ProjectRole};
