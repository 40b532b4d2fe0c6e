//! Conditional requests per RFC 9110 section 13: `If-Match` takes a list of entity tags or `*`
//! and compares strongly (a weak tag never matches); `If-None-Match` on `GET` of an item, of one
//! property and of a listing page compares weakly and answers 304 with the `ETag` and no body
//! while nothing changed.

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{create_label, owner_with_project, send};

backend_tests!(
    if_match_takes_a_list_of_tags_and_compares_strongly,
    if_none_match_answers_304_on_an_item,
    if_none_match_answers_304_on_a_property_and_a_listing_page
);

/// What a conditional request answered: status, `ETag`, body bytes, the body as JSON.
struct Answer {
    status: StatusCode,
    etag: Option<String>,
    bytes: Vec<u8>,
    body: Value,
}

async fn conditional(
    app: &TestApp,
    user: &TestUser,
    method: Method,
    url: &str,
    header: (&str, &str),
    body: Option<Value>,
) -> Answer {
    let mut request = app.http.request(method, url).header("Authorization", user.bearer()).header(header.0, header.1);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("the gateway answers");
    let status = response.status();
    let etag = response.headers().get("etag").and_then(|v| v.to_str().ok()).map(str::to_owned);
    let bytes = response.bytes().await.expect("body").to_vec();
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Answer { status, etag, bytes, body }
}

/// A plain GET: status, `ETag`, body bytes.
async fn get(app: &TestApp, user: &TestUser, url: &str) -> Answer {
    conditional(app, user, Method::GET, url, ("Accept", "application/json"), None).await
}

async fn text_of(app: &TestApp, user: &TestUser, item_url: &str) -> Value {
    let reply = send(app, Method::GET, item_url, Some(&user.bearer()), None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body["text"].clone()
}

async fn item_count(app: &TestApp, user: &TestUser, project: &str) -> usize {
    let url = format!("{}/api/v2/projects/{project}/items?jsonCasing=camel", app.base_url);
    let reply = send(app, Method::GET, &url, Some(&user.bearer()), None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body["items"].as_array().expect("items").len()
}

async fn if_match_takes_a_list_of_tags_and_compares_strongly(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let id = create_label(&app, &owner, &project, json!({"text": "v1"})).await;
    let patch_url = app.item_url(&project, &format!("/label/{id}?jsonCasing=camel"));
    let item_url = app.item_url(&project, &format!("/{id}?jsonCasing=camel"));
    let patch = |tags: &str, text: &str| {
        let (tags, body) = (tags.to_owned(), json!({"text": text}));
        let (app, owner, url) = (&app, &owner, patch_url.clone());
        async move { conditional(app, owner, Method::PATCH, &url, ("If-Match", &tags), Some(body)).await }
    };

    // A list whose second tag is current: the write happens.
    let listed = patch("\"999\", \"1\"", "v2").await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    assert_eq!(listed.etag.as_deref(), Some("\"2\""));
    assert_eq!(text_of(&app, &owner, &item_url).await, "v2");

    // No tag of the list is current: 412, nothing changes.
    let stale = patch("\"999\", \"1\"", "lost").await;
    assert_eq!(stale.status, StatusCode::PRECONDITION_FAILED, "{}", stale.body);
    assert_eq!(stale.etag, None);
    assert_eq!(stale.body["reason"], "PRECONDITION_FAILED");
    assert_eq!(stale.body["currentVersion"], 2);
    let detail = stale.body["detail"].as_str().unwrap();
    assert!(detail.contains("version 2") && detail.contains("999") && detail.contains('1'), "{detail}");
    assert_eq!(text_of(&app, &owner, &item_url).await, "v2");

    // `*` matches any current version.
    let any = patch("*", "v3").await;
    assert_eq!((any.status, any.etag.as_deref()), (StatusCode::OK, Some("\"3\"")), "{}", any.body);

    // If-Match compares strongly: a weak tag never matches, even of the current version.
    let weak = patch("W/\"3\"", "weak").await;
    assert_eq!(weak.status, StatusCode::PRECONDITION_FAILED, "{}", weak.body);
    assert_eq!(weak.body["currentVersion"], 3);
    assert_eq!(text_of(&app, &owner, &item_url).await, "v3");
    // … while a strong tag beside it still can; a tag that is no version of the item never does.
    let mixed = patch("W/\"3\", \"3\"", "v4").await;
    assert_eq!((mixed.status, mixed.etag.as_deref()), (StatusCode::OK, Some("\"4\"")), "{}", mixed.body);
    let foreign = patch("\"abc\", \"x,4\"", "foreign").await;
    assert_eq!(foreign.status, StatusCode::PRECONDITION_FAILED, "{}", foreign.body);
    assert_eq!(text_of(&app, &owner, &item_url).await, "v4");

    // What is not an entity tag at all is a 400 naming the header.
    for malformed in ["4", "\"4\" \"5\"", "*, \"4\"", "\"4"] {
        let refused = patch(malformed, "malformed").await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST, "If-Match: {malformed}: {}", refused.body);
        assert_eq!(refused.body["errors"][0]["field"], "If-Match", "{}", refused.body);
    }
    assert_eq!(text_of(&app, &owner, &item_url).await, "v4");

    // The MessagePack answer's tag names the same version and is honoured as such.
    let packed = msgpack_get(&app, &owner, &item_url, None).await;
    let packed_tag = packed.headers()["etag"].to_str().unwrap().to_owned();
    assert_ne!(packed_tag, "\"4\"", "another representation, another tag");
    let by_packed = patch(&format!("\"1\", {packed_tag}"), "v5").await;
    assert_eq!(by_packed.status, StatusCode::OK, "{}", by_packed.body);

    // DELETE takes a list too.
    let delete = |tags: &'static str| conditional(&app, &owner, Method::DELETE, &item_url, ("If-Match", tags), None);
    let kept = delete("\"1\", \"2\", W/\"5\"").await;
    assert_eq!(kept.status, StatusCode::PRECONDITION_FAILED, "{}", kept.body);
    assert_eq!(item_count(&app, &owner, &project).await, 1);
    let deleted = delete("\"999\", \"5\"").await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);
    assert_eq!(item_count(&app, &owner, &project).await, 0);
    let gone = send(&app, Method::GET, &item_url, Some(&owner.bearer()), None).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
}

async fn if_none_match_answers_304_on_an_item(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let id = create_label(&app, &owner, &project, json!({"text": "v1"})).await;
    let url = app.item_url(&project, &format!("/{id}?jsonCasing=camel"));
    let first = get(&app, &owner, &url).await;
    assert_eq!((first.status, first.etag.as_deref()), (StatusCode::OK, Some("\"1\"")));

    let none_match = |tags: &'static str| conditional(&app, &owner, Method::GET, &url, ("If-None-Match", tags), None);
    // The current tag, in any form weak comparison accepts: 304, the ETag, no body.
    for tags in ["\"1\"", "W/\"1\"", "\"7\", \"1\"", "*"] {
        let unchanged = none_match(tags).await;
        assert_eq!(unchanged.status, StatusCode::NOT_MODIFIED, "If-None-Match: {tags}");
        assert_eq!(unchanged.etag.as_deref(), Some("\"1\""), "If-None-Match: {tags}");
        assert!(unchanged.bytes.is_empty(), "a 304 has no body: {:?}", String::from_utf8_lossy(&unchanged.bytes));
    }
    // A tag of another version: the whole item.
    let stale = none_match("\"7\"").await;
    assert_eq!((stale.status, stale.etag.as_deref()), (StatusCode::OK, Some("\"1\"")));
    assert_eq!(stale.body["text"], "v1");
    assert_eq!(stale.bytes, first.bytes);

    // After a change the old tag gets the new item.
    let changed = send(
        &app,
        Method::PATCH,
        &app.item_url(&project, &format!("/label/{id}")),
        Some(&owner.bearer()),
        Some(json!({"text": "v2"})),
    )
    .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.body);
    let after = none_match("\"1\"").await;
    assert_eq!((after.status, after.etag.as_deref()), (StatusCode::OK, Some("\"2\"")));
    assert_eq!(after.body["text"], "v2");

    // 304 only for a representation the caller may read: no token, no item, no 304.
    let anonymous = app.http.get(&url).header("If-None-Match", "*").send().await.unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    let missing = app.item_url(&project, &format!("/{}", uuid::Uuid::now_v7()));
    let missing = conditional(&app, &owner, Method::GET, &missing, ("If-None-Match", "*"), None).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);

    // MessagePack is another representation with its own tag.
    let packed = msgpack_get(&app, &owner, &url, None).await;
    let packed_tag = packed.headers()["etag"].to_str().unwrap().to_owned();
    assert_ne!(packed_tag, "\"2\"");
    let json_tag_on_packed = msgpack_get(&app, &owner, &url, Some("\"2\"")).await;
    assert_eq!(json_tag_on_packed.status(), StatusCode::OK, "the JSON tag does not validate the MessagePack body");
    let packed_again = msgpack_get(&app, &owner, &url, Some(&packed_tag)).await;
    assert_eq!(packed_again.status(), StatusCode::NOT_MODIFIED);
}

/// A GET of `url` asking for MessagePack, with `If-None-Match` when given.
async fn msgpack_get(app: &TestApp, user: &TestUser, url: &str, if_none_match: Option<&str>) -> reqwest::Response {
    let mut request = app.http.get(url).header("Authorization", user.bearer()).header("Accept", "application/msgpack");
    if let Some(tags) = if_none_match {
        request = request.header("If-None-Match", tags);
    }
    request.send().await.expect("the gateway answers")
}

/// The weak form of a tag, and its opaque part written as a strong tag.
fn both_forms(tag: &str) -> (String, String) {
    let strong = tag.trim_start_matches("W/").to_owned();
    (format!("W/{strong}"), strong)
}

async fn if_none_match_answers_304_on_a_property_and_a_listing_page(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let id = create_label(&app, &owner, &project, json!({"text": "v1"})).await;
    create_label(&app, &owner, &project, json!({"text": "other"})).await;
    let property = app.item_url(&project, &format!("/{id}/text"));
    let listing = format!("{}/api/v2/projects/{project}/items?jsonCasing=camel", app.base_url);

    for url in [&property, &listing] {
        let first = get(&app, &owner, url).await;
        assert_eq!(first.status, StatusCode::OK, "{url}");
        let tag = first.etag.clone().unwrap_or_else(|| panic!("{url} answers an ETag"));
        let (weak, strong) = both_forms(&tag);
        for sent in [tag.clone(), weak, strong, format!("\"nope\", {tag}"), "*".to_owned()] {
            let unchanged = conditional(&app, &owner, Method::GET, url, ("If-None-Match", &sent), None).await;
            assert_eq!(unchanged.status, StatusCode::NOT_MODIFIED, "{url} If-None-Match: {sent}");
            assert_eq!(unchanged.etag.as_deref(), Some(tag.as_str()), "{url}");
            assert!(unchanged.bytes.is_empty(), "{url}: a 304 has no body");
        }
        let stale = conditional(&app, &owner, Method::GET, url, ("If-None-Match", "W/\"stale\""), None).await;
        assert_eq!(stale.status, StatusCode::OK, "{url}");
        assert_eq!(stale.bytes, first.bytes, "{url}");
        assert_eq!(stale.etag.as_deref(), Some(tag.as_str()), "{url}: the same body, the same tag");
    }

    // Another casing or MessagePack renders other bytes, so the tag differs.
    let listing_tag = get(&app, &owner, &listing).await.etag.unwrap();
    let snake = get(&app, &owner, &listing.replace("jsonCasing=camel", "jsonCasing=snake")).await;
    assert_ne!(snake.etag.as_deref(), Some(listing_tag.as_str()), "casing changes the listing's bytes and tag");
    let packed = app
        .http
        .get(&listing)
        .header("Authorization", owner.bearer())
        .header("Accept", "application/msgpack")
        .send()
        .await
        .unwrap();
    let packed_tag = packed.headers()["etag"].to_str().unwrap().to_owned();
    assert_ne!(packed_tag, listing_tag, "MessagePack is another representation");
    let property_tag = get(&app, &owner, &property).await.etag.unwrap();

    // After a change, the old tags get 200 with the new content.
    let changed = send(
        &app,
        Method::PATCH,
        &app.item_url(&project, &format!("/label/{id}")),
        Some(&owner.bearer()),
        Some(json!({"text": "v2"})),
    )
    .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.body);
    let value = conditional(&app, &owner, Method::GET, &property, ("If-None-Match", &property_tag), None).await;
    assert_eq!((value.status, value.body.clone()), (StatusCode::OK, json!("v2")));
    assert_ne!(value.etag.as_deref(), Some(property_tag.as_str()));
    let page = conditional(&app, &owner, Method::GET, &listing, ("If-None-Match", &listing_tag), None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.body["items"][0]["text"], "v2", "{}", page.body);
    assert_ne!(page.etag.as_deref(), Some(listing_tag.as_str()));
}
