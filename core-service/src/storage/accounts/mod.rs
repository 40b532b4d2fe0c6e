//! The accounts context's store: users, API tokens, projects and memberships
//! (`users_projects.rs`), the account site's sessions, sign-in links, logins, throttle and audit
//! (`sessions.rs`), OAuth clients, codes, grants and tokens (`oauth.rs`), and the notice every
//! replica follows when access changes (`access_changes.rs`).

mod access_changes;
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
