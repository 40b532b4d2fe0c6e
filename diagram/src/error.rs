//! The one error of the crate: a source that cannot be read, with the 1-based line and column
//! of the offending token. Its own module at the bottom, so every parser can return it without
//! importing from the crate's root.

/// Why a source cannot be read: where (1-based line and column of the
/// offending token) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiagramError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (characters, not bytes).
    pub column: usize,
    /// What is wrong, and what was expected.
    pub message: String,
}

impl DiagramError {
    /// An error at `line`, `column`.
    pub fn new(line: usize, column: usize, message: impl Into<String>) -> DiagramError {
        DiagramError { line, column, message: message.into() }
    }
}

impl std::fmt::Display for DiagramError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for DiagramError {}
