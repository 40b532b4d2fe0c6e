//! Planned items run through the rules core-service itself applies to a bulk create: the `ref`
//! rule of the batch (`canvas_vocabulary::limits::bulk::valid_ref`), and
//! `canvas_items::validate_create` on each item's properties with every `"ref:…"` replaced by
//! an item id, as the bulk path does before validating. A diagram that breaks one of them is
//! refused as a whole, which the diagrams endpoint reports as a 500: so none may.

use canvas_diagram::PlannedItem;
use canvas_items::{validate_create, ItemFacts, ItemType};
use canvas_vocabulary::limits::bulk::valid_ref;
use serde_json::Value;

use super::ids;

/// `"ref:x"` strings replaced by x's fake id, everywhere in a value.
fn resolved(value: &Value, ids: &std::collections::HashMap<String, String>) -> Value {
    match value {
        Value::String(s) => match s.strip_prefix("ref:") {
            Some(r) => Value::String(ids.get(r).cloned().unwrap_or_else(|| format!("missing:{r}"))),
            None => value.clone(),
        },
        Value::Array(a) => Value::Array(a.iter().map(|v| resolved(v, ids)).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), resolved(v, ids))).collect()),
        other => other.clone(),
    }
}

/// Every rule of core-service an item of the batch breaks (empty: the batch is accepted).
pub fn problems(items: &[PlannedItem]) -> Vec<String> {
    let ids = ids(items);
    let mut problems = Vec::new();
    for item in items {
        let at = &item.reference;
        if !valid_ref(at) {
            problems.push(format!("{at:?}: not a valid bulk ref"));
        }
        if let Some(parent) = item.parent.as_ref().filter(|p| !valid_ref(p)) {
            problems.push(format!("{at}: parent {parent:?} is not a valid bulk ref"));
        }
        let Ok(item_type) = ItemType::parse(item.item_type) else {
            problems.push(format!("{at}: unknown type {}", item.item_type));
            continue;
        };
        let Value::Object(props) = resolved(&item.properties, &ids) else {
            problems.push(format!("{at}: properties are not an object"));
            continue;
        };
        if let Err(invalid) = validate_create(item_type, props, ItemFacts::default()) {
            problems.push(format!("{at}: {invalid:?}"));
        }
    }
    problems
}
