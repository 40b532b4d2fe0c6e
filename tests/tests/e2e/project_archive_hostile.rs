//! Damaged and hostile archives (docs/ARCHIVE.md, "What an import refuses"): each is a 4xx naming
//! what is wrong (the entry, line and field), and no project is created. Then who may export and
//! import, per role, and an SVG file that arrives through the uploads' sanitiser.

use std::collections::BTreeMap;

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use core_service::domain::{ProjectRole, UserId};
use reqwest::StatusCode;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::project_archive_kit::{archive, entries, export, import, raw_archive, RawEntry};
use crate::support::{create_label, owner_with_project, send};

backend_tests!(hostile_containers_are_refused, broken_contents_are_refused, who_may_export_and_import);

/// The projects a user holds.
async fn projects_of(app: &TestApp, user: UserId) -> usize {
    app.core.accounts().list_user_projects(&app.admin, user, None).await.unwrap().len()
}

/// Imports `bytes` as the system administrator (who would own the project) and asserts the
/// refusal: `status`, a problem body naming `field` (and `words` in its text), no new project.
async fn refused(app: &TestApp, bytes: Vec<u8>, status: StatusCode, field: &str, words: &str) {
    let before = projects_of(app, app.admin.user_id).await;
    let reply = import(app, &format!("Bearer {}", app.admin_token), bytes, "").await;
    assert_eq!(reply.status, status, "{field}: {}", reply.body);
    assert_eq!(reply.content_type, "application/problem+json");
    if !field.is_empty() {
        assert!(reply.fields().iter().any(|f| f == field), "{field} not named: {}", reply.body);
    }
    assert!(reply.body.to_string().contains(words), "{words:?} not in {}", reply.body);
    assert_eq!(projects_of(app, app.admin.user_id).await, before, "{field}: nothing was created");
}

/// A small project's archive: two labels, a connector between them and an SVG.
async fn small_archive(app: &TestApp) -> BTreeMap<String, Vec<u8>> {
    let (owner, project) = owner_with_project(app).await;
    let a = create_label(app, &owner, &project, json!({"text": "a"})).await;
    let b = create_label(app, &owner, &project, json!({"text": "b"})).await;
    let connector = json!({"startPoint": {"itemId": a}, "endPoint": {"itemId": b}});
    let url = app.item_url(&project, "/panel/connector");
    assert_eq!(
        send(app, reqwest::Method::POST, &url, Some(&owner.bearer()), Some(connector)).await.status,
        StatusCode::OK
    );
    let (status, bytes) = export(app, &owner, &project).await;
    assert_eq!(status, StatusCode::OK);
    entries(&bytes)
}

/// `entries` with `items.jsonl` replaced by `lines` (and the manifest's item count kept true).
fn with_items(entries: &BTreeMap<String, Vec<u8>>, lines: &[Value]) -> Vec<u8> {
    let mut entries = entries.clone();
    let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
    entries.insert("items.jsonl".into(), text.into_bytes());
    let mut manifest: Value = serde_json::from_slice(&entries["manifest.json"]).unwrap();
    manifest["counts"]["items"] = json!(lines.len());
    entries.insert("manifest.json".into(), manifest.to_string().into_bytes());
    archive(&entries)
}

fn items_of(entries: &BTreeMap<String, Vec<u8>>) -> Vec<Value> {
    String::from_utf8_lossy(&entries["items.jsonl"]).lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

async fn hostile_containers_are_refused(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let good = small_archive(&app).await;
    let manifest = good["manifest.json"].clone();
    let bad = StatusCode::BAD_REQUEST;

    refused(&app, b"PK\x03\x04 not really".to_vec(), bad, "archive", "not a zip archive").await;
    refused(&app, Vec::new(), bad, "archive", "empty").await;
    let raw = |name, data: &'static [u8]| RawEntry { name, data, declared: data.len() as u32 };
    for (name, words) in [("../escape.json", "climbs out"), ("/etc/passwd", "absolute"), ("notes.txt", "not an entry")]
    {
        refused(&app, raw_archive(&[raw("manifest.json", b"{}"), raw(name, b"x")]), bad, name, words).await;
    }
    let twice = raw_archive(&[raw("manifest.json", b"{}"), raw("items.jsonl", b""), raw("items.jsonl", b"")]);
    refused(&app, twice, bad, "archive", "same name").await;
    // An entry whose headers declare fewer bytes than it holds.
    let project = good["project.json"].clone();
    let lying = raw_archive(&[
        RawEntry { name: "manifest.json", data: &manifest, declared: 10 },
        raw("items.jsonl", b""),
        RawEntry { name: "project.json", data: &project, declared: project.len() as u32 },
    ]);
    refused(&app, lying, bad, "manifest.json", "declare").await;
    // A file declared over the upload limit is refused before a byte of it is read.
    let huge = format!("files/{}", sha256(b"x"));
    refused(&app, raw_archive(&[RawEntry { name: &huge, data: b"x", declared: 30 << 20 }]), bad, &huge, "declares")
        .await;
    // A zip bomb: 20 MiB of zeros deflate to a few kilobytes.
    let mut bomb = good.clone();
    bomb.insert("items.jsonl".into(), vec![b' '; 20 << 20]);
    refused(&app, archive(&bomb), bad, "items.jsonl", "expands").await;

    let mut versioned = good.clone();
    let mut next: Value = serde_json::from_slice(&manifest).unwrap();
    next["version"] = json!(4);
    versioned.insert("manifest.json".into(), next.to_string().into_bytes());
    refused(&app, archive(&versioned), bad, "manifest.json.version", "is 4; this service reads version 1, 2 and 3")
        .await;
    // Version 1 had no tags: its archive holding `tags.json` is not one version 1 wrote.
    next["version"] = json!(1);
    versioned.insert("manifest.json".into(), next.to_string().into_bytes());
    refused(&app, archive(&versioned), bad, "tags.json", "version 1").await;
    versioned.remove("tags.json");
    // Nor `comments.jsonl`, which came with version 3.
    refused(&app, archive(&versioned), bad, "comments.jsonl", "version 3").await;
    versioned.remove("comments.jsonl");
    next["counts"].as_object_mut().unwrap().remove("tags");
    next["counts"].as_object_mut().unwrap().remove("threads");
    next["format"] = json!("something-else");
    versioned.insert("manifest.json".into(), next.to_string().into_bytes());
    refused(&app, archive(&versioned), bad, "manifest.json.format", "canvas-project-archive").await;
    next["format"] = json!("canvas-project-archive");
    next["counts"]["items"] = json!(7);
    versioned.insert("manifest.json".into(), next.to_string().into_bytes());
    refused(&app, archive(&versioned), bad, "manifest.json.counts.items", "says 7 but the archive holds 3").await;
    let mut missing = good.clone();
    missing.remove("project.json");
    refused(&app, archive(&missing), bad, "project.json", "missing").await;
    // More lines than an archive may hold (they are counted before any is judged).
    let many = vec![json!({}); canvas_vocabulary::limits::archive::MAX_ITEMS + 1];
    refused(&app, with_items(&good, &many), bad, "items.jsonl", "more than 100000").await;
    // A file whose name is not the hash of its bytes.
    let mut forged = good.clone();
    forged.insert(format!("files/{}", sha256(b"other")), b"<svg/>".to_vec());
    refused(&app, archive(&forged), bad, &format!("files/{}", sha256(b"other")), "does not match its content").await;
    // Not a zip at all, sent as one; then the wrong type altogether.
    let wrong_type = app
        .http
        .post(format!("{}/api/v2/projects/import", app.base_url))
        .header("Authorization", format!("Bearer {}", app.admin_token))
        .header("Content-Type", "application/json")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong_type.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
}

async fn broken_contents_are_refused(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let good = small_archive(&app).await;
    let items = items_of(&good);
    let bad = StatusCode::BAD_REQUEST;
    let a = items[0]["itemId"].clone();
    let unknown = json!(uuid::Uuid::new_v4().to_string());

    let mut broken = items.clone();
    broken[0]["fontSize"] = json!(0);
    refused(&app, with_items(&good, &broken), bad, "items.jsonl:1.fontSize", "").await;
    let mut broken = items.clone();
    broken[2]["endPoint"]["itemId"] = unknown.clone();
    refused(&app, with_items(&good, &broken), bad, "items.jsonl:3.endPoint.itemId", "names no item of the archive")
        .await;
    let mut broken = items.clone();
    broken[0]["parent"] = unknown;
    refused(&app, with_items(&good, &broken), bad, "items.jsonl:1.parent", "names no item of the archive").await;
    // Two groups (shapes hold anything), each inside the other.
    let (s1, s2) = (uuid::Uuid::new_v4().to_string(), uuid::Uuid::new_v4().to_string());
    let group = |id: &str, parent: &str| json!({"itemId": id, "itemType": "shape", "parent": parent, "size": {"width": 10, "height": 10}});
    let mut looped = items.clone();
    looped.extend([group(&s1, &s2), group(&s2, &s1)]);
    refused(&app, with_items(&good, &looped), bad, "items.jsonl:5.parent", "form a loop").await;
    // A sticky note inside a web item: only shapes and connectors hold items.
    let (web, note) = (uuid::Uuid::new_v4().to_string(), uuid::Uuid::new_v4().to_string());
    let mut misplaced = items.clone();
    misplaced.push(json!({"itemId": web, "itemType": "web", "parent": "panel", "url": "https://example.org/"}));
    misplaced.push(json!({"itemId": note, "itemType": "sticky-note", "parent": web, "text": "lost"}));
    refused(&app, with_items(&good, &misplaced), bad, "items.jsonl:5.parent", "a web cannot hold a sticky-note").await;
    let mut twice = items.clone();
    twice[1]["itemId"] = a.clone();
    refused(&app, with_items(&good, &twice), bad, "items.jsonl:2.itemId", "already the itemId of line 1").await;
    let mut untyped = items.clone();
    untyped[0]["itemType"] = json!("hologram");
    refused(&app, with_items(&good, &untyped), bad, "items.jsonl:1.itemType", "item types").await;
    let document = json!({"itemId": uuid::Uuid::new_v4().to_string(), "itemType": "document", "parent": "panel", "fileName": "a.pdf"});
    refused(&app, with_items(&good, &[document]), bad, "items.jsonl:1.contentSha256", "needs its file").await;
    let mut not_json = good.clone();
    not_json.insert("items.jsonl".into(), b"{\"itemId\": \n".to_vec());
    refused(&app, archive(&not_json), bad, "items.jsonl:1", "not valid JSON").await;

    let mut hooks = good.clone();
    hooks.insert(
        "webhooks.json".into(),
        br#"{"webhooks": [{"url": "http://example.com/x", "events": ["item.created"]}]}"#.to_vec(),
    );
    refused(&app, archive(&hooks), bad, "webhooks.json.webhooks[0].url", "").await;
    let mut members = good.clone();
    members.insert("project.json".into(), br#"{"name": "p", "members": [{"login": "x", "role": "Owner"}]}"#.to_vec());
    refused(&app, archive(&members), bad, "project.json.members[0].role", "Viewer, Editor").await;
    let mut diagram = good.clone();
    let record = json!({"diagramId": uuid::Uuid::new_v4().to_string(), "format": "mermaid", "source": "flowchart LR\n A-->B",
        "origin": {"x": 0, "y": 0}, "elements": [{"element": "node:A", "part": "shape", "itemId": uuid::Uuid::new_v4().to_string(),
        "itemType": "shape", "ordinal": 0, "planned": {"parent": "panel", "properties": {}}}]});
    diagram.insert("diagrams.jsonl".into(), format!("{record}\n").into_bytes());
    let mut manifest: Value = serde_json::from_slice(&good["manifest.json"]).unwrap();
    manifest["counts"]["diagrams"] = json!(1);
    diagram.insert("manifest.json".into(), manifest.to_string().into_bytes());
    refused(&app, archive(&diagram), bad, "diagrams.jsonl:1.elements[0].itemId", "names no item of the archive").await;

    // An SVG file goes through the uploads' sanitiser: the script is gone from what is stored.
    let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(1)</script><rect width="4" height="4"/></svg>"#;
    let mut with_svg = good.clone();
    with_svg.insert(format!("files/{}", sha256(svg)), svg.to_vec());
    let line = json!({"itemId": uuid::Uuid::new_v4().to_string(), "itemType": "svg", "parent": "panel",
        "contentSha256": sha256(svg), "fileName": "x.svg", "mimeType": "image/svg+xml", "fileSize": svg.len()});
    let mut lines = items.clone();
    lines.push(line);
    let mut manifest: Value = serde_json::from_slice(&good["manifest.json"]).unwrap();
    manifest["counts"]["files"] = json!(1);
    with_svg.insert("manifest.json".into(), manifest.to_string().into_bytes());
    let entries_with_svg = with_svg.clone();
    let (project, _) = crate::project_archive_kit::import_as_admin(&app, with_items(&entries_with_svg, &lines)).await;
    let admin = TestUser { id: app.admin.user_id.to_string(), token: app.admin_token.clone(), token_id: String::new() };
    let listed = crate::project_archive_kit::listing(&app, &admin, &project).await;
    let stored = listed.iter().find(|item| item["itemType"] == "svg").expect("the svg item");
    let url = format!("/api/v2/projects/{project}/item/{}/content", stored["itemId"].as_str().unwrap());
    let content =
        send(&app, reqwest::Method::GET, &format!("{}{url}", app.base_url), Some(&admin.bearer()), None).await;
    let text = String::from_utf8_lossy(&content.bytes);
    assert!(text.contains("<rect") && !text.contains("script"), "{text}");
    assert_eq!(stored["fileSize"], json!(content.bytes.len()), "the facts are the stored bytes'");
}

async fn who_may_export_and_import(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    create_label(&app, &owner, &project, json!({"text": "only admins take this away"})).await;
    for role in [ProjectRole::Manager, ProjectRole::Editor, ProjectRole::Viewer] {
        let member = app.user(&format!("{role:?}")).await;
        app.add_member(&project, &member, role).await;
        assert_eq!(export(&app, &member, &project).await.0, StatusCode::FORBIDDEN, "{role:?} may not export");
    }
    let stranger = app.user("stranger").await;
    assert_eq!(export(&app, &stranger, &project).await.0, StatusCode::FORBIDDEN);
    assert_eq!(export(&app, &owner, &uuid::Uuid::new_v4().to_string()).await.0, StatusCode::NOT_FOUND);
    let anonymous = app.http.get(format!("{}/api/v2/projects/{project}/export", app.base_url)).send().await.unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    let (status, archive) = export(&app, &owner, &project).await;
    assert_eq!(status, StatusCode::OK, "the project's Admin exports");
    let admin = TestUser { id: app.admin.user_id.to_string(), token: app.admin_token.clone(), token_id: String::new() };
    assert_eq!(export(&app, &admin, &project).await.0, StatusCode::OK, "a system administrator exports");

    // Importing creates a project: system administrators only, as creating one is.
    let reply = import(&app, &owner.bearer(), archive.clone(), "").await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{}", reply.body);
    assert_eq!(projects_of(&app, UserId::parse(&owner.id).unwrap()).await, 1, "nothing created");
    let reply = import(
        &app,
        &format!("Bearer {}", app.admin_token),
        archive.clone(),
        &format!("&owner={}", uuid::Uuid::new_v4()),
    )
    .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "an unknown owner: {}", reply.body);
    let reply = import(&app, &format!("Bearer {}", app.admin_token), archive.clone(), "&owner=nobody").await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
    assert!(reply.fields().contains(&"owner".to_owned()), "an owner that is no id is named: {}", reply.body);
    let reply =
        import(&app, &format!("Bearer {}", app.admin_token), archive, &format!("&owner={}&name=Restored", owner.id))
            .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["name"], "Restored");
    assert_eq!(projects_of(&app, UserId::parse(&owner.id).unwrap()).await, 2);
}
