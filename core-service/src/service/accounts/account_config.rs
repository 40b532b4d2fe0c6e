//! Settings of sign-in, sessions and the OAuth authorization server. Each
//! default is stated once, here, and shown by `canvasctl config table`.

use std::time::Duration;

use canvas_vocabulary::limits::oauth::DOCUMENT_FRESH_MIN_SECS;

/// Sessions, sign-in throttling and OAuth lifetimes.
#[derive(Debug, Clone, clap::Args)]
pub struct AccountConfig {
    /// The resources OAuth access tokens can be minted for: the public URL of the MCP endpoint
    /// (comma-separated if several). Empty turns the OAuth authorization server off: MCP clients
    /// then use API tokens only. `canvasctl up` sets it to its own `/mcp`.
    #[arg(long = "oauth-resource", env = "CANVAS_OAUTH_RESOURCES", value_delimiter = ',')]
    pub oauth_resources: Vec<String>,

    /// How long an unused account-site session lives, in seconds (idle expiry).
    #[arg(long = "session-idle-secs", env = "CANVAS_SESSION_IDLE_SECS", default_value_t = AccountConfig::SESSION_IDLE_SECS)]
    pub session_idle_secs: u64,

    /// How long a session lives however much it is used, in seconds (absolute expiry).
    #[arg(long = "session-max-secs", env = "CANVAS_SESSION_MAX_SECS", default_value_t = AccountConfig::SESSION_MAX_SECS)]
    pub session_max_secs: u64,

    /// Longest wait a run of wrong passwords imposes on an account before its next attempt is
    /// checked, in seconds; the waits double from 2 s after the fifth failure up to this.
    #[arg(long = "sign-in-max-delay-secs", env = "CANVAS_SIGN_IN_MAX_DELAY_SECS", default_value_t = AccountConfig::SIGN_IN_MAX_DELAY_SECS)]
    pub sign_in_max_delay_secs: u64,

    /// How long an OAuth authorization code can be exchanged, in seconds.
    #[arg(long = "oauth-code-secs", env = "CANVAS_OAUTH_CODE_SECS", default_value_t = AccountConfig::OAUTH_CODE_SECS)]
    pub oauth_code_secs: u64,

    /// How long an OAuth access token works, in seconds.
    #[arg(long = "oauth-access-secs", env = "CANVAS_OAUTH_ACCESS_SECS", default_value_t = AccountConfig::OAUTH_ACCESS_SECS)]
    pub oauth_access_secs: u64,

    /// How long an unused OAuth refresh token can be exchanged, in seconds.
    #[arg(long = "oauth-refresh-secs", env = "CANVAS_OAUTH_REFRESH_SECS", default_value_t = AccountConfig::OAUTH_REFRESH_SECS)]
    pub oauth_refresh_secs: u64,

    /// Least time, in seconds, a fetched Client ID Metadata Document is used again without a
    /// fetch, whatever its caching headers say (`no-store` included): the consent page and the
    /// person's answer then read the same document, and one client cannot make every request a
    /// fetch.
    #[arg(long = "oauth-document-fresh-min-secs", env = "CANVAS_OAUTH_DOCUMENT_FRESH_MIN_SECS", default_value_t = DOCUMENT_FRESH_MIN_SECS)]
    pub oauth_document_fresh_min_secs: u64,

    /// Request rate limits per credential and per client address.
    #[command(flatten)]
    pub rate_limits: crate::service::rate_limits::RateLimitConfig,

    /// What one person, and one project, may hold open: streams, presence clients, waiting
    /// retries, API tokens, sessions.
    #[command(flatten)]
    pub fair_share: crate::service::access::fair_share::FairShareConfig,
}

impl AccountConfig {
    /// 12 hours: a working day, then sign in again.
    pub const SESSION_IDLE_SECS: u64 = 12 * 3600;
    /// 7 days.
    pub const SESSION_MAX_SECS: u64 = 7 * 24 * 3600;
    /// One minute: 20 wrong passwords lock the right one out for at most this long.
    pub const SIGN_IN_MAX_DELAY_SECS: u64 = 60;
    /// One minute (OAuth 2.1 recommends a short life; clients exchange at once).
    pub const OAUTH_CODE_SECS: u64 = 60;
    /// One hour.
    pub const OAUTH_ACCESS_SECS: u64 = 3600;
    /// 30 days.
    pub const OAUTH_REFRESH_SECS: u64 = 30 * 24 * 3600;

    pub fn session_idle(&self) -> Duration {
        Duration::from_secs(self.session_idle_secs)
    }
}

impl Default for AccountConfig {
    fn default() -> Self {
        Self {
            oauth_resources: Vec::new(),
            session_idle_secs: Self::SESSION_IDLE_SECS,
            session_max_secs: Self::SESSION_MAX_SECS,
            sign_in_max_delay_secs: Self::SIGN_IN_MAX_DELAY_SECS,
            oauth_code_secs: Self::OAUTH_CODE_SECS,
            oauth_access_secs: Self::OAUTH_ACCESS_SECS,
            oauth_refresh_secs: Self::OAUTH_REFRESH_SECS,
            oauth_document_fresh_min_secs: DOCUMENT_FRESH_MIN_SECS,
            rate_limits: Default::default(),
            fair_share: Default::default(),
        }
    }
}
