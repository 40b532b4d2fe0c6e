//! The item read made without sqlx (SQLite on the calling thread, `sqlite_reads.rs`; PostgreSQL
//! pipelined, `pg_reads.rs`) against sqlx's read of the same rows, on both backends with the same
//! inputs: equal answers, declines where sqlx's rules are needed, whole rows while the writer
//! changes them.

use crate::domain::{ItemId, ProjectId, UserId};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{json, Value};
use sqlx::types::Json;
use sqlx::{Connection, Executor};
use uuid::Uuid;

use super::item_rows::{insert_rows, ITEM_COLUMNS};
use super::sqlite_reads::{Inline, InlineReads};
use crate::storage::{db_error, DatabaseTarget, ItemRow, PoolSettings, Storage};
use canvas_items::{ItemType, Parent};

#[derive(Clone, Copy, Debug)]
enum Backend {
    Sqlite,
    Postgres,
}

/// The backends to run: PostgreSQL when it answers (under `CI=true` it must).
async fn backends() -> Vec<Backend> {
    let admin = admin_url();
    if sqlx::PgConnection::connect(&admin).await.is_ok() {
        return vec![Backend::Sqlite, Backend::Postgres];
    }
    assert!(std::env::var("CI").as_deref() != Ok("true"), "PostgreSQL is unreachable at {admin} and CI=true");
    eprintln!("SKIPPED on PostgreSQL: unreachable at {admin}");
    vec![Backend::Sqlite]
}

fn admin_url() -> String {
    std::env::var("CANVAS_TEST_POSTGRES_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

struct Fixture {
    backend: Backend,
    _dir: tempfile::TempDir,
    storage: Storage,
    project: ProjectId,
    /// The PostgreSQL database, dropped with the fixture.
    pg_name: Option<String>,
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let Some(name) = self.pg_name.take() else { return };
        let _ = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            runtime.block_on(async {
                if let Ok(mut conn) = sqlx::PgConnection::connect(&admin_url()).await {
                    let _ = conn.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str()).await;
                }
            });
        })
        .join();
    }
}

async fn fixture(backend: Backend) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let (target, pg_name) = match backend {
        Backend::Sqlite => (DatabaseTarget::SqliteFile(dir.path().join("canvas.db")), None),
        Backend::Postgres => {
            let name = format!("canvas_t_{}", Uuid::new_v4().simple());
            let mut admin = sqlx::PgConnection::connect(&admin_url()).await.unwrap();
            admin.execute(format!("CREATE DATABASE {name}").as_str()).await.unwrap();
            let base = admin_url();
            let prefix = base.rsplit_once('/').map_or(base.as_str(), |(p, _)| p).to_owned();
            (DatabaseTarget::Postgres(format!("{prefix}/{name}")), Some(name))
        }
    };
    let storage = Storage::connect(&target, &PoolSettings::default()).await.unwrap();
    let project = Uuid::now_v7();
    with_write_pool!(&storage, pool => {
        sqlx::query("INSERT INTO projects (id, name, created_at) VALUES ($1, 'p', $2)")
            .bind(project)
            .bind(Utc::now())
            .execute(pool)
            .await
            .unwrap();
    });
    let f = Fixture { backend, _dir: dir, storage, project: ProjectId::from_uuid(project), pg_name };
    // PostgreSQL's read connects in the background on first use: wait until it answers.
    let started = Instant::now();
    while matches!(f.inline(Uuid::nil()).await, Inline::Declined) {
        assert!(started.elapsed() < Duration::from_secs(10), "the {backend:?} inline read never answered");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    f
}

fn row(project: ProjectId, item_type: ItemType, properties: Value, content_key: Option<&str>) -> ItemRow {
    let at: DateTime<Utc> = Utc::now();
    ItemRow {
        id: ItemId::from_uuid(Uuid::now_v7()),
        project_id: project,
        item_type,
        parent: Parent::Panel,
        properties,
        version: 1,
        created_by: UserId::from_uuid(Uuid::new_v4()),
        updated_by: UserId::from_uuid(Uuid::new_v4()),
        created_at: at,
        updated_at: at + chrono::Duration::nanoseconds(1_234_567),
        content_key: content_key.map(str::to_owned),
    }
}

impl Fixture {
    /// The items store over this fixture's database, whose reads these tests compare.
    fn items(&self) -> super::ItemsStore {
        super::ItemsStore::new(self.storage.clone())
    }

    async fn insert(&self, rows: &[ItemRow]) {
        with_write_pool!(&self.storage, pool => {
            let mut tx = pool.begin().await.unwrap();
            let result: Result<(), crate::error::CoreError> = async {
                insert_rows!(tx, rows);
                Ok(())
            }
            .await;
            result.unwrap();
            tx.commit().await.unwrap();
        });
    }

    /// The read through sqlx's pool, as before the inline reads existed.
    async fn pooled(&self, id: Uuid) -> Option<ItemRow> {
        self.items().get_item_pooled(self.project, ItemId::from_uuid(id)).await.unwrap()
    }

    async fn inline_of(&self, project: ProjectId, id: Uuid) -> Inline<ItemRow> {
        match &self.storage {
            Storage::Sqlite(store) => store.inline.item(project, ItemId::from_uuid(id)),
            Storage::Postgres(store) => store.reads.item(project, ItemId::from_uuid(id)).await,
        }
    }

    async fn inline(&self, id: Uuid) -> Inline<ItemRow> {
        self.inline_of(self.project, id).await
    }

    /// Both reads of `id`, which must agree (the row's every field, through its `Debug`).
    async fn assert_same(&self, id: Uuid) {
        let Inline::Answered(inline) = self.inline(id).await else {
            panic!("the {:?} inline read of {id} declined", self.backend)
        };
        assert_eq!(format!("{inline:?}"), format!("{:?}", self.pooled(id).await), "{:?}", self.backend);
    }
}

#[tokio::test]
async fn every_type_reads_inline_as_sqlx_reads_it() {
    for backend in backends().await {
        let f = fixture(backend).await;
        let mut rows: Vec<ItemRow> = ItemType::ALL
            .into_iter()
            .map(|t| row(f.project, t, json!({"text": format!("<p>{t}</p>"), "x": 1.5, "n": -3, "big": 1e300}), None))
            .collect();
        // PostgreSQL's text and jsonb hold no NUL character (the service refuses one before storage).
        let nul = if matches!(backend, Backend::Sqlite) { " \u{0}" } else { "" };
        let title = format!("\u{1F600} \"quoted\" \\ \u{7f}{nul}");
        rows.push(row(f.project, ItemType::Image, json!({ "title": title }), Some("blobs/ab/cd")));
        let mut inside = row(f.project, ItemType::Label, json!({}), None);
        inside.parent = Parent::parse(&rows[2].id.to_string()).unwrap();
        rows.push(inside);
        f.insert(&rows).await;
        for r in &rows {
            f.assert_same(r.id.uuid()).await;
            // And through the storage's own entry point, which takes the inline path: the row as
            // written (PostgreSQL keeps times to the microsecond).
            let mut written = r.clone();
            if matches!(backend, Backend::Postgres) {
                for at in [&mut written.created_at, &mut written.updated_at] {
                    *at = DateTime::from_timestamp_micros(at.timestamp_micros()).unwrap();
                }
            }
            let got = f.items().get_item(f.project, r.id).await.unwrap().unwrap();
            assert_eq!(format!("{got:?}"), format!("{written:?}"), "{backend:?}");
        }
    }
}

#[tokio::test]
async fn an_item_of_another_project_or_none_is_not_found_on_both_paths() {
    for backend in backends().await {
        let f = fixture(backend).await;
        let other = ProjectId::new();
        let r = row(f.project, ItemType::Label, json!({"text": "a"}), None);
        f.insert(std::slice::from_ref(&r)).await;
        assert!(matches!(f.inline(Uuid::now_v7()).await, Inline::Answered(None)), "{backend:?}");
        assert!(matches!(f.inline_of(other, r.id.uuid()).await, Inline::Answered(None)), "{backend:?}");
        assert!(f.items().get_item(other, r.id).await.unwrap().is_none());
        assert!(f.items().get_item(f.project, ItemId::from_uuid(Uuid::nil())).await.unwrap().is_none());
    }
}

/// Values this service never writes but sqlx would read (SQLite's own time format) decline, and
/// the storage answers through sqlx; values nobody can read stay an error, as before.
#[tokio::test]
async fn what_only_sqlx_reads_declines_and_is_read_through_sqlx() {
    for backend in backends().await {
        let f = fixture(backend).await;
        let insert =
            format!("INSERT INTO items ({ITEM_COLUMNS}) VALUES ($1, $2, $3, 'panel', $4, 1, $5, $5, $6, $7, NULL)");
        let no_type = Uuid::now_v7();
        with_write_pool!(&f.storage, pool => {
            sqlx::query(&insert)
                .bind(no_type)
                .bind(f.project)
                .bind("hologram")
                .bind(Json(json!({"text": "t"})))
                .bind(Uuid::new_v4())
                .bind(Utc::now())
                .bind(Utc::now())
                .execute(pool)
                .await
                .unwrap();
        });
        assert!(matches!(f.inline(no_type).await, Inline::Declined), "{backend:?}");
        assert!(
            f.items().get_item(f.project, ItemId::from_uuid(no_type)).await.is_err(),
            "a stored value that is no type is an error"
        );

        if let Storage::Sqlite(store) = &f.storage {
            let sqlite_time = Uuid::now_v7();
            sqlx::query(&insert)
                .bind(sqlite_time)
                .bind(f.project)
                .bind("label")
                .bind(Json(json!({"text": "t"})))
                .bind(Uuid::new_v4())
                .bind("2026-11-29 10:00:00")
                .bind("2026-11-29 10:00:00")
                .execute(store.writer_pool())
                .await
                .unwrap();
            assert!(matches!(f.inline(sqlite_time).await, Inline::Declined));
            let read = f.items().get_item(f.project, ItemId::from_uuid(sqlite_time)).await.unwrap().unwrap();
            assert_eq!(read.created_at.to_rfc3339(), "2026-11-29T10:00:00+00:00");
        }
    }
}

#[tokio::test]
async fn a_database_that_cannot_be_opened_declines() {
    let dir = tempfile::tempdir().unwrap();
    let missing = InlineReads::new(&dir.path().join("absent.db"));
    assert!(matches!(
        missing.item(ProjectId::from_uuid(Uuid::now_v7()), ItemId::from_uuid(Uuid::now_v7())),
        Inline::Declined
    ));
    // A server nobody listens on: declined (sqlx's pool then answers, or fails as it always did).
    let nobody = Arc::new(super::pg_reads::PgReads::new("postgres://postgres@127.0.0.1:9/none"));
    for _ in 0..3 {
        assert!(matches!(
            nobody.item(ProjectId::from_uuid(Uuid::now_v7()), ItemId::from_uuid(Uuid::now_v7())).await,
            Inline::Declined
        ));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Closed (on shutdown): declined, and no connection is made again.
    for backend in backends().await.into_iter().filter(|b| matches!(b, Backend::Postgres)) {
        let f = fixture(backend).await;
        let Storage::Postgres(store) = &f.storage else { unreachable!() };
        store.reads.close();
        assert!(matches!(f.inline(Uuid::nil()).await, Inline::Declined));
        tokio::time::sleep(Duration::from_millis(1_100)).await;
        assert!(matches!(f.inline(Uuid::nil()).await, Inline::Declined), "a closed read connected again");
    }
    // A URL that requires TLS is left to sqlx.
    let tls = Arc::new(super::pg_reads::PgReads::new("postgres://postgres@127.0.0.1:5432/postgres?sslmode=require"));
    assert!(matches!(
        tls.item(ProjectId::from_uuid(Uuid::now_v7()), ItemId::from_uuid(Uuid::now_v7())).await,
        Inline::Declined
    ));
}

/// Readers on many tasks while the writer rewrites one row: every read sees one committed version
/// whole (the properties written with that version), never a mix, and versions only grow for each
/// reader; after the last write every read sees it.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn readers_see_whole_versions_while_the_row_is_rewritten() {
    for backend in backends().await {
        let f = Arc::new(fixture(backend).await);
        let r = row(f.project, ItemType::StickyNote, json!({"version": 1, "text": "v1"}), None);
        f.insert(std::slice::from_ref(&r)).await;
        let stop = Arc::new(AtomicBool::new(false));
        let readers: Vec<_> = (0..8)
            .map(|_| {
                let (f, stop, id) = (f.clone(), stop.clone(), r.id);
                tokio::spawn(async move {
                    let (mut last, mut reads) = (0, 0);
                    while !stop.load(Ordering::Relaxed) {
                        let got = f.items().get_item(f.project, id).await.unwrap().unwrap();
                        assert_eq!(got.properties["version"], json!(got.version), "a row mixed two versions");
                        assert_eq!(got.properties["text"], json!(format!("v{}", got.version)));
                        assert!(got.version >= last, "version {} read after {last}", got.version);
                        last = got.version;
                        reads += 1;
                        tokio::task::yield_now().await;
                    }
                    reads
                })
            })
            .collect();
        for version in 2..=200_i64 {
            with_write_pool!(&f.storage, pool => {
                sqlx::query("UPDATE items SET properties = $1, version = $2 WHERE id = $3")
                    .bind(Json(json!({"version": version, "text": format!("v{version}")})))
                    .bind(version)
                    .bind(r.id)
                    .execute(pool)
                    .await
                    .map_err(db_error)
                    .unwrap();
            });
            // Read-your-writes: the write is acknowledged, so the inline read sees it at once.
            let Inline::Answered(Some(now)) = f.inline(r.id.uuid()).await else { panic!("{backend:?} declined") };
            assert_eq!(now.version, version, "{backend:?}");
        }
        stop.store(true, Ordering::Relaxed);
        for reader in readers {
            assert!(reader.await.unwrap() > 0, "a reader never read");
        }
    }
}

fn any_text() -> impl Strategy<Value = String> {
    // Any text PostgreSQL can hold (no NUL), the same on both backends.
    any::<String>().prop_map(|s| s.replace('\0', ""))
}

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter("JSON numbers are finite", |n| n.is_finite()).prop_map(Value::from),
        any_text().prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(any_text(), inner, 0..6).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Any properties and content key, written through sqlx, read inline exactly as sqlx reads them,
/// on both backends with the same generated rows.
#[test]
fn any_stored_row_reads_inline_as_through_sqlx() {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let fixtures: Vec<Fixture> =
        runtime.block_on(async { futures::future::join_all(backends().await.into_iter().map(fixture)).await });
    let strategy = (
        prop::collection::btree_map(any_text(), any_json(), 0..8),
        proptest::option::of(any_text()),
        0..ItemType::ALL.len(),
    );
    TestRunner::new(Config::with_cases(64))
        .run(&strategy, |(properties, content_key, type_index)| {
            runtime.block_on(async {
                let properties = Value::Object(properties.into_iter().collect());
                for f in &fixtures {
                    let r = row(f.project, ItemType::ALL[type_index], properties.clone(), content_key.as_deref());
                    f.insert(std::slice::from_ref(&r)).await;
                    f.assert_same(r.id.uuid()).await;
                }
            });
            Ok(())
        })
        .unwrap();
    drop(fixtures);
}
