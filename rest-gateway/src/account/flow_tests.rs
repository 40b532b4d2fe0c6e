//! The account site through its router against the fake core-service of `tests`.

use axum::http::StatusCode;

use super::html::FORM_EXPIRED;
use super::tests::{app, send, FORM, SESSION};

#[tokio::test]
async fn sign_in_sets_the_session_and_goes_back() {
    let app = app(None).await;
    let page = send(&app, "GET", "/account/sign-in?next=/map/p1%3Fnode%3Dn1", &[], "").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.header("content-security-policy").starts_with("default-src 'none'; script-src 'self'"));
    assert_eq!(page.header("cache-control"), "no-store");
    let csrf_cookie = page.cookies()[0].split(';').next().unwrap().to_owned();
    let csrf = csrf_cookie.strip_prefix("canvas_csrf=").unwrap();
    assert!(page.body.contains("id=\"login\"") && page.body.contains("id=\"sign-in\""));
    assert!(page
        .body
        .contains("<a id=\"use-token\" href=\"/map/p1?node=n1&amp;auth=token\">Use an API token instead</a>"));

    let form = format!("login=ada&password=right&next=%2Fmap%2Fp1%3Fnode%3Dn1&csrf={csrf}");
    let cookie = ("cookie", csrf_cookie.as_str());
    let done = send(&app, "POST", "/account/sign-in", &[FORM, cookie, ("origin", "http://canvas.test")], &form).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER);
    assert_eq!(done.header("location"), "/map/p1?node=n1");
    assert_eq!(done.cookies(), ["canvas_session=svc_ss_good; Path=/; HttpOnly; SameSite=Lax; Max-Age=43200"]);

    let wrong = send(&app, "POST", "/account/sign-in", &[FORM, cookie], &form.replace("right", "wrong")).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert!(wrong.body.contains("The login or password is not correct."));
    let slow = send(&app, "POST", "/account/sign-in", &[FORM, cookie], &form.replace("login=ada", "login=slow")).await;
    assert_eq!((slow.status, slow.header("retry-after")), (StatusCode::TOO_MANY_REQUESTS, "7"));

    let foreign =
        send(&app, "POST", "/account/sign-in", &[FORM, cookie, ("origin", "https://evil.example")], &form).await;
    assert_eq!(foreign.status, StatusCode::FORBIDDEN);
    assert!(foreign.body.contains(FORM_EXPIRED));
    let forged = send(&app, "POST", "/account/sign-in", &[FORM, cookie], &form.replace(csrf, "forged")).await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn https_account_urls_use_host_cookies() {
    let app = app(Some("https://canvas.example")).await;
    let page = send(&app, "GET", "/account/sign-in", &[], "").await;
    assert!(page.cookies()[0].starts_with("__Host-canvas_csrf="), "{:?}", page.cookies());
    assert!(page.cookies()[0].ends_with("; Path=/; HttpOnly; SameSite=Lax; Secure"));
    let metadata = send(&app, "GET", "/.well-known/oauth-authorization-server", &[], "").await;
    let json: serde_json::Value = serde_json::from_str(&metadata.body).unwrap();
    assert_eq!(json["issuer"], "https://canvas.example");
    assert_eq!(json["token_endpoint"], "https://canvas.example/oauth/token");
    assert_eq!(json["scopes_supported"], serde_json::json!(["mcp"]));
    assert_eq!(metadata.header("access-control-allow-origin"), "*");
}

#[tokio::test]
async fn the_map_needs_a_session_or_asks_for_a_token() {
    let app = app(None).await;
    let away = send(&app, "GET", "/map/p1?node=n1", &[], "").await;
    assert_eq!(away.status, StatusCode::SEE_OTHER);
    assert_eq!(away.header("location"), "/account/sign-in?next=%2Fmap%2Fp1%3Fnode%3Dn1");
    assert_eq!(send(&app, "GET", "/map/p1?auth=token", &[], "").await.status, StatusCode::OK);
    assert_eq!(send(&app, "GET", "/map/p1", &[SESSION], "").await.status, StatusCode::OK);
    let stale = send(&app, "GET", "/map/p1", &[("cookie", "canvas_session=svc_ss_old")], "").await;
    assert_eq!(stale.status, StatusCode::SEE_OTHER);
    assert_eq!(stale.cookies(), ["canvas_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"]);
}

#[tokio::test]
async fn signed_in_pages_escape_and_carry_the_csrf_value() {
    let app = app(None).await;
    let projects = send(&app, "GET", "/account/projects", &[SESSION], "").await;
    assert_eq!(projects.status, StatusCode::OK);
    assert!(projects.body.contains("<a class=\"map-link\" href=\"/map/p1\">Plan &amp; &lt;Build&gt;</a>"));
    assert!(projects.body.contains("Ada &lt;b&gt;") && projects.body.contains("value=\"csrf-1\""));
    let out = send(&app, "GET", "/account/projects", &[], "").await;
    assert_eq!((out.status, out.header("location")), (StatusCode::SEE_OTHER, "/account/sign-in"));
    let home = send(&app, "GET", "/account", &[SESSION], "").await;
    assert_eq!(home.header("location"), "/account/projects");

    let created = send(&app, "POST", "/account/api-tokens", &[FORM, SESSION], "csrf=csrf-1&name=ci").await;
    assert_eq!(created.status, StatusCode::OK);
    assert!(created.body.contains("<input id=\"new-token\" value=\"svc_tk_secret\""));
    assert!(created.body.contains("id=\"copy-token\"") && created.body.contains("tr data-token-id=\"t1\""));
    assert!(created.body.contains("<button type=\"submit\" class=\"revoke\""));

    let expired = send(&app, "POST", "/account/sign-out", &[FORM, SESSION], "csrf=stale").await;
    assert_eq!(expired.status, StatusCode::FORBIDDEN);
    assert!(expired.body.contains(FORM_EXPIRED));
    let out = send(&app, "POST", "/account/sign-out", &[FORM, SESSION], "csrf=csrf-1").await;
    assert_eq!((out.status, out.header("location")), (StatusCode::SEE_OTHER, "/account/sign-in"));
    assert_eq!(out.cookies(), ["canvas_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"]);
}

#[tokio::test]
async fn authorization_requests_are_shown_redirected_or_consented() {
    let app = app(None).await;
    let query = "response_type=code&client_id=tool&redirect_uri=http%3A%2F%2F127.0.0.1%3A3000%2Fcb&state=s1\
                 &code_challenge=x&code_challenge_method=S256";
    let unknown = send(&app, "GET", "/oauth/authorize?client_id=unknown", &[], "").await;
    assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
    assert!(unknown.body.contains("<code id=\"oauth-error\">invalid_client</code>"));
    let plain =
        send(&app, "GET", &format!("/oauth/authorize?{}", query.replace("client_id=tool", "client_id=plain")), &[], "")
            .await;
    assert_eq!(plain.header("location"), "http://127.0.0.1:3000/cb?error=invalid_request&state=s1");

    let path = format!("/oauth/authorize?{query}");
    let out = send(&app, "GET", &path, &[], "").await;
    assert_eq!(out.status, StatusCode::SEE_OTHER);
    let next = form_urlencoded::byte_serialize(path.as_bytes()).collect::<String>();
    assert_eq!(out.header("location"), format!("/account/sign-in?next={next}"));

    let consent = send(&app, "GET", &path, &[SESSION], "").await;
    assert_eq!(consent.status, StatusCode::OK);
    assert!(consent.body.contains("id=\"approve\" name=\"decision\" value=\"approve\""));
    assert!(consent.body.contains("<li>Read &lt;maps&gt;</li>") && consent.body.contains(">127.0.0.1:3000</strong>"));
    assert!(consent.header("content-security-policy").contains("form-action 'self' http://127.0.0.1:3000"));

    let decided =
        send(&app, "POST", "/oauth/authorize", &[FORM, SESSION], &format!("{query}&csrf=csrf-1&decision=approve"))
            .await;
    assert_eq!(decided.status, StatusCode::SEE_OTHER);
    assert_eq!(decided.header("location"), "http://127.0.0.1:3000/cb?code=c1&state=s1");
}

#[tokio::test]
async fn token_endpoints_speak_json_with_cors() {
    let app = app(None).await;
    let good = send(&app, "POST", "/oauth/token", &[FORM], "grant_type=authorization_code&code=good").await;
    assert_eq!(good.status, StatusCode::OK);
    assert_eq!((good.header("cache-control"), good.header("pragma")), ("no-store", "no-cache"));
    let json: serde_json::Value = serde_json::from_str(&good.body).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"access_token": "svc_at_1", "token_type": "Bearer", "expires_in": 3600,
            "refresh_token": "svc_rt_1", "scope": "mcp"})
    );
    let bad = send(&app, "POST", "/oauth/token", &[FORM], "grant_type=authorization_code&code=old").await;
    assert_eq!(
        (bad.status, bad.body.as_str()),
        (StatusCode::BAD_REQUEST, r#"{"error":"invalid_grant","error_description":"no such code"}"#)
    );
    let preflight = send(&app, "OPTIONS", "/oauth/token", &[], "").await;
    assert_eq!((preflight.status, preflight.header("access-control-allow-origin")), (StatusCode::NO_CONTENT, "*"));
    let registered = send(&app, "POST", "/oauth/register", &[("content-type", "application/json")], r#"{"a":1}"#).await;
    assert_eq!((registered.status, registered.body.as_str()), (StatusCode::CREATED, r#"{"client_id":"c1","a":1}"#));
    let revoked = send(&app, "POST", "/oauth/revoke", &[FORM], "token=whatever").await;
    assert_eq!((revoked.status, revoked.body.as_str()), (StatusCode::OK, "{}"));
}

#[tokio::test]
async fn reads_and_csrf_writes_without_authorization_forward_the_session() {
    let state = crate::state::AppState::connect("http://127.0.0.1:9", &canvas_runtime::GatewayArgs::default())
        .unwrap()
        .with_account_url("https://canvas.example");
    // What the gRPC request of a handler would carry: session and CSRF metadata.
    let forwarded = |caller: crate::caller::Caller| async move {
        let request = caller.request(()).unwrap();
        let get = |name: &str| request.metadata().get(name).map(|v| v.to_str().unwrap_or("").to_owned());
        format!("{}|{}", get("x-canvas-session").unwrap_or_default(), get("x-canvas-csrf").unwrap_or_default())
    };
    let app = axum::Router::new()
        .route("/r", axum::routing::get(forwarded).post(forwarded).patch(forwarded))
        .route("/api/r", axum::routing::get(forwarded).post(forwarded).patch(forwarded))
        .layer(axum::middleware::from_fn_with_state(state, super::forward_session));
    const COOKIE: (&str, &str) = ("cookie", "__Host-canvas_session=svc_ss_good");
    const CSRF: (&str, &str) = ("x-canvas-csrf", "c1");
    assert_eq!(send(&app, "GET", "/r", &[COOKIE], "").await.body, "svc_ss_good|");
    assert_eq!(send(&app, "HEAD", "/r", &[COOKIE], "").await.status, StatusCode::OK);
    assert_eq!(send(&app, "GET", "/r", &[COOKIE, ("authorization", "Bearer svc_tk_x")], "").await.body, "|");
    assert_eq!(send(&app, "POST", "/api/r", &[COOKIE], "").await.body, "|", "a cookie alone never writes");
    assert_eq!(send(&app, "PATCH", "/api/r", &[COOKIE], "").await.body, "|");
    assert_eq!(send(&app, "POST", "/r", &[COOKIE, CSRF], "").await.body, "|", "only the API's writes");
    assert_eq!(send(&app, "POST", "/api/r", &[COOKIE, CSRF], "").await.body, "svc_ss_good|c1");
    let own = ("origin", "https://canvas.example");
    assert_eq!(send(&app, "PATCH", "/api/r", &[COOKIE, CSRF, own], "").await.body, "svc_ss_good|c1");
    let token = ("authorization", "Bearer svc_tk_x");
    assert_eq!(send(&app, "POST", "/api/r", &[COOKIE, CSRF, token], "").await.body, "|", "a token goes alone");
    for foreign in
        [("origin", "https://evil.example"), ("sec-fetch-site", "cross-site"), ("sec-fetch-site", "same-site")]
    {
        let refused = send(&app, "POST", "/api/r", &[COOKIE, CSRF, foreign], "").await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN, "{foreign:?}");
        assert_eq!(refused.header("content-type"), "application/problem+json");
        assert!(refused.body.contains("own pages"), "{}", refused.body);
    }
}
