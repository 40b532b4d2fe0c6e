//! `inactive = copiedFromOtherProject`: a project copy carries its items and
//! webhooks; the copied webhooks are never called until a PUT re-saves them.

use std::time::Duration;

use canvas_proto::v1::project_copy_service_client::ProjectCopyServiceClient;
use canvas_proto::v1::CopyProjectRequest;
use canvas_tests::webhooks::WebhookEnv;
use canvas_tests::{backend_tests, Backend};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{create_label, owner_with_project, send};
use crate::webhooks_delivery::create_hook;

backend_tests!(copied_webhooks_stay_inactive_until_re_saved);

async fn copied_webhooks_stay_inactive_until_re_saved(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let app = &env.app;
    let (owner, project) = owner_with_project(app).await;
    let definition =
        json!({"name": "copy me", "url": env.receiver.url, "events": ["item.created"], "customData": {"a": 1}});
    create_hook(&env, &owner, &project, definition).await;
    let first = create_label(app, &owner, &project, json!({"text": "one"})).await;
    let second = create_label(app, &owner, &project, json!({"text": "two"})).await;
    let connector = send(
        app,
        Method::POST,
        &app.item_url(&project, "/panel/connector?jsonCasing=camel"),
        Some(&owner.bearer()),
        Some(json!({"startPoint": {"itemId": first}, "endPoint": {"itemId": second}})),
    )
    .await;
    assert_eq!(connector.status, StatusCode::OK, "{}", connector.body);
    env.receiver.wait_for(3, Duration::from_secs(20)).await;

    let mut grpc = ProjectCopyServiceClient::connect(app.grpc_url.clone()).await.unwrap();
    let mut request = tonic::Request::new(CopyProjectRequest {
        source_project_id: project.clone(),
        name: "Copy".into(),
        owner_user_id: owner.id.clone(),
    });
    request.metadata_mut().insert("authorization", format!("Bearer {}", app.admin_token).parse().unwrap());
    let copy = grpc.copy_project(request).await.unwrap().into_inner();
    assert_eq!((copy.items_copied, copy.webhooks_copied), (3, 1));

    // Only a system administrator copies projects.
    let mut request = tonic::Request::new(CopyProjectRequest {
        source_project_id: project.clone(),
        name: "No".into(),
        owner_user_id: owner.id.clone(),
    });
    request.metadata_mut().insert("authorization", owner.bearer().parse().unwrap());
    assert_eq!(grpc.copy_project(request).await.unwrap_err().code(), tonic::Code::PermissionDenied);

    let hooks =
        send(app, Method::GET, &env.url(&copy.project_id, "?jsonCasing=camel"), Some(&owner.bearer()), None).await;
    let copied = &hooks.body["elements"][0];
    assert_eq!(copied["inactive"], "copiedFromOtherProject");
    assert_eq!(copied["enabled"], true);
    assert_eq!(copied["name"], "copy me");
    assert_eq!(copied["customData"], json!({"a": 1}));
    assert_eq!(copied["status"]["lastAttemptAt"], Value::Null, "a copy starts without history");

    // The copied items got new ids, and the connector follows its copied ends.
    let items = send(
        app,
        Method::GET,
        &format!("{}/api/v2/projects/{}/items?jsonCasing=camel", app.base_url, copy.project_id),
        Some(&owner.bearer()),
        None,
    )
    .await;
    let items = items.body["items"].as_array().unwrap().clone();
    assert_eq!(items.len(), 3);
    let copied_connector = items.iter().find(|i| i["itemType"] == "connector").unwrap();
    let ids: Vec<&str> = items.iter().map(|i| i["itemId"].as_str().unwrap()).collect();
    assert!(!ids.contains(&first.as_str()));
    assert!(ids.contains(&copied_connector["startPoint"]["itemId"].as_str().unwrap()), "{copied_connector}");

    // Never called while inactive; called after a PUT re-saves it.
    create_label(app, &owner, &copy.project_id, json!({"text": "in the copy"})).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(env.receiver.calls().len(), 3, "the copy's webhook stayed silent");
    let id = copied["id"].as_str().unwrap();
    let put = send(
        app,
        Method::PUT,
        &env.url(&copy.project_id, &format!("/{id}?jsonCasing=camel")),
        Some(&owner.bearer()),
        Some(json!({"url": env.receiver.url, "events": ["item.created"]})),
    )
    .await;
    assert!(put.body.get("inactive").is_none(), "{}", put.body);
    create_label(app, &owner, &copy.project_id, json!({"text": "after re-save"})).await;
    let calls = env.receiver.wait_for(4, Duration::from_secs(20)).await;
    assert_eq!(calls[3].json()["projectId"], copy.project_id.as_str());
    assert_eq!(calls[3].json()["changes"][0]["new"]["text"], "after re-save");
}
