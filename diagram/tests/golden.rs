//! Every golden under `tests/golden/` (flowcharts `f*`, mind maps `m*`,
//! sequence diagrams `s*`, class diagrams `c*`, ER diagrams `e*`, state
//! diagrams `st*`): parsed, laid out and planned; the geometry is
//! clean (no overlaps, containers nest, no line through a box it does not
//! connect), every item obeys the spec's tables, every `ref:` names an
//! earlier item, the connectors core-service would resolve are drawn where
//! the scene routed them, and a PNG of each is kept as an artifact.

mod common;

use canvas_diagram::{layout, parse, planned_count, scene_bounds, to_items, MAX_ITEMS};
use canvas_render::{render_png, render_svg, NoContent, RenderOptions};

#[test]
fn there_are_enough_goldens_of_every_kind() {
    let goldens = common::goldens();
    let count = |prefix: &str| goldens.iter().filter(|(name, _)| name.starts_with(prefix)).count();
    assert!(count("f") >= 15, "flowcharts: {}", count("f"));
    assert!(count("m") >= 5, "mind maps: {}", count("m"));
    assert!(count("s") - count("st") >= 5, "sequence diagrams: {}", count("s") - count("st"));
    assert!(count("c") >= 5, "class diagrams: {}", count("c"));
    assert!(count("e") >= 3, "ER diagrams: {}", count("e"));
    assert!(count("st") >= 5, "state diagrams: {}", count("st"));
    for (name, source) in goldens.iter().filter(|(n, _)| n.starts_with('f')) {
        let Ok(canvas_diagram::Diagram::Flowchart(chart)) = parse(source) else { panic!("{name}") };
        assert!((5..=60).contains(&chart.nodes.len()), "{name}: {} nodes", chart.nodes.len());
    }
}

#[test]
fn every_golden_lays_out_cleanly_and_plans_valid_items() {
    let dir = common::artifacts_dir();
    let mut failures = Vec::new();
    for (name, source) in common::goldens() {
        let diagram = parse(&source).unwrap_or_else(|e| panic!("{name}: {e}"));
        let scene = layout(&diagram);
        let origin = (1000.0, -500.0);
        let items = to_items(&scene, origin);
        assert_eq!(items.len(), planned_count(&diagram), "{name}: planned count");
        assert!(items.len() <= MAX_ITEMS, "{name}");
        let (w, h) = scene_bounds(&scene);
        assert!(w > 0.0 && h > 0.0 && w < 20_000.0 && h < 20_000.0, "{name}: {w}×{h}");
        let mut problems = common::geometry_problems(&scene);
        problems.extend(common::spec::problems(&items));
        // The ends core-service resolves are the ends the scene routed.
        let presented = common::presented(&items);
        for (value, item) in presented.iter().zip(&items).filter(|(v, _)| v["itemType"] == "connector") {
            let line = scene.lines.iter().find(|l| l.key == item.reference).expect("a line per connector");
            for (end, want) in [("startPoint", line.start.at), ("endPoint", line.end.at)] {
                let got = &value[end]["absolutePosition"];
                let (gx, gy) = (got["x"].as_f64().unwrap() - origin.0, got["y"].as_f64().unwrap() - origin.1);
                if (gx - want.0).abs() > 0.05 || (gy - want.1).abs() > 0.05 {
                    problems.push(format!("{}: {end} is drawn at ({gx}, {gy}), routed at {want:?}", line.key));
                }
            }
        }
        let drawing = render_svg(&presented, &NoContent, &RenderOptions::default()).expect("renders");
        let png = render_png(&drawing).expect("rasterises");
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
        std::fs::write(dir.join(format!("{name}.svg")), &drawing.svg).unwrap();
        println!("{name}: {} items, {:.0}×{:.0}, {} problems", items.len(), w, h, problems.len());
        if !problems.is_empty() {
            failures.push(format!("{name}:\n  {}", problems.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    println!("PNG and SVG artifacts in {}", dir.display());
}

#[test]
fn node_ids_map_to_shapes() {
    let source = "graph LR\nA[Start] --> B{Check}\nsubgraph S [Group]\nB\nend";
    let items = to_items(&layout(&parse(source).unwrap()), (0.0, 0.0));
    let nodes: Vec<(&str, &str)> =
        items.iter().filter_map(|i| i.node_id.as_deref().map(|n| (n, i.reference.as_str()))).collect();
    assert_eq!(nodes, [("A", "n:A"), ("B", "n:B")]);
    let sub = items.iter().find(|i| i.reference == "n:B").unwrap();
    assert_eq!(sub.parent.as_deref(), Some("sg:S"));
    let label = items.iter().find(|i| i.reference == "label:n:B").unwrap();
    assert_eq!((label.item_type, label.parent.as_deref()), ("label", Some("n:B")));
    assert_eq!(label.properties["text"], "Check");
    let edge = items.iter().find(|i| i.item_type == "connector").unwrap();
    assert_eq!(edge.properties["startPoint"]["itemId"], "ref:n:A");
    assert_eq!(edge.properties["endPoint"]["decorator"], "Arrow");
}
