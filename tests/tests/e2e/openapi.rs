//! `/api/openapi.json` and `/api/docs`: the document is OpenAPI 3.1, describes every route the
//! router serves (the generic item routes per item type), and the reference page is served, with
//! its vendored script, without a token. Its item schemas against core-service's property table:
//! `schemas.rs`.

use std::collections::BTreeSet;

use canvas_tests::{Backend, TestApp};
use reqwest::StatusCode;
use serde_json::Value;

/// Every route of `rest_gateway::router` (routes/mod.rs, map/mod.rs, openapi/mod.rs), as
/// `(method, path)` in the document's spelling. The generic item routes are listed per type.
fn served_routes() -> BTreeSet<(String, String)> {
    const TYPES: [&str; 9] = ["label", "sticky-note", "shape", "connector", "web", "image", "document", "svg", "frame"];
    let item = "/api/v2/projects/{projectId}/item";
    let hooks = "/api/v2/projects/{projectId}/webhooks";
    let mut routes: Vec<(&str, String)> = vec![
        ("get", format!("{item}/{{itemId}}")),
        ("delete", format!("{item}/{{itemId}}")),
        ("get", format!("{item}/{{itemId}}/{{property}}")),
        ("get", format!("{item}/{{itemId}}/content")),
        ("get", "/api/v2/projects/{projectId}/items".into()),
        ("post", "/api/v2/projects/{projectId}/items/bulk".into()),
        ("post", "/api/v2/projects/{projectId}/diagrams".into()),
        ("get", "/api/v2/projects/{projectId}/diagrams".into()),
        ("get", "/api/v2/projects/{projectId}/diagrams/{diagramId}".into()),
        ("put", "/api/v2/projects/{projectId}/diagrams/{diagramId}".into()),
        ("delete", "/api/v2/projects/{projectId}/diagrams/{diagramId}".into()),
        ("get", "/api/v2/projects/{projectId}/items/export".into()),
        ("post", "/api/v2/projects/{projectId}/items/arrange".into()),
        ("get", "/api/v2/projects/{projectId}/export".into()),
        ("post", "/api/v2/projects/import".into()),
        ("post", "/api/v1/memory/retrieve".into()),
        ("get", "/api/v1/memory/index".into()),
        ("get", hooks.into()),
        ("post", hooks.into()),
        ("post", format!("{hooks}/test")),
        ("get", format!("{hooks}/{{webhookId}}")),
        ("put", format!("{hooks}/{{webhookId}}")),
        ("delete", format!("{hooks}/{{webhookId}}")),
        ("post", format!("{hooks}/{{webhookId}}/enable")),
        ("get", format!("{hooks}/{{webhookId}}/deliveries")),
        ("post", format!("{hooks}/{{webhookId}}/deliveries/{{deliveryId}}/redeliver")),
        ("post", format!("{hooks}/{{webhookId}}/recover")),
        ("get", format!("{hooks}/{{webhookId}}/recoveries/{{recoveryId}}")),
        ("get", "/api/v2/projects/{projectId}/tags".into()),
        ("post", "/api/v2/projects/{projectId}/tags".into()),
        ("get", "/api/v2/projects/{projectId}/tags/{tagId}".into()),
        ("patch", "/api/v2/projects/{projectId}/tags/{tagId}".into()),
        ("delete", "/api/v2/projects/{projectId}/tags/{tagId}".into()),
        ("get", "/api/v2/projects/{projectId}/comments".into()),
        ("post", "/api/v2/projects/{projectId}/comments".into()),
        ("get", "/api/v2/projects/{projectId}/comments/{threadId}".into()),
        ("patch", "/api/v2/projects/{projectId}/comments/{threadId}".into()),
        ("delete", "/api/v2/projects/{projectId}/comments/{threadId}".into()),
        ("post", "/api/v2/projects/{projectId}/comments/{threadId}/replies".into()),
        ("patch", "/api/v2/projects/{projectId}/comments/{threadId}/replies/{commentId}".into()),
        ("delete", "/api/v2/projects/{projectId}/comments/{threadId}/replies/{commentId}".into()),
        ("get", "/api/v2/webhooks/keys".into()),
        ("get", "/api/v2/webhooks/event-types".into()),
        ("get", "/api/v2/projects/{projectId}/render.svg".into()),
        ("get", "/api/v2/projects/{projectId}/render.png".into()),
        ("get", "/api/v2/projects/{projectId}/changes".into()),
        ("get", "/api/v2/projects/{projectId}/presence".into()),
        ("post", "/api/v2/projects/{projectId}/presence".into()),
        ("get", "/api/v2/projects/{projectId}".into()),
        ("get", "/map/{projectId}".into()),
        ("get", "/map/assets/{file}".into()),
        ("get", "/healthz".into()),
        ("get", "/readyz".into()),
        ("get", "/metrics".into()),
        ("get", "/api/openapi.json".into()),
        ("get", "/api/docs".into()),
        ("get", "/api/docs/assets/{file}".into()),
    ];
    for item_type in TYPES {
        if !matches!(item_type, "document" | "svg") {
            routes.push(("post", format!("{item}/{{parent}}/{item_type}")));
        }
        if matches!(item_type, "image" | "document" | "svg") {
            routes.push(("post", format!("{item}/{{parent}}/{item_type}/file")));
        }
        routes.push(("patch", format!("{item}/{item_type}/{{itemId}}")));
    }
    routes.into_iter().map(|(method, path)| (method.to_owned(), path)).collect()
}

fn documented_routes(doc: &Value) -> BTreeSet<(String, String)> {
    let mut routes = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in ["get", "put", "post", "delete", "patch", "head", "options", "trace"] {
            if item.get(method).is_some() {
                routes.insert((method.to_owned(), path.clone()));
            }
        }
    }
    routes
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn document_describes_every_route_and_the_reference_page_is_served() {
    let app = TestApp::spawn(Backend::Sqlite).await;

    // The document: no token needed, OpenAPI 3.1, every served route and nothing else.
    let response = app.http.get(format!("{}/api/openapi.json", app.base_url)).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()["content-type"].to_str().unwrap().starts_with("application/json"));
    let doc: Value = response.json().await.expect("the document is JSON");
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"), "{}", doc["openapi"]);
    let served = served_routes();
    let documented = documented_routes(&doc);
    let missing: Vec<_> = served.difference(&documented).collect();
    let extra: Vec<_> = documented.difference(&served).collect();
    assert!(missing.is_empty(), "routes the router serves but the document lacks: {missing:?}");
    assert!(extra.is_empty(), "documented routes the router does not serve: {extra:?}");

    // OpenAPI forbids two templates differing only in names (`/x/{a}` and `/x/{b}`).
    let mut shapes = BTreeSet::new();
    for path in doc["paths"].as_object().unwrap().keys() {
        let shape: String =
            path.split('/').map(|s| if s.starts_with('{') { "{}" } else { s }).collect::<Vec<_>>().join("/");
        assert!(shapes.insert(shape), "{path} is the same templated path as another");
    }

    // Bearer security on item routes, none on the public ones; the problem body; jsonCasing.
    let schemes = &doc["components"]["securitySchemes"];
    assert_eq!(schemes["bearer"]["scheme"], "bearer");
    let get_item = &doc["paths"]["/api/v2/projects/{projectId}/item/{itemId}"]["get"];
    assert!(get_item["security"].as_array().unwrap().iter().any(|s| s.get("bearer").is_some()));
    assert_eq!(doc["paths"]["/api/v2/webhooks/keys"]["get"]["security"], serde_json::json!([{}]));
    for status in ["400", "401", "403", "404", "503"] {
        assert!(get_item["responses"][status].is_object(), "getItem lacks {status}");
    }
    let problem = &doc["components"]["responses"]["BadRequest"]["content"]["application/problem+json"];
    assert_eq!(problem["schema"]["$ref"], "#/components/schemas/Problem");
    let problem_props = doc["components"]["schemas"]["Problem"]["properties"].as_object().unwrap();
    for name in ["Type", "Title", "Status", "Detail", "Errors"] {
        assert!(problem_props.contains_key(name), "Problem lacks {name}");
    }
    let casing = get_item["parameters"].as_array().unwrap().iter().find(|p| p["name"] == "jsonCasing").unwrap();
    assert_eq!(casing["in"], "query");
    assert_eq!(casing["schema"]["$ref"], "#/components/schemas/JsonCasing", "one named list, not one per operation");
    let casings = &doc["components"]["schemas"]["JsonCasing"]["enum"];
    assert_eq!(*casings, serde_json::json!(["default", "pascal", "camel", "snake", "kebab"]));
    let upload = &doc["paths"]["/api/v2/projects/{projectId}/item/{parent}/image/file"]["post"];
    assert!(upload["requestBody"]["content"]["multipart/form-data"].is_object());
    assert!(upload["responses"]["413"].is_object());
    assert!(upload["responses"]["408"].is_object(), "a body can be too slow");
    assert!(get_item["responses"]["504"].is_object(), "core-service can be too slow");

    // Conditional requests: GET answers the ETag; every item PATCH, GET and DELETE, and a
    // diagram's GET, PUT and DELETE, take If-Match (with RFC 9110's other conditions) and document
    // the 412 they can cause; nothing else does.
    assert!(get_item["responses"]["200"]["headers"]["ETag"].is_object());
    let takes_if_match = |operation: &Value| {
        operation["parameters"].as_array().into_iter().flatten().any(|p| p["name"] == "If-Match" && p["in"] == "header")
    };
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let conditional = (method == "patch" && path.contains("/item/"))
                || (["get", "delete"].contains(&method.as_str())
                    && path == "/api/v2/projects/{projectId}/item/{itemId}")
                || (["get", "put", "delete"].contains(&method.as_str())
                    && path == "/api/v2/projects/{projectId}/diagrams/{diagramId}");
            assert_eq!(takes_if_match(operation), conditional, "{method} {path}: If-Match");
            assert_eq!(operation["responses"]["412"].is_object(), conditional, "{method} {path}: 412");
        }
    }
    let precondition = &doc["components"]["responses"]["PreconditionFailed"]["content"]["application/problem+json"];
    assert_eq!(precondition["schema"]["$ref"], "#/components/schemas/Problem");

    // Links (schemathesis's stateful phase follows them) name operations that exist.
    let operation_ids: BTreeSet<&str> = doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|item| item.as_object().unwrap().values())
        .filter_map(|operation| operation["operationId"].as_str())
        .collect();
    let created = &doc["paths"]["/api/v2/projects/{projectId}/item/{parent}/label"]["post"]["responses"]["200"];
    assert_eq!(created["links"]["GetItem"]["operationId"], "getItem");
    for item in doc["paths"].as_object().unwrap().values() {
        for operation in item.as_object().unwrap().values() {
            for response in operation["responses"].as_object().into_iter().flat_map(|r| r.values()) {
                for link in response["links"].as_object().into_iter().flat_map(|l| l.values()) {
                    let target = link["operationId"].as_str().expect("links name their operation by operationId");
                    assert!(operation_ids.contains(target), "a link names the unknown operation {target}");
                }
            }
        }
    }

    // The reference page and its vendored script, without a token, under a strict policy.
    let page = app.http.get(format!("{}/api/docs", app.base_url)).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    let policy = page.headers()["content-security-policy"].to_str().unwrap().to_owned();
    assert!(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"), "{policy}");
    let html = page.text().await.unwrap();
    assert!(html.contains(rest_gateway::openapi::ui::BUNDLE_PATH), "{html}");
    assert!(!html.contains("http://") && !html.contains("https://"), "the page loads nothing from elsewhere");
    let script =
        app.http.get(format!("{}/api/{}", app.base_url, rest_gateway::openapi::ui::BUNDLE_PATH)).send().await.unwrap();
    assert_eq!(script.status(), StatusCode::OK);
    assert!(script.headers()["content-type"].to_str().unwrap().starts_with("text/javascript"));
    assert!(script.text().await.unwrap().contains("SwaggerUIBundle"));
}

/// The schema `reference` names (`#/components/schemas/…`).
fn target<'a>(doc: &'a Value, reference: &str) -> &'a Value {
    let name = reference.strip_prefix("#/components/schemas/").unwrap_or_else(|| panic!("{reference}"));
    &doc["components"]["schemas"][name]
}

/// Calls `visit` with every schema object in `schema` (itself included), not following references.
fn each_schema<'a>(schema: &'a Value, at: &str, visit: &mut dyn FnMut(&'a Value, &str)) {
    let Some(object) = schema.as_object() else { return };
    visit(schema, at);
    for (key, value) in object {
        match key.as_str() {
            "properties" => value
                .as_object()
                .into_iter()
                .flatten()
                .for_each(|(name, member)| each_schema(member, &format!("{at}.{name}"), visit)),
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => value
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
                .for_each(|(i, member)| each_schema(member, &format!("{at}/{key}[{i}]"), visit)),
            "items" | "additionalProperties" | "not" => each_schema(value, &format!("{at}[]"), visit),
            _ => {}
        }
    }
}

/// Whether `schema` or anything it contains or references states a default.
fn states_default(doc: &Value, schema: &Value, seen: &mut BTreeSet<String>) -> bool {
    let mut found = false;
    each_schema(schema, "", &mut |part, _| {
        found |= part.get("default").is_some();
        if let Some(reference) = part["$ref"].as_str() {
            if seen.insert(reference.to_owned()) {
                found |= states_default(doc, target(doc, reference), seen);
            }
        }
    });
    found
}

/// What the generators people use need from the document (issue 25): openapi-typescript reads a
/// default in a shared schema as "always present", openapi-python-client cannot read an object
/// default on a nullable object, a `type: object` without members becomes an empty object type,
/// and an operation without its error answers gives clients nothing to decode them with.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn document_is_one_client_generators_can_follow() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let doc: Value =
        app.http.get(format!("{}/api/openapi.json", app.base_url)).send().await.unwrap().json().await.unwrap();
    let mut problems = Vec::new();
    let mut bodies = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let here = format!("{method} {path}");
            let statuses: Vec<&String> = operation["responses"].as_object().unwrap().keys().collect();
            if !statuses.iter().any(|status| status.starts_with('4')) {
                problems.push(format!("{here}: no 4xx answer"));
            }
            let Some(schema) = operation.pointer("/requestBody/content/application~1json/schema") else { continue };
            bodies += 1;
            each_schema(schema, &here, &mut |part, at| {
                // A default stated here is a request default: optional, and null is not another way
                // of saying it.
                if let Some(default) = part.get("default") {
                    let nullable = part["type"].as_array().is_some_and(|t| t.contains(&Value::from("null")))
                        || part["anyOf"].as_array().is_some_and(|a| a.contains(&serde_json::json!({"type": "null"})));
                    if nullable {
                        problems.push(format!("{at}: default {default} on a nullable schema"));
                    }
                }
                let required = part["required"].as_array().into_iter().flatten().filter_map(Value::as_str);
                for name in required {
                    if part["properties"][name].get("default").is_some() {
                        problems.push(format!("{at}.{name}: required, with a default"));
                    }
                }
                if let Some(reference) = part["$ref"].as_str() {
                    if states_default(&doc, target(&doc, reference), &mut BTreeSet::new()) {
                        problems.push(format!("{at}: {reference} is shared and states a default"));
                    }
                }
            });
        }
    }
    assert!(bodies >= 15, "only {bodies} JSON request bodies found");
    // Any JSON is written without a type; an object type always says what its members are.
    let shared = doc["components"]["schemas"].as_object().unwrap().iter().map(|(name, s)| (name.clone(), s));
    let answers = doc["paths"].as_object().unwrap().iter().flat_map(|(path, item)| {
        let operations = item.as_object().unwrap().values();
        let contents = operations.flat_map(|operation| {
            let responses = operation["responses"].as_object().into_iter().flat_map(|r| r.values());
            responses
                .chain([&operation["requestBody"]])
                .filter_map(|r| r["content"].as_object())
                .flat_map(|c| c.values())
        });
        contents.map(move |media| (path.clone(), &media["schema"]))
    });
    for (name, schema) in shared.chain(answers) {
        each_schema(schema, &name, &mut |part, at| {
            let object =
                part["type"] == "object" || part["type"].as_array().is_some_and(|t| t.contains(&Value::from("object")));
            let members = ["properties", "additionalProperties", "patternProperties", "allOf", "anyOf", "oneOf"];
            if object && !members.iter().any(|m| part.get(*m).is_some()) {
                problems.push(format!("{at}: an object type with no members (any JSON has no type)"));
            }
        });
    }
    assert!(problems.is_empty(), "the document trips client generators:\n{}", problems.join("\n"));
    let property = &doc["paths"]["/api/v2/projects/{projectId}/item/{itemId}/{property}"]["get"];
    let value = &property["responses"]["200"]["content"]["application/json"]["schema"]["$ref"];
    let value = target(&doc, value.as_str().unwrap());
    assert!(value.get("type").is_none(), "a property's value is any JSON, a number included: {value}");
    let custom = &doc["components"]["schemas"]["WebhookRecord"]["properties"]["CustomData"];
    assert!(custom.get("type").is_none(), "customData is any JSON: {custom}");
    // `panel`, `inbox` or an id: alternatives told apart by their form, so `anyOf`.
    let create = &doc["paths"]["/api/v2/projects/{projectId}/item/{parent}/label"]["post"];
    let parent = create["parameters"].as_array().unwrap().iter().find(|p| p["name"] == "parent").unwrap();
    let parent = target(&doc, parent["schema"]["$ref"].as_str().expect("one Parent type, not one per operation"));
    assert_eq!(parent["anyOf"].as_array().map(Vec::len), Some(2), "{parent}");
}

/// The reference page in headless Chromium (`tests/browser/docs_test.mjs`, installed like the
/// web-map browser test's tools by tests/run.sh): every operation renders under the page's
/// Content-Security-Policy, with nothing loaded from elsewhere.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reference_page_renders_in_a_browser_under_its_policy() {
    let dir = std::env::var_os("CANVAS_BROWSER_DIR").map(std::path::PathBuf::from).unwrap_or_else(|| {
        std::path::PathBuf::from(std::env::var_os("HOME").unwrap_or_else(|| "/root".into()))
            .join(".cache/canvas-browser")
    });
    assert!(
        dir.join("node_modules/playwright-core/package.json").exists(),
        "playwright-core is not installed in {}: run tests/run.sh",
        dir.display()
    );
    assert!(std::path::Path::new("/usr/bin/chromium").exists(), "Chromium is missing: run tests/run.sh");
    let app = TestApp::spawn(Backend::Sqlite).await;
    let doc: Value =
        app.http.get(format!("{}/api/openapi.json", app.base_url)).send().await.unwrap().json().await.unwrap();
    // Swagger UI draws the `webhooks` (the calls receivers get) as operations too.
    let operations = documented_routes(&doc).len() + doc["webhooks"].as_object().map_or(0, |calls| calls.len());
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("browser/docs_test.mjs");
    let mut command = tokio::process::Command::new("node");
    command.arg(&script).env("CANVAS_BROWSER_DIR", &dir);
    command.args(["--base", &app.base_url, "--operations", &operations.to_string()]);
    let output = tokio::time::timeout(std::time::Duration::from_secs(120), command.kill_on_drop(true).output())
        .await
        .expect("the browser test finishes within 120 s")
        .expect("node starts");
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("--- browser test\n{stdout}\n--- stderr\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success() && stdout.contains("3 passed, 0 failed"), "the browser test failed; see above");
}
