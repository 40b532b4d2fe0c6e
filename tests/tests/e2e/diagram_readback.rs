//! A diagram people changed reads back in its own kind and shows what they changed, for the
//! flowchart, class, ER and state diagrams: a box deleted is gone with its links, a text edited
//! reads as edited, a connector drawn between two boxes is a link. Sending that text back
//! (`PUT`) keeps every box, makes the person's connector the link's (creating only what the link
//! draws beside it: an ER relationship's cardinalities), and removes only the links a deleted box
//! left dangling; from then on reading and sending back changes nothing at all
//! (docs/diagrams/records.md).

use std::collections::BTreeSet;

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::bulk::all_items;
use crate::diagram_records::{create, put, record};
use crate::support::send;

backend_tests!(an_edited_diagram_of_each_kind_reads_back_as_itself);

/// One kind's diagram and what a person does to it.
struct Case {
    /// What the read-back starts with.
    header: &'static str,
    source: &'static str,
    /// The node whose box the person deletes.
    delete: &'static str,
    /// A text of the map the person rewrites (a label holding it), and what they write.
    edit: (&'static str, &'static str),
    /// The two nodes the person joins with a connector of their own.
    join: (&'static str, &'static str),
}

const CASES: [Case; 4] = [
    Case {
        header: "flowchart",
        source: "flowchart TD\n    A[Start] --> B{Check}\n    B -->|no| C[Retry]\n    B --> D[Done]\n    C --> D\n",
        delete: "D",
        edit: ("Check", "Checked by hand"),
        join: ("A", "C"),
    },
    Case {
        header: "classDiagram",
        source: "classDiagram\n    class Animal {\n        +String name\n        +eat() void\n    }\n    class Duck {\n        \
                 +swim()\n    }\n    class Fish\n    class Zebra\n    Animal <|-- Duck\n    Animal <|-- Fish\n    \
                 Animal <|-- Zebra : stripes\n",
        delete: "Zebra",
        edit: ("swim", "+dive()"),
        join: ("Fish", "Duck"),
    },
    Case {
        header: "erDiagram",
        source: "erDiagram\n    CUSTOMER ||--o{ ORDER : places\n    ORDER ||--|{ LINE_ITEM : contains\n    CUSTOMER {\n        \
                 string name\n        string email\n    }\n    PRODUCT ||--o{ LINE_ITEM : \"ordered in\"\n",
        delete: "PRODUCT",
        edit: ("email", "phone"),
        join: ("LINE_ITEM", "CUSTOMER"),
    },
    Case {
        header: "stateDiagram",
        source: "stateDiagram-v2\n    [*] --> Idle\n    Idle --> Running : start\n    Running --> Paused : pause\n    \
                 Running --> Broken : fail\n    Broken --> [*]\n",
        delete: "Broken",
        edit: ("start", "go"),
        join: ("Paused", "Idle"),
    },
];

/// Whether `text` has a line naming both `a` and `b` as words (a link between them).
fn links(text: &str, a: &str, b: &str) -> bool {
    text.lines().any(|line| {
        let words: BTreeSet<&str> = line.split(|c: char| !(c.is_alphanumeric() || c == '_')).collect();
        words.contains(a) && words.contains(b)
    })
}

fn names(text: &str, id: &str) -> bool {
    text.lines().any(|line| line.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|w| w == id))
}

async fn read_back(app: &TestApp, user: &TestUser, project: &str, diagram: &str) -> String {
    let reply = record(app, user, project, diagram, "&format=mermaid").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body["mermaid"].as_str().expect("mermaid").to_owned()
}

fn id_set(list: &Value) -> BTreeSet<String> {
    list.as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_owned()).collect()
}

async fn an_edited_diagram_of_each_kind_reads_back_as_itself(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let owner = app.user("owner").await;
    let bearer = owner.bearer();
    for case in CASES {
        let project = app.project(&owner).await;
        let (diagram, nodes) = create(&app, &owner, &project, case.source).await;
        let kind = record(&app, &owner, &project, &diagram, "").await.body["kind"].clone();

        // The person deletes a box, rewrites a text and draws a connector of their own.
        let gone = send(
            &app,
            Method::DELETE,
            &app.item_url(&project, &format!("/{}", nodes[case.delete])),
            Some(&bearer),
            None,
        )
        .await;
        assert_eq!(gone.status, StatusCode::OK, "{}: {}", case.header, gone.body);
        let items = all_items(&app, &owner, &project).await;
        let label = items
            .iter()
            .find(|i| i["itemType"] == "label" && i["text"].as_str().is_some_and(|t| t.contains(case.edit.0)))
            .unwrap_or_else(|| panic!("{}: a label holding {:?} in {items:?}", case.header, case.edit.0));
        let label_url = app.item_url(&project, &format!("/label/{}", label["itemId"].as_str().unwrap()));
        // The person rewrites those words of the label (a table column keeps its other rows).
        let rewritten = label["text"].as_str().unwrap().replace(case.edit.0, case.edit.1);
        let edited = send(&app, Method::PATCH, &label_url, Some(&bearer), Some(json!({"text": rewritten}))).await;
        assert_eq!(edited.status, StatusCode::OK, "{}", edited.body);
        let drawn = json!({"startPoint": {"itemId": nodes[case.join.0]}, "endPoint": {"itemId": nodes[case.join.1]}});
        let own = send(
            &app,
            Method::POST,
            &app.item_url(&project, "/panel/connector?jsonCasing=camel"),
            Some(&bearer),
            Some(drawn),
        )
        .await;
        assert_eq!(own.status, StatusCode::OK, "{}", own.body);
        let own = own.body["itemId"].as_str().unwrap().to_owned();

        // Read back: its own kind, with the person's changes.
        let text = read_back(&app, &owner, &project, &diagram).await;
        assert!(text.trim_start().starts_with(case.header), "{}: {text}", case.header);
        assert!(text.contains(case.edit.1.trim_start_matches('+').trim_end_matches("()")), "the edit shows: {text}");
        assert!(!names(&text, case.edit.0), "the old text is gone: {text}");
        assert!(!names(&text, case.delete), "{} is deleted: {text}", case.delete);
        assert!(links(&text, case.join.0, case.join.1), "the person's connector is a link: {text}");

        // Sent back: every box kept, the person's connector adopted as the link's, and nothing
        // created but what that link draws beside its connector (an ER relationship's
        // cardinalities, which a bare connector lacks).
        let reply = put(&app, &owner, &project, &diagram, &text).await;
        assert_eq!(reply.status, StatusCode::OK, "{}: PUT of the read-back:\n{text}\n{}", case.header, reply.body);
        for (node, shape) in nodes.iter().filter(|(node, _)| node.as_str() != case.delete) {
            assert_eq!(
                reply.body["nodes"][node].as_str(),
                Some(shape.as_str()),
                "{}: {node} keeps its box",
                case.header
            );
        }
        assert!(!id_set(&reply.body["deleted"]).contains(&own), "{}: the person's connector stays", case.header);
        let after = record(&app, &owner, &project, &diagram, "").await.body;
        assert_eq!(after["kind"], kind, "{}: the record keeps its kind", case.header);
        let elements = after["elements"].as_array().unwrap();
        // An element's further items of one part carry `~2`, `~3` (an edge's end texts).
        let element_of = |id: &str| {
            let element = elements.iter().find(|e| e["itemId"] == id)?["element"].as_str()?;
            Some(element.split('~').next().unwrap_or(element).to_owned())
        };
        let link = element_of(&own).unwrap_or_else(|| panic!("{}: the person's connector is the link's", case.header));
        for created in id_set(&reply.body["created"]) {
            assert_eq!(
                element_of(&created),
                Some(link.clone()),
                "{}: {created} created on PUT of\n{text}",
                case.header
            );
        }

        // And from then on, reading and sending back changes nothing.
        let again = read_back(&app, &owner, &project, &diagram).await;
        let reply = put(&app, &owner, &project, &diagram, &again).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        for what in ["created", "updated", "deleted"] {
            assert_eq!(
                id_set(&reply.body[what]),
                BTreeSet::new(),
                "{}: {what} on the second PUT of\n{again}",
                case.header
            );
        }
        assert_eq!(read_back(&app, &owner, &project, &diagram).await, again, "{}: the text is stable", case.header);
    }
}
