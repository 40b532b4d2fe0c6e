//! Planned items checked with the real item rules: `canvas_items::validate_create` (what
//! core-service applies to each item of a bulk create, after its `ref:`s are resolved), valid
//! bulk `ref`s, parents planned earlier.

use std::collections::HashMap;

use canvas_diagram::PlannedItem;
use canvas_items::{validate_create, ItemFacts, ItemType};
use canvas_vocabulary::limits::bulk::valid_ref;
use serde_json::Value;

/// `"ref:x"` replaced by a stand-in id of x, as the bulk path does before the rules run.
fn resolve(value: &Value, ids: &HashMap<String, String>) -> Value {
    match value {
        Value::String(s) => match s.strip_prefix("ref:") {
            Some(r) => Value::String(ids.get(r).cloned().unwrap_or_else(|| format!("missing {r}"))),
            None => value.clone(),
        },
        Value::Array(a) => Value::Array(a.iter().map(|v| resolve(v, ids)).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), resolve(v, ids))).collect()),
        other => other.clone(),
    }
}

/// Every rule a planned batch breaks.
pub fn problems(items: &[PlannedItem]) -> Vec<String> {
    let ids = super::ids(items);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for item in items {
        if !valid_ref(&item.reference) {
            out.push(format!("'{}' is not a valid ref", item.reference));
        }
        if let Some(parent) = &item.parent {
            if !seen.contains(parent) {
                out.push(format!("{}: parent '{parent}' is not an earlier item", item.reference));
            }
        }
        seen.insert(item.reference.clone());
        let item_type = ItemType::parse(item.item_type).expect("a known item type");
        let Value::Object(props) = resolve(&item.properties, &ids) else {
            out.push(format!("{}: properties are not an object", item.reference));
            continue;
        };
        if let Err(invalid) = validate_create(item_type, props, ItemFacts::default()) {
            out.push(format!("{} ({}): {invalid:?}", item.reference, item.item_type));
        }
    }
    out
}
