//! The change log rebuilds the map: one long random sequence (the model test's generator, a fixed
//! seed) runs with a webhook for every item event and the webhook dispatcher as its own process,
//! killed with SIGKILL a third of the way in and restarted later. Afterwards two consumers that
//! started from an empty map must hold exactly what the listing holds:
//!
//! - (a) from the webhook deliveries, as docs/WEBHOOKS.md ("Rebuilding a project") tells a
//!   receiver to: drop repeats by `eventId`, apply in `seq` order, a change's `new` merged into
//!   the item (`null` removes a property), `parent` taken from the change, a delete final;
//! - (b) from the change stream (`GET .../changes` from seq 0), which names what changed: the items
//!   whose last change is not a delete, read once each, are the listing.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use canvas_tests::webhooks::WebhookEnv;
use canvas_tests::Backend;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use proptest_state_machine::ReferenceStateMachine;
use reqwest::Method;
use serde_json::{json, Map, Value};

use super::model::Reference;
use super::system::{Host, System};
use crate::bulk::all_items;
use crate::support::send;
use crate::webhooks_delivery::create_hook;
use crate::webhooks_fault::{dispatcher_process, kill};

const SEED: [u8; 32] = *b"canvas-change-replay-seed-000001";
const STEPS: usize = 60;
const ITEM_EVENTS: [&str; 3] = ["item.created", "item.updated", "item.deleted"];

/// One item as a consumer rebuilt it: type, parent, properties.
type Rebuilt = BTreeMap<String, (String, String, Map<String, Value>)>;

fn replay(backend: Backend) {
    let rt = System::runtime();
    let env = rt.block_on(WebhookEnv::spawn_parts(backend, |_| {}, false));
    let mut system = System::hosted(rt, Host::Hooks(Box::new(env)));
    let Host::Hooks(env) = &system.host else { unreachable!() };
    let hook = json!({"url": env.receiver.url, "events": ITEM_EVENTS});
    system.rt.block_on(create_hook(env, &system.owner, &system.project, hook));
    let mut dispatcher = Some(system.rt.block_on(async { dispatcher_process(env, &env.app.grpc_url) }));

    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &SEED));
    let tree = Reference::sequential_strategy(STEPS..=STEPS).new_tree(&mut runner).expect("a sequence");
    let (mut model, ops, _) = tree.current();
    for (step, op) in ops.into_iter().enumerate() {
        if step == STEPS / 3 {
            let mut child = dispatcher.take().unwrap();
            system.rt.block_on(kill(&mut child));
        }
        if step == 2 * STEPS / 3 {
            let Host::Hooks(env) = &system.host else { unreachable!() };
            dispatcher = Some(system.rt.block_on(async { dispatcher_process(env, &env.app.grpc_url) }));
        }
        model = Reference::apply(model, &op);
        system.run(&model, &op);
        system.check(&model);
    }

    let listed: Rebuilt = system
        .rt
        .block_on(all_items(system.app(), &system.owner, &system.project))
        .into_iter()
        .map(|item| as_rebuilt(&item))
        .collect();
    let from_hooks = system.rt.block_on(from_webhooks(&system));
    assert_same(&listed, &from_hooks, "rebuilt from webhook deliveries");
    let from_stream = system.rt.block_on(from_change_stream(&system));
    assert_same(&listed, &from_stream, "rebuilt from the change stream");
    if let Some(mut child) = dispatcher {
        system.rt.block_on(kill(&mut child));
    }
}

/// An item of the listing (or a read) as (type, parent, properties).
fn as_rebuilt(item: &Value) -> (String, (String, String, Map<String, Value>)) {
    let mut props = item.as_object().unwrap().clone();
    let id = props.remove("itemId").unwrap().as_str().unwrap().to_owned();
    let kind = props.remove("itemType").unwrap().as_str().unwrap().to_owned();
    let parent = props.remove("parent").unwrap().as_str().unwrap().to_owned();
    (id, (kind, parent, props))
}

/// Every rebuilt item is listed with its type and parent, and every property the changes gave it
/// reads back the same (the listing also shows derived properties, which no change carries).
fn assert_same(listed: &Rebuilt, rebuilt: &Rebuilt, how: &str) {
    let listed_ids: Vec<&String> = listed.keys().collect();
    let rebuilt_ids: Vec<&String> = rebuilt.keys().collect();
    assert_eq!(rebuilt_ids, listed_ids, "{how}: the same items");
    for (id, (kind, parent, props)) in rebuilt {
        let (listed_kind, listed_parent, listed_props) = &listed[id];
        assert_eq!((kind, parent), (listed_kind, listed_parent), "{how}: {id}");
        for (name, value) in props {
            let listed = listed_props.get(name).unwrap_or(&Value::Null);
            assert!(same(listed, value), "{how}: {id}'s {name}: listed {listed}, rebuilt {value}");
        }
    }
}

/// Whether the listed value shows what the changes gave: numbers compared as the doubles they are
/// (docs/ITEMS.md: a stored `0` reads back as `0.0`), objects member by member, the listing free
/// to add derived members (a connector end's `absolutePosition`) that no change carries.
fn same(listed: &Value, rebuilt: &Value) -> bool {
    match (listed, rebuilt) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y)),
        (Value::Object(x), Value::Object(y)) => y.iter().all(|(k, v)| x.get(k).is_some_and(|w| same(w, v))),
        _ => listed == rebuilt,
    }
}

async fn from_webhooks(system: &System) -> Rebuilt {
    let Host::Hooks(env) = &system.host else { unreachable!() };
    let project = core_service::domain::ProjectId::from_uuid(uuid::Uuid::parse_str(&system.project).unwrap());
    let events = system.app().core.stores().items.project_events(project, 0, 100_000).await.unwrap();
    let wanted = events.iter().filter(|e| ITEM_EVENTS.contains(&e.kind.as_str())).count();
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut changes: HashMap<String, Value> = HashMap::new();
    while changes.len() < wanted {
        assert!(Instant::now() < deadline, "{} of {wanted} changes delivered in 120 s", changes.len());
        tokio::time::sleep(Duration::from_millis(100)).await;
        for call in env.receiver.calls() {
            for change in call.json()["changes"].as_array().unwrap() {
                changes.insert(change["eventId"].as_str().unwrap().to_owned(), change.clone());
            }
        }
    }
    // Every body of these random sequences is what the event catalog says it is.
    let calls = env.receiver.calls();
    canvas_tests::webhook_checks::assert_calls_match_catalog(&env.app.http, &env.app.base_url, &calls).await;
    let mut ordered: Vec<Value> = changes.into_values().collect();
    ordered.sort_by_key(|c| c["seq"].as_i64().expect("a change's seq"));
    let mut items: Rebuilt = BTreeMap::new();
    for change in ordered {
        let id = change["subject"]["id"].as_str().unwrap().to_owned();
        let parent = change["parent"].as_str().expect("every item change names the parent").to_owned();
        match change["kind"].as_str().unwrap() {
            "item.created" => {
                let kind = change["subject"]["type"].as_str().unwrap().to_owned();
                items.insert(id, (kind, parent, change["new"].as_object().unwrap().clone()));
            }
            "item.updated" => {
                let item =
                    items.get_mut(&id).unwrap_or_else(|| panic!("an update of {id} before its create: {change}"));
                item.1 = parent;
                for (name, value) in change["new"].as_object().unwrap() {
                    match value {
                        Value::Null => item.2.remove(name),
                        value => item.2.insert(name.clone(), value.clone()),
                    };
                }
            }
            _ => {
                items.remove(&id);
            }
        }
    }
    items
}

async fn from_change_stream(system: &System) -> Rebuilt {
    let project = core_service::domain::ProjectId::from_uuid(uuid::Uuid::parse_str(&system.project).unwrap());
    let events = system.app().core.stores().items.project_events(project, 0, 100_000).await.unwrap();
    let wanted = events.iter().filter(|e| ITEM_EVENTS.contains(&e.kind.as_str())).count();
    let url = format!("{}/api/v2/projects/{}/changes?after=0", system.app().base_url, system.project);
    let mut response = system.app().http.get(url).header("Authorization", system.owner.bearer()).send().await.unwrap();
    let mut buffer = String::new();
    let mut seen = std::collections::HashSet::new();
    let mut last_kind: BTreeMap<String, (i64, String)> = BTreeMap::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while seen.len() < wanted {
        assert!(Instant::now() < deadline, "{} of {wanted} changes streamed in 60 s: {last_kind:?}", seen.len());
        let chunk = tokio::time::timeout(Duration::from_secs(20), response.chunk()).await;
        let chunk =
            chunk.unwrap_or_else(|_| panic!("{} of {wanted} changes streamed, then nothing for 20 s", seen.len()));
        buffer.push_str(&String::from_utf8_lossy(&chunk.unwrap().expect("the stream stays open")));
        while let Some(end) = buffer.find("\n\n") {
            let frame: String = buffer.drain(..end + 2).collect();
            let is_change = frame.lines().any(|l| l.trim() == "event: change" || l.trim() == "event:change");
            let Some(data) = frame.lines().find_map(|l| l.strip_prefix("data:")).filter(|_| is_change) else {
                continue;
            };
            let data: Value = serde_json::from_str(data.trim()).unwrap();
            // The map is rebuilt from its items' changes; a comment's names a comment, not an item.
            if !ITEM_EVENTS.contains(&data["kind"].as_str().unwrap_or_default()) {
                assert_eq!(data["itemType"], "comment", "a change of neither an item nor a comment: {data}");
                continue;
            }
            seen.insert(data["eventId"].as_str().unwrap().to_owned());
            let (seq, kind) = (data["seq"].as_i64().unwrap(), data["kind"].as_str().unwrap().to_owned());
            let entry = last_kind.entry(data["itemId"].as_str().unwrap().to_owned()).or_insert((seq, kind.clone()));
            if seq >= entry.0 {
                *entry = (seq, kind);
            }
        }
    }
    let mut items = BTreeMap::new();
    for (id, (_, kind)) in last_kind {
        if kind == "item.deleted" {
            continue;
        }
        let read = send(
            system.app(),
            Method::GET,
            &system.app().item_url(&system.project, &format!("/{id}?jsonCasing=camel")),
            Some(&system.owner.bearer()),
            None,
        )
        .await;
        assert_eq!(read.status, reqwest::StatusCode::OK, "{id}, last changed by {kind}: {}", read.body);
        let (id, item) = as_rebuilt(&read.body);
        items.insert(id, item);
    }
    items
}

mod sqlite {
    #[test]
    fn webhooks_and_the_change_stream_rebuild_the_map() {
        super::replay(canvas_tests::Backend::Sqlite);
    }
}

mod postgres {
    #[test]
    fn webhooks_and_the_change_stream_rebuild_the_map() {
        if let Some(backend) = canvas_tests::Backend::postgres_or_skip() {
            super::replay(backend);
        }
    }
}
