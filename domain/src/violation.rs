//! A refused request's field violations, and the error that carries them.

use std::fmt;

/// What kind of offence a field violation is, so clients can point at the right argument (an
/// unknown property name versus a bad value) without reading its description. The names are those
/// of `canvas.v1.ViolationReason` (checked in core-service's `grpc::status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ViolationReason {
    /// The value breaks the field's rule (type, range, format, enumeration, cross-field rule).
    InvalidValue,
    /// A required field is missing or empty.
    Required,
    /// The name is not a property of this kind of object.
    UnknownProperty,
    /// The property exists but cannot be changed by this request (immutable or derived).
    ReadOnlyProperty,
    /// The same property was given twice, in different casings.
    DuplicateProperty,
    /// Text, HTML or SVG carries active content (scripts, event handlers, `javascript:` URLs).
    ActiveContent,
    /// The call would change more items than the caller asked to be warned about (`ask_above`):
    /// nothing was done, and the same call without the bound goes ahead.
    ConfirmationRequired,
}

impl ViolationReason {
    pub const ALL: [ViolationReason; 7] = [
        Self::InvalidValue,
        Self::Required,
        Self::UnknownProperty,
        Self::ReadOnlyProperty,
        Self::DuplicateProperty,
        Self::ActiveContent,
        Self::ConfirmationRequired,
    ];

    /// The wire name (`canvas.v1.ViolationReason`'s value name).
    pub fn as_str_name(self) -> &'static str {
        match self {
            Self::InvalidValue => "INVALID_VALUE",
            Self::Required => "REQUIRED",
            Self::UnknownProperty => "UNKNOWN_PROPERTY",
            Self::ReadOnlyProperty => "READ_ONLY_PROPERTY",
            Self::DuplicateProperty => "DUPLICATE_PROPERTY",
            Self::ActiveContent => "ACTIVE_CONTENT",
            Self::ConfirmationRequired => "CONFIRMATION_REQUIRED",
        }
    }
}

/// One offending field of a request, named by its camelCase path
/// (`size.width`, `startPoint.position.x`) together with the rule it broke.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldViolation {
    /// Path of the field as the interface spec writes it.
    pub field: String,
    /// The rule, phrased for the caller ("must be >= 5").
    pub description: String,
    /// What kind of offence it is.
    pub reason: ViolationReason,
}

impl FieldViolation {
    /// A value that breaks its field's rule.
    pub fn new(field: impl Into<String>, description: impl Into<String>) -> Self {
        Self::with_reason(ViolationReason::InvalidValue, field, description)
    }

    pub fn with_reason(reason: ViolationReason, field: impl Into<String>, description: impl Into<String>) -> Self {
        Self { field: field.into(), description: description.into(), reason }
    }
}

impl fmt::Display for FieldViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.description)
    }
}

/// A request that breaks one or more rules: the error of every pure rule. core-service reports it
/// as `CoreError::Validation` with the same violations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid(pub Vec<FieldViolation>);

impl Invalid {
    /// A single field that breaks its rule.
    pub fn field(field: impl Into<String>, description: impl Into<String>) -> Self {
        Self(vec![FieldViolation::new(field, description)])
    }

    /// Ok when there are no violations.
    pub fn check(violations: Vec<FieldViolation>) -> Result<(), Invalid> {
        if violations.is_empty() {
            Ok(())
        } else {
            Err(Self(violations))
        }
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.as_slice() {
            [] => f.write_str("the request holds a value that cannot be stored"),
            [one] => one.fmt(f),
            many => write!(f, "{} (and {} more)", many[0], many.len() - 1),
        }
    }
}

impl std::error::Error for Invalid {}

/// A text that names no item type is the refusal of the `itemType` field, naming every type.
impl From<canvas_vocabulary::items::UnknownItemType> for Invalid {
    fn from(unknown: canvas_vocabulary::items::UnknownItemType) -> Self {
        Invalid::field(canvas_vocabulary::items::UnknownItemType::FIELD, unknown.to_string())
    }
}
