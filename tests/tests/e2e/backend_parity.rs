//! The same answer on both backends: generated Unicode text (every code point, control characters
//! and U+0000 included, strings biased to the edges) and numbers (i64/u64/f64 extremes, -0, huge
//! integers and out-of-range literals written as JSON) through every text- and number-bearing
//! write path: single create, PATCH, bulk, diagrams, upload names, webhook definitions, account
//! names (gRPC), OAuth client registration and knowledge queries.
//!
//! Each case must never answer a 5xx; a value with U+0000 is refused with a 400 naming the field
//! and the rule; a value that is stored reads back exactly as sent. The inputs come from a fixed
//! seed, so the PostgreSQL run also runs them on SQLite and asserts the same outcome (status,
//! fields named, value read back) case by case.

use std::future::Future;

use canvas_proto::v1 as pb;
use canvas_proto::v1::admin_service_client::AdminServiceClient;
use canvas_proto::v1::project_service_client::ProjectServiceClient;
use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tonic::metadata::MetadataValue;
use tonic::transport::Channel;
use tonic::Request;
use tonic_types::StatusExt;

use crate::support::{get_item, owner_with_project, send, Reply};

backend_tests!(
    item_text_round_trips_or_is_refused_alike,
    item_numbers_round_trip_or_are_refused_alike,
    bulk_and_diagram_text_alike,
    upload_names_alike,
    webhook_definitions_alike,
    account_names_alike,
    oauth_client_names_alike,
    knowledge_queries_alike
);

/// Generated inputs per path (besides the fixed edge cases).
const CASES: usize = 48;

/// The rule of U+0000, as core-service words it.
const NUL_RULE: &str = "must not contain U+0000 (NUL)";

/// Characters the generated text leans on: C0 and C1 controls, line and paragraph separators,
/// the BOM, noncharacters, the replacement character, the last code point, lone combining marks,
/// bidi overrides, and the characters HTML and JSON treat specially.
const EDGE_CHARS: &[char] = &[
    '\0',
    '\u{1}',
    '\u{8}',
    '\t',
    '\n',
    '\u{b}',
    '\u{c}',
    '\r',
    '\u{1b}',
    '\u{1f}',
    '\u{7f}',
    '\u{80}',
    '\u{85}',
    '\u{9f}',
    '\u{a0}',
    '\u{ad}',
    '\u{300}',
    '\u{301}',
    '\u{20dd}',
    '\u{200b}',
    '\u{200d}',
    '\u{2028}',
    '\u{2029}',
    '\u{202e}',
    '\u{d7ff}',
    '\u{e000}',
    '\u{feff}',
    '\u{fffd}',
    '\u{fffe}',
    '\u{ffff}',
    '\u{1f600}',
    '\u{10ffff}',
    '<',
    '>',
    '&',
    '"',
    '\'',
    '\\',
    '/',
    ' ',
];

/// Text of any code points, biased to [`EDGE_CHARS`]; now and then very long.
fn text_strategy() -> impl Strategy<Value = String> {
    let one = || {
        proptest::prop_oneof![
            4 => proptest::arbitrary::any::<char>(),
            3 => proptest::sample::select(EDGE_CHARS),
            3 => proptest::char::range(' ', '~'),
        ]
    };
    proptest::prop_oneof![
        8 => proptest::collection::vec(one(), 1..32).prop_map(String::from_iter),
        1 => (proptest::sample::select(EDGE_CHARS), 1000..6000usize)
            .prop_map(|(edge, n)| format!("{}{edge}{}", "long ".repeat(n / 5), "é".repeat(n / 10))),
        1 => proptest::collection::vec(proptest::sample::select(EDGE_CHARS), 1..4).prop_map(String::from_iter),
    ]
}

/// The fixed edge cases, then [`CASES`] generated strings, the same on every run and backend.
fn texts() -> Vec<String> {
    let mut list: Vec<String> = [
        "\0",
        "a\0b",
        "\0\0\0",
        "Hello\0",
        "\u{1}\u{2}\u{1f}",
        "tab\tnew\nline\rcr",
        "\u{7f}",
        "\u{85}next line",
        "\u{2028}\u{2029}",
        "\u{feff}BOM",
        "\u{fffd}",
        "\u{10ffff}",
        "\u{301}",
        "e\u{301}\u{20dd}",
        "\u{fffe}\u{ffff}",
        "😀 emoji",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    list.push("a".repeat(20_000));
    list.push(format!("{}\0", "b".repeat(20_000)));
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let strategy = text_strategy();
    for _ in 0..CASES {
        list.push(strategy.new_tree(&mut runner).expect("a generated string").current());
    }
    list
}

/// JSON number literals: the fixed extremes, then generated i64, u64, f64 and long digit runs.
fn numbers() -> Vec<String> {
    let mut list: Vec<String> = [
        "0",
        "-0",
        "-0.0",
        "1e308",
        "-1e308",
        "1.7976931348623157e308",
        "-1.7976931348623157e308",
        "5e-324",
        "2.2250738585072014e-308",
        "1e-400",
        "1e400",
        "-1e400",
        "9223372036854775807",
        "-9223372036854775808",
        "9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "-18446744073709551617",
        "123456789012345678901234567890123456789012345678901234567890",
        "9007199254740993",
        "0.1",
        "1E5",
        "20.0",
        "360",
        "360.0000000000001",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let strategy = proptest::prop_oneof![
        proptest::arbitrary::any::<i64>().prop_map(|n| n.to_string()),
        proptest::arbitrary::any::<u64>().prop_map(|n| n.to_string()),
        proptest::num::f64::NORMAL
            .prop_union(proptest::num::f64::SUBNORMAL)
            .or(proptest::num::f64::ZERO)
            .prop_map(|n| format!("{n:?}")),
        proptest::num::f64::NORMAL.prop_map(|n| format!("{n:e}")),
        proptest::string::string_regex("-?[1-9][0-9]{18,80}").unwrap(),
    ];
    for _ in 0..CASES / 2 {
        list.push(strategy.new_tree(&mut runner).expect("a generated number").current());
    }
    list
}

/// What a client saw for one input: the status, the fields a refusal named, and the value read
/// back when it was stored.
#[derive(Debug, Clone, PartialEq)]
struct Outcome {
    case: String,
    status: u16,
    fields: Vec<String>,
    stored: Option<Value>,
}

/// A short, escaped description of an input for failure messages.
fn describe(path: &str, input: &str) -> String {
    let shown: String = input.chars().take(40).collect();
    format!("{path} {:?}{} ({} chars)", shown, if input.chars().count() > 40 { "…" } else { "" }, input.chars().count())
}

/// The per-case rule: never a 5xx; U+0000 is a 400 naming `field` with the rule; a 400 names a
/// field; a stored value reads back as `expected`.
fn check(outcome: &Outcome, input: &str, field: &str, expected: Option<&Value>) {
    assert!(outcome.status < 500, "{}: answered {}", outcome.case, outcome.status);
    if input.contains('\0') {
        assert_eq!(outcome.status, 400, "{}: U+0000 must be refused", outcome.case);
        // The field, or the value holding it when that value's own rule (its size) refused it first.
        let named = |f: &String| field == f || field.starts_with(&format!("{f}."));
        assert!(
            outcome.fields.iter().any(named),
            "{}: the refusal must name {field}: {:?}",
            outcome.case,
            outcome.fields
        );
    } else if outcome.status == 400 {
        assert!(!outcome.fields.is_empty(), "{}: a 400 must name a field", outcome.case);
    }
    if let (Some(stored), Some(expected)) = (&outcome.stored, expected) {
        assert_eq!(stored, expected, "{}: the value read back differs from the one sent", outcome.case);
    }
}

/// Runs `run` on `backend`; on PostgreSQL also on SQLite, and asserts the outcomes are the same,
/// case by case.
async fn alike<F, Fut>(backend: Backend, run: F)
where
    F: Fn(Backend) -> Fut,
    Fut: Future<Output = Vec<Outcome>>,
{
    let started = std::time::Instant::now();
    let here = run(backend).await;
    eprintln!("{backend:?}: {} cases in {:?}", here.len(), started.elapsed());
    if backend == Backend::Postgres {
        let sqlite = run(Backend::Sqlite).await;
        assert_eq!(here.len(), sqlite.len());
        for (pg, lite) in here.iter().zip(&sqlite) {
            assert_eq!(pg, lite, "PostgreSQL (left) and SQLite (right) answer differently");
        }
    }
}

fn outcome(case: String, reply: &Reply) -> Outcome {
    Outcome { case, status: reply.status.as_u16(), fields: reply.fields(), stored: None }
}

/// Like [`send`], with a body that is raw JSON text (numbers serde_json cannot hold).
async fn send_raw(app: &TestApp, method: Method, url: &str, user: &TestUser, body: String) -> Reply {
    let response = app
        .http
        .request(method, url)
        .header("Authorization", user.bearer())
        .header("Content-Type", "application/json")
        .body(body)
        .send()
        .await
        .expect("request reaches the gateway");
    let status = response.status();
    let content_type = response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    let bytes = response.bytes().await.expect("body").to_vec();
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Reply { status, content_type, body, bytes }
}

/// A member of a JSON value by a dotted path (`size.width`).
fn at<'a>(value: &'a Value, path: &str) -> &'a Value {
    path.split('.').fold(value, |v, key| &v[key])
}

async fn item_text_round_trips_or_is_refused_alike(backend: Backend) {
    alike(backend, item_text_outcomes).await
}

/// Every text property of the item types (label and sticky-note text, font family, web URL,
/// image file name) on create, and label text on PATCH.
async fn item_text_outcomes(backend: Backend) -> Vec<Outcome> {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let patched = crate::support::create_label(&app, &owner, &project, json!({"text": "to patch"})).await;
    let mut outcomes = Vec::new();
    for text in texts() {
        let url = format!("https://example.com/{text}");
        let cases: [(&str, &str, &str, Value, Value); 5] = [
            ("label", "text", text.as_str(), json!({"text": text}), json!(text)),
            ("sticky-note", "text", text.as_str(), json!({"text": text}), json!(text)),
            ("label", "fontFamily", text.as_str(), json!({"text": "t", "fontFamily": text}), json!(text)),
            ("web", "url", url.as_str(), json!({"url": url}), json!(url.trim())),
            (
                "image",
                "fileName",
                text.as_str(),
                json!({"fileName": text, "mimeType": "image/png", "fileSize": 1, "size": {"width": 10, "height": 10}}),
                json!(text),
            ),
        ];
        for (item_type, field, input, body, expected) in cases {
            let reply = send(
                &app,
                Method::POST,
                &app.item_url(&project, &format!("/panel/{item_type}?jsonCasing=camel")),
                Some(&owner.bearer()),
                Some(body),
            )
            .await;
            let mut seen = outcome(describe(&format!("create {item_type} {field}"), input), &reply);
            if reply.status == StatusCode::OK {
                let id = reply.body["itemId"].as_str().expect("itemId");
                seen.stored = Some(get_item(&app, &owner, &project, id).await[field].clone());
            }
            check(&seen, input, field, Some(&expected));
            outcomes.push(seen);
        }

        let reply = send(
            &app,
            Method::PATCH,
            &app.item_url(&project, &format!("/label/{patched}?jsonCasing=camel")),
            Some(&owner.bearer()),
            Some(json!({"text": text})),
        )
        .await;
        let mut seen = outcome(describe("patch label text", &text), &reply);
        let now = get_item(&app, &owner, &project, &patched).await["text"].clone();
        if reply.status == StatusCode::OK {
            seen.stored = Some(now);
        } else {
            assert_ne!(now, json!(text), "{}: a refused PATCH changed the item", seen.case);
        }
        check(&seen, &text, "text", Some(&json!(text)));
        outcomes.push(seen);
    }
    outcomes
}

async fn item_numbers_round_trip_or_are_refused_alike(backend: Backend) {
    alike(backend, item_number_outcomes).await
}

/// Every number property kind (coordinates, sizes, bounded and lower-bounded numbers, lists, byte
/// counts) with each literal written as JSON text, on create and on PATCH.
async fn item_number_outcomes(backend: Backend) -> Vec<Outcome> {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let patched = crate::support::create_label(&app, &owner, &project, json!({"text": "to patch"})).await;
    let mut outcomes = Vec::new();
    for n in numbers() {
        let cases: [(&str, &str, String); 8] = [
            ("label", "position.x", format!(r#"{{"text":"n","position":{{"x":{n},"y":0}}}}"#)),
            ("label", "fontSize", format!(r#"{{"text":"n","fontSize":{n}}}"#)),
            ("label", "scale", format!(r#"{{"text":"n","scale":{n}}}"#)),
            ("label", "angle", format!(r#"{{"text":"n","angle":{n}}}"#)),
            ("shape", "size.width", format!(r#"{{"size":{{"width":{n},"height":10}}}}"#)),
            ("shape", "strokeThickness", format!(r#"{{"size":{{"width":10,"height":10}},"strokeThickness":{n}}}"#)),
            (
                "image",
                "fileSize",
                format!(
                    r#"{{"fileName":"a.png","mimeType":"image/png","fileSize":{n},"size":{{"width":10,"height":10}}}}"#
                ),
            ),
            ("web", "position.y", format!(r#"{{"url":"https://example.com/","position":{{"x":0,"y":{n}}}}}"#)),
        ];
        for (item_type, field, body) in cases {
            let url = app.item_url(&project, &format!("/panel/{item_type}?jsonCasing=camel"));
            let reply = send_raw(&app, Method::POST, &url, &owner, body).await;
            let mut seen = outcome(describe(&format!("create {item_type} {field}"), &n), &reply);
            if reply.status == StatusCode::OK {
                let id = reply.body["itemId"].as_str().expect("itemId");
                seen.stored = Some(at(&get_item(&app, &owner, &project, id).await, field).clone());
            }
            check_number(&seen, &n);
            outcomes.push(seen);
        }
        let url = app.item_url(&project, &format!("/label/{patched}?jsonCasing=camel"));
        let reply = send_raw(&app, Method::PATCH, &url, &owner, format!(r#"{{"position":{{"x":{n},"y":1}}}}"#)).await;
        let mut seen = outcome(describe("patch label position.x", &n), &reply);
        if reply.status == StatusCode::OK {
            seen.stored = Some(get_item(&app, &owner, &project, &patched).await["position"]["x"].clone());
        }
        check_number(&seen, &n);
        outcomes.push(seen);
    }
    outcomes
}

/// A number is stored as the number sent (as a double: JSON has one number type) or refused with
/// a 400 naming a field; never a 5xx.
fn check_number(outcome: &Outcome, literal: &str) {
    assert!(outcome.status < 500, "{}: answered {}", outcome.case, outcome.status);
    if outcome.status == 400 {
        assert!(!outcome.fields.is_empty(), "{}: a 400 must name a field", outcome.case);
    }
    if let Some(stored) = &outcome.stored {
        // As the gateway reads it (serde_json's parse of a long literal may differ from Rust's in
        // the last bit): the value sent is the double the service received.
        let sent: f64 = serde_json::from_str(literal).expect("a number literal");
        assert_eq!(stored.as_f64(), Some(sent), "{}: read back {stored}", outcome.case);
    }
}

async fn bulk_and_diagram_text_alike(backend: Backend) {
    alike(backend, bulk_and_diagram_outcomes).await
}

/// Bulk create (a good item and one carrying the text) and a Mermaid diagram whose node label is
/// the text: either all items commit, or nothing does and the refusal names the field.
async fn bulk_and_diagram_outcomes(backend: Backend) -> Vec<Outcome> {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let mut outcomes = Vec::new();
    let bulk_url = format!("{}/api/v2/projects/{project}/items/bulk?jsonCasing=camel", app.base_url);
    let diagram_url = format!("{}/api/v2/projects/{project}/diagrams?jsonCasing=camel", app.base_url);
    for text in texts() {
        let body = json!({"items": [
            {"type": "label", "properties": {"text": "fine"}},
            {"type": "sticky-note", "properties": {"text": text, "fontFamily": text}},
        ]});
        let reply = send(&app, Method::POST, &bulk_url, Some(&owner.bearer()), Some(body)).await;
        let mut seen = outcome(describe("bulk sticky-note text", &text), &reply);
        if reply.status == StatusCode::OK {
            let id = reply.body["items"][1]["itemId"].as_str().expect("itemId");
            let item = get_item(&app, &owner, &project, id).await;
            seen.stored = Some(json!([item["text"], item["fontFamily"]]));
        }
        check(&seen, &text, "items[1].properties.text", Some(&json!([text, text])));
        if text.contains('\0') {
            assert!(
                seen.fields.iter().any(|f| f == "items[1].properties.fontFamily"),
                "{}: {:?}",
                seen.case,
                seen.fields
            );
        }
        outcomes.push(seen);

        // Mermaid's own syntax decides what a label is; here only the answer matters: the same on
        // both backends, never a 5xx, U+0000 refused naming `source`.
        let source = format!("flowchart TD\n  a[\"{}\"] --> b[ok]\n", text.replace('"', "#quot;"));
        let body = json!({"format": "mermaid", "source": source, "position": {"x": 0, "y": 0}});
        let reply = send(&app, Method::POST, &diagram_url, Some(&owner.bearer()), Some(body)).await;
        let mut seen = outcome(describe("diagram node label", &text), &reply);
        if reply.status == StatusCode::OK {
            let ids = reply.body["itemIds"].as_array().expect("itemIds").len();
            seen.stored = Some(json!(ids));
        }
        check(&seen, &source, "source", None);
        outcomes.push(seen);
    }
    outcomes
}

async fn upload_names_alike(backend: Backend) {
    alike(backend, upload_outcomes).await
}

/// A 1×1 PNG.
fn png() -> Vec<u8> {
    let mut bytes = std::io::Cursor::new(Vec::new());
    image::RgbaImage::new(1, 1).write_to(&mut bytes, image::ImageFormat::Png).unwrap();
    bytes.into_inner()
}

/// Multipart uploads whose `filename` is the text, written raw (UTF-8) in the part header. (A JSON
/// `fileName`, where U+0000 can travel, is the image create of the item text test.)
async fn upload_outcomes(backend: Backend) -> Vec<Outcome> {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let png = png();
    let mut outcomes = Vec::new();
    for text in texts() {
        // A backslash before the closing quote would escape it; quotes are escaped.
        let name = text.replace('\\', "/").replace('"', "'");
        let boundary = "canvas-parity-boundary";
        let mut body = Vec::new();
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"binary\"; filename=\"").as_bytes(),
        );
        body.extend_from_slice(name.as_bytes());
        body.extend_from_slice(b"\"\r\nContent-Type: application/octet-stream\r\n\r\n");
        body.extend_from_slice(&png);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let response = app
            .http
            .post(app.item_url(&project, "/panel/image/file?jsonCasing=camel"))
            .header("Authorization", owner.bearer())
            .header("Content-Type", format!("multipart/form-data; boundary={boundary}"))
            .body(body)
            .send()
            .await
            .unwrap();
        let status = response.status();
        let bytes = response.bytes().await.unwrap().to_vec();
        let reply = Reply {
            status,
            content_type: String::new(),
            body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
            bytes,
        };
        let mut seen = outcome(describe("upload filename", &name), &reply);
        if reply.status == StatusCode::OK {
            let id = reply.body["itemId"].as_str().expect("itemId");
            seen.stored = Some(get_item(&app, &owner, &project, id).await["fileName"].clone());
        }
        assert!(seen.status < 500, "{}: answered {}", seen.case, seen.status);
        if let Some(stored) = &seen.stored {
            // Surrounding whitespace is trimmed; a name of nothing else is called `upload`.
            let expected = if name.trim().is_empty() { "upload" } else { name.trim() };
            assert_eq!(stored, &json!(expected), "{}", seen.case);
        }
        outcomes.push(seen);
    }
    outcomes
}

async fn webhook_definitions_alike(backend: Backend) {
    alike(backend, webhook_outcomes).await
}

/// A webhook's name, URL, a string and a key inside `customData`, and numbers inside `customData`.
async fn webhook_outcomes(backend: Backend) -> Vec<Outcome> {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let hooks = format!("{}/api/v2/projects/{project}/webhooks", app.base_url);
    let mut outcomes = Vec::new();
    let base = |extra: Value| {
        let mut definition = json!({"url": "https://hooks.example.com/canvas", "events": ["item.created"]});
        definition.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        definition
    };
    // A webhook create and read take about a quarter of a second in a debug build (169 cases took
    // 41 s), so fewer cases than elsewhere: the first edge cases of each list.
    for text in texts().into_iter().take(14) {
        let url = format!("https://hooks.example.com/{text}");
        let cases: [(&str, &str, Value, &str, Value); 4] = [
            ("name", text.as_str(), base(json!({"name": text})), "name", json!(text)),
            ("url", url.as_str(), base(json!({"url": url})), "url", json!(url)),
            (
                "customData.a.b",
                text.as_str(),
                base(json!({"customData": {"a": {"b": text}}})),
                "customData",
                json!({"a": {"b": text}}),
            ),
            (
                "customData key",
                text.as_str(),
                base(json!({"customData": {"a": {text.clone(): 1}}})),
                "customData",
                json!({"a": {text.clone(): 1}}),
            ),
        ];
        for (field, input, definition, read, expected) in cases {
            let reply =
                send(&app, Method::POST, &format!("{hooks}?jsonCasing=camel"), Some(&owner.bearer()), Some(definition))
                    .await;
            let mut seen = outcome(describe(&format!("webhook {field}"), input), &reply);
            if reply.status == StatusCode::OK {
                let id = reply.body["id"].as_str().expect("id");
                let got =
                    send(&app, Method::GET, &format!("{hooks}/{id}?jsonCasing=camel"), Some(&owner.bearer()), None)
                        .await;
                assert_eq!(got.status, StatusCode::OK, "{}", got.body);
                seen.stored = Some(got.body[read].clone());
            }
            // A key is named by the object holding it.
            let named = if field == "customData key" { "customData.a" } else { field };
            check(&seen, input, named, Some(&expected));
            outcomes.push(seen);
        }
    }
    for n in numbers().into_iter().take(24) {
        let definition =
            format!(r#"{{"url":"https://hooks.example.com/n","events":["item.created"],"customData":{{"n":{n}}}}}"#);
        let reply = send_raw(&app, Method::POST, &format!("{hooks}?jsonCasing=camel"), &owner, definition).await;
        let mut seen = outcome(describe("webhook customData number", &n), &reply);
        if reply.status == StatusCode::OK {
            let id = reply.body["id"].as_str().expect("id");
            let got =
                send(&app, Method::GET, &format!("{hooks}/{id}?jsonCasing=camel"), Some(&owner.bearer()), None).await;
            assert_eq!(got.status, StatusCode::OK);
            // The REST record renders customData as JSON (deliveries carry its exact text): the
            // same number, as the gateway read it.
            if let Ok(sent) = serde_json::from_str::<f64>(&n) {
                assert_eq!(got.body["customData"]["n"].as_f64(), Some(sent), "{}: {}", seen.case, got.body);
            }
            seen.stored = Some(json!(n));
        }
        assert!(seen.status < 500, "{}: answered {}", seen.case, seen.status);
        outcomes.push(seen);
    }
    outcomes
}

async fn account_names_alike(backend: Backend) {
    alike(backend, account_outcomes).await
}

fn authed<T>(message: T, token: &str) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert("authorization", MetadataValue::try_from(format!("Bearer {token}")).unwrap());
    request
}

/// A failed gRPC call as an outcome: the HTTP status its reason maps to (400 for a validation
/// refusal) and the fields of its `BadRequest`.
fn grpc_outcome(case: String, status: &tonic::Status) -> Outcome {
    let fields = status
        .get_error_details()
        .bad_request()
        .map(|b| b.field_violations.iter().map(|v| v.field.clone()).collect())
        .unwrap_or_default();
    let http = match status.code() {
        tonic::Code::InvalidArgument => 400,
        tonic::Code::Internal | tonic::Code::Unknown => 500,
        tonic::Code::Unavailable => 503,
        other => 400 + other as u16,
    };
    Outcome { case, status: http, fields, stored: None }
}

/// User, project and token names over the admin gRPC API, read back by the user themself
/// (`WhoAmI`), the project (`GetProject`) and the token list.
async fn account_outcomes(backend: Backend) -> Vec<Outcome> {
    let app = TestApp::spawn(backend).await;
    let channel = Channel::from_shared(app.grpc_url.clone()).unwrap().connect().await.expect("core-service");
    let mut admin = AdminServiceClient::new(channel.clone());
    let mut projects = ProjectServiceClient::new(channel);
    let token = app.admin_token.clone();
    let admin_id = app.admin.user_id.uuid().to_string();
    let mut outcomes = Vec::new();
    for text in texts() {
        let expected = json!(text.trim());
        let case = describe("user name", &text);
        let mut seen = match admin
            .create_user(authed(pb::CreateUserRequest { name: text.clone(), system_admin: false }, &token))
            .await
        {
            Ok(user) => {
                let user = user.into_inner();
                let issued = admin
                    .create_token(authed(
                        pb::CreateTokenRequest { user_id: user.user_id, environment: 0, name: "t".into() },
                        &token,
                    ))
                    .await
                    .expect("a token for the new user")
                    .into_inner();
                let me =
                    projects.who_am_i(authed(pb::WhoAmIRequest {}, &issued.token)).await.expect("WhoAmI").into_inner();
                Outcome { case, status: 200, fields: Vec::new(), stored: Some(json!(me.name)) }
            }
            Err(status) => grpc_outcome(case, &status),
        };
        check(&seen, &text, "name", Some(&expected));
        outcomes.push(seen);

        let case = describe("project name", &text);
        seen = match admin
            .create_project(authed(
                pb::CreateProjectRequest { name: text.clone(), owner_user_id: admin_id.clone() },
                &token,
            ))
            .await
        {
            Ok(project) => {
                let id = project.into_inner().project_id;
                let got = projects
                    .get_project(authed(pb::GetProjectRequest { project_id: id }, &token))
                    .await
                    .expect("GetProject");
                Outcome { case, status: 200, fields: Vec::new(), stored: Some(json!(got.into_inner().name)) }
            }
            Err(status) => grpc_outcome(case, &status),
        };
        check(&seen, &text, "name", Some(&expected));
        outcomes.push(seen);

        let case = describe("token name", &text);
        seen = match admin
            .create_token(authed(
                pb::CreateTokenRequest { user_id: admin_id.clone(), environment: 0, name: text.clone() },
                &token,
            ))
            .await
        {
            Ok(issued) => {
                let id = issued.into_inner().info.expect("info").token_id;
                let list = admin
                    .list_tokens(authed(pb::ListTokensRequest { user_id: admin_id.clone() }, &token))
                    .await
                    .expect("ListTokens");
                let name = list.into_inner().tokens.into_iter().find(|t| t.token_id == id).expect("listed").name;
                Outcome { case, status: 200, fields: Vec::new(), stored: Some(json!(name)) }
            }
            Err(status) => grpc_outcome(case, &status),
        };
        check(&seen, &text, "name", Some(&expected));
        outcomes.push(seen);
    }
    outcomes
}

async fn oauth_client_names_alike(backend: Backend) {
    alike(backend, oauth_outcomes).await
}

/// Dynamic client registration with the text as `client_name` and inside a redirect URI. RFC 7591
/// refusals are `{error, error_description}`; the description must name the field.
async fn oauth_outcomes(backend: Backend) -> Vec<Outcome> {
    let app = TestApp::spawn(backend).await;
    let mut outcomes = Vec::new();
    let register = format!("{}/oauth/register", app.base_url);
    for text in texts() {
        let redirect = format!("http://127.0.0.1/cb/{text}");
        let cases = [
            ("client_name", text.as_str(), json!({"client_name": text, "redirect_uris": ["http://127.0.0.1/cb"]})),
            ("redirect_uris", redirect.as_str(), json!({"client_name": "n", "redirect_uris": [redirect]})),
        ];
        for (field, input, body) in cases {
            let reply = send(&app, Method::POST, &register, None, Some(body)).await;
            let mut seen = outcome(describe(&format!("oauth {field}"), input), &reply);
            assert!(seen.status < 500, "{}: answered {}", seen.case, seen.status);
            if reply.status == StatusCode::CREATED {
                seen.stored = Some(reply.body[field].clone());
                // The client information response echoes the metadata as sent.
                let expected = if field == "client_name" { json!(input) } else { json!([input]) };
                assert_eq!(seen.stored.as_ref(), Some(&expected), "{}", seen.case);
            } else {
                assert_eq!(seen.status, 400, "{}: {}", seen.case, reply.body);
                seen.fields = vec![reply.body["error"].as_str().unwrap_or_default().to_owned()];
            }
            // A registration over 16 KiB is refused for its size first, without naming a field.
            if input.contains('\0') && input.len() < 8 * 1024 {
                assert_eq!(seen.status, 400, "{}: U+0000 must be refused", seen.case);
                let description = reply.body["error_description"].as_str().unwrap_or_default();
                let names = if field == "client_name" { "client_name" } else { "redirect URI" };
                assert!(description.contains(names) && description.contains(NUL_RULE), "{}: {description}", seen.case);
            }
            outcomes.push(seen);
        }
    }
    outcomes
}

async fn knowledge_queries_alike(backend: Backend) {
    alike(backend, knowledge_outcomes).await
}

/// Retrieval with the text as the query and as a keyword (a read: nothing is stored, so any text
/// is searched for), and numbers as `maxResults`.
async fn knowledge_outcomes(backend: Backend) -> Vec<Outcome> {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    crate::support::create_label(&app, &owner, &project, json!({"text": "needle in a haystack"})).await;
    let url = format!("{}/api/v1/memory/retrieve?jsonCasing=camel", app.base_url);
    let mut outcomes = Vec::new();
    for text in texts() {
        for (field, body) in [
            ("query", json!({"projectId": project, "query": text, "mode": "keyword"})),
            ("keywords", json!({"projectId": project, "query": "needle", "keywords": [text], "mode": "keyword"})),
        ] {
            let reply = send(&app, Method::POST, &url, Some(&owner.bearer()), Some(body)).await;
            let seen = outcome(describe(&format!("retrieve {field}"), &text), &reply);
            assert!(seen.status < 500, "{}: answered {}: {}", seen.case, seen.status, reply.body);
            if seen.status == 400 {
                assert!(!seen.fields.is_empty(), "{}: a 400 must name a field", seen.case);
            }
            outcomes.push(seen);
        }
    }
    for n in numbers() {
        let body = format!(r#"{{"projectId":"{project}","query":"needle","mode":"keyword","maxResults":{n}}}"#);
        let reply = send_raw(&app, Method::POST, &url, &owner, body).await;
        let seen = outcome(describe("retrieve maxResults", &n), &reply);
        check_number(&seen, &n);
        outcomes.push(seen);
    }
    outcomes
}
