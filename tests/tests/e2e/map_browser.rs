//! The web map in a real browser: headless Chromium (Debian's `chromium`)
//! driven by `playwright-core` runs `tests/browser/map_test.mjs` against the
//! real services. `tests/run.sh` installs both (playwright-core, pinned in
//! `tests/browser/package.json`, into `~/.cache/canvas-browser`, or
//! `CANVAS_BROWSER_DIR`); a missing install fails with the command that
//! fixes it. The screenshot is kept under `target/test-artifacts/` (of
//! `CARGO_TARGET_DIR`), or `CANVAS_TEST_ARTIFACTS`.

use std::time::Duration;

use canvas_tests::{backend_tests, Backend, TestApp};
use reqwest::Method;
use serde_json::json;

use crate::browser::{artifacts_dir, require_browser, run_script};
use crate::support::{owner_with_project, send};

backend_tests!(
    map_link_shows_the_item_and_follows_changes,
    change_stream_delivers_each_change_once,
    the_item_list_of_a_big_map_grows_as_it_is_scrolled,
    the_map_is_drawn_and_editable_before_its_item_listing_arrives
);

async fn map_link_shows_the_item_and_follows_changes(backend: Backend) {
    require_browser();

    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let stranger = app.user("stranger").await;
    // A small map: the node item among others, far enough apart that
    // centring it is visible.
    let mut node = String::new();
    for (i, (x, y)) in [(-600, -400), (0, 0), (900, 500)].into_iter().enumerate() {
        let body = json!({"type": "Ellipse", "size": {"width": 160, "height": 100}, "position": {"x": x, "y": y},
                          "fillColor": "#22C55E"});
        let reply = send(
            &app,
            Method::POST,
            &app.item_url(&project, "/panel/shape?jsonCasing=camel"),
            Some(&owner.bearer()),
            Some(body),
        )
        .await;
        assert!(reply.status.is_success(), "{}", reply.body);
        if i == 2 {
            node = reply.body["itemId"].as_str().unwrap().to_owned();
        }
    }
    // The node item carries a tag, which the map shows (docs/ITEMS.md "Tags").
    let tag = crate::tags::create_tag(&app, &owner, &project, json!({"name": "Ready", "color": "#22C55E"})).await;
    let tag_id = tag["tagId"].as_str().unwrap().to_owned();
    let tagged = send(
        &app,
        Method::PATCH,
        &app.item_url(&project, &format!("/shape/{node}")),
        Some(&owner.bearer()),
        Some(json!({"tags": [tag_id]})),
    )
    .await;
    assert_eq!(tagged.status, reqwest::StatusCode::OK, "{}", tagged.body);
    let label = json!({"text": "<b>Start here</b>", "position": {"x": 0, "y": -150}});
    send(&app, Method::POST, &app.item_url(&project, "/panel/label"), Some(&owner.bearer()), Some(label)).await;

    let artifacts = artifacts_dir();
    std::fs::create_dir_all(&artifacts).unwrap();
    let screenshot = artifacts.join(format!("map-{}.png", format!("{backend:?}").to_lowercase()));
    let _ = std::fs::remove_file(&screenshot);
    let shot = screenshot.to_string_lossy();
    let args =
        ["--base", &app.base_url, "--project", &project, "--node", &node, "--tag-id", &tag_id, "--token", &owner.token];
    let args = [&args[..], &["--stranger-token", &stranger.token, "--screenshot", &shot]].concat();
    let (success, stdout) = run_script("map_test.mjs", &args, Duration::from_secs(180)).await;
    assert!(success && stdout.contains("6 passed, 0 failed"), "the browser test failed; see above");
    let size = std::fs::metadata(&screenshot).map(|m| m.len()).unwrap_or(0);
    assert!(size > 10_000, "the screenshot {} is missing or empty", screenshot.display());
    println!("screenshot saved to {}", screenshot.display());
}

/// Reads server-sent events from `response` until `done` says so, or 20 s pass.
async fn read_events(
    response: &mut reqwest::Response,
    buffer: &mut String,
    mut done: impl FnMut(&[(String, serde_json::Value)]) -> bool,
) -> Vec<(String, serde_json::Value)> {
    let mut events = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while !done(&events) {
        let chunk = tokio::time::timeout_at(deadline, response.chunk())
            .await
            .unwrap_or_else(|_| panic!("no more events within 20 s; got {events:?}"))
            .expect("the stream stays open")
            .expect("the stream does not end");
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            let kind = block.lines().find_map(|l| l.strip_prefix("event:")).map(|k| k.trim().to_owned());
            let data = block.lines().find_map(|l| l.strip_prefix("data:")).map(str::trim);
            if let (Some(kind), Some(data)) = (kind, data) {
                events.push((kind, serde_json::from_str(data).expect("event data is JSON")));
            }
        }
    }
    events
}

/// The SSE feed behind the map: access errors before the stream starts, then
/// every change exactly once, also when many writes commit concurrently.
async fn change_stream_delivers_each_change_once(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let url = format!("{}/api/v2/projects/{project}/changes?jsonCasing=camel", app.base_url);
    let stranger = app.user("stranger").await;
    let denied = send(&app, Method::GET, &url, Some(&stranger.bearer()), None).await;
    assert_eq!(denied.status, reqwest::StatusCode::FORBIDDEN);
    assert_eq!(denied.content_type, "application/problem+json");
    assert_eq!(send(&app, Method::GET, &url, None, None).await.status, reqwest::StatusCode::UNAUTHORIZED);
    let missing = format!("{}/api/v2/projects/{}/changes", app.base_url, uuid::Uuid::new_v4());
    assert_eq!(
        send(&app, Method::GET, &missing, Some(&owner.bearer()), None).await.status,
        reqwest::StatusCode::NOT_FOUND
    );

    // History before the watch starts is not replayed.
    crate::support::create_label(&app, &owner, &project, json!({"text": "before"})).await;
    let mut stream = app.http.get(&url).header("Authorization", owner.bearer()).send().await.unwrap();
    assert_eq!(stream.status(), reqwest::StatusCode::OK);
    assert!(stream.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
    let mut buffer = String::new();
    let ready = read_events(&mut stream, &mut buffer, |e| !e.is_empty()).await;
    assert_eq!(ready[0].0, "ready");

    let mut writes = tokio::task::JoinSet::new();
    for i in 0..12 {
        let request = app
            .http
            .post(app.item_url(&project, "/panel/label?jsonCasing=camel"))
            .header("Authorization", owner.bearer())
            .json(&json!({"text": format!("live {i}")}));
        writes.spawn(async move {
            let body: serde_json::Value = request.send().await.unwrap().json().await.unwrap();
            body["itemId"].as_str().expect("created").to_owned()
        });
    }
    let mut created: Vec<String> = writes.join_all().await;
    created.sort();
    let events = read_events(&mut stream, &mut buffer, |e| e.len() >= 12).await;
    // A few more polls: nothing may arrive twice.
    if let Ok(Ok(Some(chunk))) = tokio::time::timeout(Duration::from_millis(1500), stream.chunk()).await {
        panic!("a change arrived twice: {}", String::from_utf8_lossy(&chunk));
    }
    let mut seen: Vec<String> = events.iter().map(|(_, data)| data["itemId"].as_str().unwrap().to_owned()).collect();
    seen.sort();
    assert_eq!(seen, created, "each created item once: {events:?}");
    assert!(events.iter().all(|(kind, data)| kind == "change" && data["kind"] == "item.created"), "{events:?}");
}

/// A map of 450 items: the list beside it shows 200 at first and the rest as it is scrolled
/// (`tests/browser/list_test.mjs`), and keeps in step with items created and deleted.
async fn the_item_list_of_a_big_map_grows_as_it_is_scrolled(backend: Backend) {
    require_browser();
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let count = 450;
    let items: Vec<_> = (0..count)
        .map(|i| {
            json!({"type": "sticky-note", "properties": {"text": format!("Note {i}"),
            "position": {"x": (i % 30) * 260, "y": (i / 30) * 260}}})
        })
        .collect();
    let url = format!("{}/api/v2/projects/{project}/items/bulk", app.base_url);
    let reply = send(&app, Method::POST, &url, Some(&owner.bearer()), Some(json!({"items": items}))).await;
    assert!(reply.status.is_success(), "{}", reply.body);
    let count = count.to_string();
    let args = ["--base", &app.base_url, "--project", &project, "--token", &owner.token, "--count", &count];
    let (success, stdout) = run_script("list_test.mjs", &args, Duration::from_secs(120)).await;
    assert!(success && stdout.contains("3 passed, 0 failed"), "the browser test failed; see above");
}

/// The open (`tests/browser/open_test.mjs`): with the item listing held back, the map is drawn,
/// live and editable from the drawing alone (a connector names its ends, a REST change is drawn,
/// a shape is dragged, a note's text edited); the older listing, once in, builds the list without
/// taking the page back to older data. Also: text too small to read at the fitted view is not
/// drawn, and is when zoomed in; zoomed in, items outside the view are culled, Tab still reaches
/// them, and "Fit" draws them again.
async fn the_map_is_drawn_and_editable_before_its_item_listing_arrives(backend: Backend) {
    require_browser();
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let create = |kind: &'static str, body: serde_json::Value| {
        let app = &app;
        let bearer = owner.bearer();
        let project = project.clone();
        async move {
            let url = app.item_url(&project, &format!("/panel/{kind}?jsonCasing=camel"));
            let reply = send(app, Method::POST, &url, Some(&bearer), Some(body)).await;
            assert!(reply.status.is_success(), "{}", reply.body);
            reply.body["itemId"].as_str().unwrap().to_owned()
        }
    };
    let sticky = create("sticky-note", json!({"text": "Before", "position": {"x": 0, "y": 0}})).await;
    let shape = |x: i32| json!({"type": "Rectangle", "size": {"width": 160, "height": 90}, "position": {"x": x, "y": 260}, "fillColor": "#1D4ED8"});
    let shape1 = create("shape", shape(-260)).await;
    let shape2 = create("shape", shape(260)).await;
    let ends = json!({"startPoint": {"itemId": shape1, "position": {"x": 0, "y": 0}},
                      "endPoint": {"itemId": shape2, "position": {"x": 0, "y": 0}}});
    create("connector", ends).await;
    // Far enough that the fitted view shows a note's text at under 2 px.
    let far = create("sticky-note", json!({"text": "Far", "position": {"x": 9000, "y": 0}})).await;
    // The last item is never culled (Tab enters the map there): one after `far`.
    create("sticky-note", json!({"text": "Last", "position": {"x": 9000, "y": 400}})).await;
    let args = [
        "--base",
        &app.base_url,
        "--project",
        &project,
        "--token",
        &owner.token,
        "--sticky",
        &sticky,
        "--shape1",
        &shape1,
        "--shape2",
        &shape2,
        "--far",
        &far,
    ];
    let (success, stdout) = run_script("open_test.mjs", &args, Duration::from_secs(120)).await;
    assert!(success && stdout.contains("5 passed, 0 failed"), "the browser test failed; see above");
}
