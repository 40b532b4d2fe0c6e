//! Project roles and token environments.

use std::fmt;
use std::str::FromStr;

use crate::error::CoreError;

/// A user's role in a project. Ordered: each role includes the rights of the
/// ones before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProjectRole {
    Viewer = 1,
    Editor = 2,
    Manager = 3,
    Admin = 4,
}

impl ProjectRole {
    pub const ALL: [ProjectRole; 4] = [Self::Viewer, Self::Editor, Self::Manager, Self::Admin];

    /// Its name in answers and events: the catalog's (`canvas_vocabulary::webhook_payloads`), in
    /// the order of the codes.
    pub fn as_str(self) -> &'static str {
        canvas_vocabulary::webhook_payloads::PROJECT_ROLES[self as usize - 1]
    }

    /// The number stored in the database and sent in protobuf.
    pub fn code(self) -> i32 {
        self as i32
    }

    pub fn from_code(code: i32) -> Option<Self> {
        Self::ALL.into_iter().find(|role| role.code() == code)
    }
}

impl fmt::Display for ProjectRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ProjectRole {
    type Err = CoreError;

    fn from_str(raw: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|role| role.as_str().eq_ignore_ascii_case(raw.trim()))
            .ok_or_else(|| CoreError::invalid("role", "must be one of Viewer, Editor, Manager, Admin"))
    }
}

/// The environment a server runs in and a token belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Environment {
    Production = 1,
    Staging = 2,
    Development = 3,
}

impl Environment {
    pub const ALL: [Environment; 3] = [Self::Production, Self::Staging, Self::Development];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Production => "production",
            Self::Staging => "staging",
            Self::Development => "development",
        }
    }

    pub fn code(self) -> i32 {
        self as i32
    }

    pub fn from_code(code: i32) -> Option<Self> {
        Self::ALL.into_iter().find(|env| env.code() == code)
    }
}

impl fmt::Display for Environment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Environment {
    type Err = CoreError;

    fn from_str(raw: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|env| env.as_str().eq_ignore_ascii_case(raw.trim()))
            .ok_or_else(|| CoreError::invalid("environment", "must be one of production, staging, development"))
    }
}
