//! Small domain types parsed at the edge: ids, roles, environments, token
//! secrets.

pub mod ids;
pub mod passwords;
pub mod roles;
pub mod tokens;

pub use ids::{EventId, ItemId, ProjectId, TokenId, UserId};
pub use roles::{Environment, ProjectRole};
