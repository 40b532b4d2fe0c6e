//! What reads take a frame (docs/ITEMS.md "Frames"): the listing's `frame` filter (everything it
//! holds at any depth, with the other filters and pages), the drawing (`render.svg|png?frame=`,
//! frames under everything, held items clipped, also in fragments), the Mermaid export by frame,
//! a diagram drawn into a frame (held by it, the frame grown to hold it, kept there by a `PUT`),
//! and the MCP tools an agent uses for all of it.

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::frames::{frame_at, made};
use crate::mcp::call_tool;
use crate::support::{assert_invalid, get_item, owner_with_project, send, Reply};

backend_tests!(
    the_listing_takes_what_a_frame_holds_at_any_depth,
    a_frame_is_drawn_under_its_items_which_are_clipped_to_it,
    a_frame_is_exported_alone_as_mermaid,
    a_diagram_drawn_into_a_frame_is_held_by_it_and_the_frame_grows,
    an_agent_works_in_a_frame_through_mcp,
);

async fn get(app: &TestApp, user: &TestUser, url: &str) -> Reply {
    send(app, Method::GET, url, Some(&user.bearer()), None).await
}

fn ids(reply: &Reply) -> Vec<String> {
    let items = reply.body["items"].as_array().cloned().unwrap_or_default();
    items.iter().map(|i| i["itemId"].as_str().unwrap_or_default().to_owned()).collect()
}

/// A frame holding a note, a shape with a label in it, and a connector; a note outside.
struct Scene {
    frame: String,
    note: String,
    shape: String,
    label: String,
    connector: String,
    outside: String,
}

async fn scene(app: &TestApp, owner: &TestUser, project: &str) -> Scene {
    let frame = frame_at(app, owner, project, (0.0, 0.0), (600.0, 400.0)).await;
    let note = made(
        app,
        owner,
        project,
        &frame,
        "sticky-note",
        json!({"text": "Inside note", "position": {"x": -150, "y": 0}}),
    )
    .await;
    let shape = made(
        app,
        owner,
        project,
        &frame,
        "shape",
        json!({"size": {"width": 120, "height": 80}, "position": {"x": 150, "y": 0}}),
    )
    .await;
    // The label reaches past the frame's right edge (300): drawn clipped.
    let label =
        made(app, owner, project, &shape, "label", json!({"text": "Boxed", "position": {"x": 290, "y": 0}})).await;
    let connector = made(
        app,
        owner,
        project,
        &frame,
        "connector",
        json!({"startPoint": {"itemId": note}, "endPoint": {"itemId": shape}}),
    )
    .await;
    let outside = made(
        app,
        owner,
        project,
        "panel",
        "sticky-note",
        json!({"text": "Outside note", "position": {"x": 900, "y": 0}}),
    )
    .await;
    Scene { frame, note, shape, label, connector, outside }
}

async fn the_listing_takes_what_a_frame_holds_at_any_depth(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let s = scene(&app, &owner, &project).await;
    let base = format!("{}/api/v2/projects/{project}/items?jsonCasing=camel", app.base_url);

    let reply = get(&app, &owner, &format!("{base}&frame={}", s.frame)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(ids(&reply), vec![s.note.clone(), s.shape.clone(), s.label.clone(), s.connector.clone()]);
    let reply = get(&app, &owner, &format!("{base}&frame={}&type=label", s.frame.to_uppercase())).await;
    assert_eq!(ids(&reply), vec![s.label.clone()]);
    let reply = get(&app, &owner, &format!("{base}&frame={}&parent={}", s.frame, s.frame)).await;
    assert_eq!(ids(&reply), vec![s.note.clone(), s.shape.clone(), s.connector.clone()]);
    let reply = get(&app, &owner, &format!("{base}&frame={}&text=boxed", s.frame)).await;
    assert_eq!(ids(&reply), vec![s.label.clone()]);
    // Pages of two, the cursor as without the filter.
    let first = get(&app, &owner, &format!("{base}&frame={}&limit=2", s.frame)).await;
    assert_eq!(ids(&first), vec![s.note.clone(), s.shape.clone()]);
    let cursor = first.body["nextCursor"].as_str().expect("a next page").to_owned();
    let second = get(&app, &owner, &format!("{base}&frame={}&limit=2&cursor={cursor}", s.frame)).await;
    assert_eq!(ids(&second), vec![s.label.clone(), s.connector.clone()]);
    assert_eq!(second.body["nextCursor"], Value::Null);
    // An empty frame lists nothing; anything but a frame of the project is a 400 naming `frame`.
    let empty = frame_at(&app, &owner, &project, (5000.0, 0.0), (100.0, 100.0)).await;
    assert_eq!(ids(&get(&app, &owner, &format!("{base}&frame={empty}")).await), Vec::<String>::new());
    for wrong in [s.note.clone(), "nope".to_owned(), uuid::Uuid::now_v7().to_string()] {
        assert_invalid(&get(&app, &owner, &format!("{base}&frame={wrong}")).await, "frame");
    }
    // A frame's title is its text for the `text` filter.
    let reply = get(&app, &owner, &format!("{base}&text=SPRI")).await;
    assert_eq!(ids(&reply), vec![s.frame.clone(), empty.clone()], "{}", reply.body);
    // A frame moved out of by one item no longer lists it.
    let url = app.item_url(&project, &format!("/sticky-note/{}", s.note));
    let reply = send(&app, Method::PATCH, &url, Some(&owner.bearer()), Some(json!({"parent": "panel"}))).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let reply = get(&app, &owner, &format!("{base}&frame={}", s.frame)).await;
    assert!(!ids(&reply).contains(&s.note), "{}", reply.body);
}

async fn a_frame_is_drawn_under_its_items_which_are_clipped_to_it(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    // A note made before the frame and moved into it: still drawn over the frame.
    let early =
        made(&app, &owner, &project, "panel", "sticky-note", json!({"text": "Early", "position": {"x": 0, "y": 150}}))
            .await;
    let s = scene(&app, &owner, &project).await;
    let url = app.item_url(&project, &format!("/sticky-note/{early}"));
    let reply = send(&app, Method::PATCH, &url, Some(&owner.bearer()), Some(json!({"parent": s.frame}))).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let render = format!("{}/api/v2/projects/{project}/render.svg", app.base_url);

    let whole = get(&app, &owner, &render).await;
    assert_eq!(whole.status, StatusCode::OK);
    let svg = String::from_utf8(whole.bytes.clone()).unwrap();
    let at = |id: &str| svg.find(&format!("id=\"item-{id}\"")).unwrap_or_else(|| panic!("{id} drawn: {svg}"));
    assert!(at(&s.frame) < at(&early), "the frame is drawn under the note made before it");
    assert!(svg.contains(">Sprint</text>"), "the title is drawn");
    // What reaches past the frame's edge is clipped (the early note at the bottom, the label at
    // the right); what lies wholly inside needs no clip, nor does the item outside.
    for id in [&early, &s.label] {
        assert!(svg.contains(&format!("clip-path=\"url(#clip-{id})\"")), "{id} is clipped");
    }
    for id in [&s.note, &s.shape, &s.connector, &s.outside] {
        assert!(!svg.contains(&format!("url(#clip-{id})")), "{id} is not clipped");
    }
    roxmltree::Document::parse(&svg).expect("well-formed SVG");

    // The frame alone: fitted to it, its items and nothing else.
    let alone = get(&app, &owner, &format!("{render}?frame={}", s.frame)).await;
    assert_eq!(alone.status, StatusCode::OK, "{}", alone.body);
    let svg = String::from_utf8(alone.bytes.clone()).unwrap();
    assert!(svg.contains("viewBox=\"-300 -200 600 400\""), "{}", &svg[..200]);
    for id in [&s.frame, &early, &s.note, &s.label] {
        assert!(svg.contains(&format!("id=\"item-{id}\"")), "{id} drawn");
    }
    assert!(!svg.contains(&format!("id=\"item-{}\"", s.outside)), "the item outside is left out");
    let png = get(
        &app,
        &owner,
        &format!("{}/api/v2/projects/{project}/render.png?frame={}&scale=0.5", app.base_url, s.frame),
    )
    .await;
    assert_eq!(png.status, StatusCode::OK);
    let image = image::load_from_memory(&png.bytes).expect("a PNG");
    assert_eq!((image.width(), image.height()), (300, 200));
    assert_invalid(&get(&app, &owner, &format!("{render}?frame={}", s.note)).await, "frame");

    // A fragment of a label in a shape in the frame is clipped on its own (the live map's redraw).
    let fragment = get(&app, &owner, &format!("{render}?itemIds={}", s.label)).await;
    let svg = String::from_utf8(fragment.bytes.clone()).unwrap();
    assert!(svg.contains(&format!("clip-path=\"url(#clip-{})\"", s.label)), "{svg}");
    assert!(!svg.contains(&format!("id=\"item-{}\"", s.shape)), "containers are read, not drawn: {svg}");
}

async fn a_frame_is_exported_alone_as_mermaid(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let s = scene(&app, &owner, &project).await;
    let export = format!("{}/api/v2/projects/{project}/items/export?jsonCasing=camel", app.base_url);

    let reply = get(&app, &owner, &format!("{export}&frame={}", s.frame)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let text = reply.body["text"].as_str().unwrap().to_owned();
    assert!(text.contains("subgraph") && text.contains("Sprint"), "{text}");
    assert!(text.contains("Inside note") && text.contains("Boxed"), "{text}");
    assert!(text.contains("-->") || text.contains("---"), "the link between them: {text}");
    assert!(!text.contains("Outside note"), "{text}");
    // The whole map writes the frame as a subgraph too, and the note outside beside it.
    let whole = get(&app, &owner, &export).await.body["text"].as_str().unwrap().to_owned();
    assert!(whole.contains("subgraph") && whole.contains("Outside note"), "{whole}");
    // What was written is a diagram the service reads back.
    let body = json!({"source": text, "position": {"x": 4000, "y": 0}});
    let url = format!("{}/api/v2/projects/{project}/diagrams", app.base_url);
    let reply = send(&app, Method::POST, &url, Some(&owner.bearer()), Some(body)).await;
    assert_eq!(reply.status, StatusCode::OK, "{text}: {}", reply.body);
    assert_invalid(&get(&app, &owner, &format!("{export}&frame={}", s.shape)).await, "frame");
}

async fn a_diagram_drawn_into_a_frame_is_held_by_it_and_the_frame_grows(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let frame = frame_at(&app, &owner, &project, (100.0, 100.0), (200.0, 100.0)).await;
    let url = format!("{}/api/v2/projects/{project}/diagrams?jsonCasing=camel", app.base_url);
    let source = "flowchart LR\n  a[Plan] --> b[Build]\n  b --> c[Ship]";
    let reply =
        send(&app, Method::POST, &url, Some(&owner.bearer()), Some(json!({"source": source, "frame": frame}))).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let created: Vec<String> =
        reply.body["itemIds"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_owned()).collect();
    let diagram = reply.body["diagramId"].as_str().unwrap().to_owned();
    let listing = format!("{}/api/v2/projects/{project}/items?jsonCasing=camel&frame={frame}&limit=1000", app.base_url);
    let mut held = ids(&get(&app, &owner, &listing).await);
    held.sort();
    let mut expected = created.clone();
    expected.sort();
    assert_eq!(held, expected, "the frame holds every item of the diagram");

    // The frame grew from its top-left corner to hold the diagram with room around it.
    let read = get_item(&app, &owner, &project, &frame).await;
    let (w, h) = (read["size"]["width"].as_f64().unwrap(), read["size"]["height"].as_f64().unwrap());
    let (cx, cy) = (read["position"]["x"].as_f64().unwrap(), read["position"]["y"].as_f64().unwrap());
    assert_eq!((cx - w / 2.0, cy - h / 2.0), (0.0, 50.0), "top-left kept: {read}");
    let render = get(
        &app,
        &owner,
        &format!("{}/api/v2/projects/{project}/render.svg?itemIds={}", app.base_url, created.join(",")),
    )
    .await;
    let svg = String::from_utf8(render.bytes).unwrap();
    let view: Vec<f64> = svg
        .split("viewBox=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    assert!(view[0] >= 0.0 && view[1] >= 50.0, "the diagram starts inside: {view:?}");
    assert!(view[0] + view[2] <= w && view[1] + view[3] <= 50.0 + h, "and ends inside: {view:?} in {w}×{h}");

    // A new source keeps the diagram in its frame.
    let put = format!("{}/api/v2/projects/{project}/diagrams/{diagram}?jsonCasing=camel", app.base_url);
    let body = json!({"source": format!("{source}\n  c --> d[Learn]")});
    let reply = send(&app, Method::PUT, &put, Some(&owner.bearer()), Some(body)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let items = reply.body["itemIds"].as_array().unwrap().len();
    assert_eq!(ids(&get(&app, &owner, &listing).await).len(), items, "every item of the new source is in the frame");

    // Only a frame of the project.
    let note = made(&app, &owner, &project, "panel", "sticky-note", json!({"text": "n"})).await;
    let reply =
        send(&app, Method::POST, &url, Some(&owner.bearer()), Some(json!({"source": source, "frame": note}))).await;
    assert_invalid(&reply, "frame");
}

fn structured(reply: &Value) -> &Value {
    assert_eq!(reply["result"]["isError"], false, "{reply}");
    &reply["result"]["structuredContent"]
}

async fn an_agent_works_in_a_frame_through_mcp(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let reply = call_tool(
        &app,
        &owner,
        "create_frame",
        json!({"projectId": project, "title": "Agent area",
        "position": {"x": 0, "y": 0}, "size": {"width": 1000, "height": 800}}),
    )
    .await;
    let frame = structured(&reply)["itemId"].as_str().expect("itemId").to_owned();
    let reply = call_tool(
        &app,
        &owner,
        "create_item",
        json!({"projectId": project, "type": "sticky-note",
        "properties": {"text": "Made inside"}, "frame": frame}),
    )
    .await;
    let note = structured(&reply)["itemId"].as_str().unwrap().to_owned();
    let reply = call_tool(
        &app,
        &owner,
        "create_items",
        json!({"projectId": project, "frame": frame,
        "items": [{"type": "label", "properties": {"text": "bulk one"}}]}),
    )
    .await;
    let bulk = structured(&reply)["items"][0]["itemId"].as_str().unwrap().to_owned();
    let loose = made(&app, &owner, &project, "panel", "sticky-note", json!({"text": "Loose"})).await;
    let reply = call_tool(
        &app,
        &owner,
        "update_item_property",
        json!({"projectId": project, "itemId": loose,
        "property": "parent", "value": frame}),
    )
    .await;
    assert_eq!(structured(&reply)["changed"], json!({"parent": frame}));
    let reply = call_tool(
        &app,
        &owner,
        "create_diagram",
        json!({"projectId": project,
        "source": "flowchart TD\n  x[One] --> y[Two]", "frame": frame}),
    )
    .await;
    let drawn: Vec<String> =
        structured(&reply)["itemIds"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_owned()).collect();

    let reply =
        call_tool(&app, &owner, "list_items", json!({"projectId": project, "frame": frame, "limit": 200})).await;
    let listed: Vec<String> = structured(&reply)["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["itemId"].as_str().unwrap().to_owned())
        .collect();
    for id in [&note, &bulk, &loose].into_iter().chain(drawn.iter()) {
        assert!(listed.contains(id), "{id} in the frame: {listed:?}");
    }
    assert_eq!(get_item(&app, &owner, &project, &note).await["parent"], json!(frame));
    let reply = call_tool(&app, &owner, "export_mermaid", json!({"projectId": project, "frame": frame})).await;
    let mermaid = structured(&reply)["mermaid"].as_str().unwrap().to_owned();
    assert!(mermaid.contains("Agent area") && mermaid.contains("Made inside") && mermaid.contains("One"), "{mermaid}");

    // Refusals name the tool's argument.
    let reply = call_tool(
        &app,
        &owner,
        "create_item",
        json!({"projectId": project, "type": "label",
        "properties": {"text": "x"}, "frame": note}),
    )
    .await;
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    let reply = call_tool(
        &app,
        &owner,
        "create_item",
        json!({"projectId": project, "type": "label",
        "properties": {"text": "x"}, "frame": frame, "parent": note}),
    )
    .await;
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    assert!(reply.to_string().contains("frame"), "{reply}");
    let reply = call_tool(&app, &owner, "create_frame", json!({"projectId": project, "title": ""})).await;
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    assert!(reply.to_string().contains("title"), "{reply}");
}
