//! The accounts context's store: users, API tokens, projects and memberships
//! (`users_projects.rs`), the account site's sessions, sign-in links, logins, throttle and audit
//! (`sessions.rs`), OAuth clients, codes, grants and tokens (`oauth.rs`), and the notice every
//! replica follows when access changes (`access_changes.rs`), members found by login for mentions
//! (`member_logins.rs`).

/// Locks a person's `users` row for the rest of the transaction `$tx` on PostgreSQL, so that
/// transactions counting that person's rows against a bound (API tokens, sessions, OAuth grants:
/// `service/access/fair_share.rs`) run one after another; SQLite's single writer does that anyway.
macro_rules! lock_person {
    ($store:expr, $tx:expr, $user:expr) => {
        if matches!($store.database(), $crate::storage::Storage::Postgres(_)) {
            sqlx::query("SELECT id FROM users WHERE id = $1 FOR UPDATE")
                .bind($user)
                .execute($tx)
                .await
                .map_err($crate::storage::db_error)?;
        }
    };
}

mod access_changes;
mod member_logins;
mod oauth;
mod project_removal;
mod sessions;
mod users_projects;

pub use oauth::{CodeUse, OAuthClientRow, OAuthCodeRow, OAuthGrantRow, OAuthTokenRow, RefreshUse};
pub use sessions::{AuditRow, LoginRow, SessionRow, SignInLinkRow, ThrottleRow};

context_store!(
    /// Users, tokens, projects, memberships, sessions and OAuth: what `AccountsService` and the
    /// shared `Access` (credentials and roles) run.
    AccountsStore
);
