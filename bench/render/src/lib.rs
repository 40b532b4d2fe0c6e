//! A synthetic project for the rendering benchmark: `n` items of every type,
//! shaped like the REST item listing (what the gateway hands the renderer).
//!
//! The mix follows a busy real map: shapes (all 45 types in turn), labels with
//! HTML, sticky notes, connectors between neighbouring items, web links,
//! documents and SVG items (drawn as placeholders: no content is passed, so
//! the figures measure drawing, not base64 of uploads).

use serde_json::{json, Value};

const SHAPES: [&str; 9] =
    ["Rectangle", "Ellipse", "RoundedRectangle", "Star5", "Heart", "RightArrow", "Hexagon", "Plaque", "Donut"];

const LINES: [&str; 3] = ["Straight", "Angled", "Curved"];

/// `n` items on a grid 160 map units apart.
pub fn project(n: usize) -> Vec<Value> {
    let columns = (n as f64).sqrt().ceil() as usize;
    (0..n)
        .map(|i| {
            let (x, y) = ((i % columns) as f64 * 160.0, (i / columns) as f64 * 160.0);
            let id = format!("00000000-0000-4000-8000-{i:012}");
            let mut item = match i % 20 {
                0..=7 => json!({"itemType": "shape", "type": SHAPES[i % SHAPES.len()], "size": {"width": 120, "height": 80},
                                "fillColor": "#FF2563EB", "strokeColor": "#FFFFFF", "strokeThickness": 2,
                                "cornerRadius": if i % SHAPES.len() == 2 { json!(8) } else { Value::Null }}),
                8..=11 => json!({"itemType": "label", "text": format!("<p>Item <b>{i}</b> of the plan &amp; notes</p>"),
                                 "size": {"width": 0, "height": 0}, "fontSize": 14, "fontFamily": "Arial",
                                 "textColor": "#FFFFFF", "backgroundColor": "#1E293B"}),
                12..=14 => json!({"itemType": "sticky-note", "text": "Remember to check the numbers before Friday",
                                  "size": {"width": 140, "height": 100}, "fontSize": 15,
                                  "backgroundColor": "rgba(245, 158, 11, 0.9)", "textColor": "#000000"}),
                15..=17 => json!({"itemType": "connector", "type": LINES[i % 3],
                                  "startPoint": {"absolutePosition": {"x": x - 100.0, "y": y}, "decorator": "Circle"},
                                  "endPoint": {"absolutePosition": {"x": x + 60.0, "y": y + 160.0}, "decorator": "Arrow"},
                                  "cornerPoints": [], "radius": 0.5, "strokeColor": "#F59E0B", "strokeThickness": 3}),
                18 => json!({"itemType": "web", "url": format!("https://example.com/page/{i}"),
                             "size": {"width": 128, "height": 77}}),
                _ => json!({"itemType": if i % 40 == 19 { "document" } else { "svg" }, "fileName": format!("file-{i}.pdf"),
                            "mimeType": "application/pdf", "fileSize": 48213, "size": {"width": 96, "height": 128}}),
            };
            item["itemId"] = json!(id);
            item["parent"] = json!("panel");
            item["position"] = json!({"x": x, "y": y});
            item["scale"] = json!(1);
            item["angle"] = json!(if i % 7 == 0 { 15 } else { 0 });
            item
        })
        .collect()
}
