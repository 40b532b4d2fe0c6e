//! Conversion between JSON values and the protobuf well-known `Struct`/`Value`.
//!
//! Item properties travel through gRPC as `google.protobuf.Struct`. JSON
//! numbers become `f64` there, which is exact for every integer up to 2^53 —
//! well beyond any size, position or file size the service accepts.

use prost_types::{value::Kind, ListValue, Struct, Value};
use serde_json::{Map, Number, Value as Json};

/// Converts a JSON value into a protobuf `Value`.
pub fn to_proto_value(json: Json) -> Value {
    let kind = match json {
        Json::Null => Kind::NullValue(0),
        Json::Bool(b) => Kind::BoolValue(b),
        Json::Number(n) => Kind::NumberValue(n.as_f64().unwrap_or(f64::NAN)),
        Json::String(s) => Kind::StringValue(s),
        Json::Array(items) => Kind::ListValue(ListValue { values: items.into_iter().map(to_proto_value).collect() }),
        Json::Object(map) => Kind::StructValue(to_proto_struct(map)),
    };
    Value { kind: Some(kind) }
}

/// Converts a JSON object into a protobuf `Struct`.
pub fn to_proto_struct(map: Map<String, Json>) -> Struct {
    Struct { fields: map.into_iter().map(|(k, v)| (k, to_proto_value(v))).collect() }
}

/// Converts a protobuf `Value` back into JSON. Whole numbers come back as
/// integers, so `5` does not turn into `5.0` on the way through.
pub fn from_proto_value(value: Value) -> Json {
    match value.kind {
        None | Some(Kind::NullValue(_)) => Json::Null,
        Some(Kind::BoolValue(b)) => Json::Bool(b),
        Some(Kind::NumberValue(n)) => number_to_json(n),
        Some(Kind::StringValue(s)) => Json::String(s),
        Some(Kind::ListValue(list)) => Json::Array(list.values.into_iter().map(from_proto_value).collect()),
        Some(Kind::StructValue(s)) => Json::Object(from_proto_struct(s)),
    }
}

/// Converts a protobuf `Struct` back into a JSON object.
pub fn from_proto_struct(s: Struct) -> Map<String, Json> {
    s.fields.into_iter().map(|(k, v)| (k, from_proto_value(v))).collect()
}

/// Puts every number of `value` as a protobuf `Struct` carries it (an `f64`, whole ones written
/// as integers), so that JSON sent beside a Struct (`Item.properties_json`) reads exactly as the
/// Struct would: `50.0` is `50`, an integer beyond 2^53 the float it becomes there.
pub fn numbers_as_in_a_struct(value: &mut Json) {
    match value {
        Json::Number(n) => *value = number_to_json(n.as_f64().unwrap_or(f64::NAN)),
        Json::Array(items) => items.iter_mut().for_each(numbers_as_in_a_struct),
        Json::Object(map) => map.values_mut().for_each(numbers_as_in_a_struct),
        Json::Null | Json::Bool(_) | Json::String(_) => {}
    }
}

fn number_to_json(n: f64) -> Json {
    const MAX_EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if n.fract() == 0.0 && n.abs() <= MAX_EXACT {
        Json::Number(Number::from(n as i64))
    } else {
        Number::from_f64(n).map(Json::Number).unwrap_or(Json::Null)
    }
}

/// The whole number a JSON number stands for, if it stands for one. JSON has one number type:
/// `20`, `20.0` and `2e1` are the same number (Python's `json.dumps(20.0)` writes `20.0`), so
/// wherever an integer is expected each of them is accepted. `None` for a fraction, or for a
/// float beyond 2^53, where integers are no longer exact.
pub fn whole_number(number: &serde_json::Number) -> Option<i128> {
    if let Some(n) = number.as_i64() {
        return Some(i128::from(n));
    }
    if let Some(n) = number.as_u64() {
        return Some(i128::from(n));
    }
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    number.as_f64().filter(|f| f.is_finite() && f.fract() == 0.0 && f.abs() <= EXACT).map(|f| f as i128)
}

/// A count a client sent as a JSON number (a page size, a number of results) as the `uint32` of the
/// wire: a whole number >= 0 in any JSON spelling, saturated at `u32::MAX` (core-service clamps or
/// refuses large counts; the gateways only decode). None for a negative number or a fraction.
pub fn count(number: &serde_json::Number) -> Option<u32> {
    match whole_number(number) {
        Some(n) => (n >= 0).then(|| u32::try_from(n).unwrap_or(u32::MAX)),
        // A float too large to be exact is still a whole number, and larger than any count.
        None => number.as_f64().filter(|f| f.is_finite() && f.fract() == 0.0 && *f >= 0.0).map(|_| u32::MAX),
    }
}

/// [`count`] of a query-string value (`limit=20`): decimal digits (leading zeros allowed), or a
/// JSON number (`20.0`, `2e1`); surrounding spaces ignored.
pub fn count_text(text: &str) -> Option<u32> {
    let text = text.trim();
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return Some(text.parse::<u32>().unwrap_or(u32::MAX));
    }
    text.parse::<serde_json::Number>().ok().as_ref().and_then(count)
}

#[cfg(test)]
mod count_tests {
    use super::{count, count_text};

    #[test]
    fn counts_are_whole_non_negative_and_saturate() {
        for (text, value) in [
            ("0", Some(0)),
            ("20", Some(20)),
            ("020", Some(20)),
            (" 20 ", Some(20)),
            ("20.0", Some(20)),
            ("2e1", Some(20)),
            ("5000", Some(5000)),
            ("99999999999999999999999", Some(u32::MAX)),
            ("1e300", Some(u32::MAX)),
            ("-1", None),
            ("2.5", None),
            ("abc", None),
            ("", None),
            ("0x10", None),
        ] {
            assert_eq!(count_text(text), value, "{text:?}");
        }
        let n: serde_json::Number = serde_json::from_str("4294967296").unwrap();
        assert_eq!(count(&n), Some(u32::MAX));
    }
}

#[cfg(test)]
mod whole_number_tests {
    use super::whole_number;

    fn n(text: &str) -> serde_json::Number {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn integer_valued_numbers_are_whole_numbers() {
        for (text, value) in [
            ("20", 20),
            ("20.0", 20),
            ("2e1", 20),
            ("-3.0", -3),
            ("0.0", 0),
            ("18446744073709551615", u64::MAX as i128),
        ] {
            assert_eq!(whole_number(&n(text)), Some(value), "{text}");
        }
        for text in ["20.5", "1e300", "-0.1"] {
            assert_eq!(whole_number(&n(text)), None, "{text}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trips_nested_values_and_keeps_integers_whole() {
        let original = json!({"a": 5, "b": 2.5, "c": [true, null, "x"], "d": {"e": -3}});
        let Json::Object(map) = original.clone() else { unreachable!() };
        let back = Json::Object(from_proto_struct(to_proto_struct(map)));
        assert_eq!(back, original);
        assert_eq!(back["a"].to_string(), "5");
    }

    fn any_number() -> impl proptest::strategy::Strategy<Value = Json> {
        use proptest::prelude::*;
        prop_oneof![
            any::<i64>().prop_map(Json::from),
            any::<u64>().prop_map(Json::from),
            any::<f64>().prop_map(Json::from),
            (-1_000_000i64..1_000_000).prop_map(|n| Json::from(n as f64)),
            Just(serde_json::from_str::<Json>("-0.0").unwrap()),
            Just(serde_json::from_str::<Json>("9007199254740993").unwrap()),
        ]
    }

    proptest::proptest! {
        /// Item properties sent as JSON text read as they would through a Struct, number by
        /// number, at any depth.
        #[test]
        fn numbers_read_as_through_a_struct(numbers in proptest::collection::vec(any_number(), 1..6)) {
            let mut value = json!({"n": numbers[0].clone(), "list": numbers, "deep": {"in": [{"x": numbers_last(&numbers)}]}});
            let Json::Object(map) = value.clone() else { unreachable!() };
            let through_struct = Json::Object(from_proto_struct(to_proto_struct(map)));
            numbers_as_in_a_struct(&mut value);
            proptest::prop_assert_eq!(serde_json::to_string(&value).unwrap(), serde_json::to_string(&through_struct).unwrap());
        }
    }

    fn numbers_last(numbers: &[Json]) -> Json {
        numbers.last().cloned().unwrap_or(Json::Null)
    }
}
