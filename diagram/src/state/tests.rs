use super::*;
use crate::scene::BoxRole;
use crate::{layout, parse, planned_count, to_items, Diagram};

fn state(source: &str) -> StateDiagram {
    match parse(source) {
        Ok(Diagram::State(d)) => d,
        other => panic!("{other:?}"),
    }
}

fn index(d: &StateDiagram, id: &str) -> usize {
    d.states.iter().position(|s| s.id == id).unwrap_or_else(|| panic!("no state {id}"))
}

#[test]
fn states_texts_transitions_and_pseudo_states() {
    let d = state(
        "stateDiagram-v2\n[*] --> Still\nStill --> [*]\nstate \"Moving fast\" as Moving\nStill --> Moving : push\n\
         Moving : second text\nMoving --> Crash\nCrash --> [*]\nstate if_state <<choice>>\nstate f [[fork]]\n\
         state j <<join>>\ns1:::hot --> s2 : go\nclassDef hot fill:#f00\nclass s1 hot\nhide empty description\nscale 200 width",
    );
    let starts = d.states.iter().filter(|s| s.kind == StateKind::Start).count();
    let ends = d.states.iter().filter(|s| s.kind == StateKind::End).count();
    assert_eq!((starts, ends), (1, 1), "one start and one end per scope");
    let moving = &d.states[index(&d, "Moving")];
    assert_eq!(moving.descriptions, ["Moving fast", "second text"]);
    assert_eq!(moving.name(), "Moving fast");
    assert_eq!(d.states[index(&d, "if_state")].kind, StateKind::Choice);
    assert_eq!(d.states[index(&d, "f")].kind, StateKind::Fork);
    assert_eq!(d.states[index(&d, "j")].kind, StateKind::Join);
    assert_eq!(d.transitions[2].label.as_deref(), Some("push"));
    assert_eq!(d.transitions.last().unwrap().label.as_deref(), Some("go"));
    // No line break is needed between statements: a transition, then two states.
    let d = state("stateDiagram-v2\nA --> B compute with\nC");
    assert_eq!(d.transitions.len(), 1);
    let ids: Vec<&str> = d.states.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["A", "B", "compute", "with", "C"]);
}

#[test]
fn composite_states_nest_and_regions_have_their_own_start() {
    let d = state(
        "stateDiagram\ndirection LR\n[*] --> Active\nstate Active {\n  direction TB\n  [*] --> NumLockOff\n  \
         NumLockOff --> NumLockOn\n  --\n  [*] --> CapsOff\n  state Deep {\n    x --> y\n  }\n}\nActive --> [*]",
    );
    assert_eq!(d.direction, Direction::LeftRight, "an inner direction does not change the diagram's");
    let active = index(&d, "Active");
    assert_eq!(d.states[active].kind, StateKind::Composite);
    let regions: Vec<usize> = (0..d.states.len()).filter(|&s| d.states[s].kind == StateKind::Region).collect();
    assert_eq!(regions.len(), 2);
    assert!(regions.iter().all(|&r| d.states[r].parent == Some(active)));
    assert_eq!(d.states[index(&d, "NumLockOff")].parent, Some(regions[0]));
    assert_eq!(d.states[index(&d, "CapsOff")].parent, Some(regions[1]));
    assert_eq!(d.states[index(&d, "x")].parent, Some(index(&d, "Deep")));
    let starts: Vec<Option<usize>> = d.states.iter().filter(|s| s.kind == StateKind::Start).map(|s| s.parent).collect();
    assert_eq!(starts, [None, Some(regions[0]), Some(regions[1])]);
}

#[test]
fn notes_single_and_multi_line() {
    let d = state(
        "stateDiagram-v2\nState1 : text\nnote right of State1\n  Important information!\n  Two lines\nend note\n\
                   note left of State2 : left note\nnote \"floating\" as N1",
    );
    assert_eq!(d.notes.len(), 2);
    assert_eq!(d.notes[0].text, "Important information!\nTwo lines");
    assert!(!d.notes[0].left && d.notes[1].left);
    assert_eq!(d.states[d.notes[1].state].id, "State2");
}

#[test]
fn refusals_name_line_and_column() {
    for (source, line, column, needle) in [
        ("stateDiagram-v2\nstate A {\n  a --> b", 2, 1, "not closed"),
        ("stateDiagram-v2\n}", 2, 1, "without an open composite"),
        ("stateDiagram-v2\n--", 2, 1, "inside `state X"),
        ("stateDiagram-v2\nnote right of A\n  text", 2, 1, "end note"),
        ("stateDiagram-v2\nnote above A : x", 2, 6, "left of"),
        ("stateDiagram-v2\nA --> ", 2, 7, "target state"),
        ("stateDiagram-v2\nA --> B --> C", 2, 9, "expected a state or a transition"),
        ("stateDiagram-v2\nstate \"x\" A", 2, 11, "as id"),
        ("stateDiagram-v2\nstate A <<entry>>", 2, 7, "choice, fork or join"),
        ("stateDiagram-v2 x", 1, 17, "own lines"),
    ] {
        let err = parse(source).unwrap_err();
        assert_eq!((err.line, err.column), (line, column), "{source:?}: {err}");
        assert!(err.message.contains(needle), "{source:?}: {err}");
    }
}

#[test]
fn transitions_to_a_composite_state_end_on_its_border() {
    let source = "stateDiagram-v2\n[*] --> First\nstate First {\n  [*] --> fir\n  fir --> [*]\n}\nFirst --> Second\n\
                  state Second {\n  [*] --> sec\n}\nnote right of sec : a note";
    let diagram = parse(source).unwrap();
    let scene = layout(&diagram);
    let first = scene.boxes.iter().position(|b| b.node_id.as_deref() == Some("First")).unwrap();
    let second = scene.boxes.iter().position(|b| b.node_id.as_deref() == Some("Second")).unwrap();
    assert_eq!(scene.boxes[first].role, BoxRole::Container);
    // `[*] --> First` ends on First's border; `First --> Second` runs between the two borders.
    let into = &scene.lines[0];
    assert_eq!(into.end.attach, Some(first));
    let r = scene.boxes[first].rect;
    let on_border = |p: (f64, f64)| {
        let near = |a: f64, b: f64| (a - b).abs() < 1e-6;
        (near(p.0, r.x) || near(p.0, r.right()) || near(p.1, r.y) || near(p.1, r.bottom()))
            && r.grow(1e-6).contains(&crate::scene::Rect { x: p.0, y: p.1, width: 0.0, height: 0.0 })
    };
    assert!(on_border(into.end.at), "{:?} on {r:?}", into.end.at);
    let between = &scene.lines[3];
    assert_eq!((between.start.attach, between.end.attach), (Some(first), Some(second)));
    let dots = scene.boxes.iter().filter(|b| b.shape == "Ellipse" && b.rect.width == 20.0).count();
    assert_eq!(dots, 4);
    assert!(scene.boxes.iter().any(|b| b.role == BoxRole::Note));
    let items = to_items(&scene, (0.0, 0.0));
    assert_eq!(items.len(), planned_count(&diagram));
    let edge = items.iter().find(|i| i.reference == "edge:0").unwrap();
    assert_eq!(edge.properties["endPoint"]["itemId"], format!("ref:{}", scene.boxes[first].key));
    assert_eq!(edge.properties["endPoint"]["decorator"], "Arrow");
}

#[test]
fn a_state_with_two_texts_is_a_box_with_a_title_and_a_body() {
    let diagram = parse("stateDiagram-v2\nstate \"Waiting for input\" as W\nW : press a key\nW : or click").unwrap();
    let scene = layout(&diagram);
    let w = scene.boxes.iter().position(|b| b.node_id.as_deref() == Some("W")).unwrap();
    assert_eq!(scene.boxes[w].shape, "RoundedRectangle");
    let texts: Vec<&str> = scene.texts.iter().map(|t| t.text.as_str()).collect();
    assert_eq!(texts, ["Waiting for input", "press a key\nor click"]);
    assert_eq!(to_items(&scene, (0.0, 0.0)).len(), planned_count(&diagram));
}
