//! A state diagram read back from the map: source → items (as core-service presents them) →
//! `export_state` → parse gives the same states (kinds, descriptions, nesting), transitions with
//! their labels and notes, on every valid state diagram of the real-world corpus and every state
//! golden; most draw again to exactly the same items. Edits show: a deleted state is gone with its
//! transitions and notes, an edited text shows, a connector someone drew is a transition, and
//! random edits always give Mermaid the crate reads.
//!
//! Texts are compared word by word: the layout wraps long texts, and the map cannot tell a wrap
//! from a line break someone wrote (see the writer's module doc for what else is lost).

mod common;
mod corpus_support;

use std::collections::{BTreeMap, HashMap};

use canvas_diagram::model::Diagram;
use canvas_diagram::state::{StateDiagram, StateKind};
use canvas_diagram::{export_state, layout, parse, to_items, MapItem, PlannedItem};
use proptest::prelude::*;
use serde_json::{json, Value};

fn drawn(source: &str) -> (Vec<MapItem>, BTreeMap<String, String>) {
    common::drawn_as_recorded(source)
}

fn state_diagram(text: &str) -> StateDiagram {
    match parse(text) {
        Ok(Diagram::State(d)) => d,
        other => panic!("not a state diagram: {other:?}\n{text}"),
    }
}

fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A state's name for comparing: its id, `[*]` with the scope for dots, regions by their place.
fn key(d: &StateDiagram, s: usize) -> String {
    let state = &d.states[s];
    let scope = state.parent.map_or(String::new(), |p| key(d, p));
    match state.kind {
        StateKind::Start => format!("{scope}/[*]start"),
        StateKind::End => format!("{scope}/[*]end"),
        _ => state.id.clone(),
    }
}

/// What the map can show of a state diagram: states (kind, description words, holder),
/// transitions and notes, each sorted.
type Facts = (Vec<(String, String, String, Option<String>)>, Vec<(String, String, String)>, Vec<String>);

fn facts(d: &StateDiagram) -> Facts {
    let mut states: Vec<_> = (0..d.states.len())
        .map(|s| {
            let state = &d.states[s];
            let mut descriptions = state.descriptions.clone();
            if state.kind == StateKind::Composite {
                // A composite state shows its name only.
                descriptions.truncate(1);
            }
            let mut text = words(&descriptions.join(" "));
            if text == words(&state.id) {
                text.clear();
            }
            (key(d, s), format!("{:?}", state.kind), text, state.parent.map(|p| key(d, p)))
        })
        .collect();
    states.sort();
    let mut transitions: Vec<_> =
        d.transitions.iter().map(|t| (key(d, t.from), key(d, t.to), words(t.label.as_deref().unwrap_or("")))).collect();
    transitions.sort();
    let mut notes: Vec<_> =
        d.notes.iter().map(|n| format!("{} {} {}", key(d, n.state), n.left, words(&n.text))).collect();
    notes.sort();
    (states, transitions, notes)
}

/// Planned items in comparable form: element, part, type, parent's element and properties, with
/// every `ref:` written as the element it names (references may differ, elements may not).
fn plan_facts(items: &[PlannedItem]) -> Vec<String> {
    let by_reference: HashMap<&str, String> =
        items.iter().map(|i| (i.reference.as_str(), format!("{}#{}", i.element, i.part))).collect();
    let text = |i: &PlannedItem| {
        let mut props = serde_json::to_string(&i.properties).unwrap();
        for (reference, element) in &by_reference {
            props = props.replace(&format!("\"ref:{reference}\""), &format!("\"{element}\""));
        }
        let parent = i.parent.as_deref().map_or("panel", |p| by_reference[p].as_str());
        format!("{} {} {} in {parent}: {props}", i.element, i.part, i.item_type)
    };
    items.iter().map(text).collect()
}

fn replan(text: &str) -> Vec<String> {
    plan_facts(&to_items(&layout(&parse(text).unwrap()), (40.0, 60.0)))
}

/// Exports `source` unedited: Err with a message when the model differs; Ok(same re-plan).
fn round_trip(name: &str, source: &str) -> Result<bool, String> {
    let (items, names) = drawn(source);
    let exported = export_state(&items, &names);
    let again = state_diagram(&exported);
    let before = state_diagram(source);
    let (a, b) = (facts(&before), facts(&again));
    if a != b {
        let only = |x: &Facts, y: &Facts| {
            let mut out: Vec<String> = x.0.iter().filter(|s| !y.0.contains(s)).map(|s| format!("{s:?}")).collect();
            out.extend(x.1.iter().filter(|t| !y.1.contains(t)).map(|t| format!("{t:?}")));
            out.extend(x.2.iter().filter(|n| !y.2.contains(n)).cloned());
            out
        };
        return Err(format!(
            "{name}: the model differs\n--- exported ---\n{exported}\nonly before: {:?}\nonly after: {:?}",
            only(&a, &b),
            only(&b, &a)
        ));
    }
    if before.direction != again.direction {
        return Err(format!("{name}: direction {:?} came back {:?}\n{exported}", before.direction, again.direction));
    }
    let (a, b) = (replan(source), replan(&exported));
    if a != b && std::env::var_os("SHOW_PLAN_DIFF").is_some() {
        let first = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
        println!(
            "{name}: {} vs {} items, first difference at {first}:\n{:?}\n{:?}\n{exported}",
            a.len(),
            b.len(),
            a.get(first),
            b.get(first)
        );
    }
    Ok(a == b)
}

#[test]
fn every_valid_corpus_state_diagram_comes_back_with_the_same_model() {
    let files: Vec<_> = corpus_support::valid_files().into_iter().filter(|f| f.kind == "state").collect();
    assert!(files.len() >= 30, "the corpus has its state diagrams: {}", files.len());
    let mut same_plan = Vec::new();
    let mut differ = Vec::new();
    let mut failed = Vec::new();
    for file in &files {
        match round_trip(&file.name, &file.source) {
            Ok(true) => same_plan.push(file.name.clone()),
            Ok(false) => differ.push(file.name.clone()),
            Err(message) => failed.push(message),
        }
    }
    assert!(failed.is_empty(), "{} of {} differ:\n{}", failed.len(), files.len(), failed.join("\n\n"));
    println!("{} files, all the same model, {} the same re-plan; differing: {differ:?}", files.len(), same_plan.len());
    // Colours from `classDef`/`style` are on the items but not written back (the writer's doc):
    // only a styled diagram may draw differently.
    let sources: HashMap<&str, &str> = files.iter().map(|f| (f.name.as_str(), f.source.as_str())).collect();
    let unstyled: Vec<&String> = differ.iter().filter(|name| !styled(sources[name.as_str()])).collect();
    assert!(unstyled.is_empty(), "re-planned differently without styling: {unstyled:?}");
    assert!(same_plan.len() >= 31, "{} of {} re-plan the same", same_plan.len(), files.len());
}

/// Whether a source styles its states (`classDef`, `class`, `:::`, `style`).
fn styled(source: &str) -> bool {
    source.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with("classDef ") || l.starts_with("class ") || l.starts_with("style ") || l.contains(":::")
    })
}

#[test]
fn state_goldens_come_back_with_the_same_model_and_items() {
    let goldens = common::goldens();
    let mut differ = Vec::new();
    for (name, source) in goldens.iter().filter(|(n, _)| n.starts_with("st")) {
        if !round_trip(name, source).unwrap_or_else(|e| panic!("{e}")) {
            differ.push(name.as_str());
        }
    }
    // st01 styles a state (its colour is not written back); st02 writes `[*] --> NamedComposite`
    // after three composite blocks, which nothing on the map tells from writing it before them.
    assert_eq!(differ, ["st01_simple", "st02_composites"]);
}

/// The item id of the shape drawing state `id`.
fn shape_of(names: &BTreeMap<String, String>, id: &str) -> String {
    names.iter().find(|(_, name)| name.as_str() == id).map(|(item, _)| item.clone()).expect(id)
}

/// `items` without `item` and everything inside it, as deleting a shape on the map leaves them;
/// connectors attached to it stay, their end naming an item no longer there.
fn delete(items: &mut Vec<MapItem>, item: &str) {
    let mut gone = vec![item.to_owned()];
    while let Some(next) =
        items.iter().find(|i| i.parent.as_ref().is_some_and(|p| gone.contains(p)) && !gone.contains(&i.id))
    {
        gone.push(next.id.clone());
    }
    items.retain(|i| !gone.contains(&i.id));
}

fn state_ids(d: &StateDiagram) -> Vec<String> {
    d.states.iter().filter(|s| s.kind != StateKind::Region).map(|s| s.id.clone()).collect()
}

const NOTED: &str = "stateDiagram-v2\n    [*] --> Still\n    Still --> Moving : push\n    Moving --> Crash\n    \
                     Crash --> [*]\n    note right of Moving : keep moving\n    note left of Crash : ouch\n";

#[test]
fn a_deleted_state_is_gone_with_its_transitions_and_notes() {
    let (mut items, names) = drawn(NOTED);
    delete(&mut items, &shape_of(&names, "Moving"));
    let text = export_state(&items, &names);
    let d = state_diagram(&text);
    assert!(!state_ids(&d).contains(&"Moving".to_owned()), "{text}");
    assert!(!text.contains("Moving") && !text.contains("push") && !text.contains("keep moving"), "{text}");
    let (_, transitions, notes) = facts(&d);
    assert_eq!(
        transitions,
        [("/[*]start".into(), "Still".into(), String::new()), ("Crash".into(), "/[*]end".into(), String::new())]
    );
    assert_eq!(notes, ["Crash true ouch"], "the other note stays");
    // Deleting the connectors too (as a person tidying up would) reads the same.
    let gone: Vec<String> = items
        .iter()
        .filter(|i| i.item_type == "connector" && !both_ends_kept(i, &items))
        .map(|i| i.id.clone())
        .collect();
    items.retain(|i| !gone.contains(&i.id));
    assert_eq!(facts(&state_diagram(&export_state(&items, &names))).1, transitions);
}

/// Whether both ends of a connector are still on the list.
fn both_ends_kept(connector: &MapItem, items: &[MapItem]) -> bool {
    ["startPoint", "endPoint"].iter().all(|end| {
        let id = connector.properties[end]["itemId"].as_str();
        id.is_none_or(|id| items.iter().any(|i| i.id == id))
    })
}

/// The label child of `parent`.
fn label_of<'a>(items: &'a mut [MapItem], parent: &str) -> &'a mut MapItem {
    items.iter_mut().find(|i| i.item_type == "label" && i.parent.as_deref() == Some(parent)).expect("a label")
}

#[test]
fn edited_texts_show_and_ids_stay() {
    let (mut items, names) = drawn(NOTED);
    // HTML, as a person may write it: its line breaks are `<br>` (a newline is a space there).
    let hostile = "say \"hi\" <b>y</b><br>}%% : x<br>end note";
    label_of(&mut items, &shape_of(&names, "Moving")).properties["text"] = json!(hostile);
    let push = items.iter().find(|i| i.item_type == "label" && i.properties["text"] == "push").unwrap().id.clone();
    items.iter_mut().find(|i| i.id == push).unwrap().properties["text"] = json!("pushed; hard");
    let note = items.iter_mut().find(|i| i.item_type == "sticky-note" && i.properties["text"] == "ouch").unwrap();
    note.properties["text"] = json!("note left of Still : sneaky");
    let text = export_state(&items, &names);
    let d = state_diagram(&text);
    let moving = d.states.iter().find(|s| s.id == "Moving").expect(&text);
    assert_eq!(moving.descriptions, ["say \"hi\" y\n}%% : x\nend note"], "{text}");
    assert!(d.transitions.iter().any(|t| t.label.as_deref() == Some("pushed; hard")), "{text}");
    assert!(d.notes.iter().any(|n| n.text == "note left of Still : sneaky" && n.left), "{text}");
    assert_eq!(d.notes.len(), 2);
    assert_eq!(d.states.len(), 5, "no state made of the texts: {text}");
}

#[test]
fn a_connector_someone_drew_between_two_states_is_a_transition() {
    let (mut items, names) = drawn(NOTED);
    let (crash, still) = (shape_of(&names, "Crash"), shape_of(&names, "Still"));
    let attached =
        |id: &str, decorator: &str| json!({"itemId": id, "position": {"x": 0, "y": 0}, "decorator": decorator});
    items.push(MapItem {
        id: "drawn-1".into(),
        item_type: "connector".into(),
        parent: None,
        properties: json!({"type": "Straight", "startPoint": attached(&crash, "None"), "endPoint": attached(&still, "Arrow")}),
    });
    items.push(MapItem {
        id: "drawn-1-text".into(),
        item_type: "label".into(),
        parent: Some("drawn-1".into()),
        properties: json!({"text": "retry"}),
    });
    // Drawn the other way round (the mark at its start), it still reads from Still to Crash.
    items.push(MapItem {
        id: "drawn-2".into(),
        item_type: "connector".into(),
        parent: None,
        properties: json!({"type": "Straight", "startPoint": attached(&crash, "Arrow"), "endPoint": attached(&still, "None")}),
    });
    let d = state_diagram(&export_state(&items, &names));
    let transitions = facts(&d).1;
    assert!(transitions.contains(&("Crash".into(), "Still".into(), "retry".into())), "{transitions:?}");
    assert!(transitions.contains(&("Still".into(), "Crash".into(), String::new())), "{transitions:?}");
}

#[test]
fn source_ids_come_back_through_names_and_moved_items_change_nothing() {
    let source = "stateDiagram\n  [*] --> Active(warm)\n  Active(warm) --> Archived\n  Archived --> Offloaded\n";
    let (mut items, names) = drawn(source);
    for item in items.iter_mut().filter(|i| i.item_type != "connector") {
        if let Some(x) = item.properties["position"]["x"].as_f64() {
            item.properties["position"]["x"] = json!(x + 500.0);
        }
    }
    let text = export_state(&items, &names);
    assert!(text.contains("Active(warm) --> Archived"), "{text}");
    assert_eq!(facts(&state_diagram(&text)), facts(&state_diagram(source)), "{text}");
    // Without names, a state is called by its text when that is an id, else by its item.
    let text = export_state(&items, &BTreeMap::new());
    assert_eq!(facts(&state_diagram(&text)), facts(&state_diagram(source)), "{text}");
}

/// Pieces of hostile text: Mermaid syntax of every kind.
const PIECES: &[&str] = &[
    "\"",
    "\n",
    "end",
    "}",
    "{",
    "state X {",
    "--",
    "-->",
    "[*]",
    ":",
    ";",
    "%%",
    "#",
    "#quot;",
    "<b>",
    "</b>",
    "<br>",
    "&amp;",
    "`",
    "note left of",
    "end note",
    "<<choice>>",
    "direction LR",
    "classDef",
    "\\n",
    "x<y",
    " ",
    "é",
    "\u{0}",
    "\u{202e}",
    "as",
    "--region0",
    "::",
    ":::x",
];

fn sources() -> Vec<String> {
    let mut out: Vec<String> =
        corpus_support::valid_files().into_iter().filter(|f| f.kind == "state").map(|f| f.source).collect();
    out.extend(common::goldens().into_iter().filter(|(n, _)| n.starts_with("st")).map(|(_, s)| s));
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Items deleted at random, texts replaced by hostile ones, parents pointed at random items
    /// (loops included): the export parses as a state diagram and no deleted state comes back.
    #[test]
    fn random_edits_always_read_back(
        which in 0usize..64,
        deleted in prop::collection::vec(any::<prop::sample::Index>(), 0..6),
        texts in prop::collection::vec((any::<prop::sample::Index>(), prop::collection::vec(prop::sample::select(PIECES), 0..6)), 0..6),
        reparent in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 0..2),
    ) {
        let all = sources();
        let (mut items, names) = drawn(&all[which % all.len()]);
        for (text_of, pieces) in texts {
            let item = text_of.get(&items).id.clone();
            let item = items.iter_mut().find(|i| i.id == item).unwrap();
            if item.properties.get("text").is_some() {
                item.properties["text"] = Value::String(pieces.concat());
            }
        }
        for (child, parent) in reparent {
            let parent = parent.get(&items).id.clone();
            child.get_mut(&mut items).parent = Some(parent);
        }
        let mut gone_ids = Vec::new();
        for index in deleted {
            if items.is_empty() {
                break;
            }
            let item = index.get(&items).id.clone();
            if let Some(name) = names.get(&item) {
                gone_ids.push(name.clone());
            }
            delete(&mut items, &item);
        }
        let text = export_state(&items, &names);
        let d = match parse(&text) {
            Ok(Diagram::State(d)) => d,
            other => return Err(TestCaseError::fail(format!("{other:?}\n{text}"))),
        };
        let ids = state_ids(&d);
        // A state's text moved onto another box (a label given another parent) still shows its
        // name on the map, so that box may take the name as its id: only a name nothing shows
        // any more must stay gone.
        let shown: Vec<&str> =
            items.iter().filter_map(|i| i.properties.get("text").and_then(Value::as_str)).map(str::trim).collect();
        for id in gone_ids.iter().filter(|id| !shown.contains(&id.as_str())) {
            prop_assert!(!ids.contains(id), "{} came back\n{}", id, text);
        }
    }
}
