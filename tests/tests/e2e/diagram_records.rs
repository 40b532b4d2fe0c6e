//! Diagram records (`.../diagrams/{diagramId}`): a created diagram is a record that is read,
//! listed and deleted; an edited source updates its items in place in one transaction, keeping
//! ids and what people changed on the map; concurrent updates take turns.

use std::collections::{BTreeMap, BTreeSet};

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::bulk::all_items;
use crate::support::{assert_invalid, get_item, owner_with_project, send, Reply};

backend_tests!(
    a_created_diagram_is_a_record_read_listed_and_deleted,
    an_edited_source_updates_the_items_in_place,
    concurrent_updates_of_one_diagram_take_turns,
    a_diagram_reads_back_as_it_is_on_the_map,
    a_region_exports_as_a_flowchart_that_draws_the_same_graph,
    a_source_of_another_kind_replaces_a_diagram_only_when_named,
    a_listing_leaves_the_element_map_out,
    a_node_given_another_shape_is_drawn_anew
);

pub(crate) const FIRST: &str = "flowchart TD
    A[Start] --> B{Check}
    B -->|no| C[Remove me]
    B --> D[Done]
    C --> D
";

pub(crate) fn url(app: &TestApp, project: &str, rest: &str) -> String {
    format!("{}/api/v2/projects/{project}/diagrams{rest}", app.base_url)
}

/// Creates a diagram at (0, 0); answers `(diagramId, node id → shape id)`.
pub(crate) async fn create(
    app: &TestApp,
    user: &TestUser,
    project: &str,
    source: &str,
) -> (String, BTreeMap<String, String>) {
    let body = json!({"source": source, "position": {"x": 0, "y": 0}});
    let reply =
        send(app, Method::POST, &url(app, project, "?jsonCasing=camel"), Some(&user.bearer()), Some(body)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let nodes = reply.body["nodes"].as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.as_str().unwrap().into()));
    (reply.body["diagramId"].as_str().expect("diagramId").to_owned(), nodes.collect())
}

pub(crate) async fn record(app: &TestApp, user: &TestUser, project: &str, diagram: &str, query: &str) -> Reply {
    let target = url(app, project, &format!("/{diagram}?jsonCasing=camel{query}"));
    send(app, Method::GET, &target, Some(&user.bearer()), None).await
}

pub(crate) async fn put(app: &TestApp, user: &TestUser, project: &str, diagram: &str, source: &str) -> Reply {
    let target = url(app, project, &format!("/{diagram}?jsonCasing=camel"));
    send(app, Method::PUT, &target, Some(&user.bearer()), Some(json!({"source": source}))).await
}

/// The element map of a record: (element, part) → item id.
fn element_map(record: &Value) -> BTreeMap<(String, String), String> {
    record["elements"]
        .as_array()
        .expect("elements")
        .iter()
        .map(|e| {
            let key = (e["element"].as_str().unwrap().to_owned(), e["part"].as_str().unwrap().to_owned());
            (key, e["itemId"].as_str().unwrap().to_owned())
        })
        .collect()
}

fn ids(list: &Value) -> BTreeSet<String> {
    list.as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_owned()).collect()
}

async fn a_created_diagram_is_a_record_read_listed_and_deleted(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let (diagram, nodes) = create(&app, &owner, &project, FIRST).await;
    let reply = record(&app, &owner, &project, &diagram, "").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!((reply.body["kind"].as_str(), reply.body["version"].as_i64()), (Some("flowchart"), Some(1)));
    assert_eq!(reply.body["source"], FIRST, "the source as written");
    let map = element_map(&reply.body);
    assert_eq!(map[&("node:A".into(), "shape".into())], nodes["A"]);
    assert!(map.contains_key(&("node:A".into(), "label".into())));
    assert!(map.contains_key(&("edge:B->C#0".into(), "label".into())), "the edge text: {map:?}");
    // Every item on the map is in the record, and only those.
    let items = all_items(&app, &owner, &project).await;
    let on_map: BTreeSet<String> = items.iter().map(|i| i["itemId"].as_str().unwrap().to_owned()).collect();
    assert_eq!(map.values().cloned().collect::<BTreeSet<_>>(), on_map);

    let (second, _) = create(&app, &owner, &project, "graph LR\nX --> Y").await;
    let listed =
        send(&app, Method::GET, &url(&app, &project, "?jsonCasing=camel&limit=1"), Some(&owner.bearer()), None).await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    assert_eq!(listed.body["diagrams"][0]["diagramId"], diagram.as_str(), "oldest first");
    let next = listed.body["nextCursor"].as_str().expect("a second page").to_owned();
    let rest = url(&app, &project, &format!("?jsonCasing=camel&cursor={next}"));
    let page = send(&app, Method::GET, &rest, Some(&owner.bearer()), None).await;
    assert_eq!(page.body["diagrams"][0]["diagramId"], second.as_str());
    assert_eq!(page.body["nextCursor"], Value::Null);

    // keepItems: the record goes, its items stay.
    let keep = url(&app, &project, &format!("/{second}?keepItems=true"));
    assert_eq!(send(&app, Method::DELETE, &keep, Some(&owner.bearer()), None).await.status, StatusCode::OK);
    assert_eq!(record(&app, &owner, &project, &second, "").await.status, StatusCode::NOT_FOUND);
    assert_eq!(all_items(&app, &owner, &project).await.len(), on_map.len() + 5, "X, Y, labels and link stay");
    // Without it, the items go with the record.
    let gone =
        send(&app, Method::DELETE, &url(&app, &project, &format!("/{diagram}")), Some(&owner.bearer()), None).await;
    assert_eq!(gone.status, StatusCode::OK, "{}", gone.body);
    assert_eq!(all_items(&app, &owner, &project).await.len(), 5);
    let bad = send(
        &app,
        Method::DELETE,
        &url(&app, &project, &format!("/{second}?keepItems=maybe")),
        Some(&owner.bearer()),
        None,
    )
    .await;
    assert_invalid(&bad, "keepItems");
}

const SECOND: &str = "flowchart TD
    A[Begin] --> B{Check}
    B --> D[Done]
    B --> E[New one]
    E --> F[New two]
";

async fn an_edited_source_updates_the_items_in_place(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let (diagram, nodes) = create(&app, &owner, &project, FIRST).await;
    let before = element_map(&record(&app, &owner, &project, &diagram, "").await.body);
    let item = |element: &str, part: &str| before[&(element.to_owned(), part.to_owned())].clone();

    // People change the map: move A, rewrite D's text, draw a connector from A to C.
    let patch = |path: String, body: Value| {
        let (app, owner, project) = (&app, &owner, &project);
        async move {
            let reply =
                send(app, Method::PATCH, &app.item_url(project, &path), Some(&owner.bearer()), Some(body)).await;
            assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.body);
        }
    };
    patch(format!("/shape/{}", nodes["A"]), json!({"position": {"x": -5000, "y": -4000}})).await;
    patch(format!("/label/{}", item("node:D", "label")), json!({"text": "Done by hand"})).await;
    let drawn = json!({"startPoint": {"itemId": nodes["A"]}, "endPoint": {"itemId": nodes["C"]}});
    let own = send(
        &app,
        Method::POST,
        &app.item_url(&project, "/panel/connector?jsonCasing=camel"),
        Some(&owner.bearer()),
        Some(drawn),
    )
    .await;
    assert_eq!(own.status, StatusCode::OK, "{}", own.body);
    let own = own.body["itemId"].as_str().unwrap().to_owned();

    // A source that cannot be read changes nothing.
    let items_before = all_items(&app, &owner, &project).await;
    let refused = put(&app, &owner, &project, &diagram, "flowchart TD\n  A --> B[open").await;
    assert_invalid(&refused, "source");
    assert!(refused.body["errors"][0]["message"].as_str().unwrap().contains("line 2"), "{}", refused.body);
    assert_eq!(all_items(&app, &owner, &project).await, items_before);
    assert_eq!(record(&app, &owner, &project, &diagram, "").await.body["version"], 1);

    let seq_before = app
        .core
        .stores()
        .items
        .project_last_seq(core_service::domain::ProjectId::from_uuid(uuid::Uuid::parse_str(&project).unwrap()))
        .await
        .unwrap();
    let reply = put(&app, &owner, &project, &diagram, SECOND).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["version"], 2);
    let after_nodes = reply.body["nodes"].as_object().unwrap();
    for kept in ["A", "B", "D"] {
        assert_eq!(after_nodes[kept], nodes[kept].as_str(), "{kept} keeps its item");
    }
    let after = element_map(&record(&app, &owner, &project, &diagram, "").await.body);
    assert_eq!(after[&("node:A".into(), "label".into())], item("node:A", "label"));
    // A stays where the person put it; its text is the new source's.
    let at = |item: &Value| (item["position"]["x"].as_f64().unwrap(), item["position"]["y"].as_f64().unwrap());
    let a = get_item(&app, &owner, &project, &nodes["A"]).await;
    assert_eq!(at(&a), (-5000.0, -4000.0), "{a}");
    assert_eq!(get_item(&app, &owner, &project, &item("node:A", "label")).await["text"], "Begin");
    // D's text was changed on the map and not in the source: the person's text stays.
    assert_eq!(get_item(&app, &owner, &project, &item("node:D", "label")).await["text"], "Done by hand");
    // C, its label and its two connectors are gone; the person's connector is detached, not lost.
    let removed = [
        item("node:C", "shape"),
        item("node:C", "label"),
        item("edge:B->C#0", "connector"),
        item("edge:B->C#0", "label"),
        item("edge:C->D#0", "connector"),
    ];
    for id in &removed {
        let reply =
            send(&app, Method::GET, &app.item_url(&project, &format!("/{id}")), Some(&owner.bearer()), None).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{id} is deleted");
    }
    let detached = get_item(&app, &owner, &project, &own).await;
    assert_eq!(detached["startPoint"]["itemId"], nodes["A"].as_str());
    assert!(detached["endPoint"].get("itemId").is_none_or(Value::is_null), "{detached}");
    // E and F are new, connected B → E → F; E is placed near B.
    let (e, f) = (after_nodes["E"].as_str().unwrap(), after_nodes["F"].as_str().unwrap());
    let connectors: Vec<Value> =
        all_items(&app, &owner, &project).await.into_iter().filter(|i| i["itemType"] == "connector").collect();
    let joins = |from: &str, to: &str| {
        connectors.iter().any(|c| c["startPoint"]["itemId"] == from && c["endPoint"]["itemId"] == to)
    };
    assert!(joins(&nodes["B"], e) && joins(e, f), "B → E → F");
    let (b_at, e_at) =
        (at(&get_item(&app, &owner, &project, &nodes["B"]).await), at(&get_item(&app, &owner, &project, e).await));
    assert!((b_at.0 - e_at.0).abs() < 400.0 && (b_at.1 - e_at.1).abs() < 400.0, "E {e_at:?} beside B {b_at:?}");

    // The events: one per item change, as single writes make them.
    let events = app
        .core
        .stores()
        .items
        .project_events(
            core_service::domain::ProjectId::from_uuid(uuid::Uuid::parse_str(&project).unwrap()),
            seq_before,
            1000,
        )
        .await
        .unwrap();
    let of = |kind: &str| -> BTreeSet<String> {
        events.iter().filter(|e| e.kind.as_str() == kind).map(|e| e.subject_id.to_string()).collect()
    };
    let deleted = removed.iter().cloned().collect::<BTreeSet<_>>();
    assert_eq!(of("item.deleted"), deleted, "deleted: C, its label, B→C with its label, C→D");
    assert_eq!(ids(&reply.body["deleted"]), deleted);
    assert_eq!(of("item.created"), ids(&reply.body["created"]));
    assert_eq!(ids(&reply.body["created"]).len(), 6, "E, F with labels, B→E, E→F");
    let updated = of("item.updated");
    assert!(updated.contains(&item("node:A", "label")) && updated.contains(&own), "{updated:?}");
    assert!(ids(&reply.body["updated"]).is_subset(&updated));
}

async fn concurrent_updates_of_one_diagram_take_turns(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let (diagram, _) = create(&app, &owner, &project, "flowchart LR\n  A --> B").await;
    let sources: Vec<String> = (0..8).map(|i| format!("flowchart LR\n  A --> B\n  B --> N{i}[Node {i}]")).collect();
    let replies = futures::future::join_all(sources.iter().map(|s| put(&app, &owner, &project, &diagram, s))).await;
    for reply in &replies {
        assert_eq!(reply.status, StatusCode::OK, "every update is applied in turn: {}", reply.body);
    }
    let mut versions: Vec<i64> = replies.iter().map(|r| r.body["version"].as_i64().unwrap()).collect();
    versions.sort();
    assert_eq!(versions, (2..=9).collect::<Vec<_>>(), "no lost update");
    // The map is the last one applied: A, B and that one's node, nothing left of the others.
    let last = record(&app, &owner, &project, &diagram, "").await.body;
    assert_eq!(last["version"], 9);
    let winner = sources.iter().position(|s| *s == last["source"]).expect("the source of one update");
    let shapes: BTreeSet<String> =
        element_map(&last).keys().filter(|(_, part)| part == "shape").map(|(element, _)| element.clone()).collect();
    let wanted: BTreeSet<String> = ["node:A".to_owned(), "node:B".to_owned(), format!("node:N{winner}")].into();
    assert_eq!(shapes, wanted);
    assert_eq!(all_items(&app, &owner, &project).await.len(), 8, "3 shapes, 3 labels, 2 connectors");

    // With If-Match, one of eight writers of version 9 wins and the others are told why.
    let guarded = sources.iter().map(|s| {
        let (app, owner, project, diagram) = (&app, &owner, &project, &diagram);
        async move {
            let target = url(app, project, &format!("/{diagram}"));
            let request = app.http.put(target).header("Authorization", owner.bearer()).header("If-Match", "\"9\"");
            request.json(&json!({"source": s})).send().await.unwrap().status()
        }
    });
    let statuses = futures::future::join_all(guarded).await;
    assert_eq!(statuses.iter().filter(|s| **s == StatusCode::OK).count(), 1, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == StatusCode::PRECONDITION_FAILED).count(), 7, "{statuses:?}");
}

/// Whether `text` has a link line from `from` to `to` (`A --> C`, `A --- C`, `A -->|t| C`…).
fn has_link(text: &str, from: &str, to: &str) -> bool {
    text.lines().map(str::trim).any(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        words.len() >= 3 && words[0] == from && words[words.len() - 1] == to && words[1].contains("--")
    })
}

async fn a_diagram_reads_back_as_it_is_on_the_map(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let (diagram, nodes) = create(&app, &owner, &project, FIRST).await;
    let map = element_map(&record(&app, &owner, &project, &diagram, "").await.body);
    let item = |element: &str, part: &str| map[&(element.to_owned(), part.to_owned())].clone();
    let bearer = owner.bearer();
    // A person rewrites B, deletes D (its shape and text) and draws a connector from A to C.
    let label_b = app.item_url(&project, &format!("/label/{}", item("node:B", "label")));
    let reply = send(&app, Method::PATCH, &label_b, Some(&bearer), Some(json!({"text": "Checked by hand"}))).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    // D's text is a label inside its shape: deleting the shape deletes it too.
    let gone = send(
        &app,
        Method::DELETE,
        &app.item_url(&project, &format!("/{}", item("node:D", "shape"))),
        Some(&bearer),
        None,
    )
    .await;
    assert_eq!(gone.status, StatusCode::OK, "{}", gone.body);
    let text =
        send(&app, Method::GET, &app.item_url(&project, &format!("/{}", item("node:D", "label"))), Some(&bearer), None)
            .await;
    assert_eq!(text.status, StatusCode::NOT_FOUND, "the shape's label went with it: {}", text.body);
    let drawn = json!({"startPoint": {"itemId": nodes["A"]}, "endPoint": {"itemId": nodes["C"], "decorator": "Arrow"}});
    let own = send(&app, Method::POST, &app.item_url(&project, "/panel/connector"), Some(&bearer), Some(drawn)).await;
    assert_eq!(own.status, StatusCode::OK, "{}", own.body);

    let reply = record(&app, &owner, &project, &diagram, "&format=mermaid").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let text = reply.body["mermaid"].as_str().expect("mermaid").to_owned();
    assert!(text.starts_with("flowchart"), "{text}");
    assert!(text.contains("Checked by hand") && !text.contains("Check\""), "the person's text: {text}");
    assert!(!text.contains("Done"), "D is gone: {text}");
    assert!(has_link(&text, "A", "B") && has_link(&text, "A", "C"), "the diagram's link and the person's: {text}");
    assert!(!has_link(&text, "B", "D"), "{text}");
    assert!(reply.body["source"] == FIRST, "the source as last written stays");
    // D's elements are left out of the map.
    assert!(!element_map(&reply.body).keys().any(|(element, _)| element == "node:D"));
    let bad = record(&app, &owner, &project, &diagram, "&format=svg").await;
    assert_invalid(&bad, "format");
}

/// A diagram's graph as its items draw it: node texts, links as (from text, to text, link text),
/// and containers as (title, member texts).
async fn graph_of(
    app: &TestApp,
    user: &TestUser,
    project: &str,
    diagram: &str,
) -> (BTreeSet<String>, BTreeSet<(String, String, String)>, BTreeSet<(String, Vec<String>)>) {
    let ids: BTreeSet<String> =
        element_map(&record(app, user, project, diagram, "").await.body).into_values().collect();
    let items: Vec<Value> = all_items(app, user, project)
        .await
        .into_iter()
        .filter(|i| ids.contains(i["itemId"].as_str().unwrap()))
        .collect();
    let text_of = |id: &Value| {
        let label = items.iter().find(|i| i["parent"] == *id && i["itemType"] == "label");
        label.map(|l| l["text"].as_str().unwrap().replace('\n', " ")).unwrap_or_default()
    };
    let is_container = |shape: &Value| items.iter().any(|i| i["parent"] == shape["itemId"] && i["itemType"] == "shape");
    let shapes: Vec<&Value> = items.iter().filter(|i| i["itemType"] == "shape").collect();
    let nodes = shapes.iter().filter(|s| !is_container(s)).map(|s| text_of(&s["itemId"])).collect();
    let links = items
        .iter()
        .filter(|i| i["itemType"] == "connector")
        .map(|c| (text_of(&c["startPoint"]["itemId"]), text_of(&c["endPoint"]["itemId"]), text_of(&c["itemId"])))
        .collect();
    let containers = shapes
        .iter()
        .filter(|s| is_container(s))
        .map(|s| {
            let mut members: Vec<String> =
                shapes.iter().filter(|m| m["parent"] == s["itemId"]).map(|m| text_of(&m["itemId"])).collect();
            members.sort();
            (text_of(&s["itemId"]), members)
        })
        .collect();
    (nodes, links, containers)
}

async fn a_region_exports_as_a_flowchart_that_draws_the_same_graph(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let source = "flowchart LR
    a[Plan] --> b{Ready?}
    b -->|yes| c[Ship]
    b -->|no| a
    subgraph team [The team]
        c --> d((Done))
    end
";
    let (first, _) = create(&app, &owner, &project, source).await;
    // Something else on the map, far from the diagram: not in the region.
    let far = json!({"text": "Elsewhere", "position": {"x": 50000, "y": 50000}});
    let note =
        send(&app, Method::POST, &app.item_url(&project, "/panel/sticky-note"), Some(&owner.bearer()), Some(far)).await;
    assert_eq!(note.status, StatusCode::OK, "{}", note.body);

    let export = format!(
        "{}/api/v2/projects/{project}/items/export?format=mermaid&region=-50,-50,5000,5000&jsonCasing=camel",
        app.base_url
    );
    let reply = send(&app, Method::GET, &export, Some(&owner.bearer()), None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["format"], "mermaid");
    let text = reply.body["text"].as_str().unwrap().to_owned();
    assert!(text.starts_with("flowchart") && text.contains("Ship") && text.contains("subgraph"), "{text}");
    assert!(!text.contains("Elsewhere"), "outside the region: {text}");

    // Round trip: the exported text, created again, draws the same nodes, labels, links, containers.
    let body = json!({"source": text, "position": {"x": 0, "y": 20000}});
    let again =
        send(&app, Method::POST, &url(&app, &project, "?jsonCasing=camel"), Some(&owner.bearer()), Some(body)).await;
    assert_eq!(again.status, StatusCode::OK, "{text}: {}", again.body);
    let second = again.body["diagramId"].as_str().unwrap().to_owned();
    let (nodes, links, containers) = graph_of(&app, &owner, &project, &first).await;
    assert_eq!(nodes, ["Done", "Plan", "Ready?", "Ship"].map(String::from).into(), "{text}");
    assert_eq!(graph_of(&app, &owner, &project, &second).await, (nodes, links, containers), "{text}");

    let bad = format!("{}/api/v2/projects/{project}/items/export?region=1,2,3", app.base_url);
    assert_invalid(&send(&app, Method::GET, &bad, Some(&owner.bearer()), None).await, "region");
}

const CLASSES: &str = "classDiagram
    %% kept as written, comments too
    class Animal {
        +String name
        +eat() void
    }
    Animal <|-- Duck : is a
    Duck \"1\" *-- \"many\" Feather
";

/// A class diagram read back is itself (not a flowchart); sent back, it changes nothing and stays a
/// class diagram. A flowchart sent in its place is refused naming `source` unless `kind` names it,
/// and a `kind` that is not the source's is refused naming `kind`.
async fn a_source_of_another_kind_replaces_a_diagram_only_when_named(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let (diagram, _) = create(&app, &owner, &project, CLASSES).await;
    let read = record(&app, &owner, &project, &diagram, "&format=mermaid").await;
    assert_eq!(read.body["kind"], "class", "{}", read.body);
    let mermaid = read.body["mermaid"].as_str().expect("mermaid").to_owned();
    assert_eq!(mermaid, CLASSES, "an untouched class diagram reads back as its source");
    let back = put(&app, &owner, &project, &diagram, &mermaid).await;
    assert_eq!(back.status, StatusCode::OK, "{}", back.body);
    for list in ["created", "updated", "deleted"] {
        assert_eq!(back.body[list], json!([]), "{list}: {}", back.body);
    }

    let target = url(&app, &project, &format!("/{diagram}?jsonCasing=camel"));
    let flowchart = "flowchart TD\n    Animal --> Duck\n";
    let refused = send(&app, Method::PUT, &target, Some(&owner.bearer()), Some(json!({"source": flowchart}))).await;
    assert_invalid(&refused, "source");
    assert!(refused.body.to_string().contains("kind"), "the refusal says how to change the kind: {}", refused.body);
    let wrong = json!({"source": flowchart, "kind": "sequence"});
    assert_invalid(&send(&app, Method::PUT, &target, Some(&owner.bearer()), Some(wrong)).await, "kind");
    assert_eq!(record(&app, &owner, &project, &diagram, "").await.body["kind"], "class", "nothing changed");

    let named = json!({"source": flowchart, "kind": "Flowchart"});
    let changed = send(&app, Method::PUT, &target, Some(&owner.bearer()), Some(named)).await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.body);
    assert_eq!(record(&app, &owner, &project, &diagram, "").await.body["kind"], "flowchart");
}

async fn a_listing_leaves_the_element_map_out(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    create(&app, &owner, &project, FIRST).await;
    let listed = send(&app, Method::GET, &url(&app, &project, ""), Some(&owner.bearer()), None).await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    let first = &listed.body["Diagrams"][0];
    assert!(first["DiagramId"].is_string(), "{}", listed.body);
    assert!(first.get("Elements").is_none(), "no element map in a listing: {first}");
}

/// A shape's kind is set at creation (`type` cannot be changed by an update), so a node whose
/// source now asks for another shape is drawn anew, its old shape deleted: this answered 500
/// ("a laid-out diagram broke item rules") before. Its neighbours keep their items.
async fn a_node_given_another_shape_is_drawn_anew(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let (diagram, nodes) = create(&app, &owner, &project, "flowchart TD\n    A[Start] --> B[Next]\n").await;
    let reply = put(&app, &owner, &project, &diagram, "flowchart TD\n    A((Start)) --> B[Next]\n").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert!(ids(&reply.body["deleted"]).contains(&nodes["A"]), "A's box is deleted: {}", reply.body);
    let circle = reply.body["nodes"]["A"].as_str().expect("A").to_owned();
    assert_ne!(circle, nodes["A"]);
    assert_eq!(reply.body["nodes"]["B"], nodes["B"].as_str(), "B keeps its item");
    let shape = get_item(&app, &owner, &project, &circle).await;
    assert_eq!(shape["type"], "Ellipse", "{shape}");
    let sequence = "sequenceDiagram\n    participant P\n    P->>P: hi\n";
    let (second, _) = create(&app, &owner, &project, sequence).await;
    let actor = put(&app, &owner, &project, &second, "sequenceDiagram\n    actor P\n    P->>P: hi\n").await;
    assert_eq!(actor.status, StatusCode::OK, "a participant turned actor: {}", actor.body);
}
