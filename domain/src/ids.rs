//! Identifier newtypes. Parsing a request's id strings into these at the edge
//! means no layer below ever sees an unchecked id, and their private field means
//! a project id cannot be passed where an item id is wanted: storage takes and
//! returns these types (with the `sqlx` feature, which only core-service enables,
//! each is stored as its UUID), so the UUID inside is unwrapped only where a
//! value leaves for the wire.

use std::fmt;
use std::str::FromStr;

use uuid::Uuid;

use crate::violation::Invalid;

macro_rules! id_type {
    ($(#[$meta:meta])* $name:ident, $field:literal) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(transparent))]
        pub struct $name(Uuid);

        impl $name {
            /// A new, time-ordered (UUIDv7) id: listings sorted by id are in
            /// creation order, which keeps cursors stable.
            pub fn new() -> Self {
                Self(Uuid::now_v7())
            }

            /// The id a UUID already known to be one names: a stored row's, or one this
            /// service made. A client's text goes through [`Self::parse`].
            pub const fn from_uuid(id: Uuid) -> Self {
                Self(id)
            }

            /// The UUID inside, for the wire (a message field, a URL) or a hash.
            pub const fn uuid(self) -> Uuid {
                self.0
            }

            /// Parses a GUID string; the error names the request field.
            pub fn parse(raw: &str) -> Result<Self, Invalid> {
                Uuid::from_str(raw.trim()).map(Self).map_err(|_| {
                    Invalid::field($field, format!("must be a GUID, got '{}'", truncate(raw)))
                })
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.hyphenated().fmt(f)
            }
        }
    };
}

id_type!(
    /// A project.
    ProjectId, "projectId"
);
id_type!(
    /// An item of a project.
    ItemId, "itemId"
);
id_type!(
    /// A user account.
    UserId, "userId"
);
id_type!(
    /// An API token (its public id, never the secret).
    TokenId, "tokenId"
);
id_type!(
    /// A change event in the outbox.
    EventId, "eventId"
);
id_type!(
    /// A diagram record (a diagram created from text, edited in place).
    DiagramId, "diagramId"
);
id_type!(
    /// A tag of a project (a name and a colour that items carry in their `tags`).
    TagId, "tagId"
);
id_type!(
    /// A comment thread on an item or a point of the map; also the id of its first comment.
    ThreadId, "threadId"
);
id_type!(
    /// One comment: a thread's first (whose id is the thread's, [`ThreadId::opening`]) or a reply.
    CommentId, "commentId"
);

impl ThreadId {
    /// The thread's first comment, which has the thread's id.
    pub fn opening(self) -> CommentId {
        CommentId::from_uuid(self.uuid())
    }
}

id_type!(
    /// An MCP task (long agent work followed by polling). Made with [`AgentTaskId::random`]:
    /// its id is all the client names it by, so it must not be guessable.
    AgentTaskId, "taskId"
);

impl AgentTaskId {
    /// A new id of 122 random bits (UUIDv4), which nobody can enumerate (the tasks extension's
    /// rule); [`Self::new`]'s time-ordered ids carry fewer.
    pub fn random() -> Self {
        Self(Uuid::new_v4())
    }
}

/// Shortens untrusted input before echoing it in an error message.
pub fn truncate(raw: &str) -> String {
    const MAX: usize = 64;
    if raw.chars().count() <= MAX {
        raw.to_owned()
    } else {
        format!("{}…", raw.chars().take(MAX).collect::<String>())
    }
}
