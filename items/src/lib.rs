//! Item properties: every rule of the spec's item tables, applied in one
//! place for every transport. Pure functions, no I/O: core-service calls them and reports an
//! [`Invalid`] as its validation error.
//!
//! # Layout
//! - the property tables (kinds, flags, defaults, bounds) are data in `canvas-vocabulary`
//!   (`canvas_vocabulary::items`), which the gateways export as their schemas; this crate applies
//!   them and owns every rule.
//! - [`parent`]: where an item lives (the item types are `canvas_vocabulary::items::ItemType`).
//! - [`schema`]: the table-driven property engine.
//! - the "plain text or valid HTML" rule of label text lives in the `canvas-html` crate.
//! - [`label`]: labels and sticky notes: the auto-size rules.
//! - [`shape`]: shapes and the corner-radius rules.
//! - [`connector`]: connectors, their ends, and the geometry of attached ends.
//! - [`media`]: web links, images, documents, SVGs.
//! - [`frame`]: frames (beyond the spec) and what moving with one does to an item.

pub mod connector;
pub mod frame;
pub mod label;
pub mod media;
pub mod schema;
#[cfg(test)]
mod schema_export;
#[cfg(test)]
mod schema_props;
pub mod shape;

use serde_json::{Map, Value};

pub use canvas_domain::Parent;
pub use canvas_vocabulary::items::ItemType;

use canvas_vocabulary::items::MIN_SIZE;

use canvas_domain::{FieldViolation, Invalid, ViolationReason};
use schema::{lookup, parse_value, PropertyDef};

/// Base properties readable on every item type.
const BASE_READABLE: &[(&str, &str)] =
    &[("position", "position"), ("size", "size"), ("scale", "scale"), ("angle", "angle")];

/// The property table of a type.
pub fn definitions(item_type: ItemType) -> &'static [PropertyDef] {
    item_type.vocabulary().properties
}

/// Names the single-property read accepts beyond the base ones, with the
/// stored property each one reads.
fn readable(item_type: ItemType) -> &'static [(&'static str, &'static str)] {
    match item_type {
        ItemType::Label | ItemType::StickyNote => label::READABLE,
        ItemType::Shape => shape::READABLE,
        ItemType::Connector => connector::READABLE,
        ItemType::Web => media::WEB_READABLE,
        ItemType::Image | ItemType::Document | ItemType::Svg => media::FILE_READABLE,
        ItemType::Frame => frame::READABLE,
    }
}

/// Facts about the stored item that rules depend on.
#[derive(Debug, Clone, Copy, Default)]
pub struct ItemFacts {
    /// The item has uploaded file content.
    pub has_content: bool,
}

/// What type-specific rules see: the properties as they will be stored,
/// which names the request sent, and where to report violations.
pub struct RuleContext<'a> {
    /// The full property set being validated (defaults filled, patch merged).
    pub props: &'a mut Map<String, Value>,
    /// Canonical names the request carried.
    sent: Vec<&'static str>,
    /// The stored properties before an update; None on create.
    previous: Option<&'a Map<String, Value>>,
    errors: &'a mut Vec<FieldViolation>,
    /// Facts beyond the properties.
    facts: ItemFacts,
}

impl RuleContext<'_> {
    pub fn sent(&self, name: &str) -> bool {
        self.sent.contains(&name)
    }

    pub fn is_create(&self) -> bool {
        self.previous.is_none()
    }

    pub fn previous(&self) -> Option<&Map<String, Value>> {
        self.previous
    }

    pub fn violation(&mut self, field: &str, rule: impl Into<String>) {
        self.violation_of(ViolationReason::InvalidValue, field, rule);
    }

    /// A violation of a given kind; the first one per field wins.
    pub fn violation_of(&mut self, reason: ViolationReason, field: &str, rule: impl Into<String>) {
        if !self.errors.iter().any(|e| e.field == field) {
            self.errors.push(FieldViolation::with_reason(reason, field, rule));
        }
    }
}

/// Validates the properties of a new item and fills every default.
pub fn validate_create(
    item_type: ItemType,
    raw: Map<String, Value>,
    facts: ItemFacts,
) -> Result<Map<String, Value>, Invalid> {
    let defs = definitions(item_type);
    let mut errors = Vec::new();
    let given = canonical_names(defs, raw, false, &mut errors);
    let mut props = Map::new();
    for def in defs.iter().filter(|def| !def.ignored) {
        match given.iter().find(|(name, _)| *name == def.name) {
            Some((_, value)) if !value.is_null() => {
                if let Some(parsed) = parse_value(def.kind, def.name, value, &mut errors) {
                    props.insert(def.name.to_owned(), parsed);
                }
            }
            _ if def.required => {
                errors.push(FieldViolation::with_reason(ViolationReason::Required, def.name, "is required"))
            }
            _ => {
                if let Some(default) = def.default_value() {
                    props.insert(def.name.to_owned(), default);
                }
            }
        }
    }
    let sent = given.iter().filter(|(_, v)| !v.is_null()).map(|(n, _)| *n).collect();
    apply_rules(item_type, &mut props, sent, None, &mut errors, facts);
    finish(props, errors)
}

/// Validates an update against the stored properties and returns the new
/// full property set. A `null` value resets an optional property to its
/// default.
pub fn validate_update(
    item_type: ItemType,
    stored: &Map<String, Value>,
    patch: Map<String, Value>,
    facts: ItemFacts,
) -> Result<Map<String, Value>, Invalid> {
    let defs = definitions(item_type);
    let mut errors = Vec::new();
    let given = canonical_names(defs, patch, true, &mut errors);
    let mut props = stored.clone();
    for (name, value) in &given {
        let def = defs.iter().find(|d| d.name == *name).expect("canonical names come from the table");
        if def.ignored {
            continue;
        } else if value.is_null() {
            if def.required {
                errors.push(FieldViolation::with_reason(
                    ViolationReason::Required,
                    def.name,
                    "is required and cannot be removed",
                ));
            } else if let Some(default) = def.default_value() {
                props.insert(def.name.to_owned(), default);
            } else {
                props.remove(def.name);
            }
        } else if let Some(parsed) = parse_value(def.kind, def.name, value, &mut errors) {
            props.insert(def.name.to_owned(), parsed);
        }
    }
    let sent = given.iter().map(|(n, _)| *n).collect();
    apply_rules(item_type, &mut props, sent, Some(stored), &mut errors, facts);
    finish(props, errors)
}

/// The canonical name of a property the single-property read may return, or
/// a 400 naming the allowed ones.
pub fn readable_property(item_type: ItemType, name: &str) -> Result<&'static str, Invalid> {
    let type_specific = readable(item_type);
    let folded = schema::fold_name(name);
    BASE_READABLE
        .iter()
        .chain(type_specific)
        .find(|(alias, _)| schema::fold_name(alias) == folded)
        .map(|(_, stored)| *stored)
        .ok_or_else(|| {
            let allowed: Vec<&str> = BASE_READABLE.iter().chain(type_specific).map(|(alias, _)| *alias).collect();
            Invalid::field(
                "property",
                format!(
                    "'{}' is not a readable property of a {item_type}; readable: {}",
                    canvas_domain::ids::truncate(name),
                    allowed.join(", ")
                ),
            )
        })
}

/// Maps each client name to its canonical name; unknown, repeated and (on
/// update) fixed properties are violations.
fn canonical_names(
    defs: &'static [PropertyDef],
    raw: Map<String, Value>,
    update: bool,
    errors: &mut Vec<FieldViolation>,
) -> Vec<(&'static str, Value)> {
    let mut given: Vec<(&'static str, Value)> = Vec::with_capacity(raw.len());
    for (name, value) in raw {
        match lookup(defs, &name) {
            None => {
                let allowed: Vec<&str> = defs.iter().map(|d| d.name).collect();
                errors.push(FieldViolation::with_reason(
                    ViolationReason::UnknownProperty,
                    canvas_domain::ids::truncate(&name),
                    format!("is not a property of this item type; allowed: {}", allowed.join(", ")),
                ));
            }
            Some(def) if given.iter().any(|(n, _)| *n == def.name) => {
                errors.push(FieldViolation::with_reason(
                    ViolationReason::DuplicateProperty,
                    def.name,
                    "is given more than once (names are case-insensitive)",
                ));
            }
            Some(def) if update && !def.updatable => {
                errors.push(FieldViolation::with_reason(
                    ViolationReason::ReadOnlyProperty,
                    def.name,
                    "cannot be changed after creation",
                ));
            }
            Some(def) => given.push((def.name, value)),
        }
    }
    given
}

fn apply_rules(
    item_type: ItemType,
    props: &mut Map<String, Value>,
    sent: Vec<&'static str>,
    previous: Option<&Map<String, Value>>,
    errors: &mut Vec<FieldViolation>,
    facts: ItemFacts,
) {
    let mut ctx = RuleContext { props, sent, previous, errors, facts };
    match item_type {
        ItemType::Label | ItemType::StickyNote => label::apply_auto_size(&mut ctx),
        ItemType::Shape => shape::apply_rules(&mut ctx),
        ItemType::Connector => connector::apply_rules(&mut ctx),
        ItemType::Image => media::image_rules(&mut ctx),
        ItemType::Web | ItemType::Document | ItemType::Svg => minimum_size(&mut ctx),
        ItemType::Frame => frame::apply_rules(&mut ctx),
    }
}

/// The base rule: size at least [`MIN_SIZE`] per dimension.
pub(crate) fn minimum_size(ctx: &mut RuleContext<'_>) {
    for dimension in ["width", "height"] {
        if let Some(value) = schema::number_at(ctx.props, "size", dimension) {
            if value < MIN_SIZE {
                ctx.violation(&format!("size.{dimension}"), format!("must be >= {MIN_SIZE}"));
            }
        }
    }
}

fn finish(props: Map<String, Value>, errors: Vec<FieldViolation>) -> Result<Map<String, Value>, Invalid> {
    if errors.is_empty() {
        Ok(props)
    } else {
        Err(Invalid(errors))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `expect` in `PropertyDef::default_value` can never fire: every
    /// default of every table is valid JSON and passes its own rule.
    #[test]
    fn every_default_is_valid_json_and_passes_its_rule() {
        for item_type in ItemType::ALL {
            for def in definitions(item_type) {
                let Some(value) = def.default_value() else { continue };
                let mut errors = Vec::new();
                assert!(
                    schema::parse_value(def.kind, def.name, &value, &mut errors).is_some(),
                    "{item_type}.{}: {errors:?}",
                    def.name
                );
            }
        }
    }
}
