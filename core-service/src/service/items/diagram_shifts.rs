//! Where the items of an edited diagram go: a box a person moved stays, every other kept box takes
//! its new laid-out place, and everything else is moved by the displacement of the box it belongs
//! to or sits beside (see `diagram_plan.rs` for the rules as a whole).

use std::collections::HashMap;

use serde_json::{json, Map, Value};

/// A position on the map (x, y).
type Point = (f64, f64);
/// A displacement in map units.
pub(super) type Shift = (f64, f64);

/// What the placement needs of one planned item.
pub(super) struct Placed<'a> {
    pub element: &'a str,
    /// `shape`/`note` are boxes; `label`/`title` follow their element; `connector`s their ends.
    pub part: &'a str,
    /// Position in the new layout.
    pub planned_at: Option<(f64, f64)>,
    /// For a kept item: where it is now and where the diagram last put it.
    pub kept: Option<(Option<Point>, Option<Point>)>,
    /// Plan indexes of the items its connector ends attach to.
    pub ends: Vec<usize>,
    /// Plan index of its container.
    pub parent: Option<usize>,
}

/// Every planned item's displacement.
pub(super) struct Shifts {
    /// Per item: its displacement, and whether it is a connector whose ends moved apart.
    items: Vec<(Shift, bool)>,
    /// The displacement of items that belong to nothing placed (free message ends).
    default: Shift,
}

impl Shifts {
    pub(super) fn of(placed: &[Placed<'_>]) -> Shifts {
        let mut element_shift: HashMap<&str, Shift> = HashMap::new();
        let mut default = None;
        for p in placed.iter().filter(|p| is_box(p)) {
            let (Some((current, last)), Some(planned)) = (p.kept, p.planned_at) else { continue };
            let person_moved = !same_point(current, last);
            let at = if person_moved { current.unwrap_or(planned) } else { planned };
            let shift = (at.0 - planned.0, at.1 - planned.1);
            element_shift.insert(p.element, shift);
            default.get_or_insert(shift);
        }
        let default = default.unwrap_or((0.0, 0.0));
        // New boxes: beside a neighbour already placed, else with their container; repeated so a
        // chain of new nodes hangs off the kept one it leads to.
        let mut neighbours: HashMap<&str, Vec<&str>> = HashMap::new();
        for p in placed.iter().filter(|p| p.part == "connector" && p.ends.len() == 2) {
            let (a, b) = (placed[p.ends[0]].element, placed[p.ends[1]].element);
            neighbours.entry(a).or_default().push(b);
            neighbours.entry(b).or_default().push(a);
        }
        loop {
            let mut progress = false;
            for p in placed.iter().filter(|p| is_box(p) && p.kept.is_none()) {
                if element_shift.contains_key(p.element) {
                    continue;
                }
                let beside = neighbours.get(p.element).into_iter().flatten().find_map(|n| element_shift.get(n));
                let within = p.parent.and_then(|c| element_shift.get(placed[c].element));
                if let Some(&shift) = beside.or(within) {
                    element_shift.insert(p.element, shift);
                    progress = true;
                }
            }
            if !progress {
                break;
            }
        }
        let box_shift = |element: &str| element_shift.get(element).copied().unwrap_or(default);
        let end_shifts =
            |p: &Placed<'_>| -> Vec<Shift> { p.ends.iter().map(|&e| box_shift(placed[e].element)).collect() };
        let connector = |p: &Placed<'_>| -> (Shift, bool) {
            match end_shifts(p).as_slice() {
                [] => (default, false),
                [one] => (*one, false),
                [a, b, ..] => (*a, !same_point(Some(*a), Some(*b))),
            }
        };
        let connectors: HashMap<&str, (Shift, bool)> =
            placed.iter().filter(|p| p.part == "connector").map(|p| (p.element, connector(p))).collect();
        let items = placed
            .iter()
            .map(|p| match p.part {
                "connector" => connector(p),
                _ if element_shift.contains_key(p.element) || is_box(p) => (box_shift(p.element), false),
                _ => (connectors.get(p.element).map_or(default, |c| c.0), false),
            })
            .collect();
        Shifts { items, default }
    }

    /// The properties the diagram writes for plan item `i` now: its planned ones, moved.
    pub(super) fn place(&self, i: usize, planned: &Map<String, Value>) -> Map<String, Value> {
        let (shift, apart) = self.items[i];
        let mut props = planned.clone();
        if let Some(at) = props.get_mut("position") {
            *at = moved(at, shift);
        }
        for end in ["startPoint", "endPoint"] {
            if let Some(Value::Object(point)) = props.get_mut(end) {
                if !point.contains_key("itemId") {
                    if let Some(at) = point.get_mut("position") {
                        *at = moved(at, self.default);
                    }
                }
            }
        }
        if apart && props.contains_key("cornerPoints") {
            props.remove("cornerPoints");
            props.insert("type".into(), json!("Straight"));
        } else if let Some(Value::Array(corners)) = props.get_mut("cornerPoints") {
            corners.iter_mut().for_each(|c| *c = moved(c, shift));
        }
        props
    }

    /// For kept plan item `i`: the patch to apply to its `stored` properties, and the properties
    /// to remember as written. `last` is what the diagram wrote before. A property a person changed
    /// (stored differs from last) is kept unless the source changed it (the wanted value differs
    /// from last); a position a person changed is always kept, and so is a route they changed.
    pub(super) fn patch(
        &self,
        i: usize,
        planned: &Map<String, Value>,
        last: &Map<String, Value>,
        stored: &Map<String, Value>,
    ) -> (Map<String, Value>, Map<String, Value>) {
        let wanted = self.place(i, planned);
        let rerouted = !same_value(stored.get("cornerPoints"), last.get("cornerPoints"));
        let mut patch = Map::new();
        let mut remembered = Map::new();
        let mut keys: Vec<&String> = wanted.keys().chain(last.keys()).collect();
        keys.sort();
        keys.dedup();
        for key in keys {
            let person_changed = !same_value(stored.get(key), last.get(key));
            let source_changed = !same_value(wanted.get(key), last.get(key));
            let kept = match key.as_str() {
                "position" => person_changed,
                "cornerPoints" | "type" if rerouted && wanted.contains_key("startPoint") => true,
                _ => person_changed && !source_changed,
            };
            if kept {
                if let Some(value) = last.get(key) {
                    remembered.insert(key.clone(), value.clone());
                }
                continue;
            }
            match wanted.get(key) {
                Some(value) => {
                    remembered.insert(key.clone(), value.clone());
                    if !same_value(stored.get(key), Some(value)) {
                        patch.insert(key.clone(), value.clone());
                    }
                }
                None if stored.contains_key(key) => {
                    patch.insert(key.clone(), Value::Null);
                }
                None => {}
            }
        }
        (patch, remembered)
    }
}

/// Shapes and sticky notes: the items that are placed; the rest follow them.
fn is_box(p: &Placed<'_>) -> bool {
    matches!(p.part, "shape" | "note")
}

/// `{x, y}` as numbers.
pub(super) fn point(value: Option<&Value>) -> Option<(f64, f64)> {
    let value = value?;
    Some((value.get("x")?.as_f64()?, value.get("y")?.as_f64()?))
}

/// Two points within a hundredth of a map unit (what the plan rounds to).
fn same_point(a: Option<(f64, f64)>, b: Option<(f64, f64)>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a.0 - b.0).abs() < 0.01 && (a.1 - b.1).abs() < 0.01,
        (None, None) => true,
        _ => false,
    }
}

/// JSON equality with numbers compared as numbers (the item rules write `2` back as `2.0`) to a
/// hundredth, and property names compared as written.
fn same_value(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(Value::Number(x)), Some(Value::Number(y))) => match (x.as_f64(), y.as_f64()) {
            (Some(x), Some(y)) => (x - y).abs() < 0.01,
            _ => x == y,
        },
        (Some(Value::Array(x)), Some(Value::Array(y))) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_value(Some(x), Some(y)))
        }
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            x.len() == y.len() && x.iter().all(|(k, v)| same_value(Some(v), y.get(k)))
        }
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

fn moved(value: &Value, by: Shift) -> Value {
    let round = |v: f64| (v * 100.0).round() / 100.0;
    match point(Some(value)) {
        Some((x, y)) => json!({"x": round(x + by.0), "y": round(y + by.1)}),
        None => value.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed<'a>(
        element: &'a str,
        part: &'a str,
        at: (f64, f64),
        kept: Option<((f64, f64), (f64, f64))>,
    ) -> Placed<'a> {
        Placed {
            element,
            part,
            planned_at: Some(at),
            kept: kept.map(|(now, last)| (Some(now), Some(last))),
            ends: Vec::new(),
            parent: None,
        }
    }

    #[test]
    fn a_moved_box_stays_and_a_new_neighbour_comes_along() {
        let mut items = vec![
            placed("node:A", "shape", (0.0, 0.0), Some(((500.0, 40.0), (0.0, 0.0)))),
            placed("node:B", "shape", (0.0, 100.0), Some(((0.0, 80.0), (0.0, 80.0)))),
            placed("node:C", "shape", (200.0, 0.0), None),
            placed("edge:A->C#0", "connector", (0.0, 0.0), None),
        ];
        items[3].planned_at = None;
        items[3].ends = vec![0, 2];
        let shifts = Shifts::of(&items);
        let props = |x: f64, y: f64| json!({"position": {"x": x, "y": y}}).as_object().cloned().unwrap();
        // A was moved by a person: it stays; C, new beside A, is moved with it.
        let (patch, _) = shifts.patch(0, &props(0.0, 0.0), &props(0.0, 0.0), &props(500.0, 40.0));
        assert!(patch.is_empty(), "{patch:?}");
        assert_eq!(shifts.place(2, &props(200.0, 0.0))["position"], json!({"x": 700.0, "y": 40.0}));
        // B was not moved: it takes its new place.
        let (patch, _) = shifts.patch(1, &props(0.0, 100.0), &props(0.0, 80.0), &props(0.0, 80.0));
        assert_eq!(patch["position"], json!({"x": 0.0, "y": 100.0}));
    }

    #[test]
    fn a_person_s_change_wins_unless_the_source_changed_that_property() {
        let shifts = Shifts::of(&[placed("node:A", "label", (0.0, 0.0), None)]);
        let map = |v: Value| v.as_object().cloned().unwrap();
        let last = map(json!({"text": "A", "fontSize": 14}));
        let stored = map(json!({"text": "Edited", "fontSize": 14.0}));
        let (patch, _) = shifts.patch(0, &map(json!({"text": "A", "fontSize": 16})), &last, &stored);
        assert_eq!(patch, map(json!({"fontSize": 16})), "the text a person wrote stays");
        let (patch, _) = shifts.patch(0, &map(json!({"text": "New", "fontSize": 14})), &last, &stored);
        assert_eq!(patch, map(json!({"text": "New"})), "the source changed the text itself");
    }
}
