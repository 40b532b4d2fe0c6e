//! The account site and the OAuth endpoints under hostile input: malformed, encoded, oversized
//! and duplicated forms, odd cookies and headers, and a few hundred generated requests. Every
//! answer must be a clear 4xx (or the documented success), never a 5xx, and nothing a hostile
//! request sends may create a token or a session.

use canvas_tests::{backend_tests, Backend, TestApp};
use reqwest::{Method, StatusCode};

use crate::site_client::SiteClient;

backend_tests!(hostile_requests_get_4xx_never_5xx, generated_forms_never_reach_a_5xx);

/// One request: method, path, content type (empty: none), body, extra headers.
struct Case {
    name: &'static str,
    method: Method,
    path: String,
    content_type: &'static str,
    body: Vec<u8>,
    headers: Vec<(&'static str, String)>,
}

fn case(name: &'static str, method: Method, path: &str, content_type: &'static str, body: impl Into<Vec<u8>>) -> Case {
    Case { name, method, path: path.to_owned(), content_type, body: body.into(), headers: Vec::new() }
}

const FORM: &str = "application/x-www-form-urlencoded";
const JSON: &str = "application/json";

fn cases() -> Vec<Case> {
    let huge_password = format!("login=ada&csrf=a&password={}", "a".repeat(3 * 1024 * 1024));
    let many_uris = serde_json::json!({"redirect_uris": vec!["https://a.example/cb"; 10_000]}).to_string();
    let mut list = vec![
        case("sign-in huge", Method::POST, "/account/sign-in", FORM, huge_password),
        case(
            "sign-in invalid UTF-8",
            Method::POST,
            "/account/sign-in",
            FORM,
            b"login=\xff\xfe&password=x&csrf=a".to_vec(),
        ),
        case("sign-in no content type", Method::POST, "/account/sign-in", "", "login=a&password=b"),
        case("sign-in JSON", Method::POST, "/account/sign-in", JSON, r#"{"login":"a"}"#),
        case(
            "sign-in duplicated fields",
            Method::POST,
            "/account/sign-in",
            FORM,
            "login=a&login=b&password=x&csrf=a&csrf=b",
        ),
        case("sign-in percent garbage", Method::POST, "/account/sign-in", FORM, "login=%zz&password=%&csrf=%%"),
        case("link without code", Method::GET, "/account/link", "", ""),
        case("link with NUL", Method::GET, "/account/link?code=%00%ff", "", ""),
        case("link post garbage", Method::POST, "/account/link", FORM, "code=svc_sl_x&new_password=&csrf=a"),
        case("next of 20 KB", Method::GET, &format!("/account/sign-in?next=/{}", "a".repeat(20_000)), "", ""),
        case("revoke an unparsable id", Method::POST, "/account/api-tokens/not-a-uuid/revoke", FORM, "csrf=a"),
        case("disconnect an unparsable id", Method::POST, "/account/apps/%00/revoke", FORM, "csrf=a"),
        case("authorize without parameters", Method::GET, "/oauth/authorize", "", ""),
        case(
            "authorize with a 9 KB state",
            Method::GET,
            &format!("/oauth/authorize?client_id=x&state={}", "s".repeat(9000)),
            "",
            "",
        ),
        case(
            "consent post without a session",
            Method::POST,
            "/oauth/authorize",
            FORM,
            "client_id=x&decision=approve&csrf=a",
        ),
        case("token empty", Method::POST, "/oauth/token", FORM, ""),
        case("token JSON", Method::POST, "/oauth/token", JSON, r#"{"grant_type":"authorization_code"}"#),
        case("token invalid UTF-8", Method::POST, "/oauth/token", FORM, b"grant_type=\xff".to_vec()),
        case("token duplicated", Method::POST, "/oauth/token", FORM, "grant_type=refresh_token&grant_type=x"),
        case("token over the form limit", Method::POST, "/oauth/token", FORM, format!("code={}", "c".repeat(200_000))),
        case("register not JSON", Method::POST, "/oauth/register", JSON, "nope"),
        case("register 10,000 URIs", Method::POST, "/oauth/register", JSON, many_uris),
        case(
            "register nested",
            Method::POST,
            "/oauth/register",
            JSON,
            r#"{"redirect_uris":[["x"]],"client_name":{"a":1}}"#,
        ),
        case("register as a form", Method::POST, "/oauth/register", FORM, "redirect_uris=https://a.example/cb"),
        case("revoke empty", Method::POST, "/oauth/revoke", FORM, ""),
        case("account PUT", Method::PUT, "/account/sign-in", FORM, ""),
        case("map of a garbage project", Method::GET, "/map/%00", "", ""),
    ];
    let mut odd_cookie = case("a 6 KB session cookie", Method::GET, "/account/projects", "", "");
    odd_cookie.headers.push(("cookie", format!("canvas_session=svc_ss_{}", "a".repeat(6000))));
    list.push(odd_cookie);
    let mut many_cookies = case("a thousand cookies", Method::GET, "/account/api-tokens", "", "");
    many_cookies.headers.push(("cookie", (0..1000).map(|i| format!("c{i}=v")).collect::<Vec<_>>().join("; ")));
    list.push(many_cookies);
    let mut bogus_bearer = case("an access token on REST", Method::GET, "/api/v2/projects/x/items", "", "");
    bogus_bearer.headers.push(("authorization", "Bearer svc_at_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".into()));
    list.push(bogus_bearer);
    let mut session_write =
        case("a session cookie on a write", Method::POST, "/api/v2/projects/x/item/panel/label", JSON, "{}");
    session_write.headers.push(("cookie", "canvas_session=svc_ss_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".into()));
    list.push(session_write);
    list
}

async fn send(app: &TestApp, case: &Case) -> StatusCode {
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let mut request =
        client.request(case.method.clone(), format!("{}{}", app.base_url, case.path)).body(case.body.clone());
    if !case.content_type.is_empty() {
        request = request.header("content-type", case.content_type);
    }
    for (name, value) in &case.headers {
        request = request.header(*name, value);
    }
    request.send().await.map(|r| r.status()).unwrap_or_else(|e| panic!("{}: no answer: {e}", case.name))
}

async fn hostile_requests_get_4xx_never_5xx(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.account_user("Ada", "ada", "correct horse battery").await;
    for case in cases() {
        let status = send(&app, &case).await;
        assert!(
            status.is_client_error() || status.is_redirection() || status == StatusCode::OK,
            "{}: {status}",
            case.name
        );
        assert!(!status.is_server_error(), "{}: {status}", case.name);
    }
    // None of it signed anyone in or made a token: the account is as it was.
    let mut site = SiteClient::new(&app);
    assert_eq!(site.sign_in("ada", "correct horse battery").await.status, StatusCode::SEE_OTHER);
    let tokens = site.get("/account/api-tokens").await;
    assert_eq!(tokens.body.matches("data-token-id=").count(), 1, "only the test's own token: {}", tokens.body);
    let apps = site.get("/account/apps").await;
    assert!(!apps.body.contains("data-grant-id"), "{}", apps.body);
}

/// Pieces of hostile form values.
const PIECES: &[&str] = &[
    "",
    "a",
    "%",
    "%00",
    "%ff",
    "%2F%2F",
    "+",
    "&",
    "=",
    "==",
    "svc_tk_",
    "svc_at_",
    "svc_rt_",
    "svc_ac_",
    "svc_ss_",
    "authorization_code",
    "refresh_token",
    "S256",
    "plain",
    "http://127.0.0.1/cb",
    "javascript:alert(1)",
    "//evil",
    "\u{202e}",
    "é",
    "😀",
    "<script>",
    "'",
    "\"",
    "\\",
    "null",
    "0",
    "-1",
    "99999999999999999999",
];
const FIELDS: &[&str] = &[
    "grant_type",
    "code",
    "code_verifier",
    "redirect_uri",
    "client_id",
    "refresh_token",
    "resource",
    "scope",
    "token",
    "token_type_hint",
    "login",
    "password",
    "csrf",
    "next",
    "new_password",
    "name",
    "decision",
    "state",
];

/// A small deterministic generator (xorshift), so a failure names a reproducible seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self, below: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % below as u64) as usize
    }
}

async fn generated_forms_never_reach_a_5xx(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let targets = [
        "/oauth/token",
        "/oauth/revoke",
        "/oauth/authorize",
        "/account/sign-in",
        "/account/link",
        "/account/api-tokens",
    ];
    for round in 0..240 {
        let fields = rng.next(6);
        let body: Vec<String> = (0..fields)
            .map(|_| {
                let value: String = (0..rng.next(4)).map(|_| PIECES[rng.next(PIECES.len())]).collect();
                format!("{}={value}", FIELDS[rng.next(FIELDS.len())])
            })
            .collect();
        let path = targets[rng.next(targets.len())];
        let mut case = case("generated", Method::POST, path, FORM, body.join("&"));
        if rng.next(2) == 0 {
            case.headers.push(("cookie", format!("canvas_csrf={}", PIECES[rng.next(PIECES.len())])));
        }
        let status = send(&app, &case).await;
        assert!(
            !status.is_server_error(),
            "round {round}: POST {path} {:?}: {status}",
            String::from_utf8_lossy(&case.body)
        );
    }
}
