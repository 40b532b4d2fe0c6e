//! The bodies of the REST interface as types: what a client sends, deserialised by the very
//! types whose `ToSchema` writes their schema in the OpenAPI document (so the document and the
//! parser cannot drift), and what the handlers answer, described to `utoipa` (the handlers render
//! JSON values). Item properties inside them stay JSON: core-service checks those; the item bodies
//! themselves are generated from its property table (`crate::openapi::item_schemas`).
//!
//! Their own module, below both the handlers (`crate::routes`, `crate::map`) that read and answer
//! them and the document (`crate::openapi`) that lists them, so neither needs the other.
//!
//! - [`common`]: the problem body of every error, health, the project view, [`common::one_of`].
//! - [`items`]: the connector PATCH wrapper. [`bulk`]: bulk creates, diagrams from Mermaid,
//!   arrangements. [`diagrams`]: diagram records and their update. [`knowledge`]: retrieval and
//!   the index status. [`webhooks`]: definitions, records, deliveries, the key set.
//!   [`presence`]: what an open map announces.
//!
//! This file reads a request body into its type ([`parse`]). Two things serde's derive does not
//! do are done here, once for every body:
//! - member names match in any casing (`maxResults`, `MaxResults`, `max_results`, `MAX-RESULTS`),
//!   as for item properties, so a body read back in any `jsonCasing` can be sent again. [`Folded`]
//!   renames each member of a struct to the field whose folded name it has, at every depth; the
//!   members of free-form JSON (`properties`, `customData`) keep their names.
//! - a misfit is a 400 naming the field by its path (`items[0].type`, `position.y`), through
//!   `serde_path_to_error`, with a message written for people rather than serde's wording.

pub mod archive;
pub mod bulk;
pub mod comments;
pub mod common;
pub mod diagrams;
pub mod items;
pub mod knowledge;
pub mod presence;
pub mod tags;
pub mod webhooks;

use std::fmt;

use canvas_vocabulary::names::fold_name;
use serde::de::value::{MapDeserializer, SeqDeserializer, StringDeserializer};
use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use serde::Deserialize;
use serde_json::Value;
use serde_path_to_error::Segment;

use canvas_proto::v1::ViolationReason;

use crate::content_type::{JsonBody, Rejected};
use crate::error::ApiError;

/// The body as a `T`, or the 400 naming what does not fit. `what` says what the body should be
/// (for an empty body).
pub fn parse<T: DeserializeOwned>(body: Result<JsonBody, Rejected>, what: &str) -> Result<T, ApiError> {
    let bytes = body?.0;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::invalid("body", &format!("a JSON object is required: {what}")));
    }
    let value: Value = serde_json::from_slice(&bytes)
        .map_err(|err| ApiError::invalid("body", &format!("is not valid JSON: {err}")))?;
    from_value(value)
}

/// A JSON value as a `T`, names folded, or the 400 naming what does not fit.
pub fn from_value<T: DeserializeOwned>(value: Value) -> Result<T, ApiError> {
    serde_path_to_error::deserialize(Folded(value)).map_err(|err| {
        let mut path = String::new();
        for segment in err.path().iter() {
            match segment {
                Segment::Seq { index } => path.push_str(&format!("[{index}]")),
                Segment::Map { key } => path.push_str(&format!("{}{key}", if path.is_empty() { "" } else { "." })),
                Segment::Enum { .. } | Segment::Unknown => {}
            }
        }
        // The member `name` of the value at `path`; serde_path_to_error has already put the key last
        // when the error came while reading it (an unknown or repeated name).
        let member = |path: &str, name: &str| match path {
            "" => name.to_owned(),
            _ if path == name || path.ends_with(&format!(".{name}")) => path.to_owned(),
            _ => format!("{path}.{name}"),
        };
        // Each misfit with the reason core-service gives the same mistake (docs/ERRORS.md).
        let (field, message, reason) = match err.into_inner() {
            Misfit::Missing(name) => (member(&path, name), "is required".to_owned(), ViolationReason::Required),
            Misfit::Duplicate(name) => (
                member(&path, name),
                "is given more than once (names match in any casing)".to_owned(),
                ViolationReason::DuplicateProperty,
            ),
            Misfit::Unknown(name, expected) => (
                member(&path, &name),
                format!("is not a field here; the fields are {}", expected.join(", ")),
                ViolationReason::UnknownProperty,
            ),
            Misfit::Wrong(message) => {
                (if path.is_empty() { "body".to_owned() } else { path }, message, ViolationReason::InvalidValue)
            }
        };
        ApiError::invalid_because(&field, &message, reason)
    })
}

/// `deserialize_with` for an optional count: a whole number in any JSON spelling (`20`, `20.0`).
pub fn whole_number<'de, D: de::Deserializer<'de>>(deserializer: D) -> Result<Option<u32>, D::Error> {
    match Option::<serde_json::Number>::deserialize(deserializer)? {
        None => Ok(None),
        Some(n) => canvas_proto::json::count(&n).map(Some).ok_or_else(|| de::Error::custom("must be a whole number")),
    }
}

/// `deserialize_with` for an optional enumeration whose words match in any letter case.
pub fn any_case<'de, D: de::Deserializer<'de>, T: DeserializeOwned>(deserializer: D) -> Result<Option<T>, D::Error> {
    match Option::<String>::deserialize(deserializer)? {
        None => Ok(None),
        Some(word) => {
            let word: StringDeserializer<Misfit> = word.to_ascii_lowercase().into_deserializer();
            T::deserialize(word).map(Some).map_err(|misfit| de::Error::custom(misfit.to_string()))
        }
    }
}

/// Why a body does not fit its type, kept apart so the field can be named.
#[derive(Debug)]
pub enum Misfit {
    Missing(&'static str),
    Duplicate(&'static str),
    Unknown(String, &'static [&'static str]),
    Wrong(String),
}

impl fmt::Display for Misfit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Misfit::Missing(name) => write!(f, "{name} is required"),
            Misfit::Duplicate(name) => write!(f, "{name} is given more than once"),
            Misfit::Unknown(name, _) => write!(f, "{name} is not a field here"),
            Misfit::Wrong(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Misfit {}

/// serde's names of what it expected, in JSON's words.
fn expected(what: &dyn de::Expected) -> String {
    match what.to_string().as_str() {
        "a sequence" => "an array".into(),
        "a map" => "a JSON object".into(),
        "u8" | "u16" | "u32" | "u64" | "i32" | "i64" => "a whole number".into(),
        "f32" | "f64" => "a number".into(),
        other => other.into(),
    }
}

/// serde's names of what it found, in JSON's words.
fn found_json(found: de::Unexpected<'_>) -> String {
    match found {
        de::Unexpected::Unit => "null".into(),
        de::Unexpected::Seq => "an array".into(),
        de::Unexpected::Map => "an object".into(),
        other => other.to_string(),
    }
}

impl de::Error for Misfit {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Misfit::Wrong(message.to_string())
    }
    fn invalid_type(found: de::Unexpected<'_>, what: &dyn de::Expected) -> Self {
        Misfit::Wrong(format!("must be {}, not {}", expected(what), found_json(found)))
    }
    fn invalid_value(found: de::Unexpected<'_>, what: &dyn de::Expected) -> Self {
        Misfit::Wrong(format!("must be {}, not {}", expected(what), found_json(found)))
    }
    fn unknown_variant(_: &str, words: &'static [&'static str]) -> Self {
        Misfit::Wrong(format!("must be one of {}", words.join(", ")))
    }
    fn unknown_field(name: &str, expected: &'static [&'static str]) -> Self {
        Misfit::Unknown(name.to_owned(), expected)
    }
    fn missing_field(name: &'static str) -> Self {
        Misfit::Missing(name)
    }
    fn duplicate_field(name: &'static str) -> Self {
        Misfit::Duplicate(name)
    }
}

/// What serde says it found, for a JSON value.
fn unexpected(value: &Value) -> de::Unexpected<'_> {
    match value {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => de::Unexpected::Unsigned(u),
            (None, Some(i)) => de::Unexpected::Signed(i),
            _ => de::Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

/// A JSON value whose struct members are matched to their fields in any casing (module docs).
struct Folded(Value);

impl<'de> IntoDeserializer<'de, Misfit> for Folded {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> de::Deserializer<'de> for Folded {
    type Error = Misfit;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Misfit> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => visitor.visit_u64(u),
                (None, Some(i)) => visitor.visit_i64(i),
                _ => visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) => visitor.visit_string(s),
            Value::Array(items) => SeqDeserializer::new(items.into_iter().map(Folded)).deserialize_any(visitor),
            Value::Object(members) => {
                MapDeserializer::new(members.into_iter().map(|(k, v)| (k, Folded(v)))).deserialize_any(visitor)
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Misfit> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Misfit> {
        // Not `deserialize_any`: serde's derived structs also accept an array of their fields in
        // order, which no JSON body here means.
        let Value::Object(members) = self.0 else { return Err(de::Error::invalid_type(unexpected(&self.0), &visitor)) };
        let renamed = members.into_iter().map(|(name, value)| {
            let folded = fold_name(&name);
            let field =
                fields.iter().find(|field| fold_name(field) == folded).map_or(name, |field| (*field).to_owned());
            (field, Folded(value))
        });
        MapDeserializer::new(renamed).deserialize_any(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Misfit> {
        match self.0 {
            Value::String(word) => visitor.visit_enum(IntoDeserializer::<Misfit>::into_deserializer(word)),
            other => Folded(other).deserialize_any(visitor),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Misfit> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct seq tuple tuple_struct map identifier ignored_any
    }
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
