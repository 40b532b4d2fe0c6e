//! Tags beyond the REST tag calls (docs/ITEMS.md "Tags"): a tag delete's `item.updated` events as
//! webhooks deliver them (signed, valid against the catalog); a project copy and an archive
//! carrying tags with new ids (and an archive naming a tag it does not hold refused); the gRPC
//! `TagService` and `ListItems.tag`; and the MCP tools an agent uses.

use std::collections::BTreeMap;
use std::time::Duration;

use canvas_proto::v1 as pb;
use canvas_proto::v1::project_copy_service_client::ProjectCopyServiceClient;
use canvas_proto::v1::tag_service_client::TagServiceClient;
use canvas_tests::webhook_checks::assert_calls_match_catalog;
use canvas_tests::webhooks::WebhookEnv;
use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::mcp::call_tool;
use crate::project_archive_kit::{archive, entries, export, import, listing};
use crate::support::{assert_invalid, create_label, get_item, owner_with_project, send};
use crate::tags::{create_tag, tags_url};
use crate::webhooks_delivery::create_hook;

backend_tests!(
    a_tag_delete_calls_webhooks_with_each_items_tags_old_and_new,
    copies_and_archives_carry_tags_with_new_ids,
    an_archive_naming_a_tag_it_does_not_hold_is_refused,
    tags_over_grpc,
    an_agent_tags_items_over_mcp
);

/// `name` → the tag's id, as a project's listing answers.
async fn tag_ids(app: &TestApp, user: &TestUser, project: &str) -> BTreeMap<String, String> {
    let reply = send(app, Method::GET, &tags_url(app, project, "?jsonCasing=camel"), Some(&user.bearer()), None).await;
    let tags = reply.body["tags"].as_array().cloned().unwrap_or_default();
    tags.iter().map(|t| (t["name"].as_str().unwrap().to_owned(), t["tagId"].as_str().unwrap().to_owned())).collect()
}

/// Each item's text → the names of its tags.
fn tags_by_text(items: &[Value], names: &BTreeMap<String, String>) -> BTreeMap<String, Vec<String>> {
    let name_of = |id: &Value| names.iter().find(|(_, tag)| json!(tag) == *id).map(|(name, _)| name.clone());
    items
        .iter()
        .map(|item| {
            let tags = item["tags"].as_array().map(|ids| ids.iter().filter_map(name_of).collect()).unwrap_or_default();
            (item["text"].as_str().unwrap_or_default().to_owned(), tags)
        })
        .collect()
}

async fn a_tag_delete_calls_webhooks_with_each_items_tags_old_and_new(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let app = &env.app;
    let (owner, project) = owner_with_project(app).await;
    let a = create_tag(app, &owner, &project, json!({"name": "a"})).await["tagId"].as_str().unwrap().to_owned();
    let b = create_tag(app, &owner, &project, json!({"name": "b"})).await["tagId"].as_str().unwrap().to_owned();
    let only_a = create_label(app, &owner, &project, json!({"text": "only a", "tags": [a]})).await;
    let both = create_label(app, &owner, &project, json!({"text": "both", "tags": [b, a]})).await;
    let only_b = create_label(app, &owner, &project, json!({"text": "only b", "tags": [b]})).await;
    create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.updated"]})).await;

    let deleted = send(
        app,
        Method::DELETE,
        &tags_url(app, &project, &format!("/{a}?jsonCasing=camel")),
        Some(&owner.bearer()),
        None,
    )
    .await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);
    assert_eq!(deleted.body["tag"]["name"], "a");
    let mut untagged: Vec<&str> =
        deleted.body["untaggedItemIds"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    untagged.sort_unstable();
    let mut expected = vec![only_a.as_str(), both.as_str()];
    expected.sort_unstable();
    assert_eq!(untagged, expected);
    assert_eq!(get_item(app, &owner, &project, &only_a).await["tags"], json!([]));
    assert_eq!(get_item(app, &owner, &project, &both).await["tags"], json!([b]));
    let kept = get_item(app, &owner, &project, &only_b).await;
    assert_eq!(kept["tags"], json!([b]));
    assert_eq!(kept["updatedAt"], kept["createdAt"], "an item without the tag is untouched");

    let calls = env.receiver.wait_for(2, Duration::from_secs(20)).await;
    assert_eq!(calls.len(), 2, "one item.updated per item that carried the tag");
    let mut seen = BTreeMap::new();
    for call in &calls {
        let change = &call.json()["changes"][0];
        assert_eq!(change["kind"], "item.updated");
        assert_eq!(change["actorUserId"], json!(owner.id));
        seen.insert(
            change["subject"]["id"].as_str().unwrap().to_owned(),
            (change["old"].clone(), change["new"].clone()),
        );
    }
    assert_eq!(seen[&only_a], (json!({"tags": [a]}), json!({"tags": []})));
    assert_eq!(seen[&both], (json!({"tags": [b, a]}), json!({"tags": [b]})));
    assert_calls_match_catalog(&app.http, &app.base_url, &calls).await;
    // Renaming or recolouring a tag changes no item, so it calls nobody.
    let url = tags_url(app, &project, &format!("/{b}"));
    assert_eq!(
        send(app, Method::PATCH, &url, Some(&owner.bearer()), Some(json!({"name": "B2"}))).await.status,
        StatusCode::OK
    );
    create_label(app, &owner, &project, json!({"text": "marker"})).await;
    let marker = send(
        app,
        Method::PATCH,
        &app.item_url(&project, &format!("/label/{only_b}")),
        Some(&owner.bearer()),
        Some(json!({"text": "after"})),
    )
    .await;
    assert_eq!(marker.status, StatusCode::OK);
    let calls = env.receiver.wait_for(3, Duration::from_secs(20)).await;
    assert_eq!(calls[2].json()["changes"][0]["new"], json!({"text": "after"}), "the next call is the text change");
}

async fn copies_and_archives_carry_tags_with_new_ids(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let red = create_tag(&app, &owner, &project, json!({"name": "Red", "color": "#FF0000"})).await;
    create_tag(&app, &owner, &project, json!({"name": "unused"})).await;
    let blue = create_tag(&app, &owner, &project, json!({"name": "Blue", "color": "#00F"})).await;
    let (r, b) = (red["tagId"].as_str().unwrap(), blue["tagId"].as_str().unwrap());
    create_label(&app, &owner, &project, json!({"text": "red", "tags": [r]})).await;
    create_label(&app, &owner, &project, json!({"text": "both", "tags": [b, r]})).await;
    create_label(&app, &owner, &project, json!({"text": "none"})).await;
    let names = tag_ids(&app, &owner, &project).await;
    let expected = tags_by_text(&listing(&app, &owner, &project).await, &names);
    assert_eq!(expected["both"], ["Blue", "Red"]);

    // The archive: tags.json and the count, as docs/ARCHIVE.md writes them.
    let (status, bytes) = export(&app, &owner, &project).await;
    assert_eq!(status, StatusCode::OK);
    let named = entries(&bytes);
    let manifest: Value = serde_json::from_slice(&named["manifest.json"]).unwrap();
    assert_eq!((manifest["version"].clone(), manifest["counts"]["tags"].clone()), (json!(3), json!(3)));
    let tags_json: Value = serde_json::from_slice(&named["tags.json"]).unwrap();
    assert_eq!(tags_json["tags"][1], json!({"tagId": r, "name": "Red", "color": "#FF0000"}));

    let reply = import(&app, &format!("Bearer {}", app.admin_token), bytes, &format!("&owner={}", owner.id)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let imported = reply.body["projectId"].as_str().unwrap().to_owned();
    let (copied, _) = {
        let mut grpc = ProjectCopyServiceClient::connect(app.grpc_url.clone()).await.unwrap();
        let mut request = tonic::Request::new(pb::CopyProjectRequest {
            source_project_id: project.clone(),
            name: "Copy".into(),
            owner_user_id: owner.id.clone(),
        });
        request.metadata_mut().insert("authorization", format!("Bearer {}", app.admin_token).parse().unwrap());
        let copy = grpc.copy_project(request).await.unwrap().into_inner();
        (copy.project_id, copy.items_copied)
    };
    for new in [imported, copied] {
        let new_names = tag_ids(&app, &owner, &new).await;
        assert_eq!(new_names.keys().collect::<Vec<_>>(), ["Blue", "Red", "unused"], "{new}");
        assert!(new_names.values().all(|id| id != r && id != b), "new ids");
        let items = listing(&app, &owner, &new).await;
        assert_eq!(tags_by_text(&items, &new_names), expected, "each item carries the copies of its tags");
        let colour = send(
            &app,
            Method::GET,
            &tags_url(&app, &new, &format!("/{}?jsonCasing=camel", new_names["Red"])),
            Some(&owner.bearer()),
            None,
        )
        .await;
        assert_eq!(colour.body["color"], "#FF0000");
        let filtered = send(
            &app,
            Method::GET,
            &format!("{}/api/v2/projects/{new}/items?tag=red&jsonCasing=camel", app.base_url),
            Some(&owner.bearer()),
            None,
        )
        .await;
        assert_eq!(filtered.body["items"].as_array().unwrap().len(), 2, "{}", filtered.body);
        // The old project's tags are not this one's.
        let foreign = send(
            &app,
            Method::PATCH,
            &app.item_url(&new, &format!("/label/{}", items[2]["itemId"].as_str().unwrap())),
            Some(&owner.bearer()),
            Some(json!({"tags": [r]})),
        )
        .await;
        assert_invalid(&foreign, "tags[0]");
    }
}

async fn an_archive_naming_a_tag_it_does_not_hold_is_refused(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let tag = create_tag(&app, &owner, &project, json!({"name": "kept"})).await;
    create_label(&app, &owner, &project, json!({"text": "x", "tags": [tag["tagId"]]})).await;
    let (_, bytes) = export(&app, &owner, &project).await;
    let good = entries(&bytes);
    let admin = format!("Bearer {}", app.admin_token);

    // The item's tag is gone from tags.json.
    let mut missing = good.clone();
    missing.insert("tags.json".into(), br#"{"tags": []}"#.to_vec());
    let mut manifest: Value = serde_json::from_slice(&good["manifest.json"]).unwrap();
    manifest["counts"]["tags"] = json!(0);
    missing.insert("manifest.json".into(), manifest.to_string().into_bytes());
    let reply = import(&app, &admin, archive(&missing), "").await;
    assert_invalid_reply(&reply, "items.jsonl:1.tags[0]", "names no tag of tags.json");

    // Two tags of one name, a bad colour, and a tag that is no object.
    let mut broken = good.clone();
    let tags = json!({"tags": [
        {"tagId": tag["tagId"], "name": "kept", "color": tag["color"]},
        {"tagId": "0195f0c0-0000-7000-8000-000000000001", "name": "KEPT", "color": "#123"},
        {"tagId": "0195f0c0-0000-7000-8000-000000000002", "name": "ok", "color": "blue"},
        "nothing",
        {"tagId": "0195f0c0-0000-7000-8000-000000000003", "name": "extra", "version": 3},
    ]});
    broken.insert("tags.json".into(), tags.to_string().into_bytes());
    manifest["counts"]["tags"] = json!(5);
    broken.insert("manifest.json".into(), manifest.to_string().into_bytes());
    let reply = import(&app, &admin, archive(&broken), "").await;
    assert_invalid_reply(&reply, "tags.json.tags[1].name", "another tag of the archive");
    assert_invalid_reply(&reply, "tags.json.tags[2].color", "hex");
    assert_invalid_reply(&reply, "tags.json.tags[3]", "object");
    assert_invalid_reply(&reply, "tags.json.tags[4].version", "not a member");
}

fn assert_invalid_reply(reply: &crate::support::Reply, field: &str, words: &str) {
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
    assert!(reply.fields().iter().any(|f| f == field), "{field} not named: {}", reply.body);
    assert!(reply.body.to_string().contains(words), "{words:?} not in {}", reply.body);
}

fn authed<T>(message: T, token: &str) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    request
}

async fn tags_over_grpc(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let mut tags = TagServiceClient::connect(app.grpc_url.clone()).await.unwrap();
    let made = tags
        .create_tag(authed(
            pb::CreateTagRequest { project_id: project.clone(), name: Some("gRPC".into()), color: None },
            &owner.token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((made.name.as_str(), made.color.as_str(), made.version), ("gRPC", "#8A8F98", 1));
    let refused = tags
        .create_tag(authed(
            pb::CreateTagRequest { project_id: project.clone(), name: Some("grpc".into()), color: None },
            &owner.token,
        ))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), tonic::Code::InvalidArgument, "{refused:?}");
    let no_name = tags
        .create_tag(authed(pb::CreateTagRequest { project_id: project.clone(), name: None, color: None }, &owner.token))
        .await
        .unwrap_err();
    assert_eq!(no_name.code(), tonic::Code::InvalidArgument);
    assert!(no_name.message().contains("name"), "{no_name:?}");
    let bad_id = tags
        .get_tag(authed(pb::TagRequest { project_id: project.clone(), tag_id: "x".into() }, &owner.token))
        .await
        .unwrap_err();
    assert_eq!(bad_id.code(), tonic::Code::InvalidArgument);

    let label = create_label(&app, &owner, &project, json!({"text": "t", "tags": [made.tag_id]})).await;
    let mut items =
        canvas_proto::v1::item_service_client::ItemServiceClient::connect(app.grpc_url.clone()).await.unwrap();
    let listed = items
        .list_items(authed(
            pb::ListItemsRequest { project_id: project.clone(), tag: "GRPC".into(), ..Default::default() },
            &owner.token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.items.iter().map(|i| i.item_id.clone()).collect::<Vec<_>>(), std::slice::from_ref(&label));

    let renamed = tags
        .update_tag(authed(
            pb::UpdateTagRequest {
                project_id: project.clone(),
                tag_id: made.tag_id.clone(),
                name: None,
                color: Some("#abc".into()),
            },
            &owner.token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((renamed.name.as_str(), renamed.color.as_str(), renamed.version), ("gRPC", "#abc", 2));
    let all = tags
        .list_tags(authed(pb::ListTagsRequest { project_id: project.clone() }, &owner.token))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(all.tags.len(), 1);
    let viewer = app.user("viewer").await;
    app.add_member(&project, &viewer, core_service::domain::ProjectRole::Viewer).await;
    let denied = tags
        .delete_tag(authed(pb::TagRequest { project_id: project.clone(), tag_id: made.tag_id.clone() }, &viewer.token))
        .await
        .unwrap_err();
    assert_eq!(denied.code(), tonic::Code::PermissionDenied);
    let done = tags
        .delete_tag(authed(pb::TagRequest { project_id: project.clone(), tag_id: made.tag_id.clone() }, &owner.token))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(done.untagged_item_ids, std::slice::from_ref(&label));
    let gone = tags
        .get_tag(authed(pb::TagRequest { project_id: project.clone(), tag_id: made.tag_id.clone() }, &owner.token))
        .await
        .unwrap_err();
    assert_eq!(gone.code(), tonic::Code::NotFound);
}

async fn an_agent_tags_items_over_mcp(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let ok = |reply: Value| {
        assert_eq!(reply["result"]["isError"], false, "{reply}");
        reply["result"]["structuredContent"].clone()
    };
    let made =
        ok(call_tool(&app, &owner, "create_tag", json!({"projectId": project, "name": "review", "color": "#FFAA00"}))
            .await);
    let id = made["tagId"].as_str().unwrap().to_owned();
    assert_eq!((made["name"].clone(), made["color"].clone()), (json!("review"), json!("#FFAA00")));
    let again = call_tool(&app, &owner, "create_tag", json!({"projectId": project, "name": "Review"})).await;
    assert_eq!(again["result"]["isError"], true, "{again}");
    assert!(again["result"]["content"][0]["text"].as_str().unwrap().contains("name"), "{again}");

    let label = create_label(&app, &owner, &project, json!({"text": "look at me"})).await;
    create_label(&app, &owner, &project, json!({"text": "not me"})).await;
    ok(call_tool(
        &app,
        &owner,
        "update_item_property",
        json!({"projectId": project, "itemId": label, "property": "tags", "value": [id]}),
    )
    .await);
    let listed = ok(call_tool(&app, &owner, "list_items", json!({"projectId": project, "tag": "REVIEW"})).await);
    assert_eq!(listed["count"], 1);
    assert_eq!(listed["items"][0]["itemId"], json!(label));
    let unknown = call_tool(&app, &owner, "list_items", json!({"projectId": project, "tag": "missing"})).await;
    assert_eq!(unknown["result"]["isError"], true, "{unknown}");
    assert!(unknown["result"]["content"][0]["text"].as_str().unwrap().contains("tag"), "{unknown}");
    let all = ok(call_tool(&app, &owner, "list_tags", json!({"projectId": project})).await);
    assert_eq!((all["count"].clone(), all["tags"][0]["tagId"].clone()), (json!(1), json!(id)));
    let renamed =
        ok(call_tool(&app, &owner, "update_tag", json!({"projectId": project, "tagId": id, "name": "reviewed"})).await);
    assert_eq!((renamed["name"].clone(), renamed["color"].clone()), (json!("reviewed"), json!("#FFAA00")));
    let deleted = ok(call_tool(&app, &owner, "delete_tag", json!({"projectId": project, "tagId": id})).await);
    assert_eq!(deleted["untaggedItemIds"], json!([label]));
    assert_eq!(get_item(&app, &owner, &project, &label).await["tags"], json!([]));
}
