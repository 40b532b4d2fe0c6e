//! Every item every golden plans passes the item rules core-service applies
//! (`canvas_items::validate_create`, the same call its bulk create makes),
//! with each `ref:` replaced by the id the batch would give it, and every
//! reference is one core-service's bulk create accepts.

mod common;

use canvas_diagram::{layout, parse, to_items};
use canvas_items::{validate_create, ItemFacts, ItemType};
use canvas_vocabulary::limits::bulk::valid_ref;
use serde_json::Value;

/// `"ref:x"` strings replaced by x's fake id.
fn resolve(value: &Value, ids: &std::collections::HashMap<String, String>) -> Value {
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

#[test]
fn every_planned_item_passes_the_item_rules() {
    let mut failures = Vec::new();
    for (name, source) in common::goldens() {
        let items = to_items(&layout(&parse(&source).unwrap_or_else(|e| panic!("{name}: {e}"))), (-250.0, 40.0));
        let ids = common::ids(&items);
        for item in &items {
            if !valid_ref(&item.reference) {
                failures.push(format!("{name}: {} is not a valid bulk reference", item.reference));
            }
            let item_type = ItemType::parse(item.item_type).expect("a known item type");
            let Value::Object(props) = resolve(&item.properties, &ids) else { panic!("{name}: not an object") };
            if let Err(invalid) = validate_create(item_type, props, ItemFacts::default()) {
                failures.push(format!("{name}: {} ({}): {invalid}", item.reference, item.item_type));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn ids_no_reference_can_spell_still_make_valid_references() {
    let sources = [
        "classDiagram\nclass `Bestellung Ä`\n`Bestellung Ä` <|-- `a b`",
        "erDiagram\n\"LINE ITEM\" ||--o{ \"Ürün\" : has",
        "stateDiagram-v2\nstate \"x\" as Zustand_ä\nZustand_ä --> [*]",
    ];
    for source in sources {
        let items = to_items(&layout(&parse(source).unwrap()), (0.0, 0.0));
        assert!(
            items.iter().all(|i| valid_ref(&i.reference)),
            "{source}: {:?}",
            items.iter().map(|i| &i.reference).collect::<Vec<_>>()
        );
        assert!(
            items.iter().any(|i| i.node_id.as_deref().is_some_and(|n| !n.is_ascii())),
            "{source}: the Mermaid id is kept"
        );
    }
}
