//! The system under test: a real core-service and REST gateway on a fresh database, driven over
//! HTTP by each operation of a sequence, and compared with the model after every step.

use std::collections::{BTreeSet, HashMap};

use canvas_tests::webhooks::WebhookEnv;
use canvas_tests::{Backend, TestApp, TestUser};
use reqwest::multipart::{Form, Part};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use super::model::{BulkPlace, Kind, Model, Op, Outcome, Place, SOURCES};
use crate::bulk::all_items;
use crate::containers::assert_every_parent_resolves;
use crate::support::{owner_with_project, send, Reply};

const SVG: &str =
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><rect width=\"10\" height=\"10\"/></svg>";

/// What serves the sequence: a plain app, or one with a webhook receiver (the replay test).
pub enum Host {
    App(Box<TestApp>),
    Hooks(Box<WebhookEnv>),
}

pub struct System {
    pub rt: tokio::runtime::Runtime,
    pub host: Host,
    pub owner: TestUser,
    pub project: String,
    /// Slot → item id.
    ids: Vec<String>,
    /// Item id → slot.
    slots: HashMap<String, usize>,
    /// Diagram → record id.
    diagrams: Vec<String>,
    /// Tag → its id.
    tags: Vec<String>,
    /// Comment thread → its id.
    threads: Vec<String>,
    /// Items diagrams drew that the model does not follow (their labels and edges).
    drawn: BTreeSet<String>,
    /// The last event seen (the invariants are checked through a shared reference).
    seq: std::cell::Cell<i64>,
}

fn value_body(kind: Kind, value: u32) -> Value {
    match kind {
        Kind::Label | Kind::Sticky => json!({"text": format!("v{value}")}),
        Kind::Shape => json!({"size": {"width": 120, "height": 80}, "fillColor": fill(value)}),
        Kind::Connector => {
            json!({"startPoint": {"position": {"x": 0, "y": 0}}, "endPoint": {"position": {"x": 40, "y": 0}}})
        }
        Kind::Web => json!({"url": format!("https://example.org/{value}")}),
        Kind::Svg => json!({}),
        Kind::Frame => json!({"title": format!("v{value}"), "size": {"width": 400, "height": 300}}),
    }
}

fn fill(value: u32) -> String {
    format!("#{:06x}", (value * 40_503) % 0xff_ffff)
}

/// The value a listed item shows for `kind` (what [`value_body`] wrote).
fn shown(kind: Kind, item: &Value) -> Option<String> {
    match kind {
        Kind::Label | Kind::Sticky => item["text"].as_str().map(str::to_owned),
        Kind::Shape => item["fillColor"].as_str().map(str::to_ascii_lowercase),
        Kind::Frame => item["title"].as_str().map(str::to_owned),
        _ => None,
    }
}

fn written(kind: Kind, value: u32) -> Option<String> {
    match kind {
        Kind::Label | Kind::Sticky | Kind::Frame => Some(format!("v{value}")),
        Kind::Shape => Some(fill(value)),
        _ => None,
    }
}

impl System {
    pub fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
    }

    pub fn start(backend: Backend) -> System {
        let rt = Self::runtime();
        let app = rt.block_on(TestApp::spawn(backend));
        Self::hosted(rt, Host::App(Box::new(app)))
    }

    /// A fresh project owned by a new user on `host`.
    pub fn hosted(rt: tokio::runtime::Runtime, host: Host) -> System {
        let app = match &host {
            Host::App(app) => app,
            Host::Hooks(env) => &env.app,
        };
        let (owner, project) = rt.block_on(owner_with_project(app));
        System {
            rt,
            host,
            owner,
            project,
            ids: Vec::new(),
            slots: HashMap::new(),
            diagrams: Vec::new(),
            tags: Vec::new(),
            threads: Vec::new(),
            drawn: BTreeSet::new(),
            seq: Default::default(),
        }
    }

    pub fn app(&self) -> &TestApp {
        match &self.host {
            Host::App(app) => app,
            Host::Hooks(env) => &env.app,
        }
    }

    fn place(&self, place: Place) -> String {
        match place {
            Place::Panel => "panel".into(),
            Place::Inbox => "inbox".into(),
            Place::In(slot) => self.ids[slot].clone(),
        }
    }

    fn item_url(&self, rest: &str) -> String {
        self.app().item_url(&self.project, rest)
    }

    fn project_url(&self, rest: &str) -> String {
        format!("{}/api/v2/projects/{}{rest}", self.app().base_url, self.project)
    }

    fn send(&self, method: Method, url: &str, body: Option<Value>) -> Reply {
        self.rt.block_on(send(self.app(), method, url, Some(&self.owner.bearer()), body))
    }

    fn remember(&mut self, slot: usize, id: &str) {
        assert_eq!(slot, self.ids.len(), "slots are numbered in creation order");
        self.ids.push(id.to_owned());
        self.slots.insert(id.to_owned(), slot);
    }

    /// Runs `op` and checks its answer against what the model expects (`model` is after it).
    pub fn run(&mut self, model: &Model, op: &Op) {
        let expect = &model.expect;
        let reply = match op {
            Op::Create { kind, place, value } => {
                let url = self.item_url(&format!("/{}/{}?jsonCasing=camel", self.place(*place), kind.name()));
                self.send(Method::POST, &url, Some(value_body(*kind, *value)))
            }
            Op::Upload { place } => {
                let url = self.item_url(&format!("/{}/svg/file?jsonCasing=camel", self.place(*place)));
                let form = Form::new().text("dataobject", "{}").part(
                    "binary",
                    Part::bytes(SVG.as_bytes().to_vec()).file_name("dot.svg").mime_str("image/svg+xml").unwrap(),
                );
                let request = self.app().http.post(url).header("Authorization", self.owner.bearer()).multipart(form);
                self.rt.block_on(async {
                    let response = request.send().await.expect("reaches the gateway");
                    let status = response.status();
                    let bytes = response.bytes().await.unwrap().to_vec();
                    Reply {
                        status,
                        content_type: String::new(),
                        body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
                        bytes,
                    }
                })
            }
            Op::Connect { start, end } => {
                let body = json!({"startPoint": {"itemId": self.ids[*start]}, "endPoint": {"itemId": self.ids[*end]}});
                self.send(Method::POST, &self.item_url("/panel/connector?jsonCasing=camel"), Some(body))
            }
            Op::Update { slot, value } => {
                let kind = model.slots[*slot].kind;
                let mut body = value_body(kind, *value);
                body.as_object_mut().unwrap().remove("size");
                let url = self.item_url(&format!("/{}/{}", kind.name(), self.ids[*slot]));
                self.send(Method::PATCH, &url, Some(body))
            }
            Op::Concurrent { slot, writers, value } => {
                let kind = model.slots[*slot].kind;
                let url = self.item_url(&format!("/{}/{}", kind.name(), self.ids[*slot]));
                let statuses = self.rt.block_on(async {
                    let mut tasks = tokio::task::JoinSet::new();
                    for w in 0..*writers {
                        let mut body = value_body(kind, value + w);
                        body.as_object_mut().unwrap().remove("size");
                        let request =
                            self.app().http.patch(&url).header("Authorization", self.owner.bearer()).json(&body);
                        tasks.spawn(async move { request.send().await.expect("reaches the gateway").status() });
                    }
                    tasks.join_all().await
                });
                let expected = if expect.outcome == Outcome::Ok { StatusCode::OK } else { StatusCode::NOT_FOUND };
                assert!(statuses.iter().all(|s| *s == expected), "{op:?}: {statuses:?}");
                return;
            }
            Op::Delete { slot } => self.send(Method::DELETE, &self.item_url(&format!("/{}", self.ids[*slot])), None),
            Op::Bulk { items } => {
                let batch: Vec<Value> = items
                    .iter()
                    .enumerate()
                    .map(|(i, (kind, place))| {
                        let parent = match place {
                            BulkPlace::Panel => "panel".to_owned(),
                            BulkPlace::Slot(s) => self.ids[*s].clone(),
                            BulkPlace::Earlier(j) => format!("ref:b{j}"),
                        };
                        json!({"ref": format!("b{i}"), "type": kind.name(), "parent": parent, "properties": value_body(*kind, 0)})
                    })
                    .collect();
                self.send(
                    Method::POST,
                    &self.project_url("/items/bulk?jsonCasing=camel"),
                    Some(json!({"items": batch})),
                )
            }
            Op::Arrange { slots } => {
                let ids: Vec<&String> = slots.iter().map(|s| &self.ids[*s]).collect();
                let body = json!({"itemIds": ids, "style": "grid"});
                self.send(Method::POST, &self.project_url("/items/arrange?jsonCasing=camel"), Some(body))
            }
            Op::CreateDiagram { source } => {
                let body = json!({"source": SOURCES[*source].0, "position": {"x": 0, "y": 0}});
                self.send(Method::POST, &self.project_url("/diagrams?jsonCasing=camel"), Some(body))
            }
            Op::PutDiagram { diagram, source } => {
                let url = self.project_url(&format!("/diagrams/{}?jsonCasing=camel", self.diagrams[*diagram]));
                self.send(Method::PUT, &url, Some(json!({"source": SOURCES[*source].0})))
            }
            Op::DeleteDiagram { diagram } => {
                let url = self.project_url(&format!("/diagrams/{}", self.diagrams[*diagram]));
                self.send(Method::DELETE, &url, None)
            }
            Op::CreateTag => {
                let body = json!({"name": format!("tag {}", self.tags.len())});
                self.send(Method::POST, &self.project_url("/tags?jsonCasing=camel"), Some(body))
            }
            Op::DeleteTag { tag } => {
                self.send(Method::DELETE, &self.project_url(&format!("/tags/{}", self.tags[*tag])), None)
            }
            Op::Comment { slot } => {
                let body = json!({"text": format!("review slot {slot}"), "itemId": self.ids[*slot]});
                self.send(Method::POST, &self.project_url("/comments?jsonCasing=camel"), Some(body))
            }
            Op::Move { slot, to } => {
                let kind = model.slots[*slot].kind;
                let url = self.item_url(&format!("/{}/{}", kind.name(), self.ids[*slot]));
                let parent = self.place(*to);
                let body = if kind == Kind::Connector {
                    json!({"properties": {}, "parent": parent})
                } else {
                    json!({"parent": parent})
                };
                self.send(Method::PATCH, &url, Some(body))
            }
            Op::Shift { slot } => {
                let kind = model.slots[*slot].kind;
                let url = self.item_url(&format!("/{}/{}", kind.name(), self.ids[*slot]));
                let body = match kind {
                    // A connector's position is derived: the write is accepted and moves nothing.
                    Kind::Connector => json!({"properties": {"position": {"x": 0, "y": 0}}}),
                    _ => {
                        let read = self.send(
                            Method::GET,
                            &self.item_url(&format!("/{}?jsonCasing=camel", self.ids[*slot])),
                            None,
                        );
                        let x = read.body["position"]["x"].as_f64().unwrap_or(0.0);
                        let y = read.body["position"]["y"].as_f64().unwrap_or(0.0);
                        json!({"position": {"x": x + 25.0, "y": y}})
                    }
                };
                self.send(Method::PATCH, &url, Some(body))
            }
            Op::TagItem { slot, tags } => {
                let kind = model.slots[*slot].kind;
                let ids: Vec<&String> = tags.iter().map(|t| &self.tags[*t]).collect();
                let url = self.item_url(&format!("/{}/{}", kind.name(), self.ids[*slot]));
                // A connector's update wraps its properties (docs/REST.md).
                let body =
                    if kind == Kind::Connector { json!({"properties": {"tags": ids}}) } else { json!({"tags": ids}) };
                self.send(Method::PATCH, &url, Some(body))
            }
        };
        // A tag create and a thread's answer 201 Created, everything else 200.
        let ok = if matches!(op, Op::CreateTag | Op::Comment { .. }) { StatusCode::CREATED } else { StatusCode::OK };
        match &expect.outcome {
            Outcome::Ok => assert_eq!(reply.status, ok, "{op:?}: {}", reply.body),
            Outcome::NotFound => assert_eq!(reply.status, StatusCode::NOT_FOUND, "{op:?}: {}", reply.body),
            Outcome::Invalid(field) => {
                assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{op:?}: {}", reply.body);
                assert_eq!(reply.fields().first(), Some(field), "{op:?}: {}", reply.body);
                return;
            }
        }
        if expect.outcome != Outcome::Ok {
            return;
        }
        match op {
            Op::CreateTag => self.tags.push(reply.body["tagId"].as_str().expect("tagId").to_owned()),
            Op::Comment { .. } => self.threads.push(reply.body["threadId"].as_str().expect("threadId").to_owned()),
            Op::Bulk { .. } => {
                let made = reply.body["items"].as_array().expect("items").clone();
                for (slot, item) in expect.created.iter().zip(&made) {
                    self.remember(*slot, item["itemId"].as_str().unwrap());
                }
            }
            Op::CreateDiagram { .. } | Op::PutDiagram { .. } => {
                if let Op::CreateDiagram { .. } = op {
                    self.diagrams.push(reply.body["diagramId"].as_str().unwrap().to_owned());
                }
                let diagram = match op {
                    Op::PutDiagram { diagram, .. } => *diagram,
                    _ => self.diagrams.len() - 1,
                };
                for slot in &expect.created {
                    let node = model.diagrams[diagram].nodes.iter().find(|(_, s)| *s == slot).unwrap().0;
                    self.remember(*slot, reply.body["nodes"][node].as_str().expect("the node's shape"));
                }
                for id in reply.body["itemIds"].as_array().unwrap() {
                    let id = id.as_str().unwrap();
                    if !self.slots.contains_key(id) {
                        self.drawn.insert(id.to_owned());
                    }
                }
            }
            _ => {
                if let Some(slot) = expect.created.first() {
                    self.remember(*slot, reply.body["itemId"].as_str().expect("itemId"));
                }
            }
        }
    }

    /// The invariants, after every step.
    pub fn check(&self, model: &Model) {
        let listed = self.rt.block_on(all_items(self.app(), &self.owner, &self.project));
        assert_every_parent_resolves(&listed);
        let by_id: HashMap<&str, &Value> = listed.iter().map(|i| (i["itemId"].as_str().unwrap(), i)).collect();
        let live_tags = self.send(Method::GET, &self.project_url("/tags?jsonCasing=camel"), None);
        let live_tags: BTreeSet<&str> =
            live_tags.body["tags"].as_array().into_iter().flatten().filter_map(|t| t["tagId"].as_str()).collect();
        let expected_tags: BTreeSet<&str> =
            model.tags.iter().zip(&self.tags).filter(|(alive, _)| **alive).map(|(_, id)| id.as_str()).collect();
        assert_eq!(live_tags, expected_tags, "the project's tags");
        for item in &listed {
            let id = item["itemId"].as_str().unwrap();
            assert!(self.slots.contains_key(id) || self.drawn.contains(id), "an item nobody made: {item}");
            for end in ["startPoint", "endPoint"] {
                if let Some(target) = item[end]["itemId"].as_str() {
                    assert!(by_id.contains_key(target), "{id}'s {end} names {target}, which is gone");
                }
            }
            for tag in item["tags"].as_array().into_iter().flatten() {
                assert!(live_tags.contains(tag.as_str().unwrap_or_default()), "{id} carries {tag}, which is gone");
            }
        }
        for (slot, s) in model.slots.iter().enumerate() {
            let item = by_id.get(self.ids[slot].as_str());
            assert_eq!(item.is_some(), s.alive, "slot {slot} ({:?}) alive: {}", s.kind, s.alive);
            let Some(item) = item else { continue };
            assert_eq!(item["itemType"], s.kind.name(), "slot {slot}");
            assert_eq!(item["parent"], json!(self.place(s.place)), "slot {slot}'s parent");
            if s.tracked {
                let possible: Vec<Option<String>> = s.values.iter().map(|v| written(s.kind, *v)).collect();
                assert!(possible.contains(&shown(s.kind, item)), "slot {slot}: {item} not one of {possible:?}");
            }
            // An item never tagged reads `tags: []`, as one whose tags were taken off.
            let want_tags: Vec<&String> = s.tags.iter().flatten().map(|t| &self.tags[*t]).collect();
            assert_eq!(item["tags"], json!(want_tags), "slot {slot}'s tags");
            if s.kind == Kind::Connector {
                for (end, want) in ["startPoint", "endPoint"].into_iter().zip(s.ends) {
                    let want = want.map(|w| json!(self.ids[w])).unwrap_or(Value::Null);
                    assert_eq!(item[end]["itemId"], want, "slot {slot}'s {end}");
                }
            }
        }
        self.check_threads(model);
        self.check_events(model);
        let svg = self.send(Method::GET, &self.project_url("/render.svg"), None);
        assert_eq!(svg.status, StatusCode::OK, "render: {}", String::from_utf8_lossy(&svg.bytes));
        let mermaid = self.send(Method::GET, &self.project_url("/items/export?format=mermaid"), None);
        assert_eq!(mermaid.status, StatusCode::OK, "export: {}", mermaid.body);
    }

    /// Every thread is there, on its item while the item is, else on the point where it was and
    /// naming it as `formerItemId`: no thread names a missing item.
    fn check_threads(&self, model: &Model) {
        let listed = self.send(Method::GET, &self.project_url("/comments?jsonCasing=camel&limit=200"), None);
        assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
        let threads = listed.body["threads"].as_array().expect("threads");
        assert_eq!(threads.len(), model.threads.len(), "the project's threads: {}", listed.body);
        for (t, (want, got)) in model.threads.iter().zip(threads).enumerate() {
            assert_eq!(got["threadId"], json!(self.threads[t]), "thread {t} in creation order");
            let item = json!(self.ids[want.slot]);
            if want.attached {
                assert_eq!((&got["itemId"], &got["formerItemId"]), (&item, &Value::Null), "thread {t}: {got}");
            } else {
                assert_eq!((&got["itemId"], &got["formerItemId"]), (&Value::Null, &item), "thread {t}: {got}");
                assert!(got["position"]["x"].is_number() && got["position"]["y"].is_number(), "thread {t}: {got}");
            }
        }
    }

    /// The events the step wrote are the model's changes; deletes come deepest first.
    fn check_events(&self, model: &Model) {
        let project = core_service::domain::ProjectId::from_uuid(uuid::Uuid::parse_str(&self.project).unwrap());
        let events =
            self.rt.block_on(self.app().core.stores().items.project_events(project, self.seq.get(), 100_000)).unwrap();
        if let Some(last) = events.last() {
            self.seq.set(last.seq);
        }
        let mut seen: Vec<(String, usize)> = Vec::new();
        let mut comments: Vec<(&str, usize)> = Vec::new();
        for e in &events {
            let subject = e.subject_id.to_string();
            if e.subject_type == "comment" {
                let thread = self.threads.iter().position(|t| *t == subject);
                comments.push((
                    e.kind.as_str(),
                    thread.unwrap_or_else(|| panic!("an event on a thread nobody opened: {e:?}")),
                ));
                continue;
            }
            match self.slots.get(&subject) {
                Some(slot) => seen.push((e.kind.as_str().to_owned(), *slot)),
                None => assert!(self.drawn.contains(&subject), "an event on an item nobody made: {e:?}"),
            }
        }
        let mut want_comments = model.expect.comments.clone();
        want_comments.sort();
        comments.sort();
        assert_eq!(comments, want_comments, "the comment events");
        let order = seen.clone();
        for (kind, slot) in &model.expect.events {
            let at = seen.iter().position(|(k, s)| k == kind && s == slot);
            let at = at.unwrap_or_else(|| {
                panic!("no {kind} of slot {slot}: saw {order:?}, expected {:?}", model.expect.events)
            });
            seen.remove(at);
        }
        for (kind, slot) in &seen {
            assert!(
                kind == "item.updated" && model.expect.may_update.contains(slot),
                "unexpected {kind} of slot {slot}: {order:?}"
            );
        }
        let deleted_at = |slot: usize| order.iter().position(|(k, s)| k == "item.deleted" && *s == slot);
        for (slot, s) in model.slots.iter().enumerate() {
            if let (Some(child), Place::In(holder)) = (deleted_at(slot), s.place) {
                if let Some(container) = deleted_at(holder) {
                    assert!(child < container, "slot {slot} deleted after its container {holder}: {order:?}");
                }
            }
        }
    }
}
