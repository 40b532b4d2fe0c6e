//! What the integration tests share: the goldens, the artifact directory,
//! planned items resolved into the items core-service would present (fake
//! ids, connector ends placed by core-service's rule, restated here), and
//! the geometry checks.

#![allow(dead_code)]

pub mod rules;
pub mod spec;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use canvas_diagram::scene::{BoxRole, Point, Rect, Scene};
use canvas_diagram::{layout, parse, to_items, MapItem, PlannedItem};
use serde_json::{json, Map, Value};

/// Every golden source: (name, kind prefix, text), sorted by name.
pub fn goldens() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("tests/golden exists")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "mmd"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// Where artifacts go: `$CANVAS_TEST_ARTIFACTS`, else `$CARGO_TARGET_DIR/test-artifacts`, else
/// `target/test-artifacts` (as the end-to-end tests do), plus `diagrams/`.
pub fn artifacts_dir() -> PathBuf {
    let base = if let Some(dir) = std::env::var_os("CANVAS_TEST_ARTIFACTS") {
        PathBuf::from(dir)
    } else {
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
        target.join("test-artifacts")
    };
    let dir = base.join("diagrams");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A fake item id per reference, in batch order.
pub fn ids(items: &[PlannedItem]) -> HashMap<String, String> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| (item.reference.clone(), format!("00000000-0000-4000-8000-{i:012}")))
        .collect()
}

/// `"ref:x"` strings replaced by x's id, everywhere in a value.
fn replace_refs(value: &Value, ids: &HashMap<String, String>) -> Value {
    match value {
        Value::String(s) => match s.strip_prefix("ref:") {
            Some(r) => json!(ids.get(r).cloned().unwrap_or_else(|| format!("missing:{r}"))),
            None => value.clone(),
        },
        Value::Array(a) => Value::Array(a.iter().map(|v| replace_refs(v, ids)).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), replace_refs(v, ids))).collect()),
        other => other.clone(),
    }
}

/// Where core-service puts a connector end (its `connector.rs`, restated): an
/// attached end with `edge: true` sits where the ray from the item's centre
/// towards centre + offset leaves the item's box (towards the other end's
/// anchor when the offset is zero); a free end at its position.
pub fn resolve_ends(props: &Map<String, Value>, items: &HashMap<String, Value>) -> (Point, Point) {
    let frame = |end: &Value| -> Option<(f64, f64, f64, f64)> {
        let item = items.get(end.get("itemId")?.as_str()?)?;
        let num = |a: &str, b: &str| item[a][b].as_f64().unwrap_or(0.0);
        Some((num("position", "x"), num("position", "y"), num("size", "width") / 2.0, num("size", "height") / 2.0))
    };
    let offset =
        |end: &Value| (end["position"]["x"].as_f64().unwrap_or(0.0), end["position"]["y"].as_f64().unwrap_or(0.0));
    let anchor = |end: &Value| {
        let (ox, oy) = offset(end);
        match frame(end) {
            Some((cx, cy, ..)) => (cx + ox, cy + oy),
            None => (ox, oy),
        }
    };
    let resolve = |end: &Value, other: Point| -> Point {
        let Some((cx, cy, hw, hh)) = frame(end) else { return anchor(end) };
        if !end.get("edge").and_then(Value::as_bool).unwrap_or(true) {
            return anchor(end);
        }
        let (ox, oy) = offset(end);
        let (dx, dy) = if ox == 0.0 && oy == 0.0 { (other.0 - cx, other.1 - cy) } else { (ox, oy) };
        if (dx == 0.0 && dy == 0.0) || hw <= 0.0 || hh <= 0.0 {
            return (cx, cy);
        }
        let t = (hw / dx.abs()).min(hh / dy.abs());
        (cx + dx * t, cy + dy * t)
    };
    let (start, end) = (&props["startPoint"], &props["endPoint"]);
    (resolve(start, anchor(end)), resolve(end, anchor(start)))
}

/// The planned items as core-service presents them (REST item JSON), ready for the renderer.
pub fn presented(items: &[PlannedItem]) -> Vec<Value> {
    let ids = ids(items);
    let mut by_id: HashMap<String, Value> = HashMap::new();
    let mut out = Vec::new();
    for item in items {
        let id = ids[&item.reference].clone();
        let mut props = replace_refs(&item.properties, &ids).as_object().cloned().unwrap();
        props.insert("itemId".into(), json!(id));
        props.insert("itemType".into(), json!(item.item_type));
        let parent = item.parent.as_ref().map_or("panel".to_owned(), |p| ids[p].clone());
        props.insert("parent".into(), json!(parent));
        if item.item_type == "shape" {
            // GET returns the drawn corner radius (core-service's defaults: a tenth of the
            // shorter side for RoundedRectangle, a sixth for the other round-corner types).
            let shorter = props["size"]["width"].as_f64().unwrap().min(props["size"]["height"].as_f64().unwrap());
            let default = match props["type"].as_str() {
                Some("RoundedRectangle") => json!(shorter / 10.0),
                Some(t) if t.contains("RoundCorner") => json!(shorter / 6.0),
                _ => Value::Null,
            };
            let radius = props.get("cornerRadius").cloned().unwrap_or(default);
            props.insert("cornerRadius".into(), radius);
        }
        let value = Value::Object(props);
        by_id.insert(id, value.clone());
        out.push(value);
    }
    for value in &mut out {
        if value["itemType"] == "connector" {
            let (s, e) = resolve_ends(value.as_object().unwrap(), &by_id);
            value["startPoint"]["absolutePosition"] = json!({"x": s.0, "y": s.1});
            value["endPoint"]["absolutePosition"] = json!({"x": e.0, "y": e.1});
        }
    }
    out
}

/// Boxes that lines must not cross and that must not overlap: nodes and participants.
pub fn solid(scene: &Scene) -> Vec<(usize, Rect)> {
    scene
        .boxes
        .iter()
        .enumerate()
        .filter(|(_, b)| matches!(b.role, BoxRole::Node | BoxRole::Participant))
        .map(|(i, b)| (i, b.rect))
        .collect()
}

/// Every failure of the geometry rules, as sentences (empty: all good).
pub fn geometry_problems(scene: &Scene) -> Vec<String> {
    let mut problems = Vec::new();
    let solid = solid(scene);
    for (i, &(a, ra)) in solid.iter().enumerate() {
        for &(b, rb) in &solid[i + 1..] {
            if ra.grow(-0.5).overlaps(&rb.grow(-0.5)) {
                problems.push(format!("{} overlaps {}", scene.boxes[a].key, scene.boxes[b].key));
            }
        }
    }
    // Containers hold their members and no other node; frames and subgraphs nest.
    let holds = |c: usize, mut b: Option<usize>| {
        while let Some(x) = b {
            if x == c {
                return true;
            }
            b = scene.boxes[x].container;
        }
        false
    };
    for (c, cb) in scene.boxes.iter().enumerate().filter(|(_, b)| matches!(b.role, BoxRole::Container | BoxRole::Frame))
    {
        for (b, bb) in scene.boxes.iter().enumerate() {
            if b == c {
                continue;
            }
            let member = holds(c, bb.container);
            if member && !cb.rect.grow(0.5).contains(&bb.rect) {
                problems.push(format!("{} is not inside its container {}", bb.key, cb.key));
            }
            let other_container =
                matches!(bb.role, BoxRole::Container | BoxRole::Frame) && !member && !holds(b, Some(c));
            if !member
                && (bb.role == BoxRole::Node || other_container)
                && cb.rect.grow(-0.5).overlaps(&bb.rect.grow(-0.5))
            {
                problems.push(format!("{} overlaps container {}", bb.key, cb.key));
            }
        }
    }
    for line in &scene.lines {
        let drawn = line.drawn();
        for &(b, r) in &solid {
            // A line inside its own box (a class's compartment divider) is part of the box.
            if Some(b) == line.start.attach || Some(b) == line.end.attach || Some(b) == line.container {
                continue;
            }
            if drawn.windows(2).any(|w| r.grow(-0.5).cut_by(w[0], w[1])) {
                problems.push(format!("{} passes through {}", line.key, scene.boxes[b].key));
            }
        }
    }
    problems
}

/// Proper crossings between the polylines (shared end points and touching do not count).
pub fn count_crossings(lines: &[Vec<Point>]) -> usize {
    fn orient(a: Point, b: Point, c: Point) -> f64 {
        (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
    }
    let cross = |p: Point, q: Point, r: Point, s: Point| {
        let eps = 1e-7 * (1.0 + p.0.abs() + p.1.abs() + r.0.abs() + r.1.abs());
        let (d1, d2, d3, d4) = (orient(r, s, p), orient(r, s, q), orient(p, q, r), orient(p, q, s));
        ((d1 > eps && d2 < -eps) || (d1 < -eps && d2 > eps)) && ((d3 > eps && d4 < -eps) || (d3 < -eps && d4 > eps))
    };
    let mut total = 0;
    for i in 0..lines.len() {
        for j in i + 1..lines.len() {
            for a in lines[i].windows(2) {
                for b in lines[j].windows(2) {
                    if cross(a[0], a[1], b[0], b[1]) {
                        total += 1;
                    }
                }
            }
        }
    }
    total
}

/// The items drawing `source` as the REST API presents them, and the names a diagram record gives
/// the writers: item id → Mermaid id of each `node:`/`subgraph:`/`participant:` element's shape,
/// as core-service passes them (`service/items/diagram_export.rs`).
pub fn drawn_as_recorded(source: &str) -> (Vec<MapItem>, BTreeMap<String, String>) {
    let planned = to_items(&layout(&parse(source).unwrap_or_else(|e| panic!("{e}\n{source}"))), (40.0, 60.0));
    let ids = ids(&planned);
    let items: Vec<MapItem> = presented(&planned).iter().filter_map(MapItem::from_rest).collect();
    let names = planned
        .iter()
        .filter(|p| p.part == "shape")
        .filter_map(|p| {
            let (kind, id) = p.element.split_once(':')?;
            matches!(kind, "node" | "subgraph" | "participant").then(|| (ids[&p.reference].clone(), id.to_owned()))
        })
        .collect();
    (items, names)
}
