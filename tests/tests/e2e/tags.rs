//! A project's tags over REST (docs/ITEMS.md "Tags"): made, read, renamed and deleted; carried by
//! items in `tags`; the listing's `tag` filter; every rule's refusal naming its field; each role's
//! access; and a tag deleted while other requests tag items with it, which must leave no item
//! carrying it.

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use canvas_vocabulary::limits::tags::{MAX_NAME_CHARS, MAX_PER_ITEM, MAX_PER_PROJECT};
use core_service::domain::ProjectRole;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{assert_invalid, create_label, get_item, owner_with_project, send, Reply};

backend_tests!(
    tags_are_made_read_renamed_and_refused_by_rule,
    items_carry_tags_and_the_listing_filters_by_id_or_name,
    each_role_reads_tags_and_only_editors_change_them,
    a_project_holds_at_most_its_tags,
    a_tag_deleted_while_items_are_tagged_with_it_is_left_on_no_item
);

pub fn tags_url(app: &TestApp, project: &str, rest: &str) -> String {
    format!("{}/api/v2/projects/{project}/tags{rest}", app.base_url)
}

pub async fn create_tag(app: &TestApp, user: &TestUser, project: &str, body: Value) -> Value {
    let reply =
        send(app, Method::POST, &tags_url(app, project, "?jsonCasing=camel"), Some(&user.bearer()), Some(body)).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    reply.body
}

async fn tag_item(app: &TestApp, user: &TestUser, project: &str, item: &str, tags: Value) -> Reply {
    let url = app.item_url(project, &format!("/label/{item}?jsonCasing=camel"));
    send(app, Method::PATCH, &url, Some(&user.bearer()), Some(json!({"tags": tags}))).await
}

/// The ids of the items `?{query}` lists.
async fn listed(app: &TestApp, user: &TestUser, project: &str, query: &str) -> Reply {
    let url = format!("{}/api/v2/projects/{project}/items?jsonCasing=camel&{query}", app.base_url);
    send(app, Method::GET, &url, Some(&user.bearer()), None).await
}

fn ids(reply: &Reply) -> Vec<String> {
    let items = reply.body["items"].as_array().cloned().unwrap_or_default();
    items.iter().map(|item| item["itemId"].as_str().unwrap_or_default().to_owned()).collect()
}

async fn tags_are_made_read_renamed_and_refused_by_rule(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let bearer = owner.bearer();

    let urgent = create_tag(&app, &owner, &project, json!({"name": "  Urgent ", "color": "#FF0000"})).await;
    assert_eq!(
        (urgent["name"].clone(), urgent["color"].clone(), urgent["version"].clone()),
        (json!("Urgent"), json!("#FF0000"), json!(1))
    );
    assert_eq!(urgent["projectId"], json!(project));
    let plain = create_tag(&app, &owner, &project, json!({"name": "idea"})).await;
    assert_eq!(plain["color"], "#8A8F98", "the documented default colour");

    // The default casing is the spec's PascalCase, as every answer.
    let listing = send(&app, Method::GET, &tags_url(&app, &project, ""), Some(&bearer), None).await;
    assert_eq!(listing.status, StatusCode::OK);
    let names: Vec<&str> =
        listing.body["Tags"].as_array().unwrap().iter().map(|t| t["Name"].as_str().unwrap()).collect();
    assert_eq!(names, ["idea", "Urgent"], "by name, ignoring case");

    let id = urgent["tagId"].as_str().unwrap();
    let read =
        send(&app, Method::GET, &tags_url(&app, &project, &format!("/{id}?jsonCasing=camel")), Some(&bearer), None)
            .await;
    assert_eq!(read.body, urgent);

    // Names are unique ignoring case and surrounding spaces; each rule names its field.
    for taken in ["urgent", "URGENT", " Urgent  "] {
        let reply =
            send(&app, Method::POST, &tags_url(&app, &project, ""), Some(&bearer), Some(json!({"name": taken}))).await;
        assert_invalid(&reply, "name");
        assert!(reply.body.to_string().contains("another tag of the project is named"), "{}", reply.body);
    }
    let long = "x".repeat(MAX_NAME_CHARS + 1);
    for (body, field) in [
        (json!({}), "name"),
        (json!({"name": ""}), "name"),
        (json!({"name": "   "}), "name"),
        (json!({"name": long}), "name"),
        (json!({"name": 5}), "name"),
        (json!({"name": "a", "color": "red"}), "color"),
        (json!({"name": "a", "color": "#12345"}), "color"),
        (json!({"name": "a", "colour": "#123"}), "colour"),
        (json!({"name": "bad\u{0}byte"}), "name"),
    ] {
        let reply = send(&app, Method::POST, &tags_url(&app, &project, ""), Some(&bearer), Some(body.clone())).await;
        assert_invalid(&reply, field);
    }
    // The longest name is accepted, and so are names of other scripts.
    create_tag(&app, &owner, &project, json!({"name": "y".repeat(MAX_NAME_CHARS)})).await;
    create_tag(&app, &owner, &project, json!({"name": "срочно 🔥"})).await;

    // A rename keeps the colour and bumps the version; renaming to its own name in another case is
    // allowed (it is the same tag), to another tag's name is not.
    let url = tags_url(&app, &project, &format!("/{id}?jsonCasing=camel"));
    let renamed = send(&app, Method::PATCH, &url, Some(&bearer), Some(json!({"name": "URGENT"}))).await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.body);
    assert_eq!(
        (renamed.body["name"].clone(), renamed.body["color"].clone(), renamed.body["version"].clone()),
        (json!("URGENT"), json!("#FF0000"), json!(2))
    );
    assert_invalid(&send(&app, Method::PATCH, &url, Some(&bearer), Some(json!({"name": "Idea"}))).await, "name");
    assert_invalid(&send(&app, Method::PATCH, &url, Some(&bearer), Some(json!({"color": "#GGGGGG"}))).await, "color");
    let recoloured = send(&app, Method::PATCH, &url, Some(&bearer), Some(json!({"color": "#0f0"}))).await;
    assert_eq!((recoloured.body["name"].clone(), recoloured.body["color"].clone()), (json!("URGENT"), json!("#0f0")));

    // Unknown and malformed ids.
    let unknown = tags_url(&app, &project, "/0195f0c0-0000-7000-8000-000000000000");
    assert_eq!(send(&app, Method::GET, &unknown, Some(&bearer), None).await.status, StatusCode::NOT_FOUND);
    assert_eq!(send(&app, Method::DELETE, &unknown, Some(&bearer), None).await.status, StatusCode::NOT_FOUND);
    assert_invalid(
        &send(&app, Method::GET, &tags_url(&app, &project, "/not-a-guid"), Some(&bearer), None).await,
        "tagId",
    );
}

async fn items_carry_tags_and_the_listing_filters_by_id_or_name(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let urgent = create_tag(&app, &owner, &project, json!({"name": "Urgent"})).await;
    let later = create_tag(&app, &owner, &project, json!({"name": "later"})).await;
    let (u, l) = (urgent["tagId"].as_str().unwrap(), later["tagId"].as_str().unwrap());

    // On create (as written, upper-case GUIDs read back in lower case) and on update.
    let both = create_label(&app, &owner, &project, json!({"text": "both", "tags": [u.to_uppercase(), l]})).await;
    assert_eq!(get_item(&app, &owner, &project, &both).await["tags"], json!([u, l]));
    let one = create_label(&app, &owner, &project, json!({"text": "one"})).await;
    assert_eq!(get_item(&app, &owner, &project, &one).await["tags"], json!([]), "an untagged item reads []");
    let reply = tag_item(&app, &owner, &project, &one, json!([u])).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let none = create_label(&app, &owner, &project, json!({"text": "none"})).await;

    assert_eq!(ids(&listed(&app, &owner, &project, &format!("tag={u}")).await), [both.clone(), one.clone()]);
    assert_eq!(ids(&listed(&app, &owner, &project, "tag=URGENT").await), [both.clone(), one.clone()], "by name");
    assert_eq!(ids(&listed(&app, &owner, &project, "tag=%20later%20").await), std::slice::from_ref(&both));
    assert_eq!(
        ids(&listed(&app, &owner, &project, "tag=later&text=one").await),
        Vec::<String>::new(),
        "filters combine"
    );
    assert_eq!(
        ids(&listed(&app, &owner, &project, "tag=Urgent&limit=1").await),
        std::slice::from_ref(&both),
        "a page of one"
    );
    assert_invalid(&listed(&app, &owner, &project, "tag=nothing").await, "tag");
    assert_eq!(ids(&listed(&app, &owner, &project, "tag=").await).len(), 3, "an empty filter filters nothing");

    // A rename changes no item (they name the tag by id): the item is as it was.
    let before = get_item(&app, &owner, &project, &both).await;
    let url = tags_url(&app, &project, &format!("/{u}"));
    assert_eq!(
        send(&app, Method::PATCH, &url, Some(&owner.bearer()), Some(json!({"name": "Now"}))).await.status,
        StatusCode::OK
    );
    assert_eq!(get_item(&app, &owner, &project, &both).await, before);
    assert_eq!(ids(&listed(&app, &owner, &project, "tag=now").await), [both.clone(), one.clone()]);

    // Each refusal names the field and changes nothing.
    let unknown = "0195f0c0-0000-7000-8000-000000000000";
    let too_many: Vec<String> = (0..=MAX_PER_ITEM).map(|_| u.to_owned()).collect();
    for (tags, field) in [
        (json!([unknown]), "tags[0]"),
        (json!([u, u]), "tags[1]"),
        (json!([u, u.to_uppercase()]), "tags[1]"),
        (json!(["nope"]), "tags[0]"),
        (json!([5]), "tags[0]"),
        (json!("a string"), "tags"),
        (json!({"id": u}), "tags"),
        (json!(too_many), "tags"),
    ] {
        let reply = tag_item(&app, &owner, &project, &none, tags.clone()).await;
        assert_invalid(&reply, field);
    }
    let create = send(
        &app,
        Method::POST,
        &app.item_url(&project, "/panel/sticky-note"),
        Some(&owner.bearer()),
        Some(json!({"text": "x", "tags": [unknown]})),
    )
    .await;
    assert_invalid(&create, "tags[0]");
    let unchanged = get_item(&app, &owner, &project, &none).await;
    assert_eq!(unchanged["updatedAt"], unchanged["createdAt"], "nothing changed");
    assert_eq!(unchanged["tags"], json!([]));

    // A tag of another project is no tag of this one.
    let (other, elsewhere) = owner_with_project(&app).await;
    let foreign = create_tag(&app, &other, &elsewhere, json!({"name": "Urgent"})).await;
    assert_invalid(&tag_item(&app, &owner, &project, &none, json!([foreign["tagId"]])).await, "tags[0]");

    // `[]` and `null` clear; a bulk create tags too, and names its item's offence.
    assert_eq!(tag_item(&app, &owner, &project, &one, json!([])).await.status, StatusCode::OK);
    assert_eq!(get_item(&app, &owner, &project, &one).await["tags"], json!([]));
    assert_eq!(tag_item(&app, &owner, &project, &both, Value::Null).await.status, StatusCode::OK);
    assert_eq!(get_item(&app, &owner, &project, &both).await["tags"], json!([]), "null clears");
    let bulk_url = format!("{}/api/v2/projects/{project}/items/bulk?jsonCasing=camel", app.base_url);
    let bulk = json!({"items": [
        {"type": "label", "properties": {"text": "a", "tags": [l]}},
        {"type": "shape", "properties": {"size": {"width": 10, "height": 10}, "tags": [l, unknown]}},
    ]});
    let refused = send(&app, Method::POST, &bulk_url, Some(&owner.bearer()), Some(bulk.clone())).await;
    assert_invalid(&refused, "items[1].properties.tags[1]");
    let mut good = bulk;
    good["items"][1]["properties"]["tags"] = json!([l]);
    let made = send(&app, Method::POST, &bulk_url, Some(&owner.bearer()), Some(good)).await;
    assert_eq!(made.status, StatusCode::OK, "{}", made.body);
    assert_eq!(ids(&listed(&app, &owner, &project, "tag=later").await).len(), 2, "both bulk items, and no other");
}

async fn each_role_reads_tags_and_only_editors_change_them(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let tag = create_tag(&app, &owner, &project, json!({"name": "t"})).await;
    let id = tag["tagId"].as_str().unwrap();
    let label = create_label(&app, &owner, &project, json!({"text": "x"})).await;
    for (role, may_change) in [
        (ProjectRole::Viewer, false),
        (ProjectRole::Editor, true),
        (ProjectRole::Manager, true),
        (ProjectRole::Admin, true),
    ] {
        let user = app.user(&format!("{role:?}")).await;
        app.add_member(&project, &user, role).await;
        let bearer = user.bearer();
        assert_eq!(
            send(&app, Method::GET, &tags_url(&app, &project, ""), Some(&bearer), None).await.status,
            StatusCode::OK
        );
        let one = tags_url(&app, &project, &format!("/{id}"));
        assert_eq!(send(&app, Method::GET, &one, Some(&bearer), None).await.status, StatusCode::OK);
        let expected = if may_change { StatusCode::CREATED } else { StatusCode::FORBIDDEN };
        let made = send(
            &app,
            Method::POST,
            &tags_url(&app, &project, ""),
            Some(&bearer),
            Some(json!({"name": format!("{role:?}")})),
        )
        .await;
        assert_eq!(made.status, expected, "{role:?}: {}", made.body);
        let expected = if may_change { StatusCode::OK } else { StatusCode::FORBIDDEN };
        let renamed = send(&app, Method::PATCH, &one, Some(&bearer), Some(json!({"color": "#123"}))).await;
        assert_eq!(renamed.status, expected, "{role:?}");
        assert_eq!(tag_item(&app, &user, &project, &label, json!([id])).await.status, expected, "{role:?}");
    }
    let viewer = app.user("viewer again").await;
    app.add_member(&project, &viewer, ProjectRole::Viewer).await;
    let one = tags_url(&app, &project, &format!("/{id}"));
    assert_eq!(send(&app, Method::DELETE, &one, Some(&viewer.bearer()), None).await.status, StatusCode::FORBIDDEN);
    let stranger = app.user("stranger").await;
    assert_eq!(
        send(&app, Method::GET, &tags_url(&app, &project, ""), Some(&stranger.bearer()), None).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        send(&app, Method::GET, &tags_url(&app, &project, ""), None, None).await.status,
        StatusCode::UNAUTHORIZED
    );
    let nowhere = tags_url(&app, "0195f0c0-0000-7000-8000-000000000000", "");
    assert_eq!(send(&app, Method::GET, &nowhere, Some(&owner.bearer()), None).await.status, StatusCode::NOT_FOUND);
    // The viewer's failed attempts changed nothing.
    let listing =
        send(&app, Method::GET, &tags_url(&app, &project, "?jsonCasing=camel"), Some(&owner.bearer()), None).await;
    assert_eq!(listing.body["tags"].as_array().unwrap().len(), 4, "t, Editor, Manager and Admin: {}", listing.body);
}

async fn a_project_holds_at_most_its_tags(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let (url, bearer) = (tags_url(&app, &project, ""), owner.bearer());
    // Created eight at a time: concurrent creates must neither fail nor pass the bound.
    let mut made = 0;
    while made < MAX_PER_PROJECT {
        let batch: Vec<_> = (made..(made + 8).min(MAX_PER_PROJECT))
            .map(|n| send(&app, Method::POST, &url, Some(&bearer), Some(json!({"name": format!("t{n}")}))))
            .collect();
        for reply in futures::future::join_all(batch).await {
            assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
            made += 1;
        }
    }
    let racing: Vec<_> = (0..4)
        .map(|n| send(&app, Method::POST, &url, Some(&bearer), Some(json!({"name": format!("over{n}")}))))
        .collect();
    for reply in futures::future::join_all(racing).await {
        assert_eq!(reply.status, StatusCode::CONFLICT, "{}", reply.body);
        assert!(reply.body.to_string().contains("500 tags"), "{}", reply.body);
    }
    let listing =
        send(&app, Method::GET, &tags_url(&app, &project, "?jsonCasing=camel"), Some(&owner.bearer()), None).await;
    assert_eq!(listing.body["tags"].as_array().unwrap().len(), MAX_PER_PROJECT);
}

async fn a_tag_deleted_while_items_are_tagged_with_it_is_left_on_no_item(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    for round in 0..3 {
        let tag = create_tag(&app, &owner, &project, json!({"name": format!("race {round}")})).await;
        let id = tag["tagId"].as_str().unwrap().to_owned();
        let mut labels = Vec::new();
        for n in 0..12 {
            labels.push(create_label(&app, &owner, &project, json!({"text": format!("{round}.{n}")})).await);
        }
        // Half are tagged before the race; every label is tagged (again) during it.
        for label in &labels[..6] {
            assert_eq!(tag_item(&app, &owner, &project, label, json!([id])).await.status, StatusCode::OK);
        }
        let writes = labels.iter().map(|label| tag_item(&app, &owner, &project, label, json!([id])));
        let (url, bearer) = (tags_url(&app, &project, &format!("/{id}?jsonCasing=camel")), owner.bearer());
        let delete = send(&app, Method::DELETE, &url, Some(&bearer), None);
        let (writes, deleted) = tokio::join!(futures::future::join_all(writes), delete);
        assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);
        for reply in &writes {
            // Served before the delete (then untagged by it), or refused after it naming the tag.
            // (The check before the write names `tags[0]`; the one inside its transaction, which
            // finds the tag deleted since, names `tags`.)
            if reply.status != StatusCode::OK {
                assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
                let fields = reply.fields();
                assert!(fields.iter().any(|f| f == "tags[0]" || f == "tags"), "{}", reply.body);
                assert!(reply.body.to_string().contains("no tag"), "{}", reply.body);
            }
        }
        let untagged: Vec<&str> =
            deleted.body["untaggedItemIds"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
        for (n, (label, write)) in labels.iter().zip(&writes).enumerate() {
            let item = get_item(&app, &owner, &project, label).await;
            assert!(!item.to_string().contains(&id), "round {round}: {item}");
            assert_eq!(item["tags"], json!([]), "round {round}");
            // A label that carried the tag when the delete ran (tagged before the race, or by a
            // write served first) is one the delete names.
            if n < 6 || write.status == StatusCode::OK {
                assert!(untagged.contains(&label.as_str()), "round {round}: {label} lost the tag unnamed");
            }
        }
        assert_invalid(&listed(&app, &owner, &project, &format!("tag={id}")).await, "tag");
    }
}
