//! Helpers for the end-to-end tests: a real core-service and rest-gateway on
//! loopback ports, over a fresh database of either backend.
//!
//! # Layout
//! - [`TestDb`]: a fresh SQLite file or PostgreSQL database per test,
//!   dropped afterwards.
//! - [`TestApp`]: core-service gRPC and the REST gateway on `127.0.0.1:0`,
//!   with an administrator and typed helpers for users, tokens and projects.
//! - [`webhooks`]: an HTTPS receiver behind a local CA, an in-process
//!   dispatcher, and the webhook settings of tests.
//! - [`model::ObservedModel`]: the real embedding model, its calls counted (or refused, or held).
//! - [`backend_tests!`]: runs one async test body on both backends.

mod app;
mod cut_proxy;
mod db;
pub mod deploy;
pub mod model;
pub mod processes;
pub mod standby_pair;
pub mod webhook_checks;
pub mod webhooks;

pub use app::{
    keyword_only, test_accounts, with_local_model, CoreLink, TestApp, TestUser, TEST_OAUTH_CODE_SECS,
    TEST_SIGN_IN_MAX_DELAY_SECS,
};
pub use cut_proxy::CutProxy;
pub use db::{Backend, TestDb};

pub use deploy::http_client;

/// Declares a test module running `$body(Backend)` once per backend:
/// `backend_tests!(label_round_trip);` yields `label_round_trip::sqlite` and
/// `label_round_trip::postgres`.
#[macro_export]
macro_rules! backend_tests {
    ($($name:ident),+ $(,)?) => {
        $(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    super::$name($crate::Backend::Sqlite).await
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    if let Some(backend) = $crate::Backend::postgres_or_skip() {
                        super::$name(backend).await
                    }
                }
            }
        )+
    };
}
