//! Diagrams from Mermaid (`POST .../diagrams`): ordinary items, attached connectors, containers,
//! free space beside what is on the map, and syntax errors that name the line and column.

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::bulk::all_items;
use crate::support::{assert_invalid, get_item, owner_with_project, send, Reply};

backend_tests!(
    a_flowchart_becomes_attached_shapes_labels_and_containers,
    a_diagram_without_a_position_goes_beside_what_is_there,
    every_diagram_kind_is_created_and_bad_sources_name_line_and_column
);

const FLOWCHART: &str = "flowchart LR
    start([Start]) --> check{Valid?}
    check -->|yes| save[(Store it)]
    check -->|no| fix[Fix the input]
    fix --> check
    subgraph done [Finished]
        save --> MixedCase((Done))
    end
    %% styling is ignored
    classDef hot fill:#f00
";

async fn diagram(app: &TestApp, user: &TestUser, project: &str, body: Value, casing: &str) -> Reply {
    let url = format!("{}/api/v2/projects/{project}/diagrams?jsonCasing={casing}", app.base_url);
    send(app, Method::POST, &url, Some(&user.bearer()), Some(body)).await
}

async fn a_flowchart_becomes_attached_shapes_labels_and_containers(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let body = json!({"format": "mermaid", "source": FLOWCHART, "position": {"x": 1000, "y": 2000}});
    let reply = diagram(&app, &owner, &project, body, "snake").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let nodes = reply.body["nodes"].as_object().expect("nodes").clone();
    let mut names: Vec<&str> = nodes.keys().map(String::as_str).collect();
    names.sort();
    assert_eq!(names, ["MixedCase", "check", "fix", "save", "start"], "node ids keep their spelling");
    let item_ids: Vec<String> =
        reply.body["item_ids"].as_array().expect("item_ids").iter().map(|i| i.as_str().unwrap().to_owned()).collect();

    // State after: exactly these items, every node a shape of the mapped type with its label.
    let items = all_items(&app, &owner, &project).await;
    let listed: Vec<&str> = items.iter().map(|i| i["itemId"].as_str().unwrap()).collect();
    assert_eq!(listed, item_ids.iter().map(String::as_str).collect::<Vec<_>>());
    let by_id = |id: &str| items.iter().find(|i| i["itemId"] == id).unwrap().clone();
    let shape_type = |node: &str| by_id(nodes[node].as_str().unwrap())["type"].as_str().unwrap().to_owned();
    assert_eq!(shape_type("check"), "Diamond");
    assert_eq!(shape_type("fix"), "Rectangle");
    assert_eq!(shape_type("MixedCase"), "Ellipse");
    for (node, id) in &nodes {
        let id = id.as_str().unwrap();
        assert_eq!(by_id(id)["itemType"], "shape", "{node}");
        let labels: Vec<&Value> = items.iter().filter(|i| i["parent"] == id && i["itemType"] == "label").collect();
        assert_eq!(labels.len(), 1, "{node} has one label");
    }
    let start_label = items.iter().find(|i| i["parent"] == nodes["start"] && i["itemType"] == "label").unwrap();
    assert_eq!(start_label["text"], "Start");

    // Five edges, each a connector attached to two node shapes, arrows at the end.
    let connectors: Vec<&Value> = items.iter().filter(|i| i["itemType"] == "connector").collect();
    assert_eq!(connectors.len(), 5);
    let shapes: Vec<&str> = nodes.values().map(|v| v.as_str().unwrap()).collect();
    let mut pairs = Vec::new();
    for connector in &connectors {
        let (from, to) =
            (connector["startPoint"]["itemId"].as_str().unwrap(), connector["endPoint"]["itemId"].as_str().unwrap());
        assert!(shapes.contains(&from) && shapes.contains(&to), "{connector}");
        assert_eq!(connector["endPoint"]["decorator"], "Arrow");
        pairs.push((from.to_owned(), to.to_owned()));
    }
    let edge = |a: &str, b: &str| (nodes[a].as_str().unwrap().to_owned(), nodes[b].as_str().unwrap().to_owned());
    assert!(pairs.contains(&edge("check", "save")) && pairs.contains(&edge("fix", "check")), "{pairs:?}");
    // Edge texts are labels held by their connectors.
    let edge_labels: Vec<&str> = items
        .iter()
        .filter(|i| i["itemType"] == "label" && connectors.iter().any(|c| c["itemId"] == i["parent"]))
        .map(|i| i["text"].as_str().unwrap())
        .collect();
    assert_eq!(edge_labels.len(), 2, "{edge_labels:?}");
    assert!(edge_labels.contains(&"yes") && edge_labels.contains(&"no"));

    // The subgraph is a container holding its nodes, and its box encloses theirs.
    let container = by_id(nodes["save"].as_str().unwrap())["parent"].as_str().unwrap().to_owned();
    assert_eq!(by_id(nodes["MixedCase"].as_str().unwrap())["parent"], container.as_str());
    assert_eq!(by_id(nodes["check"].as_str().unwrap())["parent"], "panel");
    let frame = by_id(&container);
    let inner = by_id(nodes["MixedCase"].as_str().unwrap());
    let half = |item: &Value, size: &str| item["size"][size].as_f64().unwrap() / 2.0;
    let at = |item: &Value, axis: &str| item["position"][axis].as_f64().unwrap();
    assert!(at(&inner, "x") - half(&inner, "width") >= at(&frame, "x") - half(&frame, "width"));
    assert!(at(&inner, "x") + half(&inner, "width") <= at(&frame, "x") + half(&frame, "width"));
    // The whole diagram lies right of and below the position asked for.
    for item in items.iter().filter(|i| i["itemType"] == "shape") {
        assert!(at(item, "x") - half(item, "width") >= 1000.0 - 0.5, "{item}");
        assert!(at(item, "y") - half(item, "height") >= 2000.0 - 0.5, "{item}");
    }
    // Moving a node moves its connectors' ends with it (attached by id).
    let fix = nodes["fix"].as_str().unwrap();
    let url = app.item_url(&project, &format!("/shape/{fix}"));
    let moved =
        send(&app, Method::PATCH, &url, Some(&owner.bearer()), Some(json!({"position": {"x": -3000, "y": -3000}})))
            .await;
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.body);
    let attached = connectors.iter().find(|c| c["startPoint"]["itemId"] == fix).unwrap();
    let after = get_item(&app, &owner, &project, attached["itemId"].as_str().unwrap()).await;
    assert!(after["startPoint"]["absolutePosition"]["x"].as_f64().unwrap() < -2000.0, "{after}");
}

async fn a_diagram_without_a_position_goes_beside_what_is_there(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    // Something big already on the map: a note 2000 x 1000 centred at (0, 0).
    let url = app.item_url(&project, "/panel/sticky-note");
    let note = send(
        &app,
        Method::POST,
        &url,
        Some(&owner.bearer()),
        Some(json!({"text": "Existing", "size": {"width": 2000, "height": 1000}})),
    )
    .await;
    assert_eq!(note.status, StatusCode::OK, "{}", note.body);
    let reply = diagram(&app, &owner, &project, json!({"source": "graph TD\n  a --> b\n  a --> c"}), "camel").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    // Nothing of the diagram meets the note's box.
    let url = format!("{}/api/v2/projects/{project}/items?region=-1000,-500,2000,1000&jsonCasing=camel", app.base_url);
    let overlapping = send(&app, Method::GET, &url, Some(&owner.bearer()), None).await;
    let ids: Vec<&str> =
        overlapping.body["items"].as_array().unwrap().iter().map(|i| i["itemId"].as_str().unwrap()).collect();
    assert_eq!(ids, [note.body["ItemId"].as_str().unwrap()], "only the note is there");
    assert_eq!(reply.body["itemIds"].as_array().unwrap().len(), 3 * 2 + 2, "three nodes with labels, two edges");
}

async fn every_diagram_kind_is_created_and_bad_sources_name_line_and_column(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let mindmap = "mindmap\n  root((Plan))\n    Goals\n      Growth\n      Quality\n    Risks\n      [Budget]\n";
    let sequence = "sequenceDiagram\n  participant A as Alice\n  participant B as Bob\n  A->>B: Hello\n  B-->>A: Hi\n  Note over A,B: A note\n";
    for source in [mindmap, sequence] {
        let reply = diagram(&app, &owner, &project, json!({"source": source}), "camel").await;
        assert_eq!(reply.status, StatusCode::OK, "{source}: {}", reply.body);
        assert!(reply.body["itemIds"].as_array().unwrap().len() >= 5, "{}", reply.body);
    }
    let notes = all_items(&app, &owner, &project).await.into_iter().filter(|i| i["itemType"] == "sticky-note").count();
    assert_eq!(notes, 1, "the sequence note is a sticky note");

    let before = all_items(&app, &owner, &project).await.len();
    let broken = diagram(&app, &owner, &project, json!({"source": "flowchart TD\n  A --> B[open"}), "camel").await;
    assert_invalid(&broken, "source");
    assert!(broken.body["detail"].as_str().unwrap().contains("line 2, column"), "{}", broken.body);
    for (body, field) in [
        (json!({"source": ""}), "source"),
        (json!({"source": "pie title Pets\n  \"Dogs\" : 3"}), "source"),
        (json!({"format": "plantuml", "source": "graph TD\n a-->b"}), "format"),
        (json!({"format": "mermaid"}), "source"),
        (json!({"source": "graph TD\n a-->b", "position": {"x": "left", "y": 0}}), "position.x"),
        (json!({"source": "graph TD\n a-->b", "colour": "red"}), "colour"),
        (json!({"source": "graph TD\n a-->b", "position": {"x": 1e300, "y": 0}}), "position"),
        (json!({"source": "x".repeat(70_000)}), "source"),
    ] {
        assert_invalid(&diagram(&app, &owner, &project, body, "camel").await, field);
    }
    assert_eq!(all_items(&app, &owner, &project).await.len(), before, "nothing written by a refused diagram");
}
