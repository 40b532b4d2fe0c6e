//! A write load through the REST API for the backup tests: several writers create labels, update
//! them and upload files, each write recorded with when its 200 arrived; a step (the backup) run in
//! the middle of it; and the check of a restored service against what was acknowledged.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::sync::Notify;

/// Concurrent writers, and how many acknowledged writes come before the step and after it.
const WRITERS: usize = 4;
const BEFORE: usize = 60;
const AFTER: usize = 60;
/// A writer stops after this many writes even if never told to: the load is bounded.
const MOST_PER_WRITER: usize = 2_000;

/// One item a writer made: every value it sent, in order, each with when its 200 arrived.
#[derive(Clone, Debug)]
pub struct Written {
    pub id: String,
    /// Label text, or for an upload the file's bytes as the service answered them right after.
    pub values: Vec<(Value, Instant)>,
    pub upload: bool,
}

/// The service's project, reached with the demo user's token.
#[derive(Clone)]
pub struct Api {
    pub http: reqwest::Client,
    pub items: String,
    token: String,
}

impl Api {
    /// From `canvasctl up`'s credentials file.
    pub fn new(creds: &Value) -> Self {
        let base = creds["baseUrl"].as_str().unwrap();
        let items = format!("{base}/api/v2/projects/{}", creds["projectId"].as_str().unwrap());
        Self { http: reqwest::Client::new(), items, token: creds["token"].as_str().unwrap().to_owned() }
    }

    pub async fn send(&self, request: reqwest::RequestBuilder) -> (u16, Vec<u8>) {
        let response = request.bearer_auth(&self.token).send().await.expect("the service answers");
        (response.status().as_u16(), response.bytes().await.expect("a whole answer").to_vec())
    }

    pub async fn json(&self, request: reqwest::RequestBuilder, what: &str) -> Value {
        let (status, body) = self.send(request).await;
        assert_eq!(status, 200, "{what}: {}", String::from_utf8_lossy(&body));
        serde_json::from_slice(&body).unwrap_or(Value::Null)
    }

    pub async fn create_label(&self, text: &str) -> String {
        let url = format!("{}/item/panel/label?jsonCasing=camel", self.items);
        let answer = self.json(self.http.post(url).json(&json!({"text": text})), "create a label").await;
        answer["itemId"].as_str().expect("itemId").to_owned()
    }

    async fn update_label(&self, id: &str, text: &str) {
        let url = format!("{}/item/label/{id}", self.items);
        self.json(self.http.patch(url).json(&json!({"text": text})), "update a label").await;
    }

    async fn upload(&self, item_type: &str, name: &str, bytes: Vec<u8>) -> String {
        let part = reqwest::multipart::Part::bytes(bytes).file_name(name.to_owned());
        let form = reqwest::multipart::Form::new().part("binary", part);
        let url = format!("{}/item/panel/{item_type}/file?jsonCasing=camel", self.items);
        let answer = self.json(self.http.post(url).multipart(form), "upload a file").await;
        answer["itemId"].as_str().expect("itemId").to_owned()
    }

    pub async fn content(&self, id: &str) -> (u16, Vec<u8>) {
        self.send(self.http.get(format!("{}/item/{id}/content", self.items))).await
    }

    /// Every item of the project, through every page of the listing.
    pub async fn all_items(&self) -> Vec<Value> {
        let mut items = Vec::new();
        let mut cursor = String::new();
        loop {
            let url = format!("{}/items?jsonCasing=camel&limit=1000{cursor}", self.items);
            let page = self.json(self.http.get(url), "list the items").await;
            items.extend(page["items"].as_array().expect("items").iter().cloned());
            match page["nextCursor"].as_str() {
                Some(next) if !next.is_empty() => cursor = format!("&cursor={next}"),
                _ => return items,
            }
        }
    }
}

/// How far the load has gone: acknowledged writes, finished writers, and a wake-up on each.
#[derive(Default)]
struct Progress {
    acknowledged: AtomicUsize,
    finished: AtomicUsize,
    stop: AtomicBool,
    changed: Notify,
}

impl Progress {
    fn note(&self, counter: &AtomicUsize) {
        counter.fetch_add(1, Ordering::SeqCst);
        self.changed.notify_waiters();
    }

    /// Returns once `count` writes are acknowledged, or every writer is done.
    async fn reached(&self, count: usize) {
        loop {
            // Registered before the check, so a write acknowledged in between still wakes it.
            let woken = self.changed.notified();
            if self.acknowledged.load(Ordering::SeqCst) >= count || self.finished.load(Ordering::SeqCst) == WRITERS {
                return;
            }
            woken.await;
        }
    }
}

/// What [`around`] saw: every item written, and when the step began and ended.
pub struct Load<T> {
    pub written: Vec<Written>,
    pub step_started: Instant,
    pub step_ended: Instant,
    pub step: T,
}

/// Runs the writers; once `BEFORE` writes are acknowledged starts `step` while they go on, and
/// stops them `AFTER` writes after it ended. Bounded by a count per writer and a deadline per wait.
/// `step` is a closure because some futures start their work when made, not when first polled
/// (tokio's `Command::output` spawns the process at once).
pub async fn around<T, F: std::future::Future<Output = T>>(api: &Api, step: impl FnOnce() -> F) -> Load<T> {
    let progress = Arc::new(Progress::default());
    let writers: Vec<_> = (0..WRITERS)
        .map(|n| {
            let (api, progress) = (api.clone(), progress.clone());
            tokio::spawn(async move {
                let written = writer(api, n, &progress).await;
                progress.note(&progress.finished);
                written
            })
        })
        .collect();
    let bounded = Duration::from_secs(120);
    tokio::time::timeout(bounded, progress.reached(BEFORE)).await.expect("the load gets going");
    let step_started = Instant::now();
    let step = step().await;
    let step_ended = Instant::now();
    let at_end = progress.acknowledged.load(Ordering::SeqCst);
    tokio::time::timeout(bounded, progress.reached(at_end + AFTER)).await.expect("the load goes on");
    progress.stop.store(true, Ordering::SeqCst);
    let mut written = Vec::new();
    for writer in writers {
        written.extend(writer.await.expect("a writer finished"));
    }
    let all = || written.iter().flat_map(|w| &w.values);
    let before = all().filter(|(_, at)| *at < step_started).count();
    let during = all().filter(|(_, at)| (step_started..step_ended).contains(at)).count();
    eprintln!("{before} writes acknowledged before the step, {during} while it ran, {} in all", all().count());
    assert!(all().any(|(_, at)| *at > step_ended), "the service took writes after the step");
    Load { written, step_started, step_ended, step }
}

/// A small PNG that differs for every writer and step.
fn png(writer: usize, step: usize) -> Vec<u8> {
    let image = image::RgbImage::from_fn(8, 8, |x, y| image::Rgb([writer as u8, step as u8, (x * 8 + y) as u8]));
    let mut bytes = std::io::Cursor::new(Vec::new());
    image.write_to(&mut bytes, image::ImageFormat::Png).unwrap();
    bytes.into_inner()
}

/// One writer: creates labels, updates its own (each in turn), and every fifth write uploads an
/// image or an SVG, until told to stop. Every write must be acknowledged: a backup must not make
/// the service refuse or fail one.
async fn writer(api: Api, n: usize, progress: &Progress) -> Vec<Written> {
    let mut items: Vec<Written> = Vec::new();
    for step in 0..MOST_PER_WRITER {
        if progress.stop.load(Ordering::SeqCst) {
            break;
        }
        let labels: Vec<usize> = (0..items.len()).filter(|&i| !items[i].upload).collect();
        if step % 5 == 4 {
            let (item_type, name, bytes) = if step % 10 == 4 {
                ("image", "tile.png", png(n, step))
            } else {
                let (w, h) = (n + 1, step + 1);
                let svg = format!(
                    r#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="{w}" height="{h}"/></svg>"#
                );
                ("svg", "chart.svg", svg.into_bytes())
            };
            let id = api.upload(item_type, name, bytes.clone()).await;
            let acked = Instant::now();
            let (status, stored) = api.content(&id).await;
            assert_eq!(status, 200, "the upload {id} reads back");
            if item_type == "image" {
                assert_eq!(stored, bytes, "an image is stored as uploaded");
            }
            items.push(Written { id, values: vec![(json!(stored), acked)], upload: true });
        } else if step % 2 == 0 || labels.is_empty() {
            let text = format!("writer {n} step {step} created");
            let id = api.create_label(&text).await;
            items.push(Written { id, values: vec![(json!(text), Instant::now())], upload: false });
        } else {
            let label = &mut items[labels[step % labels.len()]];
            let text = format!("writer {n} step {step} updated");
            api.update_label(&label.id, &text).await;
            label.values.push((json!(text), Instant::now()));
        }
        progress.note(&progress.acknowledged);
    }
    items
}

/// Checks a restored service against the load: every item listed reads, and none is unknown;
/// every item with a write acknowledged before `since` is there, holding that value or one sent
/// after it; every file there downloads as it was stored. Answers how many items were listed.
pub async fn check_restored(restored: &Api, written: &[Written], since: Instant) -> usize {
    let listed = restored.all_items().await;
    let mut found = HashMap::new();
    for item in &listed {
        let id = item["itemId"].as_str().unwrap().to_owned();
        let url = format!("{}/item/{id}?jsonCasing=camel", restored.items);
        let read = restored.json(restored.http.get(url), "read a restored item").await;
        found.insert(id, read);
    }
    let mut checked = 0;
    for item in written {
        let last_before = item.values.iter().rposition(|(_, at)| *at < since);
        let Some(stored) = found.remove(&item.id) else {
            assert!(last_before.is_none(), "item {} was acknowledged before the backup but is missing", item.id);
            continue;
        };
        let value = if item.upload {
            let (status, bytes) = restored.content(&item.id).await;
            assert_eq!(status, 200, "the file of {} downloads from the copy", item.id);
            json!(bytes)
        } else {
            stored["text"].clone()
        };
        let allowed = &item.values[last_before.unwrap_or(0)..];
        assert!(
            allowed.iter().any(|(sent, _)| *sent == value),
            "item {} holds {value} in the copy; the last value acknowledged before the backup: {:?}",
            item.id,
            last_before.map(|i| &item.values[i].0)
        );
        checked += usize::from(last_before.is_some());
    }
    assert!(found.is_empty(), "the copy holds items nobody wrote: {:?}", found.keys().collect::<Vec<_>>());
    assert!(checked >= BEFORE / 3, "the items written before the backup were checked ({checked})");
    listed.len()
}
