//! Where the service `canvasctl up` runs: the other commands find it without flags.
//!
//! `up` writes its addresses (core gRPC, the REST base URL) and the administrator's token into its
//! data directory's `dev-credentials.json` on every start, whatever `--http-addr` and
//! `--grpc-addr` it was given. A command run without `--core`, `--account-url`, `--keys-url`,
//! `--url` or `--admin-token` (flag or environment) takes them from there: the data directory of
//! `CANVAS_DATA_DIR`, or `./canvas-data` as `up` uses by default. Without that file (a deployment,
//! another machine) the documented defaults stand: `http://127.0.0.1:50051` and
//! `http://127.0.0.1:8080`.

use std::path::PathBuf;

use serde::Deserialize;

/// core-service's gRPC address when nothing else says.
pub const DEFAULT_CORE_URL: &str = "http://127.0.0.1:50051";
/// The REST base URL when nothing else says.
pub const DEFAULT_BASE_URL: &str = "http://127.0.0.1:8080";

/// What `up` wrote that the other commands use: fields of [`crate::up::DevCredentials`], in its
/// spelling (camelCase).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Running {
    #[serde(default)]
    pub core_url: Option<String>,
    #[serde(default)]
    pub base_url: Option<String>,
    #[serde(default)]
    pub admin_token: Option<String>,
}

impl Running {
    /// The file `up` wrote in the data directory this shell would use, if it is there and reads.
    pub fn find() -> Self {
        Self::read(&data_dir().join("dev-credentials.json"))
    }

    fn read(path: &std::path::Path) -> Self {
        std::fs::read_to_string(path).ok().and_then(|text| serde_json::from_str(&text).ok()).unwrap_or_default()
    }

    /// core-service's gRPC address: `given` (flag or environment), else `up`'s, else the default.
    pub fn core_url(&self, given: Option<&str>) -> String {
        pick(given, self.core_url.as_deref(), DEFAULT_CORE_URL)
    }

    /// The REST base URL: `given`, else `up`'s, else the default.
    pub fn base_url(&self, given: Option<&str>) -> String {
        pick(given, self.base_url.as_deref(), DEFAULT_BASE_URL)
    }

    /// The administrator's token: `given`, else the one `up` created.
    pub fn admin_token(&self, given: Option<&str>) -> Option<String> {
        given.or(self.admin_token.as_deref()).map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned)
    }
}

fn pick(given: Option<&str>, written: Option<&str>, default: &str) -> String {
    let nonempty = |value: Option<&str>| value.map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned);
    nonempty(given).or_else(|| nonempty(written)).unwrap_or_else(|| default.to_owned())
}

/// The data directory `up` would use here: `CANVAS_DATA_DIR`, else `./canvas-data` (core-service's
/// default).
fn data_dir() -> PathBuf {
    std::env::var_os("CANVAS_DATA_DIR")
        .filter(|dir| !dir.is_empty())
        .map_or_else(|| "canvas-data".into(), PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_wins_then_what_up_wrote_then_the_default() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("dev-credentials.json");
        let nothing = Running::read(&path);
        assert_eq!(nothing.core_url(None), DEFAULT_CORE_URL);
        assert_eq!(nothing.base_url(Some(" ")), DEFAULT_BASE_URL, "an empty value means unset");
        assert_eq!(nothing.admin_token(None), None);
        // The file as `up` writes it (its own type), so the reader cannot drift from the writer:
        // it read snake_case names while `up` writes camelCase, and found nothing.
        let up_wrote = crate::up::DevCredentials {
            user_id: "u".into(),
            token: "x".into(),
            project_id: "p".into(),
            admin_token: "svc_tk_a".into(),
            core_url: "http://127.0.0.1:61000".into(),
            base_url: "http://127.0.0.1:9090".into(),
            login: "demo".into(),
            sign_in_url: String::new(),
        };
        std::fs::write(&path, serde_json::to_string(&up_wrote).unwrap()).unwrap();
        let written = Running::read(&path);
        assert_eq!(written.core_url(None), "http://127.0.0.1:61000");
        assert_eq!(written.base_url(None), "http://127.0.0.1:9090");
        assert_eq!(written.admin_token(None).as_deref(), Some("svc_tk_a"));
        assert_eq!(written.core_url(Some("http://core:50051")), "http://core:50051");
        assert_eq!(written.admin_token(Some("svc_tk_b")).as_deref(), Some("svc_tk_b"));
        std::fs::write(&path, "not json").unwrap();
        assert_eq!(Running::read(&path).core_url(None), DEFAULT_CORE_URL, "a damaged file is ignored");
    }
}
