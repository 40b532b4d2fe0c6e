//! The offences an archive's lines commit, gathered into one refusal (as a bulk create gathers
//! its items'), each named by entry, line and field.

use crate::error::{CoreError, CoreResult, FieldViolation};

/// Offences listed in one refusal at most; an archive broken everywhere is refused with the
/// first ones and a note that there are more.
pub const MAX_LISTED: usize = 100;

/// The problems found so far, capped at [`MAX_LISTED`].
#[derive(Debug, Default)]
pub struct Offences(pub Vec<FieldViolation>);

impl Offences {
    pub fn push(&mut self, field: impl Into<String>, description: impl Into<String>) {
        self.0.push(FieldViolation::new(field, description));
    }

    /// Each of a rule's violations, its field put under `prefix`.
    pub fn extend_under(&mut self, prefix: &str, violations: Vec<FieldViolation>) {
        for v in violations {
            let field = if v.field.is_empty() { prefix.to_owned() } else { format!("{prefix}.{}", v.field) };
            self.0.push(FieldViolation { field, ..v });
        }
    }

    pub fn full(&self) -> bool {
        self.0.len() >= MAX_LISTED
    }

    /// Nothing found: Ok; else the refusal, with a note when the list was cut.
    pub fn into_result(mut self) -> CoreResult<()> {
        if self.0.is_empty() {
            return Ok(());
        }
        if self.0.len() >= MAX_LISTED {
            self.0.truncate(MAX_LISTED);
            self.push("archive", format!("has more problems than the {MAX_LISTED} listed; fix these and try again"));
        }
        Err(CoreError::Validation(self.0))
    }
}

/// `items.jsonl:3` or `items.jsonl:3.parent`: a line of an entry (counted from 1) and a field.
pub fn at(entry: &str, index: usize, field: &str) -> String {
    match field {
        "" => format!("{entry}:{}", index + 1),
        field => format!("{entry}:{}.{field}", index + 1),
    }
}
