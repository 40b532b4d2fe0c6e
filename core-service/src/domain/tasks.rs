//! The status of an MCP task (docs/MCP.md "Tasks"), the only place its stored names are spelt.
//! Storage decodes the `status` column into one (an unknown name is a decoding error), so the
//! service and the gRPC face match on a variant, never on text.

use std::fmt;

/// Where an MCP task stands. Only a `Working` task changes; the other three are final.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskStatus {
    Working,
    Completed,
    Failed,
    Cancelled,
}

impl TaskStatus {
    const ALL: [TaskStatus; 4] = [Self::Working, Self::Completed, Self::Failed, Self::Cancelled];

    /// The name stored and shown (`working`, …), the extension's own status names.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Working => "working",
            Self::Completed => "completed",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }
}

impl fmt::Display for TaskStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A task row whose `status` names no status: refused when the row is decoded.
#[derive(Debug, thiserror::Error)]
#[error("unknown task status '{0}'")]
pub struct UnknownTaskStatus(pub String);

impl TryFrom<String> for TaskStatus {
    type Error = UnknownTaskStatus;

    fn try_from(name: String) -> Result<Self, Self::Error> {
        Self::ALL.into_iter().find(|status| status.as_str() == name).ok_or(UnknownTaskStatus(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_reads_back_as_itself_and_nothing_else_reads() {
        for status in TaskStatus::ALL {
            assert_eq!(TaskStatus::try_from(status.as_str().to_owned()).unwrap(), status);
        }
        assert!(TaskStatus::try_from("Working".to_owned()).is_err());
        assert!(TaskStatus::try_from(String::new()).is_err());
    }
}
