//! A fresh database per test.

use std::path::PathBuf;

use sqlx::{Connection, Executor, PgConnection};

/// Where PostgreSQL test databases are created. Override with
/// `CANVAS_TEST_POSTGRES_URL` (a URL of a database the user may
/// `CREATE DATABASE` from).
const DEFAULT_ADMIN_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// PostgreSQL when it answers. Under `CI=true` an unreachable server
    /// fails the test instead of skipping it.
    pub fn postgres_or_skip() -> Option<Backend> {
        let url = admin_url();
        let reachable = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
            runtime.block_on(async { PgConnection::connect(&url).await.is_ok() })
        })
        .join()
        .unwrap_or(false);
        if reachable {
            return Some(Backend::Postgres);
        }
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("PostgreSQL is unreachable at {} and CI=true: PostgreSQL tests must run", admin_url());
        }
        eprintln!("SKIPPED: PostgreSQL is unreachable at {}; set CI=true to make this a failure", admin_url());
        None
    }
}

fn admin_url() -> String {
    std::env::var("CANVAS_TEST_POSTGRES_URL").unwrap_or_else(|_| DEFAULT_ADMIN_URL.to_owned())
}

/// A database that exists for one test.
pub struct TestDb {
    /// For SQLite: the directory holding the file (and the data directory).
    pub dir: tempfile::TempDir,
    /// `Some(url)` for PostgreSQL; None means SQLite under `dir`.
    pub database_url: Option<String>,
    /// The PostgreSQL database name, dropped with the value.
    pg_name: Option<String>,
}

impl TestDb {
    pub async fn new(backend: Backend) -> TestDb {
        let dir = tempfile::tempdir().expect("temp dir");
        match backend {
            Backend::Sqlite => TestDb { dir, database_url: None, pg_name: None },
            Backend::Postgres => {
                let name = format!("canvas_t_{}", uuid::Uuid::new_v4().simple());
                let mut conn = PgConnection::connect(&admin_url()).await.expect("connect to PostgreSQL");
                conn.execute(format!("CREATE DATABASE {name}").as_str()).await.expect("create test database");
                let base = admin_url();
                let prefix = base.rsplit_once('/').map(|(p, _)| p).unwrap_or(&base);
                TestDb { dir, database_url: Some(format!("{prefix}/{name}")), pg_name: Some(name) }
            }
        }
    }

    /// A PostgreSQL database this value does not own (it is not dropped): a test's own server.
    pub fn external(database_url: String) -> TestDb {
        TestDb { dir: tempfile::tempdir().expect("temp dir"), database_url: Some(database_url), pg_name: None }
    }

    pub fn data_dir(&self) -> PathBuf {
        self.dir.path().to_path_buf()
    }

    /// Runs one SQL statement on the service's database behind its back, as an operator (or an
    /// old version) would; answers the rows it affected. For states a test cannot reach through
    /// the API in its time: a row's time moved into the past, a record from before a rule.
    pub async fn execute(&self, sql: &str) -> u64 {
        match &self.database_url {
            Some(url) => {
                let mut conn = PgConnection::connect(url).await.expect("connect to the test database");
                sqlx::query(sql).execute(&mut conn).await.expect("the statement runs").rows_affected()
            }
            None => {
                let url = format!("sqlite://{}", self.data_dir().join("canvas.db").display());
                let mut conn = sqlx::SqliteConnection::connect(&url).await.expect("open the test database");
                sqlx::query(sql).execute(&mut conn).await.expect("the statement runs").rows_affected()
            }
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let Some(name) = self.pg_name.take() else { return };
        // Drop runs outside async; a helper thread with its own runtime does
        // the network call, also when the test panicked.
        let _ = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
            runtime.block_on(async {
                if let Ok(mut conn) = PgConnection::connect(&admin_url()).await {
                    let _ = conn.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str()).await;
                }
            });
        })
        .join();
    }
}
