//! Writes from the web map with the session cookie: only beside the session's CSRF value in
//! `X-Canvas-CSRF` (checked by core-service), and only from this site's own pages (`Origin`,
//! `Sec-Fetch-Site`, checked at rest-gateway's edge). A cookie alone, a wrong, empty or another
//! person's CSRF value, another site's page, and a forged HTML form all write nothing; roles
//! apply as to tokens; API tokens work as before.

use canvas_tests::{backend_tests, Backend, TestApp};
use core_service::domain::ProjectRole;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::site_client::{Page, SiteClient};
use crate::support::{create_label, send};

backend_tests!(
    a_session_writes_only_beside_its_csrf_value_from_this_site,
    a_viewer_session_with_its_csrf_value_cannot_write,
);

const PASSWORD: &str = "correct horse battery";

fn json_of(page: &Page) -> Value {
    serde_json::from_str(&page.body).unwrap_or(Value::Null)
}

/// The items of `project` as `user`'s token reads them: id → text.
async fn texts(app: &TestApp, bearer: &str, project: &str) -> Vec<(String, String)> {
    let url = format!("{}/api/v2/projects/{project}/items?jsonCasing=camel", app.base_url);
    let listed = send(app, Method::GET, &url, Some(bearer), None).await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    let mut texts: Vec<(String, String)> = listed.body["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| {
            let text = item["text"].as_str().unwrap_or("").to_owned();
            (item["itemId"].as_str().unwrap_or("").to_owned(), text)
        })
        .collect();
    texts.sort();
    texts
}

async fn a_session_writes_only_beside_its_csrf_value_from_this_site(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let owner = app.user("owner").await;
    let project = app.project(&owner).await;
    let eve = app.account_user("Eve", "eve", PASSWORD).await;
    app.add_member(&project, &eve, ProjectRole::Editor).await;
    let bo = app.account_user("Bo", "bo", PASSWORD).await;
    app.add_member(&project, &bo, ProjectRole::Editor).await;
    let bearer = owner.bearer();

    let mut site = SiteClient::new(&app);
    assert_eq!(site.sign_in("eve", PASSWORD).await.status, StatusCode::SEE_OTHER);
    let csrf = site.csrf();
    let mut other = SiteClient::new(&app);
    assert_eq!(other.sign_in("bo", PASSWORD).await.status, StatusCode::SEE_OTHER);
    let bos_csrf = other.csrf();
    assert_ne!(csrf, bos_csrf);
    let base = app.base_url.clone();
    let own = [("x-canvas-csrf", csrf.as_str()), ("origin", base.as_str())];
    let create = format!("/api/v2/projects/{project}/item/panel/label?jsonCasing=camel");

    // With the cookie and its CSRF value, from this site: create, patch and delete.
    let created = site.api_with(Method::POST, &create, Some(json!({"text": "by the page"})), &own).await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.body);
    let id = json_of(&created)["itemId"].as_str().expect("itemId").to_owned();
    assert_eq!(texts(&app, &bearer, &project).await, vec![(id.clone(), "by the page".to_owned())]);
    let patch = format!("/api/v2/projects/{project}/item/label/{id}?jsonCasing=camel");
    let patched = site.api_with(Method::PATCH, &patch, Some(json!({"text": "patched"})), &own).await;
    assert_eq!(patched.status, StatusCode::OK, "{}", patched.body);
    // Without an `Origin` (a browser may omit it) the CSRF value still lets it through.
    let header_only = [("x-canvas-csrf", csrf.as_str())];
    let patched = site.api_with(Method::PATCH, &patch, Some(json!({"text": "patched again"})), &header_only).await;
    assert_eq!(patched.status, StatusCode::OK, "{}", patched.body);
    let before = vec![(id.clone(), "patched again".to_owned())];
    assert_eq!(texts(&app, &bearer, &project).await, before);

    // Refused, and nothing written: the cookie alone, or beside a wrong, empty or another
    // person's CSRF value (401, as a missing token).
    let one = format!("/api/v2/projects/{project}/item/{id}");
    let refusals: [(&str, Vec<(&str, &str)>); 4] = [
        ("the cookie alone", vec![("origin", base.as_str())]),
        ("a wrong value", vec![("x-canvas-csrf", "not-the-value"), ("origin", base.as_str())]),
        ("an empty value", vec![("x-canvas-csrf", ""), ("origin", base.as_str())]),
        ("another person's value", vec![("x-canvas-csrf", bos_csrf.as_str()), ("origin", base.as_str())]),
    ];
    for (what, headers) in &refusals {
        let created = site.api_with(Method::POST, &create, Some(json!({"text": "refused"})), headers).await;
        assert_eq!(created.status, StatusCode::UNAUTHORIZED, "create, {what}: {}", created.body);
        let patched = site.api_with(Method::PATCH, &patch, Some(json!({"text": "refused"})), headers).await;
        assert_eq!(patched.status, StatusCode::UNAUTHORIZED, "patch, {what}: {}", patched.body);
        let deleted = site.api_with(Method::DELETE, &one, None, headers).await;
        assert_eq!(deleted.status, StatusCode::UNAUTHORIZED, "delete, {what}: {}", deleted.body);
        assert_eq!(json_of(&deleted)["Status"], json!(401), "a problem body: {}", deleted.body);
    }
    assert_eq!(texts(&app, &bearer, &project).await, before, "nothing was written");

    // Another site's page, even with the right value: 403 at the edge, naming the rule.
    let foreign: [Vec<(&str, &str)>; 3] = [
        vec![("x-canvas-csrf", csrf.as_str()), ("origin", "https://evil.example")],
        vec![("x-canvas-csrf", csrf.as_str()), ("sec-fetch-site", "cross-site")],
        vec![("x-canvas-csrf", csrf.as_str()), ("origin", base.as_str()), ("sec-fetch-site", "same-site")],
    ];
    for headers in &foreign {
        let created = site.api_with(Method::POST, &create, Some(json!({"text": "cross-site"})), headers).await;
        assert_eq!(created.status, StatusCode::FORBIDDEN, "{headers:?}: {}", created.body);
        assert_eq!(created.headers["content-type"], "application/problem+json");
        assert!(created.body.contains("own pages"), "the rule is named: {}", created.body);
        let deleted = site.api_with(Method::DELETE, &one, None, headers).await;
        assert_eq!(deleted.status, StatusCode::FORBIDDEN, "{headers:?}: {}", deleted.body);
    }
    assert_eq!(texts(&app, &bearer, &project).await, before, "nothing was written");

    // A forged HTML form (no custom header can be set by one) writes nothing.
    let forged = site.post_from("https://evil.example", &create, &[("text", "forged")]).await;
    assert!(!forged.status.is_success(), "{}: {}", forged.status, forged.body);
    let forged = site.post(&create, &[("text", "forged")]).await;
    assert!(!forged.status.is_success(), "{}: {}", forged.status, forged.body);
    assert_eq!(texts(&app, &bearer, &project).await, before, "nothing was written");

    // API tokens are unaffected, cookie or not; a token goes alone (a wrong CSRF value beside it
    // does not matter).
    let token = app.user("tok").await;
    app.add_member(&project, &token, ProjectRole::Editor).await;
    let by_token = create_label(&app, &token, &project, json!({"text": "by token"})).await;
    let auth = token.bearer();
    let with_cookie = [("authorization", auth.as_str()), ("x-canvas-csrf", "wrong")];
    let also = site.api_with(Method::POST, &create, Some(json!({"text": "token and cookie"})), &with_cookie).await;
    assert_eq!(also.status, StatusCode::OK, "{}", also.body);
    let also = json_of(&also)["itemId"].as_str().unwrap().to_owned();
    assert_eq!(texts(&app, &bearer, &project).await.len(), 3);

    // The page deletes with its CSRF value.
    let deleted = site.api_with(Method::DELETE, &one, None, &own).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);
    let gone = send(&app, Method::GET, &app.item_url(&project, &format!("/{id}")), Some(&bearer), None).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    let mut left = vec![(by_token, "by token".to_owned()), (also, "token and cookie".to_owned())];
    left.sort();
    assert_eq!(texts(&app, &bearer, &project).await, left);

    // Signed out, the CSRF value of the ended session writes nothing.
    let session = site.session().cloned().unwrap();
    let page = site.get("/account/api-tokens").await;
    assert_eq!(site.post("/account/sign-out", &[("csrf", &page.hidden("csrf"))]).await.status, StatusCode::SEE_OTHER);
    site.cookies.insert("canvas_session".into(), session);
    let after = site.api_with(Method::POST, &create, Some(json!({"text": "late"})), &own).await;
    assert_eq!(after.status, StatusCode::UNAUTHORIZED, "{}", after.body);
    assert_eq!(texts(&app, &bearer, &project).await, left);
}

async fn a_viewer_session_with_its_csrf_value_cannot_write(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let owner = app.user("owner").await;
    let project = app.project(&owner).await;
    let id = create_label(&app, &owner, &project, json!({"text": "kept"})).await;
    let vic = app.account_user("Vic", "vic", PASSWORD).await;
    app.add_member(&project, &vic, ProjectRole::Viewer).await;

    let mut site = SiteClient::new(&app);
    assert_eq!(site.sign_in("vic", PASSWORD).await.status, StatusCode::SEE_OTHER);
    let csrf = site.csrf();
    let base = app.base_url.clone();
    let own = [("x-canvas-csrf", csrf.as_str()), ("origin", base.as_str())];
    let create = format!("/api/v2/projects/{project}/item/panel/label");
    let created = site.api_with(Method::POST, &create, Some(json!({"text": "viewer"})), &own).await;
    assert_eq!(created.status, StatusCode::FORBIDDEN, "{}", created.body);
    let patch = format!("/api/v2/projects/{project}/item/label/{id}");
    let patched = site.api_with(Method::PATCH, &patch, Some(json!({"text": "viewer"})), &own).await;
    assert_eq!(patched.status, StatusCode::FORBIDDEN, "{}", patched.body);
    let deleted = site.api_with(Method::DELETE, &format!("/api/v2/projects/{project}/item/{id}"), None, &own).await;
    assert_eq!(deleted.status, StatusCode::FORBIDDEN, "{}", deleted.body);
    // The viewer still reads with the cookie alone.
    let read = site.api(Method::GET, &format!("/api/v2/projects/{project}/item/{id}?jsonCasing=camel")).await;
    assert_eq!(read.status, StatusCode::OK, "{}", read.body);
    assert_eq!(json_of(&read)["text"], "kept");
    assert_eq!(texts(&app, &owner.bearer(), &project).await, vec![(id, "kept".to_owned())]);
}
