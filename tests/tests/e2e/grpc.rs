//! core-service over gRPC directly, as an internal service would use it:
//! health, reflection, and the label calls with typed errors.

use canvas_proto::json::{from_proto_value, to_proto_struct};
use canvas_proto::v1 as pb;
use canvas_proto::v1::item_service_client::ItemServiceClient;
use canvas_tests::{backend_tests, Backend, TestApp};
use serde_json::json;
use tonic::metadata::MetadataValue;
use tonic::transport::Channel;
use tonic::{Code, Request};
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::HealthCheckRequest;
use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;
use tonic_reflection::pb::v1::ServerReflectionRequest;
use tonic_types::StatusExt;

use crate::support::owner_with_project;

backend_tests!(health_and_reflection, label_calls_over_grpc);

async fn channel(app: &TestApp) -> Channel {
    Channel::from_shared(app.grpc_url.clone()).unwrap().connect().await.expect("core-service reachable")
}

fn authed<T>(message: T, token: &str) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert("authorization", MetadataValue::try_from(format!("Bearer {token}")).unwrap());
    request
}

async fn health_and_reflection(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let channel = channel(&app).await;

    let mut health = HealthClient::new(channel.clone());
    for service in ["", "canvas.v1.ItemService", "canvas.v1.AdminService"] {
        let reply = health.check(HealthCheckRequest { service: service.into() }).await.expect("health answers");
        assert_eq!(reply.get_ref().status, 1, "{service} is SERVING");
    }
    let unknown = health.check(HealthCheckRequest { service: "nope.Service".into() }).await.unwrap_err();
    assert_eq!(unknown.code(), Code::NotFound);

    let mut reflection = ServerReflectionClient::new(channel);
    let requests = vec![
        ServerReflectionRequest {
            host: String::new(),
            message_request: Some(MessageRequest::ListServices(String::new())),
        },
        ServerReflectionRequest {
            host: String::new(),
            message_request: Some(MessageRequest::FileContainingSymbol("canvas.v1.ItemService".into())),
        },
    ];
    let mut stream = reflection.server_reflection_info(tokio_stream::iter(requests)).await.unwrap().into_inner();
    let first = stream.message().await.unwrap().unwrap();
    let Some(MessageResponse::ListServicesResponse(list)) = first.message_response else { panic!("list services") };
    let names: Vec<String> = list.service.into_iter().map(|s| s.name).collect();
    for expected in
        ["canvas.v1.ItemService", "canvas.v1.AdminService", "canvas.v1.ProjectService", "grpc.health.v1.Health"]
    {
        assert!(names.iter().any(|n| n == expected), "{expected} missing from {names:?}");
    }
    let second = stream.message().await.unwrap().unwrap();
    let Some(MessageResponse::FileDescriptorResponse(files)) = second.message_response else { panic!("descriptor") };
    assert!(!files.file_descriptor_proto.is_empty());
}

async fn label_calls_over_grpc(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let mut items = ItemServiceClient::new(channel(&app).await);

    let properties = json!({"text": "over gRPC", "fontSize": 30});
    let serde_json::Value::Object(map) = properties else { unreachable!() };
    let created = items
        .create_item(authed(
            pb::CreateItemRequest {
                project_id: project.clone(),
                parent: "panel".into(),
                item_type: "label".into(),
                properties: Some(to_proto_struct(map)),
                file: None,
            },
            &owner.token,
        ))
        .await
        .expect("created")
        .into_inner();

    let item = items
        .get_item(authed(
            pb::GetItemRequest {
                project_id: project.clone(),
                item_id: created.item_id.clone(),
                properties_as_json: false,
            },
            &owner.token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(item.item_type, "label");
    let props = canvas_proto::json::from_proto_struct(item.properties.unwrap());
    assert_eq!(props["text"], "over gRPC");
    assert_eq!(props["fontSize"], json!(30));

    // Asked as JSON text (as the REST gateway asks), the same properties and no Struct.
    let as_json = items
        .get_item(authed(
            pb::GetItemRequest {
                project_id: project.clone(),
                item_id: created.item_id.clone(),
                properties_as_json: true,
            },
            &owner.token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert!(as_json.properties.is_none(), "no Struct beside the JSON text");
    let from_json: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(&as_json.properties_json).unwrap();
    assert_eq!(from_json, props);
    assert_eq!(String::from_utf8_lossy(&as_json.properties_json).matches("\"fontSize\":30").count(), 1);
    assert_eq!((as_json.version, as_json.item_type.as_str()), (item.version, "label"));

    let value = items
        .get_item_property(authed(
            pb::GetItemPropertyRequest {
                project_id: project.clone(),
                item_id: created.item_id.clone(),
                property: "FONTSIZE".into(),
            },
            &owner.token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(value.property, "fontSize");
    assert_eq!(from_proto_value(value.value.unwrap()), json!(30));

    // A validation failure carries google.rpc.BadRequest field violations.
    let serde_json::Value::Object(bad) = json!({"angle": 400}) else { unreachable!() };
    let status = items
        .update_item(authed(
            pb::UpdateItemRequest {
                project_id: project.clone(),
                item_type: "label".into(),
                item_id: created.item_id.clone(),
                properties: Some(to_proto_struct(bad)),
                expected_version: None,
                expected_versions: None,
                preconditions: None,
                parent: None,
            },
            &owner.token,
        ))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    let violations = status.get_error_details().bad_request().expect("BadRequest details").field_violations.clone();
    assert_eq!(violations[0].field, "angle");
    assert!(violations[0].description.contains("between 0 and 360"));
    assert_eq!(violations[0].reason, "INVALID_VALUE");
    let info = status.get_error_details().error_info().cloned().expect("every refusal carries ErrorInfo");
    assert_eq!((info.reason.as_str(), info.domain.as_str()), ("VALIDATION_FAILED", "canvas.v1"));

    let missing = items
        .get_item(Request::new(pb::GetItemRequest {
            project_id: project.clone(),
            item_id: created.item_id.clone(),
            properties_as_json: false,
        }))
        .await
        .unwrap_err();
    assert_eq!(missing.code(), Code::Unauthenticated);
    assert_eq!(missing.get_error_details().error_info().map(|i| i.reason.clone()).as_deref(), Some("UNAUTHENTICATED"));

    // Optimistic concurrency on request: a stale expected version changes nothing.
    let stale = items
        .delete_item(authed(
            pb::DeleteItemRequest {
                project_id: project.clone(),
                item_id: created.item_id.clone(),
                expected_version: Some(99),
                expected_versions: None,
                preconditions: None,
                ask_above: None,
            },
            &owner.token,
        ))
        .await
        .unwrap_err();
    assert_eq!(stale.code(), Code::FailedPrecondition);
    let info = stale.get_error_details().error_info().cloned().unwrap();
    assert_eq!(info.reason, "PRECONDITION_FAILED");
    let current = info.metadata.get("currentVersion").cloned().expect("currentVersion");

    let deleted = items
        .delete_item(authed(
            pb::DeleteItemRequest {
                project_id: project.clone(),
                item_id: created.item_id.clone(),
                expected_version: Some(current.parse().unwrap()),
                expected_versions: None,
                preconditions: None,
                ask_above: None,
            },
            &owner.token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(deleted.item_id, created.item_id);
    assert_eq!(deleted.version.to_string(), current);
    let gone = items
        .get_item(authed(
            pb::GetItemRequest { project_id: project, item_id: created.item_id, properties_as_json: false },
            &owner.token,
        ))
        .await
        .unwrap_err();
    assert_eq!(gone.code(), Code::NotFound);
}
