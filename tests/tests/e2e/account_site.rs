//! The account site over HTTP, as a browser without JavaScript uses it:
//! sign-in answering alike for unknown logins and wrong passwords, the
//! throttle's cap, the session cookie's attributes, sessions that read the
//! REST API but never write through it, tokens made and revoked on the site,
//! CSRF and cross-site posts, sign-out and one-time sign-in links.

use canvas_tests::{backend_tests, Backend, TestApp, TEST_SIGN_IN_MAX_DELAY_SECS};
use reqwest::{Method, StatusCode};

use crate::site_client::SiteClient;
use crate::support::send;

backend_tests!(
    sign_in_answers_alike_for_unknown_logins_and_wrong_passwords,
    wrong_passwords_slow_an_account_down_but_never_past_the_cap,
    a_session_reads_the_api_and_opens_the_map_but_never_writes,
    tokens_made_on_the_site_work_until_revoked_and_forms_need_their_csrf,
    a_sign_in_link_signs_in_once_and_sets_the_password,
    concurrent_sign_ins_are_all_served_and_a_link_races_to_one_session,
    a_password_change_signs_every_other_session_out,
    audit_history_and_throttle_counts_stay_bounded,
);

const PASSWORD: &str = "correct horse battery";
const REFUSED: &str = "The login or password is not correct.";

async fn sign_in_answers_alike_for_unknown_logins_and_wrong_passwords(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.account_user("Ada", "Ada.L", PASSWORD).await;
    let mut site = SiteClient::new(&app);

    let wrong = site.sign_in("ada.l", "wrong horse battery").await;
    let unknown = site.sign_in("nobody", "wrong horse battery").await;
    for page in [&wrong, &unknown] {
        assert_eq!(page.status, StatusCode::UNAUTHORIZED, "{}", page.body);
        assert!(page.body.contains(REFUSED), "{}", page.body);
        assert!(site.session().is_none(), "no session after a failure");
    }
    // Longer than any password can be: the same refusal; a form of megabytes is not read at all.
    let long = site.sign_in("ada.l", &"x".repeat(300)).await;
    assert_eq!(long.status, StatusCode::UNAUTHORIZED, "{}", long.body);
    let csrf = site.get("/account/sign-in").await.hidden("csrf");
    let huge = "x".repeat(2 * 1024 * 1024);
    let oversized = site.post("/account/sign-in", &[("login", "ada.l"), ("password", &huge), ("csrf", &csrf)]).await;
    assert_eq!(oversized.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", oversized.body);
    assert!(oversized.body.contains("larger than 64 KiB"), "{}", oversized.body);
    // A form of 2 MiB is read to its end, so the connection stays usable: the next request on
    // the same client (the sign-in below) is served, not broken off (CI saw that once).
    assert!(oversized.headers.get("connection").is_none(), "{:?}", oversized.headers);
    for path in ["/account/sign-in", "/oauth/token"] {
        let answer = declared_far_over_the_limit(&app, path).await;
        let head = answer.to_ascii_lowercase();
        assert!(head.starts_with("http/1.1 413"), "{path}: {answer}");
        assert!(head.contains("connection: close"), "{path}: an unread body closes the connection: {answer}");
    }
    let strip = |body: &str| body.replace("ada.l", "").replace("nobody", "");
    assert_eq!(
        strip(&wrong.body).len(),
        strip(&unknown.body).len(),
        "the two refusals differ only in the echoed login"
    );

    // The login is matched whatever its case; the session cookie is strict.
    let signed_in = site.sign_in("ADA.L", PASSWORD).await;
    assert_eq!(signed_in.status, StatusCode::SEE_OTHER, "{}", signed_in.body);
    assert_eq!(signed_in.location(), "/account/projects");
    let cookie =
        signed_in.set_cookies().into_iter().find(|c| c.starts_with("canvas_session=")).expect("a session cookie");
    let lower = cookie.to_ascii_lowercase();
    for attribute in ["httponly", "samesite=lax", "path=/"] {
        assert!(lower.contains(attribute), "{cookie} lacks {attribute}");
    }
    assert!(!lower.contains("domain="), "{cookie}: host-only");
    assert!(site.session().is_some_and(|s| s.starts_with("svc_ss_")));
    let projects = site.get("/account/projects").await;
    assert_eq!(projects.status, StatusCode::OK);
    let policy = projects.headers["content-security-policy"].to_str().unwrap();
    assert!(policy.contains("default-src 'none'") && policy.contains("frame-ancestors 'none'"), "{policy}");
    assert_eq!(projects.headers["cache-control"], "no-store");
}

async fn wrong_passwords_slow_an_account_down_but_never_past_the_cap(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.account_user("Bo", "bo", PASSWORD).await;
    let mut site = SiteClient::new(&app);

    for login in ["bo", "no-such-user"] {
        let mut statuses = Vec::new();
        let mut longest_wait = 0;
        for _ in 0..20 {
            let page = site.sign_in(login, "not the password").await;
            if page.status == StatusCode::TOO_MANY_REQUESTS {
                let wait: u64 = page.headers["retry-after"].to_str().unwrap().parse().unwrap();
                assert!((1..=TEST_SIGN_IN_MAX_DELAY_SECS).contains(&wait), "Retry-After {wait}");
                longest_wait = longest_wait.max(wait);
            }
            statuses.push(page.status.as_u16());
        }
        assert_eq!(&statuses[..5], &[401; 5], "{login}: the first five are free: {statuses:?}");
        assert!(statuses[5..].contains(&429), "{login}: later ones are slowed down: {statuses:?}");
        assert!(statuses.iter().all(|s| *s == 401 || *s == 429), "{statuses:?}");
        assert!(longest_wait >= 1, "{login}");
    }

    // Waiting out the documented cap lets the right password in.
    let early = site.sign_in("bo", PASSWORD).await;
    if early.status == StatusCode::TOO_MANY_REQUESTS {
        let wait: u64 = early.headers["retry-after"].to_str().unwrap().parse().unwrap();
        assert!(wait <= TEST_SIGN_IN_MAX_DELAY_SECS);
        tokio::time::sleep(std::time::Duration::from_secs(wait)).await;
        let late = site.sign_in("bo", PASSWORD).await;
        assert_eq!(late.status, StatusCode::SEE_OTHER, "{}", late.body);
    } else {
        assert_eq!(early.status, StatusCode::SEE_OTHER, "{}", early.body);
    }
    // Success clears the count: the next wrong password is an ordinary 401.
    let mut other = SiteClient::new(&app);
    assert_eq!(other.sign_in("bo", "not the password").await.status, StatusCode::UNAUTHORIZED);
}

async fn a_session_reads_the_api_and_opens_the_map_but_never_writes(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let ada = app.account_user("Ada", "ada", PASSWORD).await;
    let project = app.project(&ada).await;
    let items = format!("/api/v2/projects/{project}/items");
    let map = format!("/map/{project}?node=abc");

    let mut site = SiteClient::new(&app);
    let signed_out = site.get(&map).await;
    assert_eq!(signed_out.status, StatusCode::SEE_OTHER);
    assert_eq!(signed_out.location(), format!("/account/sign-in?next={}", urlencoding_path(&map)));
    assert_eq!(site.api(Method::GET, &items).await.status, StatusCode::UNAUTHORIZED);

    assert_eq!(site.sign_in("ada", PASSWORD).await.status, StatusCode::SEE_OTHER);
    assert_eq!(site.get(&map).await.status, StatusCode::OK, "the map opens for a signed-in member");
    let read = site.api(Method::GET, &items).await;
    assert_eq!(read.status, StatusCode::OK, "{}", read.body);

    // A cookie never carries a write: a cross-site page could otherwise make one.
    let label = serde_json::json!({"text": "written with a cookie"});
    let write = site.api_json(Method::POST, &format!("/api/v2/projects/{project}/item/panel/label"), label).await;
    assert_eq!(write.status, StatusCode::UNAUTHORIZED, "{}", write.body);
    let delete = site
        .api(Method::DELETE, &format!("/api/v2/projects/{project}/item/00000000-0000-0000-0000-000000000000"))
        .await;
    assert_eq!(delete.status, StatusCode::UNAUTHORIZED, "{}", delete.body);
    let listed = send(&app, Method::GET, &format!("{}{items}", app.base_url), Some(&ada.bearer()), None).await;
    assert_eq!(listed.body["Items"].as_array().map(Vec::len), Some(0), "nothing was written: {}", listed.body);

    // Signing out ends it, for the pages and the API alike.
    let session = site.session().cloned().unwrap();
    let page = site.get("/account/api-tokens").await;
    let out = site.post("/account/sign-out", &[("csrf", &page.hidden("csrf"))]).await;
    assert_eq!(out.status, StatusCode::SEE_OTHER);
    assert!(site.session().is_none(), "the cookie is cleared");
    site.cookies.insert("canvas_session".into(), session);
    assert_eq!(site.get("/account/api-tokens").await.status, StatusCode::SEE_OTHER, "the old session is gone");
    assert_eq!(site.api(Method::GET, &items).await.status, StatusCode::UNAUTHORIZED);
}

/// `path` as the sign-in redirect carries it in `next`.
fn urlencoding_path(path: &str) -> String {
    url::form_urlencoded::byte_serialize(path.as_bytes()).collect()
}

async fn tokens_made_on_the_site_work_until_revoked_and_forms_need_their_csrf(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let ada = app.account_user("Ada", "ada", PASSWORD).await;
    let project = app.project(&ada).await;
    let items = format!("{}/api/v2/projects/{project}/items", app.base_url);
    let mut site = SiteClient::new(&app);
    assert_eq!(site.sign_in("ada", PASSWORD).await.status, StatusCode::SEE_OTHER);

    let page = site.get("/account/api-tokens").await;
    assert_eq!(page.status, StatusCode::OK);
    let csrf = page.hidden("csrf");

    // Refused: another site's form, and this site's form without or with a wrong CSRF value.
    let forged =
        site.post_from("https://evil.example", "/account/api-tokens", &[("name", "evil"), ("csrf", &csrf)]).await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN, "{}", forged.body);
    let missing = site.post("/account/api-tokens", &[("name", "evil")]).await;
    assert_eq!(missing.status, StatusCode::FORBIDDEN, "{}", missing.body);
    let wrong = site.post("/account/api-tokens", &[("name", "evil"), ("csrf", "x")]).await;
    assert_eq!(wrong.status, StatusCode::FORBIDDEN, "{}", wrong.body);
    assert!(!site.get("/account/api-tokens").await.body.contains("evil"), "no token was made");

    let created = site.post("/account/api-tokens", &[("name", "laptop <b>"), ("csrf", &csrf)]).await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.body);
    assert!(created.body.contains("laptop &lt;b&gt;"), "names are escaped");
    let token = created
        .body
        .split("id=\"new-token\"")
        .nth(1)
        .and_then(|rest| rest.split("value=\"").nth(1))
        .map(|v| v[..v.find('"').unwrap()].to_owned())
        .expect("the new token is shown");
    assert!(token.starts_with("svc_tk_") && token.len() == 50, "{token}");
    let listing = site.get("/account/api-tokens").await;
    assert!(!listing.body.contains(&token), "the secret is shown once only");
    assert!(listing.body.contains(&token[..11]), "the list shows its prefix");

    let bearer = format!("Bearer {token}");
    assert_eq!(send(&app, Method::GET, &items, Some(&bearer), None).await.status, StatusCode::OK);
    // The rows are the test's own token and the site's; the site's is the other one.
    let mut ids: Vec<String> =
        listing.body.split("data-token-id=\"").skip(1).map(|v| v[..v.find('"').unwrap()].to_owned()).collect();
    ids.retain(|id| *id != ada.token_id);
    assert_eq!(ids.len(), 1, "{}", listing.body);
    let token_id = ids.remove(0);
    let revoked = site.post(&format!("/account/api-tokens/{token_id}/revoke"), &[("csrf", &csrf)]).await;
    assert_eq!(revoked.status, StatusCode::SEE_OTHER, "{}", revoked.body);
    assert_eq!(send(&app, Method::GET, &items, Some(&bearer), None).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        send(&app, Method::GET, &items, Some(&ada.bearer()), None).await.status,
        StatusCode::OK,
        "only that one"
    );

    // Another user's token cannot be revoked from this account.
    let bo = app.user("Bo").await;
    let foreign = site.post(&format!("/account/api-tokens/{}/revoke", bo.token_id), &[("csrf", &csrf)]).await;
    assert_eq!(foreign.status, StatusCode::NOT_FOUND, "{}", foreign.body);
    assert_eq!(
        send(&app, Method::GET, &items.replace(&project, &app.project(&bo).await), Some(&bo.bearer()), None)
            .await
            .status,
        StatusCode::OK
    );

    let activity = site.get("/account/activity").await;
    for kind in ["sign_in", "token_created", "token_revoked"] {
        assert!(activity.body.contains(kind), "{kind} in {}", activity.body);
    }
}

async fn a_sign_in_link_signs_in_once_and_sets_the_password(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let cy = app.account_user("Cy", "cy", "").await;
    let link = app.sign_in_link(&cy).await;
    let path = link.strip_prefix(&app.base_url).unwrap().to_owned();
    let code = path.split("code=").nth(1).unwrap().to_owned();

    let mut site = SiteClient::new(&app);
    // Opening the page (as a mail scanner would) does not use the link up.
    for _ in 0..2 {
        let page = site.get(&path).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.body);
        assert!(page.body.contains("Cy"), "{}", page.body);
    }
    let page = site.get(&path).await;
    let csrf = page.hidden("csrf");
    let short = site.post("/account/link", &[("code", &code), ("new_password", "short"), ("csrf", &csrf)]).await;
    assert_eq!(short.status, StatusCode::BAD_REQUEST, "{}", short.body);
    assert!(short.body.contains("at least 8"), "{}", short.body);
    assert!(site.session().is_none());

    let used = site.post("/account/link", &[("code", &code), ("new_password", PASSWORD), ("csrf", &csrf)]).await;
    assert_eq!(used.status, StatusCode::SEE_OTHER, "{}", used.body);
    assert!(site.session().is_some());
    let mut again = SiteClient::new(&app);
    let page = again.get(&path).await;
    assert!(page.status.is_client_error(), "a used link is refused: {}", page.status);
    assert_eq!(again.sign_in("cy", PASSWORD).await.status, StatusCode::SEE_OTHER, "the password it set works");
}

async fn concurrent_sign_ins_are_all_served_and_a_link_races_to_one_session(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let dee = app.account_user("Dee", "dee", PASSWORD).await;

    // 24 people (or tabs) signing in at once: each password check waits its turn, none is refused.
    let sign_ins = futures::future::join_all((0..24).map(|_| {
        let mut site = SiteClient::new(&app);
        async move { (site.sign_in("dee", PASSWORD).await.status, site.session().cloned()) }
    }))
    .await;
    assert!(
        sign_ins.iter().all(|(status, _)| *status == StatusCode::SEE_OTHER),
        "{:?}",
        sign_ins.iter().map(|s| s.0).collect::<Vec<_>>()
    );
    let sessions: std::collections::BTreeSet<_> = sign_ins.into_iter().filter_map(|(_, s)| s).collect();
    assert_eq!(sessions.len(), 24, "every sign-in has its own session");

    // One link used from eight tabs at once signs in exactly once.
    let link = app.sign_in_link(&dee).await;
    let path = link.strip_prefix(&app.base_url).unwrap().to_owned();
    let code = path.split("code=").nth(1).unwrap().to_owned();
    // Every tab opens the page first (which does not use the link), then all continue at once.
    let mut tabs = Vec::new();
    for _ in 0..8 {
        let mut site = SiteClient::new(&app);
        let csrf = site.get(&path).await.hidden("csrf");
        tabs.push((site, csrf));
    }
    let uses =
        futures::future::join_all(
            tabs.iter_mut().map(|(site, csrf)| {
                let code = code.clone();
                async move {
                    site.post("/account/link", &[("code", &code), ("new_password", ""), ("csrf", csrf)]).await.status
                }
            }),
        )
        .await;
    assert_eq!(uses.iter().filter(|s| **s == StatusCode::SEE_OTHER).count(), 1, "{uses:?}");
    assert!(uses.iter().all(|s| *s == StatusCode::SEE_OTHER || s.is_client_error()), "{uses:?}");
}

async fn a_password_change_signs_every_other_session_out(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.account_user("Eve", "eve", PASSWORD).await;
    let (mut here, mut elsewhere) = (SiteClient::new(&app), SiteClient::new(&app));
    assert_eq!(here.sign_in("eve", PASSWORD).await.status, StatusCode::SEE_OTHER);
    assert_eq!(elsewhere.sign_in("eve", PASSWORD).await.status, StatusCode::SEE_OTHER);

    let form = here.get("/account/password").await;
    let csrf = form.hidden("csrf");
    let wrong = here
        .post(
            "/account/password",
            &[("current_password", "not it at all"), ("new_password", "a new passphrase"), ("csrf", &csrf)],
        )
        .await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST, "{}", wrong.body);
    assert_eq!(elsewhere.get("/account/api-tokens").await.status, StatusCode::OK, "a refused change ends nothing");

    let changed = here
        .post(
            "/account/password",
            &[("current_password", PASSWORD), ("new_password", "a new passphrase"), ("csrf", &csrf)],
        )
        .await;
    assert!(changed.status.is_success() || changed.status.is_redirection(), "{}: {}", changed.status, changed.body);
    assert_eq!(here.get("/account/api-tokens").await.status, StatusCode::OK, "this session stays");
    assert_eq!(elsewhere.get("/account/api-tokens").await.status, StatusCode::SEE_OTHER, "the other one is signed out");
    let mut later = SiteClient::new(&app);
    assert_eq!(later.sign_in("eve", PASSWORD).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(later.sign_in("eve", "a new passphrase").await.status, StatusCode::SEE_OTHER);
    let activity = here.get("/account/activity").await;
    assert!(activity.body.contains("1 other session(s) signed out"), "{}", activity.body);
}

/// A user's audit history keeps only its newest records, and failed sign-ins for logins nobody
/// has leave no lasting rows: neither grows without bound however long someone keeps trying.
async fn audit_history_and_throttle_counts_stay_bounded(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let user = app.account_user("Fay", "fay", PASSWORD).await;
    let user_id = uuid::Uuid::parse_str(&user.id).unwrap();
    let storage = &app.core.stores().accounts;
    for n in 0..6 {
        let record = core_service::storage::AuditRow {
            id: uuid::Uuid::now_v7(),
            user_id: core_service::domain::UserId::from_uuid(user_id),
            kind: "sign_in_failed".into(),
            at: chrono::Utc::now(),
            client_address: String::new(),
            detail: format!("attempt {n}"),
        };
        storage.insert_audit(&record, 3).await.unwrap();
    }
    let kept: Vec<String> = storage
        .list_audit(core_service::domain::UserId::from_uuid(user_id), 100)
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.detail)
        .collect();
    assert_eq!(kept, ["attempt 5", "attempt 4", "attempt 3"], "the newest three, newest first");

    // A count idle for longer than an hour is dropped when the next failure comes in.
    let now = chrono::Utc::now();
    let long_ago = now - chrono::Duration::hours(2);
    storage.record_sign_in_failure("login:stale", long_ago, long_ago, long_ago).await.unwrap();
    let fresh =
        storage.record_sign_in_failure("login:fresh", now, now, now - chrono::Duration::hours(1)).await.unwrap();
    assert_eq!(fresh.failures, 1);
    let keys = ["login:stale".to_owned(), "login:fresh".to_owned()];
    let rows: Vec<String> = storage.throttle_rows(&keys).await.unwrap().into_iter().map(|r| r.key).collect();
    assert_eq!(rows, ["login:fresh"]);
}

/// Sends only the head of a form post that declares 100 MB, far past what is read to be refused,
/// and returns the head of the answer (within 5 s).
async fn declared_far_over_the_limit(app: &TestApp, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let address = app.base_url.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(address).await.expect("connect");
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/x-www-form-urlencoded\r\n\
         Content-Length: 100000000\r\n\r\nlogin=a&password="
    );
    stream.write_all(head.as_bytes()).await.expect("send the head");
    let mut answer = Vec::new();
    let read = tokio::time::timeout(std::time::Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "{path}: the connection is closed after the answer, not left open");
    String::from_utf8_lossy(&answer).split("\r\n\r\n").next().unwrap_or_default().to_owned()
}
