//! A project as a file (docs/ARCHIVE.md): a project with every item type, uploads, a container,
//! a connector, a diagram, a webhook and members is exported and imported again, on each backend
//! and from one backend into the other and back; the new project holds the same items (ids
//! remapped), files, drawing, diagram record, webhook and members, and answers retrieval alike.

use std::collections::BTreeSet;

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::knowledge::{cited, retrieve, wait_indexed};
use crate::project_archive_kit::{as_old, comparable, entries, export, id_pairs, import, listing, rich_project};
use crate::support::send;

backend_tests!(
    an_exported_project_imports_as_the_same_project,
    archives_travel_between_backends_and_back,
    a_project_that_compresses_like_a_zip_bomb_still_travels
);

async fn get(app: &TestApp, user: &TestUser, path: &str) -> (StatusCode, Value, Vec<u8>) {
    let reply = send(app, Method::GET, &format!("{}{path}", app.base_url), Some(&user.bearer()), None).await;
    (reply.status, reply.body, reply.bytes)
}

/// The drawing of a project, its new ids written as the old ones.
async fn drawing(app: &TestApp, user: &TestUser, project: &str, pairs: &[(String, String)]) -> String {
    let (status, _, bytes) = get(app, user, &format!("/api/v2/projects/{project}/render.svg")).await;
    assert_eq!(status, StatusCode::OK);
    as_old(&String::from_utf8(bytes).unwrap(), pairs)
}

/// An uploaded file's bytes.
async fn content(app: &TestApp, user: &TestUser, project: &str, item: &Value) -> Vec<u8> {
    get(app, user, &format!("/api/v2/projects/{project}/item/{}/content", item["itemId"].as_str().unwrap())).await.2
}

/// The project's diagram record (without its id) and its Mermaid text as it is now.
async fn record(app: &TestApp, user: &TestUser, project: &str) -> (Value, Value) {
    let (_, list, _) = get(app, user, &format!("/api/v2/projects/{project}/diagrams?jsonCasing=camel")).await;
    let id = list["diagrams"][0]["diagramId"].as_str().expect("a diagram record").to_owned();
    let (_, mut record, _) =
        get(app, user, &format!("/api/v2/projects/{project}/diagrams/{id}?jsonCasing=camel")).await;
    let (_, mermaid, _) =
        get(app, user, &format!("/api/v2/projects/{project}/diagrams/{id}?format=mermaid&jsonCasing=camel")).await;
    record.as_object_mut().unwrap().remove("diagramId");
    (record, mermaid["mermaid"].clone())
}

/// Asserts that `copy` (in `to`) holds what `original` (in `from`) holds: the same items with the
/// same properties and files, the same drawing, the same diagram record. Answers the id pairs.
async fn assert_same_project(
    (from, from_user, original): (&TestApp, &TestUser, &str),
    (to, to_user, copy): (&TestApp, &TestUser, &str),
) -> Vec<(String, String)> {
    let old = listing(from, from_user, original).await;
    let new = listing(to, to_user, copy).await;
    let pairs = id_pairs(&old, &new);
    for (a, b) in old.iter().zip(&new) {
        assert_ne!(a["itemId"], b["itemId"], "every item has a new id");
        assert_eq!(comparable(b, &pairs), comparable(a, &pairs), "the item came through whole");
        if a["fileName"].is_string() {
            let (new_file, old_file) =
                (content(to, to_user, copy, b).await, content(from, from_user, original, a).await);
            assert_eq!(new_file, old_file, "{}", a["fileName"]);
        }
    }
    assert_eq!(drawing(to, to_user, copy, &pairs).await, drawing(from, from_user, original, &[]).await);
    let (old_record, old_mermaid) = record(from, from_user, original).await;
    let (new_record, new_mermaid) = record(to, to_user, copy).await;
    let new_record: Value = serde_json::from_str(&as_old(&new_record.to_string(), &pairs)).unwrap();
    assert_eq!(new_record["elements"], old_record["elements"], "the element map names the new items");
    assert_eq!(
        (new_record["source"].clone(), new_record["kind"].clone()),
        (old_record["source"].clone(), old_record["kind"].clone())
    );
    assert_eq!(as_old(&new_mermaid.to_string(), &pairs), old_mermaid.to_string());
    pairs
}

async fn an_exported_project_imports_as_the_same_project(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let owner = app.user("owner").await;
    let project = rich_project(&app, &owner).await;
    let (status, archive) = export(&app, &owner, &project).await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&archive));

    // The archive: its entries and manifest as docs/ARCHIVE.md writes them.
    let named = entries(&archive);
    let files: Vec<&String> = named.keys().filter(|name| name.starts_with("files/")).collect();
    assert_eq!(files.len(), 3, "the image, the document and the SVG: {:?}", named.keys());
    for name in [
        "manifest.json",
        "project.json",
        "items.jsonl",
        "diagrams.jsonl",
        "webhooks.json",
        "tags.json",
        "comments.jsonl",
    ] {
        assert!(named.contains_key(name), "{name} in {:?}", named.keys());
    }
    let manifest: Value = serde_json::from_slice(&named["manifest.json"]).unwrap();
    let items = listing(&app, &owner, &project).await;
    assert_eq!((manifest["format"].clone(), manifest["version"].clone()), (json!("canvas-project-archive"), json!(3)));
    assert_eq!(
        manifest["counts"],
        json!({"items": items.len(), "diagrams": 1, "files": 3, "members": 3, "webhooks": 1, "tags": 0, "threads": 0}),
        "{manifest}"
    );
    let hooks: Value = serde_json::from_slice(&named["webhooks.json"]).unwrap();
    assert_eq!(hooks["webhooks"][0]["customData"], json!({"b": 1, "a": [2.50, "x"]}));
    assert!(!String::from_utf8_lossy(&named["webhooks.json"]).contains("lastAttemptAt"), "no history travels");

    let reply = import(&app, &format!("Bearer {}", app.admin_token), archive, &format!("&owner={}", owner.id)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let copy = reply.body["projectId"].as_str().unwrap().to_owned();
    assert_ne!(copy, project);
    assert_eq!((reply.body["items"].clone(), reply.body["diagrams"].clone()), (json!(items.len()), json!(1)));
    assert_eq!((reply.body["files"].clone(), reply.body["webhooks"].clone()), (json!(3), json!(1)));
    assert_eq!(reply.body["name"], "Test project");
    let added: Vec<&str> = reply.body["membersAdded"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert_eq!(added, [format!("ed-{}", &project[..8]).as_str()], "{}", reply.body);
    let skipped: BTreeSet<&str> =
        reply.body["membersSkipped"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert_eq!(skipped, BTreeSet::from(["owner", "Vi Ewer"]), "members without a login are not found by one");

    let pairs = assert_same_project((&app, &owner, &project), (&app, &owner, &copy)).await;
    let (_, view, _) = get(&app, &owner, &format!("/api/v2/projects/{copy}?jsonCasing=camel")).await;
    assert_eq!(view["role"], "Admin", "the owner asked for owns the new project");

    // The webhook arrived without history, inactive until someone saves it again.
    let (_, hooks, _) = get(&app, &owner, &format!("/api/v2/projects/{copy}/webhooks?jsonCasing=camel")).await;
    let hook = &hooks["elements"][0];
    assert_eq!(
        (hook["inactive"].clone(), hook["customData"].clone()),
        (json!("copiedFromOtherProject"), json!({"b": 1, "a": [2.50, "x"]}))
    );
    assert_eq!(hook["status"]["lastAttemptAt"], Value::Null);

    // Retrieval answers the same over both projects, the ids mapped.
    wait_indexed(&app, &owner, &project).await;
    wait_indexed(&app, &owner, &copy).await;
    for query in ["telescope mirror glass", "beta launch plan", "ship friday customers"] {
        let old = retrieve(&app, &owner, json!({"projectId": project, "query": query})).await;
        let new = retrieve(&app, &owner, json!({"projectId": copy, "query": query})).await;
        assert_eq!(new.status, StatusCode::OK, "{}", new.body);
        let mapped: Vec<String> = cited(&new, "id").iter().map(|id| as_old(id, &pairs)).collect();
        assert!(!mapped.is_empty(), "{query}: {}", new.body);
        assert_eq!(mapped, cited(&old, "id"), "{query}");
        assert_eq!(cited(&new, "chunk"), cited(&old, "chunk"), "{query}");
    }

    // The copy exports again, as the same project.
    let (status, again) = export(&app, &owner, &copy).await;
    assert_eq!(status, StatusCode::OK);
    let lines = |archive: &[u8]| String::from_utf8(entries(archive)["items.jsonl"].clone()).unwrap().lines().count();
    assert_eq!(lines(&again), items.len());
}

/// Exported from `backend`, imported into the other backend, exported there and imported back:
/// each hop keeps the project whole.
async fn archives_travel_between_backends_and_back(backend: Backend) {
    let other = match backend {
        Backend::Sqlite => match Backend::postgres_or_skip() {
            Some(postgres) => postgres,
            None => return,
        },
        Backend::Postgres => Backend::Sqlite,
    };
    let (here, there) = (TestApp::spawn(backend).await, TestApp::spawn(other).await);
    let (owner_here, owner_there) = (here.user("owner").await, there.user("owner").await);
    let project = rich_project(&here, &owner_here).await;

    let (_, archive) = export(&here, &owner_here, &project).await;
    let reply =
        import(&there, &format!("Bearer {}", there.admin_token), archive, &format!("&owner={}", owner_there.id)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let travelled = reply.body["projectId"].as_str().unwrap().to_owned();
    assert_eq!(reply.body["membersAdded"], json!([]), "no user of that login over there");
    assert_same_project((&here, &owner_here, &project), (&there, &owner_there, &travelled)).await;

    let (_, archive) = export(&there, &owner_there, &travelled).await;
    let reply =
        import(&here, &format!("Bearer {}", here.admin_token), archive, &format!("&owner={}", owner_here.id)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let back = reply.body["projectId"].as_str().unwrap().to_owned();
    assert_same_project((&here, &owner_here, &project), (&here, &owner_here, &back)).await;
}

/// A label of two million repeated characters deflates a thousandfold, like a zip bomb's entry:
/// the export stores that entry as it is instead, so its own archive imports again.
async fn a_project_that_compresses_like_a_zip_bomb_still_travels(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let owner = app.user("owner").await;
    let project = app.project(&owner).await;
    let text = "ab".repeat(1_000_000);
    crate::support::create_label(&app, &owner, &project, json!({"text": text})).await;
    let (status, archive) = export(&app, &owner, &project).await;
    assert_eq!(status, StatusCode::OK);
    let reply = import(&app, &format!("Bearer {}", app.admin_token), archive, &format!("&owner={}", owner.id)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let copy = reply.body["projectId"].as_str().unwrap();
    let items = listing(&app, &owner, copy).await;
    assert_eq!(items[0]["text"].as_str().map(str::len), Some(text.len()));
}
