//! The names of misfits, and names matched in any casing, on small bodies shaped like the real ones.

use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::*;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Outer {
    item_ids: Vec<String>,
    #[serde(default, deserialize_with = "whole_number")]
    max_results: Option<u32>,
    #[serde(default)]
    inner: Vec<Inner>,
    #[serde(default, deserialize_with = "any_case")]
    mode: Option<Mode>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Inner {
    #[serde(rename = "type")]
    kind: String,
    properties: Option<Map<String, Value>>,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Mode {
    Hybrid,
    Keyword,
}

/// The field and message of the 400 for `body`.
fn misfit(body: Value) -> (String, String) {
    let error = from_value::<Outer>(body).expect_err("a misfit");
    assert_eq!(error.status, axum::http::StatusCode::BAD_REQUEST);
    let field = error.fields.first().expect("a field");
    (field.field.clone(), field.message.clone())
}

#[test]
fn names_match_in_any_casing_at_every_depth_but_not_inside_free_json() {
    let body = json!({"ITEM_IDS": ["a"], "Max-Results": 20.0, "Inner": [{"TYPE": "label",
        "Properties": {"FontSize": 3}}], "mode": "KEYWORD"});
    let outer: Outer = from_value(body).unwrap();
    assert_eq!(outer.item_ids, ["a"]);
    assert_eq!(outer.max_results, Some(20));
    assert_eq!(outer.inner[0].kind, "label");
    assert_eq!(outer.inner[0].properties.as_ref().unwrap()["FontSize"], 3, "free-form names are kept");
    assert_eq!(outer.mode, Some(Mode::Keyword));
}

#[test]
fn each_misfit_names_its_field() {
    let cases = [
        (json!({}), "itemIds", "is required"),
        (json!({"itemIds": "a"}), "itemIds", "must be an array"),
        (json!({"itemIds": ["a", 5]}), "itemIds[1]", "must be a string"),
        (json!({"itemIds": [], "maxResult": 3}), "maxResult", "is not a field here"),
        (json!({"itemIds": [], "maxResults": 2.5}), "maxResults", "must be a whole number"),
        (json!({"itemIds": [], "maxResults": -1}), "maxResults", "must be a whole number"),
        (json!({"itemIds": [], "inner": [{"properties": {}}]}), "inner[0].type", "is required"),
        (json!({"itemIds": [], "inner": [{"type": "x", "colour": 1}]}), "inner[0].colour", "is not a field here"),
        (json!({"itemIds": [], "inner": [{"type": "x", "properties": "text"}]}), "inner[0].properties", "must be"),
        (json!({"itemIds": [], "inner": [5]}), "inner[0]", "must be"),
        (json!({"itemIds": [], "mode": "fuzzy"}), "mode", "must be one of hybrid, keyword"),
        (json!({"itemIds": [], "ItemIds": []}), "itemIds", "is given more than once"),
        (json!([1, 2]), "body", "must be"),
    ];
    for (body, field, message) in cases {
        let (named, said) = misfit(body.clone());
        assert_eq!(named, field, "{body}: {said}");
        assert!(said.starts_with(message), "{body}: {said}");
    }
}

#[test]
fn explicit_nulls_are_absent_values() {
    let outer: Outer = from_value(json!({"itemIds": [], "maxResults": null, "mode": null})).unwrap();
    assert_eq!((outer.max_results, outer.mode), (None, None));
}

#[test]
fn each_misfit_carries_the_reason_core_service_gives_the_same_mistake() {
    let reason = |body: Value| from_value::<Outer>(body).expect_err("a misfit").fields[0].reason;
    assert_eq!(reason(json!({"itemIds": [], "colour": 1})), "UNKNOWN_PROPERTY");
    assert_eq!(reason(json!({"itemIds": [], "ITEM-IDS": []})), "DUPLICATE_PROPERTY");
    assert_eq!(reason(json!({"maxResults": 3})), "REQUIRED");
    assert_eq!(reason(json!({"itemIds": "a"})), "INVALID_VALUE");
}
