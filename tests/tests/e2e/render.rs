//! `render.svg` and `render.png`: a project made through the REST API, with
//! every item type, drawn by the gateway; the same access rules as every
//! other call; and the bounds on what may be asked for.

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use image::ImageFormat;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::files;
use crate::support::{assert_invalid, owner_with_project, send, Reply};
use crate::uploads::upload;

backend_tests!(
    every_item_type_is_drawn,
    png_has_the_asked_size,
    rendering_follows_access_rules,
    named_items_are_drawn_alone_and_missing_ones_left_out
);

/// A label scaled by 10¹² viewed through a 20-unit region reaches about 10¹³ pixels outside the
/// PNG, which the rasteriser (tiny-skia) cannot scan; found by schemathesis. The answer is a 422
/// that says so, and the SVG of the same region is drawn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn geometry_beyond_the_rasteriser_is_a_422_not_a_crash() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (owner, project) = owner_with_project(&app).await;
    create(&app, &owner, &project, "label", json!({"text": "huge", "position": {"x": 0, "y": 0}, "scale": 1e12})).await;
    let region = "?x=-10&y=-10&width=20&height=20";

    let png = get(&app, &format!("{}{region}&jsonCasing=camel", render_url(&app, &project, "png")), Some(&owner)).await;
    assert_eq!(png.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", String::from_utf8_lossy(&png.bytes));
    assert_eq!(png.content_type, "application/problem+json");
    let detail = png.body["detail"].as_str().unwrap();
    assert!(detail.contains("too far outside the image") && detail.contains("render.svg"), "{detail}");

    let svg = get(&app, &format!("{}{region}", render_url(&app, &project, "svg")), Some(&owner)).await;
    assert_eq!(svg.status, StatusCode::OK);
    assert!(String::from_utf8_lossy(&svg.bytes).contains("huge"));

    // The service keeps answering: an ordinary PNG right after.
    let fine =
        get(&app, &format!("{}?x=-1e16&y=-1e16&width=20&height=20", render_url(&app, &project, "png")), Some(&owner))
            .await;
    assert_eq!(fine.status, StatusCode::OK, "{}", String::from_utf8_lossy(&fine.bytes));
}

async fn create(app: &TestApp, user: &TestUser, project: &str, item_type: &str, body: Value) -> String {
    let reply = send(
        app,
        Method::POST,
        &app.item_url(project, &format!("/panel/{item_type}?jsonCasing=camel")),
        Some(&user.bearer()),
        Some(body),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "create {item_type}: {}", reply.body);
    reply.body["itemId"].as_str().unwrap().to_owned()
}

async fn uploaded(
    app: &TestApp,
    user: &TestUser,
    project: &str,
    item_type: &str,
    name: &str,
    bytes: Vec<u8>,
) -> String {
    let reply = upload(app, user, project, item_type, name, bytes, Some(json!({"position": {"x": 600, "y": 0}}))).await;
    assert_eq!(reply.status, StatusCode::OK, "upload {name}: {}", reply.body);
    reply.body["itemId"].as_str().unwrap().to_owned()
}

fn render_url(app: &TestApp, project: &str, rest: &str) -> String {
    format!("{}/api/v2/projects/{project}/render.{rest}", app.base_url)
}

async fn get(app: &TestApp, url: &str, user: Option<&TestUser>) -> Reply {
    let bearer = user.map(TestUser::bearer);
    send(app, Method::GET, url, bearer.as_deref(), None).await
}

/// A project holding one item of every type, the connector attached to two shapes.
async fn every_type(app: &TestApp, owner: &TestUser, project: &str) -> Vec<(String, &'static str)> {
    let label =
        create(app, owner, project, "label", json!({"text": "<p>Hello <b>map</b> &amp; <i>friends</i></p>"})).await;
    let note =
        create(app, owner, project, "sticky-note", json!({"text": "Remember", "position": {"x": 300, "y": 0}})).await;
    let round = create(
        app,
        owner,
        project,
        "shape",
        json!({"type": "RoundedRectangle", "size": {"width": 120, "height": 60}, "position": {"x": 0, "y": 200},
               "fillColor": "#2563EB", "cornerRadius": 12}),
    )
    .await;
    let star = create(
        app,
        owner,
        project,
        "shape",
        json!({"type": "Star5", "size": {"width": 80, "height": 80}, "position": {"x": 300, "y": 200}}),
    )
    .await;
    let connector = create(
        app,
        owner,
        project,
        "connector",
        json!({"type": "Curved", "startPoint": {"itemId": round, "decorator": "Circle"},
               "endPoint": {"itemId": star, "decorator": "Arrow"}}),
    )
    .await;
    let web = create(
        app,
        owner,
        project,
        "web",
        json!({"url": "https://example.com/a", "size": {"width": 320, "height": 200},
                                                      "position": {"x": 0, "y": 450}}),
    )
    .await;
    let image = uploaded(app, owner, project, "image", "dot.png", files::image(ImageFormat::Png, 6, 4)).await;
    let svg = uploaded(app, owner, project, "svg", "logo.svg",
        b"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"20\"><rect width=\"20\" height=\"20\" fill=\"#0f0\"/></svg>".to_vec()).await;
    let document = uploaded(app, owner, project, "document", "report.pdf", files::pdf("Quarterly numbers")).await;
    vec![
        (label, "label"),
        (note, "sticky-note"),
        (round, "shape"),
        (star, "shape"),
        (connector, "connector"),
        (web, "web"),
        (image, "image"),
        (svg, "svg"),
        (document, "document"),
    ]
}

async fn every_item_type_is_drawn(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let items = every_type(&app, &owner, &project).await;

    let reply = get(&app, &render_url(&app, &project, "svg"), Some(&owner)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", String::from_utf8_lossy(&reply.bytes));
    assert_eq!(reply.content_type, "image/svg+xml; charset=utf-8");
    let svg = String::from_utf8(reply.bytes).unwrap();
    for (id, item_type) in &items {
        let group = format!("id=\"item-{id}\" data-item-id=\"{id}\" data-item-type=\"{item_type}\"");
        assert!(svg.contains(&group), "{item_type} {id} is not drawn");
    }
    assert!(svg.contains(">Hello map &amp; friends</tspan>"), "label HTML becomes plain text");
    assert!(svg.contains("href=\"data:image/png;base64,"), "the uploaded image is embedded");
    assert!(svg.contains("href=\"data:image/svg+xml;base64,"), "the uploaded SVG is embedded as a picture");
    assert!(svg.contains(">report.pdf</text>"), "the document is a file card");
    assert!(svg.contains(">example.com</text>"), "the web item is a link card");
    assert!(svg.contains("A12 12 "), "the rounded rectangle uses its 12-unit corner radius");

    // The connector's ends sit on the shapes' edges, as core-service reports them.
    let connector = &items[4].0;
    let reply = get(&app, &app.item_url(&project, &format!("/{connector}?jsonCasing=camel")), Some(&owner)).await;
    let start = &reply.body["startPoint"]["absolutePosition"];
    let at = (start["x"].as_f64(), start["y"].as_f64());
    assert_eq!(at, (Some(60.0), Some(200.0)), "right edge of the 120-wide rounded rectangle: {start}");
    assert!(svg.contains("<path class=\"body\" d=\"M60 200C"), "the curve starts where core-service says");

    let only = format!("{}?itemIds={},{}", render_url(&app, &project, "svg"), items[0].0, items[2].0);
    let svg = String::from_utf8(get(&app, &only, Some(&owner)).await.bytes).unwrap();
    assert_eq!(svg.matches("class=\"item\"").count(), 2, "{svg}");
}

async fn png_has_the_asked_size(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    every_type(&app, &owner, &project).await;

    let url = format!("{}?x=-100&y=-50&width=600&height=400&scale=0.5", render_url(&app, &project, "png"));
    let reply = get(&app, &url, Some(&owner)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", String::from_utf8_lossy(&reply.bytes));
    assert_eq!(reply.content_type, "image/png");
    let png = image::load_from_memory_with_format(&reply.bytes, ImageFormat::Png).unwrap().to_rgba8();
    assert_eq!(png.dimensions(), (300, 200));
    let background = image::Rgba([0x0f, 0x17, 0x2a, 0xff]);
    let drawn = png.pixels().filter(|p| **p != background).count();
    assert!(drawn > 300 * 200 / 10, "only {drawn} pixels are drawn");
    // The blue rounded rectangle is at map (0, 200): pixel ((0+100)/2, (200+50)/2).
    assert_eq!(*png.get_pixel(50, 125), image::Rgba([0x25, 0x63, 0xeb, 0xff]));

    let whole = get(&app, &render_url(&app, &project, "png"), Some(&owner)).await;
    assert_eq!(whole.status, StatusCode::OK);
    assert!(image::load_from_memory(&whole.bytes).unwrap().width() > 600);
}

async fn rendering_follows_access_rules(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    create(&app, &owner, &project, "label", json!({"text": "secret"})).await;
    let svg = render_url(&app, &project, "svg");

    let anonymous = get(&app, &svg, None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    assert_eq!(anonymous.content_type, "application/problem+json");
    let stranger = app.user("stranger").await;
    let denied = get(&app, &svg, Some(&stranger)).await;
    assert_eq!(denied.status, StatusCode::FORBIDDEN);
    assert!(!String::from_utf8_lossy(&denied.bytes).contains("secret"));
    app.add_member(&project, &stranger, core_service::domain::ProjectRole::Viewer).await;
    assert_eq!(get(&app, &svg, Some(&stranger)).await.status, StatusCode::OK, "a Viewer may see the map");
    let missing = format!("{}/api/v2/projects/{}/render.svg", app.base_url, uuid::Uuid::new_v4());
    assert_eq!(get(&app, &missing, Some(&owner)).await.status, StatusCode::NOT_FOUND);

    assert_invalid(&get(&app, &format!("{svg}?scale=0"), Some(&owner)).await, "scale");
    assert_invalid(&get(&app, &format!("{svg}?x=1&y=2"), Some(&owner)).await, "region");
    let huge =
        format!("{}?x=0&y=0&width=100000&height=100000&scale=1&jsonCasing=camel", render_url(&app, &project, "png"));
    let refused = get(&app, &huge, Some(&owner)).await;
    assert_invalid(&refused, "scale");
    assert!(refused.body["detail"].as_str().unwrap().contains("more than the limit"), "{}", refused.body);
}

/// `itemIds` (what the live map redraws a change with): only the named items, each exactly as in
/// the whole drawing; an id deleted since is left out; an id that is not one names `itemIds`;
/// access as for the whole map; upper-case ids and spaces as sent by hand.
async fn named_items_are_drawn_alone_and_missing_ones_left_out(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let items = every_type(&app, &owner, &project).await;
    let svg_url = render_url(&app, &project, "svg");
    let whole = String::from_utf8(get(&app, &svg_url, Some(&owner)).await.bytes).unwrap();
    let group_of = |svg: &str, id: &str| -> String {
        let start =
            svg.find(&format!("<g class=\"item\" id=\"item-{id}\"")).unwrap_or_else(|| panic!("{id} not drawn"));
        // Items do not nest: the group ends at the next item's start or the end of the drawing.
        let rest = &svg[start + 1..];
        let end = rest.find("<g class=\"item\"").or_else(|| rest.rfind("</svg>")).unwrap();
        svg[start..start + 1 + end].to_owned()
    };

    let (note, connector) = (&items[1].0, &items[4].0);
    let deleted = create(&app, &owner, &project, "label", json!({"text": "gone soon"})).await;
    let reply =
        send(&app, Method::DELETE, &app.item_url(&project, &format!("/{deleted}")), Some(&owner.bearer()), None).await;
    assert!(reply.status.is_success(), "{}", reply.body);
    let url = format!("{svg_url}?itemIds={},%20{},{deleted}", note.to_uppercase(), connector);
    let reply = get(&app, &url, Some(&owner)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", String::from_utf8_lossy(&reply.bytes));
    let part = String::from_utf8(reply.bytes).unwrap();
    assert_eq!(part.matches("class=\"item\"").count(), 2, "{part}");
    assert_eq!(group_of(&part, note), group_of(&whole, note), "the note is drawn as in the whole map");
    assert_eq!(group_of(&part, connector), group_of(&whole, connector), "the connector too");
    assert!(!part.contains(&deleted), "a deleted item is left out");

    let only_deleted = get(&app, &format!("{svg_url}?itemIds={deleted}"), Some(&owner)).await;
    assert_eq!(only_deleted.status, StatusCode::OK);
    assert_eq!(String::from_utf8(only_deleted.bytes).unwrap().matches("class=\"item\"").count(), 0);

    assert_invalid(&get(&app, &format!("{svg_url}?itemIds={note},not-an-id"), Some(&owner)).await, "itemIds");
    let stranger = app.user("stranger").await;
    let denied = get(&app, &format!("{svg_url}?itemIds={note}"), Some(&stranger)).await;
    assert_eq!(denied.status, StatusCode::FORBIDDEN);
    assert!(!String::from_utf8_lossy(&denied.bytes).contains("Remember"));
    let other_project = format!("{}/api/v2/projects/{}/render.svg?itemIds={note}", app.base_url, uuid::Uuid::new_v4());
    assert_eq!(get(&app, &other_project, Some(&owner)).await.status, StatusCode::NOT_FOUND);
}
