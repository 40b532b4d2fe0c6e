//! Golden test of the SVG drawing of a project that holds every item type
//! (all 45 shapes, every connector line type and decorator, labels and sticky
//! notes with HTML and every alignment, web, image, document and svg items),
//! and the PNG export of the same drawing.
//!
//! The golden file is `tests/golden/every_item_type.svg`; after a deliberate
//! change to the drawing, re-bless it with
//! `BLESS=1 cargo test -p canvas-render --test golden` and review the diff
//! (it opens in any browser). The PNG is written next to the test binaries
//! (`CARGO_TARGET_TMPDIR`) for a look.

use std::collections::HashMap;
use std::path::PathBuf;

use canvas_render::{render_png, render_svg, Content, RenderOptions};
use resvg::tiny_skia::Pixmap;
use serde_json::{json, Value};

use canvas_render::shape::SHAPE_TYPES as SHAPES;

/// Round-corner types report their drawn radius; the others report null.
fn corner_radius(shape: &str) -> Value {
    match shape {
        "RoundedRectangle" => json!(6),
        "OneRoundCornerRectangle" | "TwoSameSideRoundCornerRectangle" | "TwoDiagonalRoundCornerRectangle" => json!(10),
        "OneSnipOneRoundCornerRectangle" => json!(12),
        _ => Value::Null,
    }
}

fn id(n: u32) -> String {
    format!("00000000-0000-4000-8000-{n:012}")
}

fn item(n: u32, item_type: &str, properties: Value) -> Value {
    let mut object = json!({"itemId": id(n), "itemType": item_type, "projectId": id(0), "parent": "panel",
                            "scale": 1, "angle": 0});
    for (key, value) in properties.as_object().unwrap() {
        object[key] = value.clone();
    }
    object
}

/// A project as `GET /items` lists it, one item of every kind and variant.
fn every_item_type() -> Vec<Value> {
    let mut items = Vec::new();
    for (i, shape) in SHAPES.iter().enumerate() {
        let (col, row) = ((i % 9) as f64, (i / 9) as f64);
        let fill = ["#FF2563EB", "#8016A34A", "#FFDC2626", "#00000000", "#F59E0B"][i % 5];
        items.push(item(
            100 + i as u32,
            "shape",
            json!({
            "type": shape, "position": {"x": col * 140.0, "y": row * 110.0}, "size": {"width": 120, "height": 80},
            "fillColor": fill, "strokeColor": "#FFFFFF", "strokeThickness": (1 + i % 3) as f64,
            "adjustmentValues": [], "cornerRadius": corner_radius(shape)}),
        ));
    }
    let label = |x: f64, y: f64, props: Value| {
        let mut base = json!({"position": {"x": x, "y": y}, "fontSize": 14, "fontFamily": "Arial",
            "textColor": "#FFFFFF", "backgroundColor": "#1E293B", "isAutoSizeWidth": true, "isAutoSizeHeight": true,
            "size": {"width": 0, "height": 0}, "horizontalTextAlignment": "Left", "verticalTextAlignment": "Top"});
        for (k, v) in props.as_object().unwrap() {
            base[k] = v.clone();
        }
        base
    };
    items.push(item(
        200,
        "label",
        label(
            0.0,
            620.0,
            json!({"text": "<h2>Plan &amp; ship</h2><p>Plain <b>bold</b> text, safely escaped: &lt;script&gt;</p>"}),
        ),
    ));
    items.push(item(
        201,
        "label",
        label(
            420.0,
            620.0,
            json!({"text": "Centred in a fixed box that wraps long lines of text",
        "isAutoSizeWidth": false, "isAutoSizeHeight": false, "size": {"width": 180, "height": 90},
        "horizontalTextAlignment": "Center", "verticalTextAlignment": "Center", "fontFamily": "Georgia",
        "textColor": "rgb(250, 204, 21)", "backgroundColor": "navy"}),
        ),
    ));
    items.push(item(
        202,
        "label",
        label(
            660.0,
            620.0,
            json!({"text": "right and bottom",
        "isAutoSizeWidth": false, "isAutoSizeHeight": false, "size": {"width": 160, "height": 80},
        "horizontalTextAlignment": "Right", "verticalTextAlignment": "Bottom", "angle": 15, "scale": 1.2}),
        ),
    ));
    let sticky = json!({"size": {"width": 212, "height": 106}, "fontSize": 15, "fontFamily": "Arial",
        "textColor": "#000000", "backgroundColor": "rgba(245, 158, 11, 0.9)", "isAutoSizeWidth": false,
        "isAutoSizeHeight": false, "horizontalTextAlignment": "Center", "verticalTextAlignment": "Center"});
    let mut note = sticky.clone();
    note["position"] = json!({"x": 900, "y": 620});
    note["text"] = json!("<ul><li>Buy milk</li><li>Ship the map</li></ul>");
    items.push(item(210, "sticky-note", note));
    let mut note = sticky;
    note["position"] = json!({"x": 1140, "y": 620});
    note["text"] =
        json!("A sticky note whose text is far too long to fit its box, so it ends in an ellipsis somewhere");
    note["horizontalTextAlignment"] = json!("Left");
    note["verticalTextAlignment"] = json!("Top");
    items.push(item(211, "sticky-note", note));

    let end = |x: f64, y: f64, item: Option<u32>, decorator: &str| {
        json!({"edge": true, "position": {"x": 0, "y": 0}, "itemId": item.map(id), "decorator": decorator,
               "absolutePosition": {"x": x, "y": y}})
    };
    let connectors = [
        ("Straight", end(60.0, 0.0, Some(100), "None"), end(80.0, 0.0, Some(101), "Arrow"), json!([])),
        ("Straight", end(0.0, 700.0, None, "ArrowLine"), end(200.0, 760.0, None, "Circle"), json!([])),
        ("Angled", end(260.0, 700.0, None, "Circle"), end(460.0, 800.0, None, "Arrow"), json!([])),
        (
            "Angled",
            end(520.0, 700.0, None, "None"),
            end(700.0, 820.0, None, "ArrowLine"),
            json!([{"x": 600, "y": 700}, {"x": 600, "y": 820}]),
        ),
        ("Curved", end(760.0, 700.0, None, "Arrow"), end(960.0, 820.0, None, "ArrowLine"), json!([])),
        (
            "Curved",
            end(1000.0, 700.0, None, "Circle"),
            end(1200.0, 700.0, None, "None"),
            json!([{"x": 1100, "y": 800}]),
        ),
    ];
    for (i, (line, start, finish, corners)) in connectors.into_iter().enumerate() {
        items.push(item(
            300 + i as u32,
            "connector",
            json!({"type": line, "startPoint": start, "endPoint": finish,
            "cornerPoints": corners, "radius": 0.5, "strokeColor": "#F59E0B", "strokeThickness": 3}),
        ));
    }
    items.push(item(
        400,
        "web",
        json!({"url": "https://example.com/docs?page=1", "position": {"x": 100, "y": 950},
        "size": {"width": 320, "height": 192}}),
    ));
    items.push(item(
        401,
        "image",
        json!({"fileName": "checker.png", "mimeType": "image/png", "fileSize": 77,
        "position": {"x": 380, "y": 950}, "size": {"width": 120, "height": 120}}),
    ));
    items.push(item(
        402,
        "image",
        json!({"fileName": "missing.jpg", "mimeType": "image/jpeg", "fileSize": 2_400_000,
        "position": {"x": 540, "y": 950}, "size": {"width": 120, "height": 120}}),
    ));
    items.push(item(
        403,
        "document",
        json!({"fileName": "Quarterly report.pdf", "mimeType": "application/pdf",
        "fileSize": 48_213, "position": {"x": 720, "y": 950}, "size": {"width": 150, "height": 200}}),
    ));
    items.push(item(
        404,
        "svg",
        json!({"fileName": "logo.svg", "mimeType": "image/svg+xml", "fileSize": 226,
        "position": {"x": 900, "y": 950}, "size": {"width": 128, "height": 128}, "angle": 30}),
    ));
    items.push(item(
        405,
        "label",
        json!({"text": "in the inbox: not on the map", "parent": "inbox",
        "position": {"x": 0, "y": 0}, "size": {"width": 0, "height": 0}}),
    ));
    items
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn contents() -> HashMap<String, Content> {
    let read = |name: &str| std::fs::read(golden_dir().join(name)).expect("fixture file");
    HashMap::from([
        (id(401), Content { mime_type: "image/png".into(), bytes: read("checker.png") }),
        (id(404), Content { mime_type: "image/svg+xml".into(), bytes: read("logo.svg") }),
    ])
}

#[test]
fn every_item_type_matches_the_golden_svg() {
    let items = every_item_type();
    let drawing = render_svg(&items, &contents(), &RenderOptions::default()).unwrap();
    assert_eq!(drawing.items, items.len() - 1, "every item but the inbox one is drawn");
    for value in &items[..items.len() - 1] {
        let group = format!("id=\"item-{}\"", value["itemId"].as_str().unwrap());
        assert!(drawing.svg.contains(&group), "{group} missing");
    }
    assert_eq!(drawing.svg.matches("data-item-type=\"shape\"").count(), 45);
    assert!(drawing.svg.contains("&lt;script&gt;") && !drawing.svg.contains("<script"), "label HTML is text");
    assert!(drawing.svg.contains("href=\"data:image/png;base64,"));
    assert!(drawing.svg.contains("href=\"data:image/svg+xml;base64,"));
    roxmltree::Document::parse(&drawing.svg).expect("the drawing is well-formed XML");

    let golden = golden_dir().join("every_item_type.svg");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&golden, &drawing.svg).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&golden)
        .unwrap_or_else(|_| panic!("{} is missing: run with BLESS=1 to create it", golden.display()));
    if expected != drawing.svg {
        let actual = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("every_item_type.actual.svg");
        std::fs::write(&actual, &drawing.svg).unwrap();
        let at = expected.bytes().zip(drawing.svg.bytes()).take_while(|(a, b)| a == b).count();
        panic!(
            "the drawing differs from {} at byte {at}: …{}… (actual written to {}; BLESS=1 re-blesses)",
            golden.display(),
            &drawing.svg[at.saturating_sub(40)..(at + 60).min(drawing.svg.len())],
            actual.display()
        );
    }
}

#[test]
fn the_png_has_the_requested_size_and_the_items_pixels() {
    let items = every_item_type();
    let options = RenderOptions { scale: 0.5, ..Default::default() };
    let drawing = render_svg(&items, &contents(), &options).unwrap();
    let png = render_png(&drawing).unwrap();
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("every_item_type.png");
    std::fs::write(&out, &png).unwrap();
    println!("PNG written to {}", out.display());

    let pixmap = Pixmap::decode_png(&png).expect("a valid PNG");
    let expected_width = (drawing.region.width * 0.5).ceil() as u32;
    let expected_height = (drawing.region.height * 0.5).ceil() as u32;
    assert_eq!((pixmap.width(), pixmap.height()), (expected_width, expected_height));
    assert!(pixmap.width() > 600 && pixmap.height() > 500, "{}×{}", pixmap.width(), pixmap.height());

    // The centre of the first shape (a blue rectangle at map 0,0) is blue.
    let pixel = |x: f64, y: f64| {
        let px = ((x - drawing.region.x) * 0.5) as u32;
        let py = ((y - drawing.region.y) * 0.5) as u32;
        pixmap.pixel(px, py).unwrap().demultiply()
    };
    let blue = pixel(0.0, 0.0);
    assert_eq!((blue.red(), blue.green(), blue.blue()), (0x25, 0x63, 0xeb));
    // The third shape (a red rounded rectangle at 280,0) is red.
    let red = pixel(280.0, 0.0);
    assert_eq!((red.red(), red.green(), red.blue()), (0xdc, 0x26, 0x26));
    let background = pixel(drawing.region.x + 2.0, drawing.region.y + 2.0);
    assert_eq!((background.red(), background.green(), background.blue()), (0x0f, 0x17, 0x2a));
    let drawn = pixmap.pixels().iter().filter(|p| p.red() != 0x0f || p.green() != 0x17 || p.blue() != 0x2a).count();
    let share = drawn as f64 / pixmap.pixels().len() as f64;
    assert!(share > 0.15, "only {:.1}% of the pixels are drawn", share * 100.0);
}

#[test]
fn a_too_large_png_is_refused_before_drawing() {
    let items = every_item_type();
    let drawing = render_svg(&items, &contents(), &RenderOptions { scale: 16.0, ..Default::default() }).unwrap();
    let err = render_png(&drawing).unwrap_err();
    assert!(err.to_string().contains("lower the scale"), "{err}");
}
