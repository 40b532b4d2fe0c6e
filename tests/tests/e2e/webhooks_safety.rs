//! Test calls, destination safety, `inactive` states and key rotation.

use std::time::Duration;

use canvas_proto::v1::webhook_service_client::WebhookServiceClient;
use canvas_tests::webhook_checks::{kid_of, python_verifies};
use canvas_tests::webhooks::{Answer, WebhookEnv};
use canvas_tests::{backend_tests, keyword_only, Backend, TestApp};
use core_service::CoreConfig;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{create_label, owner_with_project, send};
use crate::webhooks_delivery::{create_hook, jwks, record};

backend_tests!(
    test_calls_ping_once_and_are_rate_limited_in_the_database,
    a_refused_destination_reads_the_same_as_an_address_or_a_name,
    internal_destinations_are_refused_at_connect_time,
    definitions_failing_todays_rules_are_inactive,
    key_rotation_keeps_every_call_verifiable
);

const WAIT: Duration = Duration::from_secs(20);

async fn test_calls_ping_once_and_are_rate_limited_in_the_database(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let test_url = env.url(&project, "/test?jsonCasing=camel");
    let definition = json!({"url": env.receiver.url, "events": ["item.created"], "customData": {"k": "v"}});
    let reply = send(&env.app, Method::POST, &test_url, Some(&owner.bearer()), Some(definition.clone())).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["statusCode"], 200);
    assert_eq!(reply.body["error"], Value::Null);
    assert!(reply.body["durationMs"].is_u64());
    let calls = env.receiver.calls();
    assert_eq!(calls.len(), 1, "sent at once, before the answer");
    let ping = calls[0].json();
    assert_eq!(ping["changes"], json!([{"kind": "ping", "occurredAt": ping["changes"][0]["occurredAt"]}]));
    assert_eq!(ping["projectId"], project.as_str());
    assert_eq!(ping["webhookId"], Value::Null, "the definition is not saved");
    assert_eq!(ping["customData"], json!({"k": "v"}));
    assert_eq!(python_verifies(&jwks(&env).await, &calls), [true]);
    let listed =
        send(&env.app, Method::GET, &env.url(&project, "?jsonCasing=camel"), Some(&owner.bearer()), None).await;
    assert_eq!(listed.body["elements"], json!([]), "a test saves nothing");

    // The receiver's body is never returned: only status, time and a short error.
    env.receiver.script([Answer::Status(500)]);
    let failed = send(&env.app, Method::POST, &test_url, Some(&owner.bearer()), Some(definition.clone())).await;
    assert_eq!(failed.body, json!({"statusCode": 500, "durationMs": failed.body["durationMs"], "error": "HTTP 500"}));

    // 10 per minute and user, counted in the database: a second core over
    // the same database (another replica) sees the first one's calls.
    for _ in 2..10 {
        let ok = send(&env.app, Method::POST, &test_url, Some(&owner.bearer()), Some(definition.clone())).await;
        assert_eq!(ok.status, StatusCode::OK);
    }
    let limited = send(&env.app, Method::POST, &test_url, Some(&owner.bearer()), Some(definition.clone())).await;
    assert_eq!(limited.status, StatusCode::SERVICE_UNAVAILABLE, "{}", limited.body);
    assert_eq!(limited.content_type, "application/problem+json");
    let retry_after: u64 = env
        .app
        .http
        .post(&test_url)
        .header("Authorization", owner.bearer())
        .json(&definition)
        .send()
        .await
        .unwrap()
        .headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    let replica = second_core(&env.app, env.ca_file()).await;
    let who = replica.access().authenticate(Some(&owner.bearer())).await.unwrap();
    let project_id = core_service::domain::ProjectId::parse(&project).unwrap();
    let err = replica.webhooks().test_webhook(&who, project_id, &definition.to_string()).await.unwrap_err();
    assert!(matches!(err, core_service::error::CoreError::RateLimited { .. }), "{err:?}");
    assert_eq!(env.receiver.calls().len(), 10, "refused test calls send nothing");
    // Another user has their own allowance.
    let manager = env.app.user("manager").await;
    env.app.add_member(&project, &manager, core_service::domain::ProjectRole::Manager).await;
    let theirs = send(&env.app, Method::POST, &test_url, Some(&manager.bearer()), Some(definition)).await;
    assert_eq!(theirs.status, StatusCode::OK);
}

/// Another core-service over the same database, as a second replica.
async fn second_core(app: &TestApp, ca_file: std::path::PathBuf) -> std::sync::Arc<core_service::Core> {
    second_core_with(app, canvas_tests::webhooks::client_settings(&ca_file)).await
}

async fn second_core_with(app: &TestApp, client: webhook_client::ClientSettings) -> std::sync::Arc<core_service::Core> {
    let config = CoreConfig {
        data_dir: app.db.data_dir(),
        database_url: app.db.database_url.clone(),
        read_database_url: None,
        read_database_max_wait_ms: core_service::storage::DEFAULT_STANDBY_MAX_WAIT_MS,
        environment: "development".into(),
        db_max_connections: 4,
        db_acquire_timeout_secs: 5,
        db_check_idle_after_ms: core_service::storage::DEFAULT_CHECK_IDLE_AFTER_MS,
        access_memory_ms: 1000,
        blob_store: None,
        knowledge: keyword_only(),
        webhooks: core_service::webhooks::WebhookConfig { client, ..canvas_tests::webhooks::test_webhooks() },
        accounts: Default::default(),
    };
    core_service::build(&config).await.expect("second core starts")
}

/// A destination the rules refuse answers alike however it is written: `127.0.0.1`, `[::1]` or
/// `localhost` (a name that resolves to loopback), on create, replace and test, as the 400 naming
/// `url`, in the same words, naming the setting that allows it. Nothing is sent or saved.
async fn a_refused_destination_reads_the_same_as_an_address_or_a_name(backend: Backend) {
    // No allow-list: loopback is refused.
    let env = WebhookEnv::spawn_with(backend, |c| c.client.allow_destinations.clear()).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let port = env.receiver.url.trim_start_matches("https://127.0.0.1:").trim_end_matches("/hook").to_owned();
    // A definition whose name does not resolve (RFC 6761) is kept: nothing to judge before a call.
    let kept = create_hook(
        &env,
        &owner,
        &project,
        json!({"url": "https://hooks.example.invalid/x", "events": ["item.created"]}),
    )
    .await;
    let written = [
        ("127.0.0.1".to_owned(), "127.0.0.1"),
        ("[::1]".to_owned(), "::1"),
        ("localhost".to_owned(), "localhost (127.0.0.1)"),
    ];
    let mut answers = Vec::new();
    for (host, named) in &written {
        let definition = json!({"url": format!("https://{host}:{port}/hook"), "events": ["item.created"]});
        for (method, path) in [
            (Method::POST, "?jsonCasing=camel".to_owned()),
            (Method::POST, "/test?jsonCasing=camel".to_owned()),
            (Method::PUT, format!("/{kept}?jsonCasing=camel")),
        ] {
            let what = format!("{method} {path} to {host}");
            let reply =
                send(&env.app, method, &env.url(&project, &path), Some(&owner.bearer()), Some(definition.clone()))
                    .await;
            assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{what}: {}", reply.body);
            assert_eq!(reply.content_type, "application/problem+json", "{what}");
            assert_eq!(reply.body["reason"], "VALIDATION_FAILED", "{what}: {}", reply.body);
            assert_eq!(reply.body["errors"][0]["field"], "url", "{what}: {}", reply.body);
            let message = reply.body["errors"][0]["message"].as_str().unwrap().to_owned();
            assert!(message.contains(&format!("{named} is a loopback address")), "{what}: {message}");
            assert!(message.contains("CANVAS_WEBHOOK_ALLOW_DESTINATIONS"), "{what}: the setting is named: {message}");
            // The same words, but for how the destination was written.
            let address = if *host == "[::1]" { "::1" } else { "127.0.0.1" };
            let message = message.replace(&format!("refused: {named} is"), "refused: X is");
            answers.push(message.replace(&format!("={address} "), "=A "));
        }
    }
    assert!(answers.windows(2).all(|pair| pair[0] == pair[1]), "{answers:#?}");
    assert!(env.receiver.calls().is_empty(), "nothing was sent");
    let listed =
        send(&env.app, Method::GET, &env.url(&project, "?jsonCasing=camel"), Some(&owner.bearer()), None).await;
    let elements = listed.body["elements"].as_array().unwrap();
    assert_eq!(elements.len(), 1, "nothing was saved: {}", listed.body);
    assert_eq!(elements[0]["url"], "https://hooks.example.invalid/x", "the refused PUT changed nothing");
}

async fn internal_destinations_are_refused_at_connect_time(backend: Backend) {
    // core-service allows 127.0.0.1 (so a name resolving to it is saved), the dispatcher does not:
    // its resolver refuses the address actually connected to, as when a name resolves elsewhere
    // by the time of the call (DNS rebinding).
    let env = WebhookEnv::spawn_parts(backend, |_| {}, false).await;
    let mut strict = canvas_tests::webhooks::client_settings(&env.ca_file());
    strict.allow_destinations.clear();
    let mut settings = webhook_dispatcher::DispatcherConfig::new(env.app.grpc_url.clone(), strict);
    settings.poll_interval_ms = 50;
    tokio::spawn(webhook_dispatcher::run(settings, env.dispatcher.clone()));
    let (owner, project) = owner_with_project(&env.app).await;
    let by_name = env.receiver.url.replace("127.0.0.1", "localhost");
    let hook = create_hook(&env, &owner, &project, json!({"url": by_name, "events": ["item.created"]})).await;
    create_label(&env.app, &owner, &project, json!({"text": "x"})).await;
    let mut status = Value::Null;
    for _ in 0..100 {
        status = record(&env, &owner, &project, &hook).await["status"].clone();
        if status["lastError"].is_string() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let error = status["lastError"].as_str().unwrap_or_else(|| panic!("no attempt recorded: {status}"));
    assert!(error.starts_with("destination refused: localhost (127.0.0.1) is a loopback address"), "{error}");
    assert!(error.contains("CANVAS_WEBHOOK_ALLOW_DESTINATIONS"), "{error}");
    assert_eq!(status["lastStatusCode"], Value::Null);
    assert!(env.receiver.calls().is_empty(), "nothing ever reached the receiver");
}

async fn definitions_failing_todays_rules_are_inactive(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let hook = create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    // A replica starting with 127.0.0.1 no longer allowed re-validates stored definitions.
    let mut strict = canvas_tests::webhooks::client_settings(&env.ca_file());
    strict.allow_destinations.clear();
    drop(second_core_with(&env.app, strict).await);
    let stored = record(&env, &owner, &project, &hook).await;
    assert_eq!(stored["inactive"], "invalidDefinition");
    assert_eq!(stored["enabled"], true);
    create_label(&env.app, &owner, &project, json!({"text": "not sent"})).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert!(env.receiver.calls().is_empty(), "an inactive webhook is never called");
    // A valid PUT makes it active again; what happened meanwhile was never queued.
    let put = send(
        &env.app,
        Method::PUT,
        &env.url(&project, &format!("/{hook}?jsonCasing=camel")),
        Some(&owner.bearer()),
        Some(json!({"url": env.receiver.url, "events": ["item.created"]})),
    )
    .await;
    assert_eq!(put.status, StatusCode::OK);
    assert!(put.body.get("inactive").is_none(), "{}", put.body);
    create_label(&env.app, &owner, &project, json!({"text": "sent"})).await;
    let calls = env.receiver.wait_for(1, WAIT).await;
    assert_eq!(calls[0].json()["changes"][0]["new"]["text"], "sent");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(env.receiver.calls().len(), 1);
}

async fn key_rotation_keeps_every_call_verifiable(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let (owner, project) = owner_with_project(&env.app).await;
    create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    create_label(&env.app, &owner, &project, json!({"text": "before"})).await;
    let before = env.receiver.wait_for(1, WAIT).await;
    let old_kid = kid_of(&before[0]);

    let mut grpc = WebhookServiceClient::connect(env.app.grpc_url.clone()).await.unwrap();
    let mut request = tonic::Request::new(canvas_proto::v1::RotateSigningKeyRequest { delay_secs: 4 });
    request.metadata_mut().insert("authorization", format!("Bearer {}", env.app.admin_token).parse().unwrap());
    let new_key = grpc.rotate_signing_key(request).await.unwrap().into_inner();
    assert_ne!(new_key.kid, old_kid);
    // Published at once, next to the old key, before it signs.
    let set = jwks(&env).await;
    let kids: Vec<&str> = set["keys"].as_array().unwrap().iter().map(|k| k["kid"].as_str().unwrap()).collect();
    assert!(kids.contains(&old_kid.as_str()) && kids.contains(&new_key.kid.as_str()), "{kids:?}");
    create_label(&env.app, &owner, &project, json!({"text": "during"})).await;
    let during = env.receiver.wait_for(2, WAIT).await;
    assert_eq!(kid_of(&during[1]), old_kid, "the new key does not sign before its delay");
    tokio::time::sleep(Duration::from_millis(4200)).await;
    create_label(&env.app, &owner, &project, json!({"text": "after"})).await;
    let calls = env.receiver.wait_for(3, WAIT).await;
    assert_eq!(kid_of(&calls[2]), new_key.kid, "the new key signs after its delay");
    // One key set, fetched once, verifies every call across the rotation.
    assert_eq!(python_verifies(&set, &calls), [true, true, true]);
    let later = jwks(&env).await;
    assert_eq!(later["keys"].as_array().unwrap().len(), 2, "the old key stays published");

    // Outside development the delay is at least 5 minutes.
    let production = TestApp::spawn_in(env.app.backend, "production").await;
    let mut grpc = WebhookServiceClient::connect(production.grpc_url.clone()).await.unwrap();
    let mut request = tonic::Request::new(canvas_proto::v1::RotateSigningKeyRequest { delay_secs: 60 });
    request.metadata_mut().insert("authorization", format!("Bearer {}", production.admin_token).parse().unwrap());
    let refused = grpc.rotate_signing_key(request).await.unwrap_err();
    assert_eq!(refused.code(), tonic::Code::InvalidArgument);
    assert!(refused.message().contains("at least 300 seconds"), "{}", refused.message());
}
