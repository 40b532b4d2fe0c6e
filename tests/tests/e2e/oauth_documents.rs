//! OAuth clients named by a Client ID Metadata Document (MCP 2026-07-28): the client's id is an
//! `https://` URL, the account site fetches the JSON there over real TLS (a local CA, trusted as
//! the webhook tests trust theirs) under the webhook destination rules, and every rule of the URL,
//! the fetch and the document is answered on a page shown to the person, never at a redirect URI.
//! The official MCP Python SDK's CIMD flow is in `canvasctl/tests/oauth_sdk.rs`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{HeaderName, StatusCode as AxumStatus};
use axum::response::{IntoResponse, Response};
use canvas_tests::webhooks::{client_settings, test_webhooks};
use canvas_tests::{backend_tests, keyword_only, Backend, TestApp};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use webhook_client::receiver::{serve_tls, LocalCa};

use crate::oauth::{
    authorize_query, consent_form, exchange, json_of, mcp_status, signed_in_site, token, REDIRECT, VERIFIER,
};
use crate::site_client::SiteClient;

backend_tests!(
    a_client_named_by_its_metadata_document_connects_without_registering,
    the_typescript_sdk_connects_by_its_metadata_document,
    documents_and_urls_that_cannot_be_trusted_are_shown_not_redirected,
    a_document_is_fetched_again_only_when_its_caching_headers_say,
    many_authorizations_of_a_client_nobody_fetched_yet_are_all_served,
);

/// What the document server answers at one path.
#[derive(Clone)]
struct Served {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
    /// Wait this long before answering (a slow host).
    delay: Duration,
}

impl Served {
    fn json(body: &Value, cache_control: &str) -> Served {
        Served {
            status: 200,
            headers: vec![("content-type", "application/json".into()), ("cache-control", cache_control.into())],
            body: body.to_string().into_bytes(),
            delay: Duration::ZERO,
        }
    }
}

#[derive(Default)]
struct Documents {
    served: Mutex<HashMap<String, Served>>,
    fetches: Mutex<HashMap<String, usize>>,
}

/// An HTTPS server of client metadata documents on 127.0.0.1, its certificate from `ca`.
struct DocumentServer {
    /// `https://127.0.0.1:PORT`
    origin: String,
    documents: Arc<Documents>,
    stop: CancellationToken,
}

async fn answer(State(documents): State<Arc<Documents>>, Path(path): Path<String>) -> Response {
    *documents.fetches.lock().unwrap().entry(path.clone()).or_default() += 1;
    let served = documents.served.lock().unwrap().get(&path).cloned();
    let Some(served) = served else { return AxumStatus::NOT_FOUND.into_response() };
    tokio::time::sleep(served.delay).await;
    let mut response = (AxumStatus::from_u16(served.status).unwrap(), served.body).into_response();
    for (name, value) in served.headers {
        response.headers_mut().insert(HeaderName::from_static(name), value.parse().unwrap());
    }
    response
}

impl DocumentServer {
    async fn start(ca: &LocalCa) -> DocumentServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin = format!("https://{}", listener.local_addr().unwrap());
        let documents = Arc::new(Documents::default());
        let router = axum::Router::new().route("/{*path}", axum::routing::get(answer)).with_state(documents.clone());
        let stop = CancellationToken::new();
        tokio::spawn(serve_tls(listener, ca.server_config(&["127.0.0.1"]).unwrap(), router, stop.clone()));
        DocumentServer { origin, documents, stop }
    }

    fn url(&self, path: &str) -> String {
        format!("{}/{path}", self.origin)
    }

    fn serve(&self, path: &str, served: Served) {
        self.documents.served.lock().unwrap().insert(path.to_owned(), served);
    }

    fn fetches(&self, path: &str) -> usize {
        self.documents.fetches.lock().unwrap().get(path).copied().unwrap_or(0)
    }
}

impl Drop for DocumentServer {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

/// The stack, trusting `ca` and allowed to call 127.0.0.1 (as the webhook tests), and a document
/// server with a certificate from the same CA.
async fn stack(backend: Backend) -> (TestApp, DocumentServer, tempfile::TempDir) {
    let ca = LocalCa::generate().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let ca_file = dir.path().join("ca.pem");
    std::fs::write(&ca_file, ca.ca_pem()).unwrap();
    let config = core_service::webhooks::WebhookConfig { client: client_settings(&ca_file), ..test_webhooks() };
    let app = TestApp::spawn_configured(backend, "development", keyword_only(), config).await;
    (app, DocumentServer::start(&ca).await, dir)
}

fn document(client_id: &str, name: &str, redirects: &[&str]) -> Value {
    json!({"client_id": client_id, "client_name": name, "redirect_uris": redirects,
           "grant_types": ["authorization_code", "refresh_token"], "token_endpoint_auth_method": "none",
           "application_type": "native"})
}

/// The example document of docs/ACCOUNTS.md, moved to `client_id`: what the docs show works.
fn documented_example(client_id: &str) -> Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/ACCOUNTS.md")).unwrap();
    let marker = "```json\n{\n  \"client_id\": \"https://agent.example/";
    let start = text.find(marker).expect("docs/ACCOUNTS.md shows an example metadata document") + "```json\n".len();
    let end = start + text[start..].find("```").unwrap();
    let mut document: Value = serde_json::from_str(&text[start..end]).expect("the documented example is JSON");
    document["client_id"] = json!(client_id);
    document
}

/// The query pairs of a redirect.
fn pairs(location: &str) -> HashMap<String, String> {
    url::Url::parse(location).unwrap().query_pairs().into_owned().collect()
}

/// GET the authorization request of `client_id`: the page (or redirect) as answered.
async fn authorize(app: &TestApp, site: &mut SiteClient, client_id: &str, redirect: &str) -> crate::site_client::Page {
    site.get(&format!("/oauth/authorize?{}", authorize_query(client_id, redirect, "S256", &app.mcp_url()))).await
}

/// The refusal page's error code and what it says, after checking it was shown, not redirected.
fn shown_refusal(page: &crate::site_client::Page, what: &str) -> (String, String) {
    assert_eq!(page.status, StatusCode::BAD_REQUEST, "{what}: {}", page.body);
    assert!(page.location().is_empty(), "{what}: never redirected: {}", page.location());
    let code = page.body.split("id=\"oauth-error\">").nth(1).and_then(|rest| rest.split('<').next()).unwrap_or("");
    // The page's text, as the person reads it (the refusal's quotes are HTML-escaped).
    (code.to_owned(), page.body.replace("&#39;", "'").replace("&quot;", "\"").replace("&amp;", "&"))
}

async fn a_client_named_by_its_metadata_document_connects_without_registering(backend: Backend) {
    let (app, documents, _dir) = stack(backend).await;
    let (mut site, _) = signed_in_site(&app).await;
    let client_id = documents.url("agents/doc-agent.json");
    documents.serve("agents/doc-agent.json", Served::json(&documented_example(&client_id), "max-age=3600"));

    // Nobody signed in: sign in first, and nothing is fetched for a stranger.
    let mut stranger = SiteClient::new(&app);
    let page = authorize(&app, &mut stranger, &client_id, REDIRECT).await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    assert!(page.location().starts_with("/account/sign-in"), "{}", page.location());
    assert_eq!(documents.fetches("agents/doc-agent.json"), 0, "no fetch before someone signs in");

    let page = authorize(&app, &mut site, &client_id, "http://127.0.0.1:50123/callback").await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let host = client_id.trim_start_matches("https://").split('/').next().unwrap().to_owned();
    assert!(page.body.contains(">Example Agent</strong>"), "the document's name: {}", page.body);
    assert!(
        page.body.contains(&format!("<strong id=\"client-host\">{host}</strong>")),
        "and who vouches: {}",
        page.body
    );
    let form = consent_form(&page, "approve");
    let fields: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let answer = site.post("/oauth/authorize", &fields).await;
    assert_eq!(answer.status, StatusCode::SEE_OTHER, "{}", answer.body);
    let back = pairs(answer.location());
    assert_eq!(back.get("iss"), Some(&app.base_url), "RFC 9207: {}", answer.location());
    let code = back.get("code").unwrap_or_else(|| panic!("no code: {}", answer.location()));

    let (status, tokens) = exchange(&app, &client_id, code, "http://127.0.0.1:50123/callback", VERIFIER).await;
    assert_eq!(status, StatusCode::OK, "the URL is the client_id at the token endpoint too: {tokens}");
    assert_eq!(mcp_status(&app, tokens["access_token"].as_str().unwrap()).await.0, StatusCode::OK);
    let (status, refreshed) = token(
        &app,
        &[
            ("grant_type", "refresh_token"),
            ("client_id", &client_id),
            ("refresh_token", tokens["refresh_token"].as_str().unwrap()),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{refreshed}");
    let (status, refused) = token(
        &app,
        &[
            ("grant_type", "refresh_token"),
            ("client_id", "https://127.0.0.1:1/other.json"),
            ("refresh_token", refreshed["refresh_token"].as_str().unwrap()),
        ],
    )
    .await;
    assert_eq!((status, refused["error"].as_str()), (StatusCode::UNAUTHORIZED, Some("invalid_client")), "{refused}");

    let apps = site.get("/account/apps").await.body;
    assert!(apps.contains("Example Agent") && apps.contains(&format!("published by {host}")), "{apps}");
    assert_eq!(documents.fetches("agents/doc-agent.json"), 1, "the page, the answer and the tokens read one fetch");

    // Dynamic registration still works beside it (deprecated, documented as such).
    let (status, registered) = json_of(
        app.http
            .post(format!("{}/oauth/register", app.base_url))
            .json(&json!({"redirect_uris": [REDIRECT]}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{registered}");
    let page = authorize(&app, &mut site, registered["client_id"].as_str().unwrap(), REDIRECT).await;
    assert!(page.body.contains("a name the app gave itself") && !page.body.contains("client-host"), "{}", page.body);
}

async fn documents_and_urls_that_cannot_be_trusted_are_shown_not_redirected(backend: Backend) {
    let (app, documents, _dir) = stack(backend).await;
    let (mut site, _) = signed_in_site(&app).await;
    let good = |path: &str| document(&documents.url(path), "Agent", &[REDIRECT]);
    let cached = "max-age=60";
    documents.serve("other-id.json", Served::json(&good("someone-else.json"), cached));
    let mut secret = good("secret.json");
    secret["client_secret"] = json!("s3cret");
    documents.serve("secret.json", Served::json(&secret, cached));
    documents.serve(
        "web.json",
        Served::json(
            &{
                let mut doc = good("web.json");
                doc["application_type"] = json!("web");
                doc
            },
            cached,
        ),
    );
    documents.serve(
        "nameless.json",
        Served::json(
            &{
                let mut doc = good("nameless.json");
                doc.as_object_mut().unwrap().remove("client_name");
                doc
            },
            cached,
        ),
    );
    documents
        .serve("not-json.json", Served { body: b"<html>hello</html>".to_vec(), ..Served::json(&json!({}), cached) });
    let mut huge = good("huge.json");
    huge["logo_uri"] = json!(format!("https://a.example/{}", "x".repeat(17 * 1024)));
    documents.serve("huge.json", Served::json(&huge, cached));
    documents.serve(
        "moved.json",
        Served {
            status: 302,
            headers: vec![("location", documents.url("web.json"))],
            body: Vec::new(),
            delay: Duration::ZERO,
        },
    );
    documents.serve("broken.json", Served { status: 500, ..Served::json(&good("broken.json"), cached) });
    documents.serve("slow.json", Served { delay: Duration::from_secs(7), ..Served::json(&good("slow.json"), cached) });

    for (client_id, says) in [
        (documents.url("other-id.json"), "is not the URL it was fetched from"),
        (documents.url("secret.json"), "must not hold client_secret"),
        (documents.url("web.json"), "every redirect URI of a web app"),
        (documents.url("nameless.json"), "client_name"),
        (documents.url("not-json.json"), "JSON object"),
        (documents.url("huge.json"), "larger than 16384 bytes"),
        (documents.url("moved.json"), "redirects are not followed"),
        (documents.url("broken.json"), "HTTP 500"),
        (documents.url("missing.json"), "HTTP 404"),
        (documents.url("slow.json"), "timed out after 5 s"),
        ("https://10.1.2.3/agent.json".to_owned(), "destination refused"),
        (documents.url("agent.json").replace("https://", "http://"), "must use the https scheme"),
        (format!("{}/", documents.origin), "must have a path"),
        (documents.url("a/../agent.json"), "'..' path segments"),
    ] {
        let page = authorize(&app, &mut site, &client_id, REDIRECT).await;
        let (code, body) = shown_refusal(&page, &client_id);
        assert_eq!(code, "invalid_client", "{client_id}: {body}");
        assert!(body.contains(says), "{client_id} should say {says:?}: {body}");
    }
    assert_eq!(
        documents.fetches("a/../agent.json") + documents.fetches("agent.json"),
        0,
        "refused URLs are not fetched"
    );

    // A redirect URI the document does not list is refused on the page too.
    documents.serve("agent.json", Served::json(&good("agent.json"), cached));
    let page = authorize(&app, &mut site, &documents.url("agent.json"), "https://evil.example/callback").await;
    let (code, body) = shown_refusal(&page, "an unlisted redirect URI");
    assert_eq!(code, "invalid_request", "{body}");
    // And the token endpoint knows no client it never fetched.
    let (status, answer) = token(
        &app,
        &[
            ("grant_type", "authorization_code"),
            ("client_id", &documents.url("never.json")),
            ("code", "x"),
            ("code_verifier", VERIFIER),
        ],
    )
    .await;
    assert_eq!((status, answer["error"].as_str()), (StatusCode::UNAUTHORIZED, Some("invalid_client")), "{answer}");
}

async fn a_document_is_fetched_again_only_when_its_caching_headers_say(backend: Backend) {
    let (app, documents, _dir) = stack(backend).await;
    let (mut site, _) = signed_in_site(&app).await;
    let second = "http://127.0.0.1/second";

    // Fresh for an hour: a changed document is not seen until then.
    let kept = documents.url("kept.json");
    documents.serve("kept.json", Served::json(&document(&kept, "Kept", &[REDIRECT]), "public, max-age=3600"));
    assert_eq!(authorize(&app, &mut site, &kept, REDIRECT).await.status, StatusCode::OK);
    documents.serve("kept.json", Served::json(&document(&kept, "Kept", &[second]), "public, max-age=3600"));
    let page = authorize(&app, &mut site, &kept, REDIRECT).await;
    assert_eq!(page.status, StatusCode::OK, "still the first document: {}", page.body);
    assert_eq!(documents.fetches("kept.json"), 1);

    // `no-store`: fetched again once the least freshness (1 s in the test stack) has passed, and a
    // withdrawn redirect URI stops working then.
    let stored = documents.url("no-store.json");
    documents.serve("no-store.json", Served::json(&document(&stored, "Unstored", &[REDIRECT]), "no-store"));
    assert_eq!(authorize(&app, &mut site, &stored, REDIRECT).await.status, StatusCode::OK);
    documents.serve("no-store.json", Served::json(&document(&stored, "Renamed", &[second]), "no-store"));
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let page = authorize(&app, &mut site, &stored, REDIRECT).await;
    assert_eq!(shown_refusal(&page, "a withdrawn redirect URI").0, "invalid_request");
    let page = authorize(&app, &mut site, &stored, second).await;
    assert!(page.status == StatusCode::OK && page.body.contains(">Renamed</strong>"), "{}", page.body);
    assert_eq!(documents.fetches("no-store.json"), 2, "the second request within a second read no fetch");

    // Stale and now failing: refused, not used as it was.
    documents.serve("no-store.json", Served { status: 503, ..Served::json(&json!({}), "no-store") });
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let page = authorize(&app, &mut site, &stored, second).await;
    let (code, body) = shown_refusal(&page, "a stale document that cannot be fetched");
    assert!(code == "invalid_client" && body.contains("HTTP 503"), "{body}");
}

/// Twelve sessions ask at once to authorize a client whose document nobody fetched yet: each is
/// shown the consent page, the client's host is asked once (the others wait for that fetch), and
/// once the document is remembered a further request fetches nothing.
async fn many_authorizations_of_a_client_nobody_fetched_yet_are_all_served(backend: Backend) {
    const SESSIONS: usize = 12;
    let (app, documents, _dir) = stack(backend).await;
    let _ = signed_in_site(&app).await; // "ada", who signs in again below
    let mut sites = Vec::new();
    for _ in 0..SESSIONS {
        let mut site = SiteClient::new(&app);
        assert_eq!(site.sign_in("ada", crate::oauth::PASSWORD).await.status, StatusCode::SEE_OTHER);
        sites.push(site);
    }
    let client_id = documents.url("crowd.json");
    documents.serve("crowd.json", Served::json(&document(&client_id, "Crowd agent", &[REDIRECT]), "max-age=3600"));
    let pages =
        futures::future::join_all(sites.iter_mut().map(|site| authorize(&app, site, &client_id, REDIRECT))).await;
    for page in &pages {
        assert!(page.status == StatusCode::OK && page.body.contains(">Crowd agent</strong>"), "{}", page.body);
    }
    assert_eq!(documents.fetches("crowd.json"), 1, "one fetch for the crowd: the others waited for it");
    let page = authorize(&app, &mut sites[0], &client_id, REDIRECT).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert_eq!(documents.fetches("crowd.json"), 1, "fresh for an hour: not fetched again");
}

/// The official TypeScript MCP SDK's OAuth client, named by a metadata document, through a person's
/// consent in Chromium (`tests/mcp/oauth_cimd.mjs`); it checks the answers' `iss` itself.
async fn the_typescript_sdk_connects_by_its_metadata_document(backend: Backend) {
    crate::browser::require_browser();
    let (app, documents, _dir) = stack(backend).await;
    let _ = signed_in_site(&app).await; // the person, "ada", who approves in the browser
    let client_id = documents.url("ts/client.json");
    let mut document = documented_example(&client_id);
    document["client_name"] = json!("Canvas OAuth e2e (TypeScript SDK)");
    documents.serve("ts/client.json", Served::json(&document, "max-age=300"));
    let host = client_id.trim_start_matches("https://").split('/').next().unwrap().to_owned();
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp/oauth_cimd.mjs");
    let mut command = tokio::process::Command::new("node");
    command.arg(&script).env("CANVAS_MCP_SDK_DIR", crate::mcp_schemas::sdk_dir());
    command.env("CANVAS_BROWSER_DIR", crate::browser::browser_dir());
    command.args(["--url", &app.mcp_url(), "--document", &client_id, "--client-host", &host]);
    command.args(["--login", "ada", "--password", crate::oauth::PASSWORD]);
    let output = tokio::time::timeout(Duration::from_secs(180), command.kill_on_drop(true).output())
        .await
        .expect("the TypeScript SDK run finishes within 180 s")
        .expect("node starts");
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("--- oauth_cimd.mjs\n{stdout}\n--- stderr\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(
        output.status.success() && stdout.contains("2 passed, 0 failed"),
        "the TypeScript SDK checks failed; see above"
    );
    assert_eq!(documents.fetches("ts/client.json"), 1, "two authorizations, one fetch (fresh for 300 s)");
}
