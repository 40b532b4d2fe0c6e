//! What the project-archive tests share: export and import over REST, a project with every kind
//! of item, reading an archive's entries, and writing archives by hand (with the `zip` crate, or
//! byte by byte where the crate would refuse to write what a hostile archive holds).

use std::collections::BTreeMap;
use std::io::{Cursor, Read, Write};

use canvas_tests::{TestApp, TestUser};
use core_service::domain::ProjectRole;
use image::ImageFormat;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::files;
use crate::support::{create_label, send, Reply};
use crate::uploads::upload;

/// `GET .../export` as `user`: the status and the body's bytes.
pub async fn export(app: &TestApp, user: &TestUser, project: &str) -> (StatusCode, Vec<u8>) {
    let response = app
        .http
        .get(format!("{}/api/v2/projects/{project}/export", app.base_url))
        .header("Authorization", user.bearer())
        .send()
        .await
        .unwrap();
    let status = response.status();
    if status == StatusCode::OK {
        assert_eq!(response.headers()["content-type"], "application/zip");
    }
    (status, response.bytes().await.unwrap().to_vec())
}

/// `POST /api/v2/projects/import{query}` with `bearer` and the archive.
pub async fn import(app: &TestApp, bearer: &str, archive: Vec<u8>, query: &str) -> Reply {
    let response = app
        .http
        .post(format!("{}/api/v2/projects/import?jsonCasing=camel{query}", app.base_url))
        .header("Authorization", bearer)
        .header("Content-Type", "application/zip")
        .body(archive)
        .send()
        .await
        .unwrap();
    let status = response.status();
    let content_type = response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    let bytes = response.bytes().await.unwrap().to_vec();
    Reply { status, content_type, body: serde_json::from_slice(&bytes).unwrap_or(Value::Null), bytes }
}

/// Imports as the system administrator and returns the new project's id (asserting the 200).
pub async fn import_as_admin(app: &TestApp, archive: Vec<u8>) -> (String, Value) {
    let reply = import(app, &format!("Bearer {}", app.admin_token), archive, "").await;
    assert_eq!(reply.status, StatusCode::OK, "import refused: {}", reply.body);
    (reply.body["projectId"].as_str().unwrap().to_owned(), reply.body)
}

/// Every item of a project in creation order (camelCase), read page by page.
pub async fn listing(app: &TestApp, user: &TestUser, project: &str) -> Vec<Value> {
    let mut items = Vec::new();
    let mut cursor = String::new();
    loop {
        let url = format!("{}/api/v2/projects/{project}/items?jsonCasing=camel&limit=1000{cursor}", app.base_url);
        let page = send(app, Method::GET, &url, Some(&user.bearer()), None).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.body);
        items.extend(page.body["items"].as_array().unwrap().iter().cloned());
        match page.body["nextCursor"].as_str() {
            Some(next) => cursor = format!("&cursor={next}"),
            None => return items,
        }
    }
}

/// Old id → new id, pairing two listings of the same items in creation order.
pub fn id_pairs(old: &[Value], new: &[Value]) -> Vec<(String, String)> {
    assert_eq!(old.len(), new.len(), "both projects hold as many items");
    old.iter()
        .zip(new)
        .map(|(a, b)| (a["itemId"].as_str().unwrap().to_owned(), b["itemId"].as_str().unwrap().to_owned()))
        .collect()
}

/// `text` with every new id written as the old one it stands for.
pub fn as_old(text: &str, pairs: &[(String, String)]) -> String {
    pairs.iter().fold(text.to_owned(), |text, (old, new)| text.replace(new, old))
}

/// An item as both projects must hold it: everything but where and when it was made.
pub fn comparable(item: &Value, pairs: &[(String, String)]) -> Value {
    let mut item: Value = serde_json::from_str(&as_old(&item.to_string(), pairs)).unwrap();
    for volatile in ["projectId", "createdAt", "updatedAt"] {
        item.as_object_mut().unwrap().remove(volatile);
    }
    item
}

/// A project of `owner` with an item of every type, a container holding a label, a connector
/// between two items, uploads of each kind, a Mermaid diagram, a webhook and two more members
/// (one with a login, one without). Answers the project's id.
pub async fn rich_project(app: &TestApp, owner: &TestUser) -> String {
    let project = app.project(owner).await;
    let bearer = owner.bearer();
    let post = |path: &str, body: Value| {
        let url = app.item_url(&project, &format!("{path}?jsonCasing=camel"));
        let bearer = bearer.clone();
        async move {
            let reply = send(app, Method::POST, &url, Some(&bearer), Some(body)).await;
            assert_eq!(reply.status, StatusCode::OK, "{url}: {}", reply.body);
            reply.body["itemId"].as_str().unwrap().to_owned()
        }
    };
    let label =
        create_label(app, owner, &project, json!({"text": "Launch <b>plan</b> for the beta", "fontSize": 18})).await;
    let note = post(
        "/panel/sticky-note",
        json!({"text": "Ship on Friday to fifty customers", "position": {"x": 400, "y": 0}}),
    )
    .await;
    let group = post(
        "/panel/shape",
        json!({"type": "RoundedRectangle", "size": {"width": 300, "height": 200}, "position": {"x": 0, "y": 400}, "fillColor": "#112233"}),
    )
    .await;
    post(&format!("/{group}/label"), json!({"text": "inside the group", "position": {"x": 0, "y": 400}})).await;
    post(
        "/panel/connector",
        json!({"startPoint": {"itemId": label}, "endPoint": {"itemId": note, "decorator": "Arrow"}, "type": "Angled"}),
    )
    .await;
    post("/panel/web", json!({"url": "https://example.com/roadmap", "position": {"x": 900, "y": 0}})).await;
    let uploads = [
        ("image", "chart.png", files::image(ImageFormat::Png, 12, 8)),
        ("document", "brief.md", b"# Brief\n\nThe telescope mirror is ground from borosilicate glass.\n".to_vec()),
        ("svg", "logo.svg", br#"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><rect width="20" height="10" fill="red"/></svg>"#.to_vec()),
    ];
    for (item_type, name, bytes) in uploads {
        let reply = upload(app, owner, &project, item_type, name, bytes, None).await;
        assert_eq!(reply.status, StatusCode::OK, "{item_type}: {}", reply.body);
    }
    let diagram = send(
        app,
        Method::POST,
        &format!("{}/api/v2/projects/{project}/diagrams?jsonCasing=camel", app.base_url),
        Some(&bearer),
        Some(json!({"format": "mermaid", "source": "flowchart LR\n  subgraph S [Stage]\n    A[Draft] --> B(Review)\n  end\n  B -->|ok| C{Ship?}", "position": {"x": 0, "y": 900}})),
    )
    .await;
    assert_eq!(diagram.status, StatusCode::OK, "{}", diagram.body);
    let hook = send(
        app,
        Method::POST,
        &format!("{}/api/v2/projects/{project}/webhooks?jsonCasing=camel", app.base_url),
        Some(&bearer),
        Some(json!({"name": "ops", "url": "https://93.184.216.34/hook", "events": ["item.created"], "customData": {"b": 1, "a": [2.50, "x"]}})),
    )
    .await;
    assert_eq!(hook.status, StatusCode::OK, "{}", hook.body);
    let editor = app.account_user("Ed Itor", &format!("ed-{}", &project[..8]), "a long enough password").await;
    app.add_member(&project, &editor, ProjectRole::Editor).await;
    let no_login = app.user("Vi Ewer").await;
    app.add_member(&project, &no_login, ProjectRole::Viewer).await;
    project
}

/// An archive's entries by name.
pub fn entries(archive: &[u8]) -> BTreeMap<String, Vec<u8>> {
    let mut zip = zip::ZipArchive::new(Cursor::new(archive)).expect("a zip archive");
    (0..zip.len())
        .map(|i| {
            let mut entry = zip.by_index(i).unwrap();
            let name = entry.name().unwrap().into_owned();
            let mut bytes = Vec::new();
            entry.read_to_end(&mut bytes).unwrap();
            (name, bytes)
        })
        .collect()
}

/// An archive of `entries` (JSON deflated, files stored), written with the `zip` crate.
pub fn archive(entries: &BTreeMap<String, Vec<u8>>) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (name, bytes) in entries {
        let method =
            if name.starts_with("files/") { zip::CompressionMethod::Stored } else { zip::CompressionMethod::Deflated };
        zip.start_file(name.as_str(), zip::write::SimpleFileOptions::default().compression_method(method)).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// A stored entry written byte by byte: its name, its bytes, and the size its headers declare.
pub struct RawEntry<'a> {
    pub name: &'a str,
    pub data: &'a [u8],
    pub declared: u32,
}

/// An archive written byte by byte, so it can hold what no zip writer writes (two entries of one
/// name, names that climb out, sizes that lie).
pub fn raw_archive(entries: &[RawEntry<'_>]) -> Vec<u8> {
    let (mut out, mut directory) = (Vec::new(), Vec::new());
    for entry in entries {
        let offset = out.len() as u32;
        let crc = crc32(entry.data);
        let header = |signature: u32, central: bool| {
            let mut h = signature.to_le_bytes().to_vec();
            if central {
                h.extend(20u16.to_le_bytes()); // version made by
            }
            for field in [20u16, 0, 0, 0, 0] {
                h.extend(field.to_le_bytes()); // version, flags, method (stored), time, date
            }
            h.extend(crc.to_le_bytes());
            h.extend((entry.data.len() as u32).to_le_bytes()); // compressed size
            h.extend(entry.declared.to_le_bytes()); // uncompressed size
            h.extend((entry.name.len() as u16).to_le_bytes());
            h.extend(0u16.to_le_bytes()); // extra field
            if central {
                h.extend([0u8; 10]); // comment length, disk, internal (2) and external (4) attributes
                h.extend(offset.to_le_bytes());
            }
            h.extend(entry.name.as_bytes());
            h
        };
        out.extend(header(0x0403_4b50, false));
        out.extend(entry.data);
        directory.extend(header(0x0201_4b50, true));
    }
    let start = out.len() as u32;
    out.extend(&directory);
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0u8; 4]); // disk numbers
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((directory.len() as u32).to_le_bytes());
    out.extend(start.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

/// CRC-32 (IEEE), as zip entries carry it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}
