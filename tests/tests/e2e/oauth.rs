//! The OAuth 2.1 authorization server for MCP clients, over HTTP: metadata
//! discovery (RFC 9728, RFC 8414), registration (RFC 7591), the consent page,
//! the code grant with PKCE S256, tokens bound to the MCP resource (RFC 8707),
//! refresh rotation with reuse detection, revocation (RFC 7009), and every
//! refusal as the RFCs answer it. The official SDK's own flow is in
//! `canvasctl/tests/oauth_sdk.rs`.

use base64::Engine;
use canvas_tests::{backend_tests, Backend, TestApp, TEST_OAUTH_CODE_SECS};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::site_client::SiteClient;
use crate::support::send;

backend_tests!(
    discovery_leads_from_the_mcp_401_to_the_authorization_server,
    a_consented_client_gets_tokens_that_work_at_mcp_only,
    codes_are_single_use_short_lived_and_bound_to_their_verifier_and_redirect,
    refresh_tokens_rotate_and_a_replayed_one_ends_the_grant,
    authorization_requests_the_server_cannot_trust_are_shown_not_redirected,
    racing_uses_of_one_code_or_one_refresh_token_let_exactly_one_through,
    authorizing_past_the_bound_revokes_the_persons_oldest_grant,
);

pub(crate) const PASSWORD: &str = "correct horse battery";
pub(crate) const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
pub(crate) const REDIRECT: &str = "http://127.0.0.1/callback";

pub(crate) fn challenge(verifier: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

pub(crate) async fn json_of(response: reqwest::Response) -> (StatusCode, Value) {
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn register(app: &TestApp) -> String {
    let body = json!({"client_name": "Test Agent", "redirect_uris": [REDIRECT], "grant_types": ["authorization_code", "refresh_token"]});
    let (status, client) =
        json_of(app.http.post(format!("{}/oauth/register", app.base_url)).json(&body).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::CREATED, "{client}");
    assert_eq!(client["token_endpoint_auth_method"], "none");
    client["client_id"].as_str().unwrap().to_owned()
}

pub(crate) fn authorize_query(client_id: &str, redirect: &str, method: &str, resource: &str) -> String {
    let pairs = [
        ("response_type", "code"),
        ("client_id", client_id),
        ("redirect_uri", redirect),
        ("code_challenge", &challenge(VERIFIER)),
        ("code_challenge_method", method),
        ("state", "s-1"),
        ("scope", "mcp"),
        ("resource", resource),
    ];
    url::form_urlencoded::Serializer::new(String::new()).extend_pairs(pairs).finish()
}

/// The consent page's form fields with the person's `decision` (`approve` or `deny`).
pub(crate) fn consent_form(page: &crate::site_client::Page, decision: &str) -> Vec<(String, String)> {
    let mut form: Vec<(String, String)> = [
        "response_type",
        "client_id",
        "redirect_uri",
        "code_challenge",
        "code_challenge_method",
        "state",
        "scope",
        "resource",
        "csrf",
    ]
    .iter()
    .map(|name| (name.to_string(), page.hidden(name)))
    .collect();
    form.push(("decision".into(), decision.into()));
    form
}

/// Signs `login` in, shows the consent page and approves it: the code the redirect carries.
async fn consent(app: &TestApp, site: &mut SiteClient, client_id: &str, redirect: &str) -> String {
    let query = authorize_query(client_id, redirect, "S256", &app.mcp_url());
    let page = site.get(&format!("/oauth/authorize?{query}")).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.body.contains("Test Agent"), "the consent page names the client: {}", page.body);
    let form = consent_form(&page, "approve");
    let fields: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let answer = site.post("/oauth/authorize", &fields).await;
    assert_eq!(answer.status, StatusCode::SEE_OTHER, "{}", answer.body);
    let to = url::Url::parse(answer.location()).unwrap();
    assert_eq!(format!("{}://{}{}", to.scheme(), to.host_str().unwrap(), to.path()), "http://127.0.0.1/callback");
    let pairs: std::collections::HashMap<_, _> = to.query_pairs().into_owned().collect();
    assert_eq!(pairs.get("state").map(String::as_str), Some("s-1"));
    // RFC 9207: the answer names its issuer, exactly as the RFC 8414 metadata does.
    assert_eq!(pairs.get("iss"), Some(&app.base_url), "{to}");
    pairs.get("code").cloned().unwrap_or_else(|| panic!("no code in {to}"))
}

pub(crate) async fn token(app: &TestApp, form: &[(&str, &str)]) -> (StatusCode, Value) {
    let response = app.http.post(format!("{}/oauth/token", app.base_url)).form(form).send().await.unwrap();
    assert_eq!(response.headers().get("cache-control").map(|v| v.to_str().unwrap()), Some("no-store"));
    json_of(response).await
}

pub(crate) async fn exchange(
    app: &TestApp,
    client_id: &str,
    code: &str,
    redirect: &str,
    verifier: &str,
) -> (StatusCode, Value) {
    let form = [
        ("grant_type", "authorization_code"),
        ("client_id", client_id),
        ("code", code),
        ("redirect_uri", redirect),
        ("code_verifier", verifier),
    ];
    token(app, &form).await
}

/// Status of an MCP `initialize` with this bearer token.
pub(crate) async fn mcp_status(app: &TestApp, access: &str) -> (StatusCode, String) {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "oauth-test", "version": "1"}}});
    let response = app
        .http
        .post(app.mcp_url())
        .header("authorization", format!("Bearer {access}"))
        .header("accept", "application/json, text/event-stream")
        .json(&body)
        .send()
        .await
        .unwrap();
    let challenge =
        response.headers().get("www-authenticate").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    (response.status(), challenge)
}

pub(crate) async fn signed_in_site(app: &TestApp) -> (SiteClient, canvas_tests::TestUser) {
    let user = app.account_user("Ada", "ada", PASSWORD).await;
    let mut site = SiteClient::new(app);
    assert_eq!(site.sign_in("ada", PASSWORD).await.status, StatusCode::SEE_OTHER);
    (site, user)
}

async fn discovery_leads_from_the_mcp_401_to_the_authorization_server(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (status, challenge) = mcp_status(&app, "svc_at_unknown").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let metadata_url = format!("{}/.well-known/oauth-protected-resource/mcp", app.base_url);
    assert!(challenge.contains(&format!("resource_metadata=\"{metadata_url}\"")), "{challenge}");
    assert!(challenge.contains("error=\"invalid_token\""), "{challenge}");

    let (status, resource) = json_of(app.http.get(&metadata_url).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{resource}");
    assert_eq!(resource["resource"], app.mcp_url());
    let issuer = resource["authorization_servers"][0].as_str().unwrap().trim_end_matches('/').to_owned();
    let (status, server) =
        json_of(app.http.get(format!("{issuer}/.well-known/oauth-authorization-server")).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{server}");
    assert_eq!(server["issuer"].as_str().unwrap().trim_end_matches('/'), issuer);
    assert_eq!(server["code_challenge_methods_supported"], json!(["S256"]));
    assert_eq!(server["token_endpoint"], format!("{issuer}/oauth/token"));
    assert_eq!(server["registration_endpoint"], format!("{issuer}/oauth/register"));
    assert!(server["grant_types_supported"].as_array().unwrap().contains(&json!("refresh_token")));
    // MCP 2026-07-28: metadata documents as client ids, and `iss` in every authorization answer.
    assert_eq!(server["client_id_metadata_document_supported"], true, "{server}");
    assert_eq!(server["authorization_response_iss_parameter_supported"], true, "{server}");
}

async fn a_consented_client_gets_tokens_that_work_at_mcp_only(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (mut site, ada) = signed_in_site(&app).await;
    let project = app.project(&ada).await;
    let client_id = register(&app).await;
    // A loopback redirect with any port matches the registered one (RFC 8252 §7.3).
    let code = consent(&app, &mut site, &client_id, "http://127.0.0.1:47011/callback").await;
    let (status, tokens) = exchange(&app, &client_id, &code, "http://127.0.0.1:47011/callback", VERIFIER).await;
    assert_eq!(status, StatusCode::OK, "{tokens}");
    assert_eq!(tokens["token_type"], "Bearer");
    assert_eq!(tokens["scope"], "mcp");
    let access = tokens["access_token"].as_str().unwrap();
    assert!(access.starts_with("svc_at_") && tokens["refresh_token"].as_str().unwrap().starts_with("svc_rt_"));
    assert_eq!(tokens["expires_in"], 3600);

    assert_eq!(mcp_status(&app, access).await.0, StatusCode::OK, "the token works at /mcp");
    let rest = send(
        &app,
        Method::GET,
        &format!("{}/api/v2/projects/{project}/items", app.base_url),
        Some(&format!("Bearer {access}")),
        None,
    )
    .await;
    assert_eq!(rest.status, StatusCode::UNAUTHORIZED, "and nowhere else: {}", rest.body);

    // RFC 7009: revoked, it stops at once; revoking an unknown token is still a 200.
    let revoke = app
        .http
        .post(format!("{}/oauth/revoke", app.base_url))
        .form(&[("token", access), ("client_id", &client_id)])
        .send()
        .await
        .unwrap();
    assert_eq!(revoke.status(), StatusCode::OK);
    let (status, challenge) = mcp_status(&app, access).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(challenge.contains("resource_metadata="), "{challenge}");
    let unknown =
        app.http.post(format!("{}/oauth/revoke", app.base_url)).form(&[("token", "nonsense")]).send().await.unwrap();
    assert_eq!(unknown.status(), StatusCode::OK);

    let activity = site.get("/account/activity").await;
    assert!(activity.body.contains("oauth_authorized") && activity.body.contains("Test Agent"), "{}", activity.body);

    // The person sees the connected app and can disconnect it: its tokens stop at once.
    let code = consent(&app, &mut site, &client_id, REDIRECT).await;
    let (_, tokens) = exchange(&app, &client_id, &code, REDIRECT, VERIFIER).await;
    let access = tokens["access_token"].as_str().unwrap();
    let apps = site.get("/account/apps").await;
    assert_eq!(apps.status, StatusCode::OK);
    let grants: Vec<String> =
        apps.body.split("data-grant-id=\"").skip(1).map(|v| v[..v.find('"').unwrap()].to_owned()).collect();
    // Both consents are live: revoking the first one's access token left its refresh token. The
    // newest is listed first.
    assert_eq!(grants.len(), 2, "{}", apps.body);
    assert!(apps.body.contains("Test Agent") && apps.body.contains("127.0.0.1"), "{}", apps.body);
    app.account_user("Bo", "bo", PASSWORD).await;
    let mut other = SiteClient::new(&app);
    assert_eq!(other.sign_in("bo", PASSWORD).await.status, StatusCode::SEE_OTHER);
    let csrf = other.get("/account/apps").await.hidden_or_default("csrf");
    let foreign = other.post(&format!("/account/apps/{}/revoke", grants[0]), &[("csrf", &csrf)]).await;
    assert_eq!(foreign.status, StatusCode::NOT_FOUND, "not Bo's to end: {}", foreign.body);
    assert_eq!(mcp_status(&app, access).await.0, StatusCode::OK);
    let csrf = apps.hidden("csrf");
    let ended = site.post(&format!("/account/apps/{}/revoke", grants[0]), &[("csrf", &csrf)]).await;
    assert_eq!(ended.status, StatusCode::SEE_OTHER, "{}", ended.body);
    assert_eq!(mcp_status(&app, access).await.0, StatusCode::UNAUTHORIZED);
    let left = site.get("/account/apps").await.body;
    assert!(!left.contains(&grants[0]) && left.contains(&grants[1]), "{left}");
}

async fn codes_are_single_use_short_lived_and_bound_to_their_verifier_and_redirect(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (mut site, _) = signed_in_site(&app).await;
    let client_id = register(&app).await;

    let code = consent(&app, &mut site, &client_id, REDIRECT).await;
    let (status, body) = exchange(&app, &client_id, &code, REDIRECT, &format!("{}x", &VERIFIER[..42])).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("invalid_grant")),
        "wrong verifier: {body}"
    );
    let (status, body) = exchange(&app, &client_id, &code, REDIRECT, VERIFIER).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("invalid_grant")),
        "a code works once, even after a failure: {body}"
    );

    let code = consent(&app, &mut site, &client_id, REDIRECT).await;
    let (status, body) = token(
        &app,
        &[("grant_type", "authorization_code"), ("client_id", &client_id), ("code", &code), ("redirect_uri", REDIRECT)],
    )
    .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("invalid_request")),
        "no verifier: {body}"
    );
    let (status, body) = exchange(&app, &client_id, &code, "http://127.0.0.1/other", VERIFIER).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("invalid_grant")),
        "redirect mismatch: {body}"
    );

    // A code used twice revokes what its first use issued (RFC 6749 §4.1.2).
    let code = consent(&app, &mut site, &client_id, REDIRECT).await;
    let (status, first) = exchange(&app, &client_id, &code, REDIRECT, VERIFIER).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    let access = first["access_token"].as_str().unwrap();
    assert_eq!(mcp_status(&app, access).await.0, StatusCode::OK);
    let (status, body) = exchange(&app, &client_id, &code, REDIRECT, VERIFIER).await;
    assert_eq!((status, body["error"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_grant")), "{body}");
    assert_eq!(mcp_status(&app, access).await.0, StatusCode::UNAUTHORIZED, "the first use's token is revoked");

    // Expired codes are refused.
    let code = consent(&app, &mut site, &client_id, REDIRECT).await;
    tokio::time::sleep(std::time::Duration::from_millis(TEST_OAUTH_CODE_SECS * 1000 + 300)).await;
    let (status, body) = exchange(&app, &client_id, &code, REDIRECT, VERIFIER).await;
    assert_eq!((status, body["error"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_grant")), "expired: {body}");

    // Unknown client: 401 invalid_client; unknown grant type: unsupported_grant_type.
    let (status, body) = exchange(&app, "no-such-client", "x", REDIRECT, VERIFIER).await;
    assert_eq!((status, body["error"].as_str()), (StatusCode::UNAUTHORIZED, Some("invalid_client")), "{body}");
    let (status, body) = token(&app, &[("grant_type", "password"), ("client_id", &client_id)]).await;
    assert_eq!((status, body["error"].as_str()), (StatusCode::BAD_REQUEST, Some("unsupported_grant_type")), "{body}");
}

async fn refresh_tokens_rotate_and_a_replayed_one_ends_the_grant(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (mut site, _) = signed_in_site(&app).await;
    let client_id = register(&app).await;
    let code = consent(&app, &mut site, &client_id, REDIRECT).await;
    let (_, first) = exchange(&app, &client_id, &code, REDIRECT, VERIFIER).await;
    let refresh_1 = first["refresh_token"].as_str().unwrap();

    let (status, second) =
        token(&app, &[("grant_type", "refresh_token"), ("client_id", &client_id), ("refresh_token", refresh_1)]).await;
    assert_eq!(status, StatusCode::OK, "{second}");
    let refresh_2 = second["refresh_token"].as_str().unwrap();
    assert_ne!(refresh_1, refresh_2, "rotated");
    let access_2 = second["access_token"].as_str().unwrap();
    assert_eq!(mcp_status(&app, access_2).await.0, StatusCode::OK);

    // Another client cannot use it.
    let other = register(&app).await;
    let (status, body) =
        token(&app, &[("grant_type", "refresh_token"), ("client_id", &other), ("refresh_token", refresh_2)]).await;
    assert_eq!((status, body["error"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_grant")), "{body}");

    // The retired one presented again: refused, and the whole grant ends.
    let (status, body) =
        token(&app, &[("grant_type", "refresh_token"), ("client_id", &client_id), ("refresh_token", refresh_1)]).await;
    assert_eq!((status, body["error"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_grant")), "{body}");
    let (status, body) =
        token(&app, &[("grant_type", "refresh_token"), ("client_id", &client_id), ("refresh_token", refresh_2)]).await;
    assert_eq!((status, body["error"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_grant")), "{body}");
    assert_eq!(mcp_status(&app, access_2).await.0, StatusCode::UNAUTHORIZED);
}

async fn authorization_requests_the_server_cannot_trust_are_shown_not_redirected(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (mut site, _) = signed_in_site(&app).await;
    let client_id = register(&app).await;

    for (client, redirect) in [
        (client_id.as_str(), "https://evil.example/callback"),
        ("no-such-client", REDIRECT),
        (client_id.as_str(), "http://127.0.0.1/callback/extra"),
    ] {
        let page =
            site.get(&format!("/oauth/authorize?{}", authorize_query(client, redirect, "S256", &app.mcp_url()))).await;
        assert_eq!(page.status, StatusCode::BAD_REQUEST, "{client} {redirect}: {}", page.body);
        assert!(page.location().is_empty(), "never redirected to an untrusted URI");
    }
    // A trusted redirect URI hears about the other problems there.
    for (method, resource, error) in [
        ("plain", app.mcp_url(), "invalid_request"),
        ("S256", "https://other.example/mcp".to_owned(), "invalid_target"),
    ] {
        let page =
            site.get(&format!("/oauth/authorize?{}", authorize_query(&client_id, REDIRECT, method, &resource))).await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
        let to = url::Url::parse(page.location()).unwrap();
        let pairs: std::collections::HashMap<_, _> = to.query_pairs().into_owned().collect();
        assert_eq!(pairs.get("error").map(String::as_str), Some(error), "{to}");
        assert_eq!(pairs.get("state").map(String::as_str), Some("s-1"));
        assert_eq!(pairs.get("iss"), Some(&app.base_url), "an error names its issuer too: {to}");
    }
    // Registration refuses what it must.
    for body in [
        json!({"redirect_uris": ["javascript:alert(1)"]}),
        json!({"redirect_uris": ["http://evil.example/cb"]}),
        json!({"redirect_uris": []}),
        json!({"redirect_uris": [REDIRECT], "token_endpoint_auth_method": "client_secret_post"}),
    ] {
        let (status, answer) =
            json_of(app.http.post(format!("{}/oauth/register", app.base_url)).json(&body).send().await.unwrap()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert!(
            matches!(answer["error"].as_str(), Some("invalid_redirect_uri" | "invalid_client_metadata")),
            "{answer}"
        );
    }
    // Denying consent sends access_denied back.
    let query = authorize_query(&client_id, REDIRECT, "S256", &app.mcp_url());
    let page = site.get(&format!("/oauth/authorize?{query}")).await;
    let form = consent_form(&page, "deny");
    let fields: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let denied = site.post("/oauth/authorize", &fields).await;
    assert_eq!(denied.status, StatusCode::SEE_OTHER);
    let to = url::Url::parse(denied.location()).unwrap();
    let pairs: std::collections::HashMap<_, _> = to.query_pairs().into_owned().collect();
    assert_eq!(pairs.get("error").map(String::as_str), Some("access_denied"), "{to}");
    assert_eq!(pairs.get("state").map(String::as_str), Some("s-1"), "{to}");
    assert_eq!(pairs.get("iss"), Some(&app.base_url), "{to}");
}

async fn racing_uses_of_one_code_or_one_refresh_token_let_exactly_one_through(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (mut site, _) = signed_in_site(&app).await;
    let client_id = register(&app).await;

    // Eight exchanges of one code at once: one gets tokens, the rest invalid_grant, never a 5xx.
    let code = consent(&app, &mut site, &client_id, REDIRECT).await;
    let answers =
        futures::future::join_all((0..8).map(|_| exchange(&app, &client_id, &code, REDIRECT, VERIFIER))).await;
    let winners: Vec<&Value> =
        answers.iter().filter(|(status, _)| *status == StatusCode::OK).map(|(_, body)| body).collect();
    assert_eq!(winners.len(), 1, "{answers:?}");
    assert!(
        answers.iter().all(|(status, body)| *status == StatusCode::OK || body["error"] == "invalid_grant"),
        "{answers:?}"
    );

    // Eight refreshes with one refresh token at once: one rotation wins; the others present a
    // retired token, which (OAuth 2.1 reuse detection) ends the grant, the winner's tokens too.
    let code = consent(&app, &mut site, &client_id, REDIRECT).await;
    let (_, first) = exchange(&app, &client_id, &code, REDIRECT, VERIFIER).await;
    let refresh = first["refresh_token"].as_str().unwrap().to_owned();
    let form =
        [("grant_type", "refresh_token"), ("client_id", client_id.as_str()), ("refresh_token", refresh.as_str())];
    let answers = futures::future::join_all((0..8).map(|_| token(&app, &form))).await;
    let rotated: Vec<&Value> =
        answers.iter().filter(|(status, _)| *status == StatusCode::OK).map(|(_, body)| body).collect();
    assert_eq!(rotated.len(), 1, "{answers:?}");
    assert!(
        answers.iter().all(|(status, body)| *status == StatusCode::OK || body["error"] == "invalid_grant"),
        "{answers:?}"
    );
    let access = rotated[0]["access_token"].as_str().unwrap();
    assert_eq!(mcp_status(&app, access).await.0, StatusCode::UNAUTHORIZED, "the replays ended the grant");
}

/// Every grant is a rate-limit budget of its own, so a person holds a bounded number
/// (`--max-oauth-grants-per-person`): one more revokes their oldest, as GitHub does past ten
/// tokens per app and person; another person's grants are untouched.
async fn authorizing_past_the_bound_revokes_the_persons_oldest_grant(backend: Backend) {
    let shares =
        core_service::service::access::fair_share::FairShareConfig { oauth_grants_per_person: 2, ..Default::default() };
    let app = TestApp::spawn_sharing(backend, shares).await;
    let client_id = register(&app).await;
    app.account_user("Bob", "bob", PASSWORD).await;
    let mut bobs_site = SiteClient::new(&app);
    assert_eq!(bobs_site.sign_in("bob", PASSWORD).await.status, StatusCode::SEE_OTHER);
    let code = consent(&app, &mut bobs_site, &client_id, REDIRECT).await;
    let (_, bobs) = exchange(&app, &client_id, &code, REDIRECT, VERIFIER).await;

    let (mut site, _ada) = signed_in_site(&app).await;
    let mut accesses = Vec::new();
    for _ in 0..3 {
        let code = consent(&app, &mut site, &client_id, REDIRECT).await;
        let (status, tokens) = exchange(&app, &client_id, &code, REDIRECT, VERIFIER).await;
        assert_eq!(status, StatusCode::OK, "{tokens}");
        accesses.push(tokens["access_token"].as_str().unwrap().to_owned());
        // Grants are ordered by when they were made: distinct instants on every backend.
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(mcp_status(&app, &accesses[0]).await.0, StatusCode::UNAUTHORIZED, "the oldest grant was revoked");
    assert_eq!(mcp_status(&app, &accesses[1]).await.0, StatusCode::OK);
    assert_eq!(mcp_status(&app, &accesses[2]).await.0, StatusCode::OK);
    let bobs_access = bobs["access_token"].as_str().unwrap();
    assert_eq!(mcp_status(&app, bobs_access).await.0, StatusCode::OK, "another person's grant is untouched");
    let activity = site.get("/account/activity").await;
    assert!(activity.body.contains("oldest grant(s) revoked"), "{}", activity.body);
}
