//! The account site (docs/ACCOUNTS.md) as people and MCP clients meet it, on both backends.
//!
//! - `account_site_in_the_browser`: headless Chromium runs `tests/browser/account_test.mjs`:
//!   a signed-out map link goes to sign-in and back to the same map, wrong credentials get one
//!   401 page, API tokens are created and revoked on their page and checked on the REST API,
//!   the projects page links maps, forged and cross-origin forms are refused and create nothing,
//!   sign-out ends the session, and a one-time sign-in link sets a password.
//! - `oauth_consent_in_the_browser`: a client registered over RFC 7591 sends a person through
//!   sign-in and the consent page (`tests/browser/oauth_consent.mjs`) to a loopback callback;
//!   the code becomes tokens that work on `/mcp` and not on the REST API; a denial comes back as
//!   `access_denied`.
//! - `account_pages_send_security_headers_and_cookie_attributes` (no browser): the headers every
//!   page carries, the session cookie's attributes, the Origin and CSRF refusals, `next` kept on
//!   the site, and sign-out, with reqwest.
//!
//! The browser tests need Debian's `chromium` and `playwright-core` in `~/.cache/canvas-browser`
//! (or `CANVAS_BROWSER_DIR`), both installed by `tests/run.sh`; a missing install fails with that
//! command. Full-page screenshots (`account-<page>-<backend>.png`) are kept under
//! `target/test-artifacts/` (of `CARGO_TARGET_DIR`), or `CANVAS_TEST_ARTIFACTS`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use canvas_tests::{backend_tests, Backend, TestApp};
use reqwest::header::{HeaderMap, SET_COOKIE};
use reqwest::{Method, StatusCode, Url};
use serde_json::{json, Value};
use tokio::process::Command;

use crate::browser::{artifacts_dir, browser_dir, require_browser};
use crate::support::send;

backend_tests!(
    account_site_in_the_browser,
    oauth_consent_in_the_browser,
    account_pages_send_security_headers_and_cookie_attributes
);

/// The policy docs/ACCOUNTS.md gives every account page.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; \
                   base-uri 'none'; frame-ancestors 'none'";

/// RFC 7636 Appendix B's example PKCE pair: a verifier and its S256 challenge, so the test needs
/// no hashing of its own and the pair is known to be right.
const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

/// Runs `tests/browser/<script>` with `args`, prints its output, and returns its stdout after
/// asserting it exited 0 with `summary` ("N passed, 0 failed").
async fn run_browser(script: &str, args: &[String], summary: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("browser").join(script);
    let mut command = Command::new("node");
    command.arg(&path).args(args).env("CANVAS_BROWSER_DIR", browser_dir());
    let output = tokio::time::timeout(Duration::from_secs(240), command.kill_on_drop(true).output())
        .await
        .unwrap_or_else(|_| panic!("{script} did not finish within 240 s"))
        .expect("node starts");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    println!("--- {script}\n{stdout}\n--- stderr\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success() && stdout.contains(summary), "{script} failed; its output is above");
    stdout
}

fn screenshot(page: &str, backend: Backend) -> PathBuf {
    let dir = artifacts_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("account-{page}-{}.png", format!("{backend:?}").to_lowercase()));
    let _ = std::fs::remove_file(&path);
    path
}

fn assert_screenshot(path: &Path) {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    assert!(size > 2_000, "the screenshot {} is missing or empty", path.display());
    println!("screenshot saved to {}", path.display());
}

async fn account_site_in_the_browser(backend: Backend) {
    require_browser();
    let app = TestApp::spawn(backend).await;
    let owner = app.account_user("Ada Lovelace", "ada", "analytical engine 1843").await;
    let project = app.project(&owner).await;
    let shape = json!({"type": "Ellipse", "size": {"width": 160, "height": 100}, "position": {"x": 0, "y": 0},
                       "fillColor": "#22C55E"});
    let reply = send(
        &app,
        Method::POST,
        &app.item_url(&project, "/panel/shape?jsonCasing=camel"),
        Some(&owner.bearer()),
        Some(shape),
    )
    .await;
    assert!(reply.status.is_success(), "{}", reply.body);
    let node = reply.body["itemId"].as_str().expect("itemId").to_owned();
    // The second person has no project, and a one-time link to set a new password with.
    let second = app.account_user("Grace Hopper", "grace", "first compiler 1952").await;
    let link = app.sign_in_link(&second).await;
    assert!(link.starts_with(&format!("{}/account/link?code=", app.base_url)), "{link}");

    let artifacts = artifacts_dir();
    let pages = ["sign-in", "sign-in-refused", "tokens", "projects", "activity", "link"];
    let shots: Vec<PathBuf> = pages.iter().map(|page| screenshot(page, backend)).collect();
    let suffix = format!("{backend:?}").to_lowercase();
    let args: Vec<String> = [
        ("--base", app.base_url.as_str()),
        ("--project", &project),
        ("--node", &node),
        ("--login", "ada"),
        ("--password", "analytical engine 1843"),
        ("--link", &link),
        ("--link-name", "Grace Hopper"),
        ("--link-login", "grace"),
        ("--link-password", "first compiler 1952"),
        ("--new-password", "nanoseconds are 30 cm"),
        ("--artifacts", artifacts.to_str().unwrap()),
        ("--suffix", &suffix),
    ]
    .into_iter()
    .flat_map(|(flag, value)| [flag.to_owned(), value.to_owned()])
    .collect();
    run_browser("account_test.mjs", &args, "14 passed, 0 failed").await;
    for shot in &shots {
        assert_screenshot(shot);
    }
}

/// What reached the loopback redirect URI, and the token answer to its code.
struct Callback {
    query: HashMap<String, String>,
    /// Status, `Cache-Control` and body of the token request made with the code.
    token: Option<(StatusCode, String, Value)>,
}

/// A native MCP client's loopback listener: it trades a code for tokens the moment it arrives,
/// as a real client does (the test stack's codes live only a few seconds), and keeps both.
async fn serve_callback(
    listener: tokio::net::TcpListener,
    token_endpoint: String,
    client_id: String,
    redirect_uri: String,
) -> Arc<Mutex<Vec<Callback>>> {
    let received: Arc<Mutex<Vec<Callback>>> = Arc::default();
    let kept = received.clone();
    let http = canvas_tests::http_client();
    let handler = move |axum::extract::Query(query): axum::extract::Query<HashMap<String, String>>| {
        let (kept, http, token_endpoint, client_id, redirect_uri) =
            (kept.clone(), http.clone(), token_endpoint.clone(), client_id.clone(), redirect_uri.clone());
        async move {
            let mut token = None;
            if let Some(code) = query.get("code") {
                let form = [
                    ("grant_type", "authorization_code"),
                    ("code", code.as_str()),
                    ("redirect_uri", redirect_uri.as_str()),
                    ("client_id", client_id.as_str()),
                    ("code_verifier", VERIFIER),
                ];
                let answer = http.post(&token_endpoint).form(&form).send().await.expect("the token endpoint answers");
                let cache = header(answer.headers(), "cache-control").to_owned();
                let status = answer.status();
                token = Some((status, cache, answer.json().await.unwrap_or(Value::Null)));
            }
            kept.lock().unwrap().push(Callback { query, token });
            axum::response::Html("<p>Done: you can close this tab.</p>")
        }
    };
    let router = axum::Router::new().route("/callback", axum::routing::get(handler));
    tokio::spawn(async move { axum::serve(listener, router).await });
    received
}

async fn oauth_consent_in_the_browser(backend: Backend) {
    require_browser();
    let app = TestApp::spawn(backend).await;
    let user = app.account_user("Ada Lovelace", "ada", "analytical engine 1843").await;
    let project = app.project(&user).await;
    // The port is chosen first: the redirect URI is registered with it.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let redirect_uri = format!("http://127.0.0.1:{}/callback", listener.local_addr().unwrap().port());

    let metadata: Value = app
        .http
        .get(format!("{}/.well-known/oauth-authorization-server", app.base_url))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .expect("authorization server metadata is JSON");
    let endpoint = |name: &str| metadata[name].as_str().unwrap_or_else(|| panic!("{name} in {metadata}")).to_owned();
    let registered = app
        .http
        .post(endpoint("registration_endpoint"))
        .json(&json!({"client_name": "Canvas browser test", "redirect_uris": [redirect_uri],
                      "token_endpoint_auth_method": "none", "grant_types": ["authorization_code", "refresh_token"],
                      "response_types": ["code"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(registered.status(), StatusCode::CREATED);
    let client: Value = registered.json().await.unwrap();
    let client_id = client["client_id"].as_str().expect("client_id").to_owned();
    let received = serve_callback(listener, endpoint("token_endpoint"), client_id.clone(), redirect_uri.clone()).await;

    let authorize = |state: &str| {
        Url::parse_with_params(
            &endpoint("authorization_endpoint"),
            [
                ("response_type", "code"),
                ("client_id", client_id.as_str()),
                ("redirect_uri", redirect_uri.as_str()),
                ("code_challenge", CHALLENGE),
                ("code_challenge_method", "S256"),
                ("state", state),
                ("scope", "mcp"),
                ("resource", app.mcp_url().as_str()),
            ],
        )
        .unwrap()
        .to_string()
    };
    let person = |url: String| -> Vec<String> {
        let flags = [
            ("--authorize-url", url.as_str()),
            ("--login", "ada"),
            ("--password", "analytical engine 1843"),
            ("--client-name", "Canvas browser test"),
        ];
        flags.into_iter().flat_map(|(flag, value)| [flag.to_owned(), value.to_owned()]).collect()
    };

    // Approved: the browser signs in, consents, and reaches the callback with a code.
    let state = uuid::Uuid::new_v4().to_string();
    let consent = screenshot("consent", backend);
    let mut args = person(authorize(&state));
    args.extend(["--screenshot".to_owned(), consent.to_str().unwrap().to_owned()]);
    run_browser("oauth_consent.mjs", &args, "1 passed, 0 failed").await;
    assert_screenshot(&consent);
    let answer = received.lock().unwrap().pop().expect("the callback was reached");
    assert_eq!(answer.query.get("state"), Some(&state), "{:?}", answer.query);
    let (status, cache, tokens) = answer.token.expect("the callback carried a code");
    assert_eq!(status, StatusCode::OK, "the code for tokens: {tokens}");
    assert!(cache.contains("no-store"), "a token answer must not be cached (RFC 6749 §5.1): {cache:?}");
    let access = tokens["access_token"].as_str().expect("access_token").to_owned();
    assert!(access.starts_with("svc_at_"), "{tokens}");
    assert!(tokens["refresh_token"].as_str().is_some_and(|t| t.starts_with("svc_rt_")), "{tokens}");
    assert!(tokens["token_type"].as_str().is_some_and(|t| t.eq_ignore_ascii_case("bearer")), "{tokens}");
    assert_eq!(tokens["expires_in"], json!(3600), "{tokens}");

    // The token acts as the person on /mcp ...
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                      "params": {"name": "list_projects", "arguments": {}}});
    let raw = crate::mcp::post(&app, Some(&format!("Bearer {access}")), crate::mcp::BOTH, call.to_string()).await;
    assert_eq!(raw.status, StatusCode::OK, "{}", raw.text);
    let listed = raw.json();
    let ids: Vec<&str> = listed["result"]["structuredContent"]["projects"]
        .as_array()
        .map(|all| all.iter().filter_map(|p| p["projectId"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(ids, vec![project.as_str()], "list_projects through OAuth: {listed}");
    // ... and only there: the REST API refuses it.
    let rest = app
        .http
        .get(format!("{}/api/v2/projects/{project}/items", app.base_url))
        .header("authorization", format!("Bearer {access}"))
        .send()
        .await
        .unwrap();
    assert_eq!(rest.status(), StatusCode::UNAUTHORIZED, "an MCP access token on the REST API");

    // Denied: the browser reaches the callback with access_denied and no code.
    let state = uuid::Uuid::new_v4().to_string();
    let mut args = person(authorize(&state));
    args.push("--deny".to_owned());
    run_browser("oauth_consent.mjs", &args, "1 passed, 0 failed").await;
    let answer = received.lock().unwrap().pop().expect("the callback was reached");
    assert_eq!(answer.query.get("state"), Some(&state), "{:?}", answer.query);
    assert_eq!(answer.query.get("error").map(String::as_str), Some("access_denied"), "{:?}", answer.query);
    assert!(answer.token.is_none(), "a denial carried a code: {:?}", answer.query);
}

/// The `name=value` of each `Set-Cookie` called `name`, with its attributes.
fn set_cookie<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.split(';').next().is_some_and(|pair| pair.trim().starts_with(&format!("{name}="))))
}

fn cookie_value(set_cookie: &str) -> String {
    let pair = set_cookie.split(';').next().unwrap().trim();
    pair.split_once('=').unwrap().1.to_owned()
}

fn header<'h>(headers: &'h HeaderMap, name: &str) -> &'h str {
    headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
}

/// The attributes of an HTML start tag (`<input type="hidden" name=csrf value='x'>`).
fn attributes(tag: &str) -> HashMap<String, String> {
    let mut found = HashMap::new();
    let body = tag.trim_start_matches('<').trim_end_matches('>').trim_end_matches('/');
    let mut rest = body.split_once(char::is_whitespace).map_or("", |(_, r)| r);
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return found;
        }
        let end = rest.find(|c: char| c == '=' || c.is_whitespace()).unwrap_or(rest.len());
        let name = rest[..end].to_ascii_lowercase();
        rest = rest[end..].trim_start();
        let mut value = String::new();
        if let Some(after) = rest.strip_prefix('=') {
            let after = after.trim_start();
            let (raw, remaining) = match after.chars().next() {
                Some(quote @ ('"' | '\'')) => {
                    let close = after[1..].find(quote).map_or(after.len(), |i| i + 1);
                    (&after[1..close], after.get(close + 1..).unwrap_or(""))
                }
                _ => {
                    let stop = after.find(char::is_whitespace).unwrap_or(after.len());
                    (&after[..stop], &after[stop..])
                }
            };
            value = raw
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&#x27;", "'")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&#x2F;", "/")
                .replace("&amp;", "&");
            rest = remaining;
        }
        if !name.is_empty() {
            found.insert(name, value);
        }
    }
}

/// A form of a page as a browser would submit it: where it posts (its `action` resolved against
/// the page's URL, the page itself when it has none, as HTML says) and its hidden fields (the
/// `csrf` field, and `next` where the form carries it that way).
#[derive(Clone)]
struct Form {
    action: Url,
    fields: Vec<(String, String)>,
    /// The `canvas_csrf` cookie to send with it, when the page set or kept one.
    csrf_cookie: Option<String>,
}

/// The first form on the page at `page_url` whose markup contains `needle`.
fn form_with(html: &str, page_url: &str, needle: &str) -> Form {
    let page_url = Url::parse(page_url).unwrap();
    let lower = html.to_ascii_lowercase();
    let mut from = 0;
    while let Some(start) = lower[from..].find("<form").map(|i| i + from) {
        let end = lower[start..].find("</form>").map_or(html.len(), |i| i + start);
        let markup = &html[start..end];
        from = end;
        if !markup.contains(needle) {
            continue;
        }
        let open_end = markup.find('>').map_or(markup.len(), |i| i + 1);
        let action = match attributes(&markup[..open_end]).get("action") {
            Some(action) if !action.is_empty() => page_url.join(action).expect("a form action URL"),
            _ => page_url.clone(),
        };
        let lower_form = &lower[start..end];
        let mut fields = Vec::new();
        let mut at = 0;
        while let Some(open) = lower_form[at..].find("<input").map(|i| i + at) {
            let close = lower_form[open..].find('>').map_or(markup.len(), |i| i + open + 1);
            let attrs = attributes(&markup[open..close]);
            if attrs.get("type").is_some_and(|t| t.eq_ignore_ascii_case("hidden")) {
                if let Some(name) = attrs.get("name") {
                    fields.push((name.clone(), attrs.get("value").cloned().unwrap_or_default()));
                }
            }
            at = close;
        }
        return Form { action, fields, csrf_cookie: None };
    }
    panic!("no form containing {needle:?} on {page_url}:\n{html}");
}

fn assert_page_headers(headers: &HeaderMap, page: &str) {
    assert_eq!(header(headers, "content-security-policy"), CSP, "{page}");
    assert_eq!(header(headers, "x-content-type-options"), "nosniff", "{page}");
    assert_eq!(header(headers, "referrer-policy"), "no-referrer", "{page}");
    assert!(header(headers, "cache-control").contains("no-store"), "{page}: {:?}", header(headers, "cache-control"));
}

/// Where a redirect sends the browser, as a path on this site; panics when it leaves the site.
fn location_path(headers: &HeaderMap, base: &str) -> String {
    let location = header(headers, "location");
    let path = location.strip_prefix(base).unwrap_or(location);
    assert!(path.starts_with('/') && !path.starts_with("//"), "a redirect off the site: {location:?}");
    path.to_owned()
}

/// How a sign-in form is posted: the page's form with `login` and `password` added, from this
/// site's origin unless `origin` says otherwise, with the csrf cookie the page set.
struct SignIn<'a> {
    http: &'a reqwest::Client,
    base: &'a str,
    csrf_cookie: &'a str,
}

impl SignIn<'_> {
    /// Opens the sign-in page (with `next` when given) and returns its form.
    async fn form(&self, next: Option<&str>) -> Form {
        let mut url = Url::parse(&format!("{}/account/sign-in", self.base)).unwrap();
        if let Some(next) = next {
            url.query_pairs_mut().append_pair("next", next);
        }
        let page = self.http.get(url.clone()).header("cookie", self.csrf_cookie).send().await.unwrap();
        assert_eq!(page.status(), StatusCode::OK, "{url}");
        // A page may hand out a fresh double-submit value; the form then goes with that one.
        let cookie = set_cookie(page.headers(), "canvas_csrf").map(|c| format!("canvas_csrf={}", cookie_value(c)));
        let mut form = form_with(&page.text().await.unwrap(), url.as_str(), "password");
        form.csrf_cookie = Some(cookie.unwrap_or_else(|| self.csrf_cookie.to_owned()));
        form
    }

    /// Posts `form` from this site's origin, as the page itself would.
    async fn post(&self, form: &Form, password: &str) -> reqwest::Response {
        self.post_with(form, password, Some(self.base), &[]).await
    }

    /// Posts `form` with the given `Origin` (none when `None`) and further headers.
    async fn post_with(
        &self,
        form: &Form,
        password: &str,
        origin: Option<&str>,
        headers: &[(&str, &str)],
    ) -> reqwest::Response {
        let mut fields = form.fields.clone();
        fields.push(("login".into(), "ada".into()));
        fields.push(("password".into(), password.into()));
        let cookie = form.csrf_cookie.as_deref().unwrap_or(self.csrf_cookie);
        let mut request = self.http.post(form.action.clone()).header("cookie", cookie).form(&fields);
        if let Some(origin) = origin {
            request = request.header("origin", origin);
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send().await.unwrap()
    }
}

async fn account_pages_send_security_headers_and_cookie_attributes(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let user = app.account_user("Ada Lovelace", "ada", "analytical engine 1843").await;
    let project = app.project(&user).await;
    let base = app.base_url.clone();
    const PASSWORD: &str = "analytical engine 1843";
    // Redirects are what is being checked, so none is followed.
    let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();

    // The sign-in page: the documented headers and a double-submit csrf cookie.
    let page = http.get(format!("{base}/account/sign-in")).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert_page_headers(page.headers(), "sign-in");
    let csrf_cookie = set_cookie(page.headers(), "canvas_csrf").expect("a canvas_csrf cookie").to_owned();
    let csrf_pair = format!("canvas_csrf={}", cookie_value(&csrf_cookie));
    let signer = SignIn { http: &http, base: &base, csrf_cookie: &csrf_pair };
    let form = signer.form(None).await;
    assert!(form.fields.iter().any(|(name, _)| name == "csrf"), "the sign-in form carries csrf: {:?}", form.fields);

    // Refused before anything else: another origin, or a cross-site fetch without Origin.
    let forged = signer.post_with(&form, PASSWORD, Some("http://evil.example"), &[]).await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN, "a sign-in posted from another origin");
    assert!(set_cookie(forged.headers(), "canvas_session").is_none());
    let cross_site = signer.post_with(&form, PASSWORD, None, &[("sec-fetch-site", "cross-site")]).await;
    assert_eq!(cross_site.status(), StatusCode::FORBIDDEN, "a sign-in marked Sec-Fetch-Site: cross-site");
    assert!(set_cookie(cross_site.headers(), "canvas_session").is_none());
    // The double-submit check: the form without its csrf value, and with another value.
    for tamper in ["missing", "wrong"] {
        let mut tampered = form.clone();
        tampered.fields.retain(|(name, _)| name != "csrf");
        if tamper == "wrong" {
            tampered.fields.push(("csrf".into(), "a-forged-value".into()));
        }
        let expired = signer.post(&tampered, PASSWORD).await;
        assert_eq!(expired.status(), StatusCode::FORBIDDEN, "a sign-in with a {tamper} csrf");
        assert!(set_cookie(expired.headers(), "canvas_session").is_none());
        let text = expired.text().await.unwrap();
        assert!(text.contains("This form has expired or came from another site."), "{text}");
    }

    // A wrong password: the 401 page, and no session.
    let wrong = signer.post(&form, "not the password").await;
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    assert!(set_cookie(wrong.headers(), "canvas_session").is_none());
    assert!(wrong.text().await.unwrap().contains("The login or password is not correct."));

    // The right one: 303 to the projects page and a session cookie with the documented attributes.
    let signed_in = signer.post(&form, PASSWORD).await;
    assert_eq!(signed_in.status(), StatusCode::SEE_OTHER);
    assert_eq!(location_path(signed_in.headers(), &base), "/account/projects");
    let session = set_cookie(signed_in.headers(), "canvas_session").expect("a canvas_session cookie").to_owned();
    let attributes: Vec<String> = session.split(';').skip(1).map(|a| a.trim().to_ascii_lowercase()).collect();
    assert!(cookie_value(&session).starts_with("svc_ss_"), "{session}");
    assert!(attributes.iter().any(|a| a == "httponly"), "HttpOnly: {session}");
    assert!(attributes.iter().any(|a| a == "samesite=lax"), "SameSite=Lax: {session}");
    assert!(attributes.iter().any(|a| a == "path=/"), "Path=/: {session}");
    assert!(!attributes.iter().any(|a| a == "secure"), "no Secure on a plain-HTTP development URL: {session}");
    assert!(!attributes.iter().any(|a| a.starts_with("domain")), "no Domain: {session}");
    let session_pair = format!("canvas_session={}", cookie_value(&session));

    // Signed in: every page with its headers; /account goes to the projects.
    for path in ["/account/projects", "/account/api-tokens", "/account/activity", "/account/password"] {
        let page = http.get(format!("{base}{path}")).header("cookie", &session_pair).send().await.unwrap();
        assert_eq!(page.status(), StatusCode::OK, "{path}");
        assert_page_headers(page.headers(), path);
    }
    let projects = http.get(format!("{base}/account/projects")).header("cookie", &session_pair).send().await.unwrap();
    let projects = projects.text().await.unwrap();
    assert!(projects.contains(&format!("/map/{project}")), "the projects page links the map:\n{projects}");
    let home = http.get(format!("{base}/account")).header("cookie", &session_pair).send().await.unwrap();
    assert!(home.status().is_redirection(), "/account signed in: {}", home.status());
    assert_eq!(location_path(home.headers(), &base), "/account/projects");
    let home = http.get(format!("{base}/account")).send().await.unwrap();
    assert!(home.status().is_redirection(), "/account signed out: {}", home.status());
    assert!(location_path(home.headers(), &base).starts_with("/account/sign-in"));

    // `next` stays on this site however it is spelled, and a path on the site is kept.
    for next in ["https://evil.example/x", "//evil.example/x", "/\\evil.example/x"] {
        let answer = signer.post(&signer.form(Some(next)).await, PASSWORD).await;
        assert_eq!(answer.status(), StatusCode::SEE_OTHER, "next={next}");
        let path = location_path(answer.headers(), &base);
        assert!(!path.contains("evil.example"), "next={next} sent the browser to {path}");
    }
    let answer = signer.post(&signer.form(Some("/account/activity")).await, PASSWORD).await;
    assert_eq!(answer.status(), StatusCode::SEE_OTHER);
    assert_eq!(location_path(answer.headers(), &base), "/account/activity");

    // Sign-out, with the signed-in page's csrf: 303 to sign-in, and the session is gone.
    let projects_url = format!("{base}/account/projects");
    let page = http.get(&projects_url).header("cookie", &session_pair).send().await.unwrap();
    let out_form = form_with(&page.text().await.unwrap(), &projects_url, "/account/sign-out");
    let out = http
        .post(out_form.action.clone())
        .header("cookie", &session_pair)
        .header("origin", &base)
        .form(&out_form.fields)
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), StatusCode::SEE_OTHER);
    assert!(location_path(out.headers(), &base).starts_with("/account/sign-in"));
    let after = http.get(format!("{base}/account/api-tokens")).header("cookie", &session_pair).send().await.unwrap();
    assert!(after.status().is_redirection(), "the old session still opens the tokens page: {}", after.status());
    assert!(location_path(after.headers(), &base).starts_with("/account/sign-in"));
    let read = http
        .get(format!("{base}/api/v2/projects/{project}/items"))
        .header("cookie", &session_pair)
        .send()
        .await
        .unwrap();
    assert_eq!(read.status(), StatusCode::UNAUTHORIZED, "the old session still reads through REST");
}
