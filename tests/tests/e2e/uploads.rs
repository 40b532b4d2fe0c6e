//! File-upload create, content sniffing, SVG sanitising, the content
//! endpoint, the JSON-only image form, web items, and the 25 MB limit.

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use image::ImageFormat;
use reqwest::multipart::{Form, Part};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::files;
use crate::support::{assert_invalid, get_item, owner_with_project, send, Reply};

backend_tests!(
    image_uploads_are_typed_from_their_bytes,
    document_and_svg_uploads,
    json_only_image_and_web_rules,
    upload_limits_and_framing
);

pub(crate) async fn upload(
    app: &TestApp,
    user: &TestUser,
    project: &str,
    item_type: &str,
    name: &str,
    bytes: Vec<u8>,
    data: Option<Value>,
) -> Reply {
    let mut form = Form::new()
        .part("binary", Part::bytes(bytes).file_name(name.to_owned()).mime_str("application/octet-stream").unwrap());
    if let Some(data) = data {
        form = form.text("dataobject", data.to_string());
    }
    let response = app
        .http
        .post(app.item_url(project, &format!("/panel/{item_type}/file?jsonCasing=camel")))
        .header("Authorization", user.bearer())
        .multipart(form)
        .send()
        .await
        .unwrap();
    let status = response.status();
    let content_type = response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    let bytes = response.bytes().await.unwrap().to_vec();
    Reply { status, content_type, body: serde_json::from_slice(&bytes).unwrap_or(Value::Null), bytes }
}

async fn content(app: &TestApp, user: &TestUser, project: &str, id: &str) -> (StatusCode, String, Vec<u8>) {
    let response = app
        .http
        .get(app.item_url(project, &format!("/{id}/content")))
        .header("Authorization", user.bearer())
        .send()
        .await
        .unwrap();
    let status = response.status();
    let content_type = response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    (status, content_type, response.bytes().await.unwrap().to_vec())
}

async fn image_uploads_are_typed_from_their_bytes(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    for (format, mime, name) in [
        (ImageFormat::Png, "image/png", "photo.jpg"),
        (ImageFormat::Jpeg, "image/jpeg", "photo.png"),
        (ImageFormat::Gif, "image/gif", "anim.gif"),
        (ImageFormat::WebP, "image/webp", "pic"),
    ] {
        let bytes = files::image(format, 32, 24);
        let reply = upload(
            &app,
            &owner,
            &project,
            "image",
            name,
            bytes.clone(),
            Some(json!({"position": {"x": 5, "y": 6}, "mimeType": "image/bmp"})),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{mime}: {}", reply.body);
        let id = reply.body["itemId"].as_str().unwrap();
        let item = get_item(&app, &owner, &project, id).await;
        assert_eq!(item["mimeType"], mime, "sniffed, not trusted");
        assert_eq!(item["fileName"], name);
        assert_eq!(item["fileSize"], json!(bytes.len()));
        assert_eq!(item["size"], json!({"width": 32, "height": 24}), "natural size by default");
        assert_eq!(item["position"], json!({"x": 5, "y": 6}));
        let (status, content_type, body) = content(&app, &owner, &project, id).await;
        assert_eq!((status, content_type.as_str()), (StatusCode::OK, mime));
        assert_eq!(body, bytes, "the stored bytes come back unchanged");
        // File content cannot be changed by an update; the name can.
        let url = app.item_url(&project, &format!("/image/{id}"));
        assert_invalid(
            &send(&app, Method::PATCH, &url, Some(&owner.bearer()), Some(json!({"mimeType": "image/gif"}))).await,
            "mimeType",
        );
        assert_invalid(
            &send(&app, Method::PATCH, &url, Some(&owner.bearer()), Some(json!({"fileSize": 1}))).await,
            "fileSize",
        );
        let renamed =
            send(&app, Method::PATCH, &url, Some(&owner.bearer()), Some(json!({"fileName": "renamed.bin"}))).await;
        assert_eq!(renamed.status, StatusCode::OK);
    }
    let not_image = upload(&app, &owner, &project, "image", "fake.png", files::pdf("not a picture"), None).await;
    assert_invalid(&not_image, "binary");
    let junk = upload(&app, &owner, &project, "image", "x.png", b"\x89PNG but not really".to_vec(), None).await;
    assert_invalid(&junk, "binary");
}

async fn document_and_svg_uploads(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    for (name, bytes, mime) in [
        ("report.pdf", files::pdf("Wind tunnel results"), "application/pdf"),
        (
            "notes.docx",
            files::docx("Boundary layer notes"),
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        ),
        ("readme.md", b"# Title\n\nSome *markdown*.".to_vec(), "text/markdown"),
        ("plain.txt", b"just text".to_vec(), "text/plain"),
    ] {
        let reply = upload(&app, &owner, &project, "document", name, bytes.clone(), None).await;
        assert_eq!(reply.status, StatusCode::OK, "{name}: {}", reply.body);
        let item = get_item(&app, &owner, &project, reply.body["itemId"].as_str().unwrap()).await;
        assert_eq!(item["mimeType"], mime, "{name}");
        assert_eq!(item["fileSize"], json!(bytes.len()));
    }
    let image_as_document =
        upload(&app, &owner, &project, "document", "x.pdf", files::image(ImageFormat::Png, 4, 4), None).await;
    assert_invalid(&image_as_document, "binary");
    let json_only = send(
        &app,
        Method::POST,
        &app.item_url(&project, "/panel/document"),
        Some(&owner.bearer()),
        Some(json!({"fileName": "a.pdf"})),
    )
    .await;
    assert_invalid(&json_only, "binary");

    // SVG: stored sanitised, without its script and other active content.
    let reply =
        upload(&app, &owner, &project, "svg", "chart.svg", files::MALICIOUS_SVG.as_bytes().to_vec(), None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let id = reply.body["itemId"].as_str().unwrap();
    let (status, content_type, body) = content(&app, &owner, &project, id).await;
    assert_eq!((status, content_type.as_str()), (StatusCode::OK, "image/svg+xml"));
    let svg = String::from_utf8(body).unwrap();
    for gone in ["<script", "alert", "onload", "javascript:", "attacker.invalid", "foreignObject"] {
        assert!(!svg.contains(gone), "{gone} survived sanitising: {svg}");
    }
    for kept in ["<rect", "Revenue grows", "Quarterly chart"] {
        assert!(svg.contains(kept), "{kept} was lost: {svg}");
    }
    assert_eq!(get_item(&app, &owner, &project, id).await["size"], json!({"width": 120, "height": 80}));
    let not_svg = upload(&app, &owner, &project, "svg", "x.svg", b"<html><body>hi</body></html>".to_vec(), None).await;
    assert_invalid(&not_svg, "binary");
    let labels_take_no_files = upload(
        &app,
        &owner,
        &project,
        "label",
        "x.png",
        files::image(ImageFormat::Png, 4, 4),
        Some(json!({"text": "x"})),
    )
    .await;
    assert_invalid(&labels_take_no_files, "itemType");
}

async fn json_only_image_and_web_rules(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let good =
        json!({"size": {"width": 64, "height": 64}, "fileName": "a.png", "mimeType": "image/png", "fileSize": 1234});
    let with = |k: &str, v: Value| {
        let mut body = good.clone();
        body[k] = v;
        body
    };
    let without = |k: &str| {
        let mut body = good.clone();
        body.as_object_mut().unwrap().remove(k);
        body
    };
    let cases: Vec<(&str, Value, Option<&str>)> = vec![
        ("valid", good.clone(), None),
        ("fileName required", without("fileName"), Some("fileName")),
        ("fileName 128", with("fileName", json!("a".repeat(128))), None),
        ("fileName 129", with("fileName", json!("a".repeat(129))), Some("fileName")),
        ("fileName slash", with("fileName", json!("dir/a.png")), Some("fileName")),
        ("fileName backslash", with("fileName", json!("dir\\a.png")), Some("fileName")),
        ("mimeType required", without("mimeType"), Some("mimeType")),
        ("mimeType webp", with("mimeType", json!("image/webp")), None),
        ("mimeType bmp", with("mimeType", json!("image/bmp")), Some("mimeType")),
        ("fileSize required", without("fileSize"), Some("fileSize")),
        ("fileSize negative", with("fileSize", json!(-1)), Some("fileSize")),
        ("fileSize fraction", with("fileSize", json!(1.5)), Some("fileSize")),
        ("size required", without("size"), Some("size")),
        ("size minimum", with("size", json!({"width": 64, "height": 2})), Some("size.height")),
    ];
    for (case, body, field) in cases {
        let reply =
            send(&app, Method::POST, &app.item_url(&project, "/panel/image"), Some(&owner.bearer()), Some(body)).await;
        match field {
            None => assert_eq!(reply.status, StatusCode::OK, "{case}: {}", reply.body),
            Some(field) => assert_invalid(&reply, field),
        }
    }
    let web_cases: Vec<(&str, Value, Option<&str>)> = vec![
        ("https", json!({"url": "https://example.com/a?b=c"}), None),
        ("http", json!({"url": "http://example.com"}), None),
        ("url required", json!({}), Some("url")),
        ("relative", json!({"url": "/docs/page"}), Some("url")),
        ("other scheme", json!({"url": "ftp://example.com/file"}), Some("url")),
        ("javascript", json!({"url": "javascript:alert(1)"}), Some("url")),
        ("not a string", json!({"url": 5}), Some("url")),
        (
            "size minimum",
            json!({"url": "https://example.com", "size": {"width": 4, "height": 100}}),
            Some("size.width"),
        ),
    ];
    for (case, body, field) in web_cases {
        let reply =
            send(&app, Method::POST, &app.item_url(&project, "/panel/web"), Some(&owner.bearer()), Some(body)).await;
        match field {
            None => assert_eq!(reply.status, StatusCode::OK, "{case}: {}", reply.body),
            Some(field) => assert_invalid(&reply, field),
        }
    }
    let web = send(
        &app,
        Method::POST,
        &app.item_url(&project, "/panel/web"),
        Some(&owner.bearer()),
        Some(json!({"url": "https://example.com"})),
    )
    .await;
    let item = get_item(&app, &owner, &project, web.body["ItemId"].as_str().unwrap()).await;
    assert_eq!(item["size"], json!({"width": 1280, "height": 768}));
    let read = send(
        &app,
        Method::GET,
        &app.item_url(&project, &format!("/{}/URL", web.body["ItemId"].as_str().unwrap())),
        Some(&owner.bearer()),
        None,
    )
    .await;
    assert_eq!(read.body, json!("https://example.com"));
}

async fn upload_limits_and_framing(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let too_big = vec![0u8; 26 * 1024 * 1024];
    let reply = upload(&app, &owner, &project, "document", "big.txt", too_big, None).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", reply.body);
    assert_eq!(reply.content_type, "application/problem+json");
    assert!(reply.body["detail"].as_str().unwrap().contains("25"));

    let no_file = app
        .http
        .post(app.item_url(&project, "/panel/image/file"))
        .header("Authorization", owner.bearer())
        .multipart(Form::new().text("dataobject", "{}"))
        .send()
        .await
        .unwrap();
    assert_eq!(no_file.status(), StatusCode::BAD_REQUEST);
    let body: Value = no_file.json().await.unwrap();
    assert_eq!(body["Errors"][0]["Field"], "binary");

    let bad_data = upload(&app, &owner, &project, "image", "a.png", files::image(ImageFormat::Png, 8, 8), None).await;
    assert_eq!(bad_data.status, StatusCode::OK);
    let response = app
        .http
        .post(app.item_url(&project, "/panel/image/file"))
        .header("Authorization", owner.bearer())
        .multipart(
            Form::new()
                .text("dataobject", "{not json")
                .part("binary", Part::bytes(files::image(ImageFormat::Png, 8, 8)).file_name("a.png")),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["Errors"][0]["Field"], "dataobject");

    let unauthenticated = app
        .http
        .post(app.item_url(&project, "/panel/image/file"))
        .multipart(Form::new().part("binary", Part::bytes(vec![1, 2, 3]).file_name("a.png")))
        .send()
        .await
        .unwrap();
    assert_eq!(unauthenticated.status(), StatusCode::UNAUTHORIZED);
}
