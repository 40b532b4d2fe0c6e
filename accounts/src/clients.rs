//! OAuth clients: dynamic registration of public clients (RFC 7591) and the
//! redirect-URI rules every authorization request is held to.
//!
//! - Only public clients (`token_endpoint_auth_method: none`): MCP clients are
//!   apps on a person's machine and cannot keep a secret; PKCE protects them.
//! - A redirect URI is `https://…`, `http://` on a loopback host (RFC 8252
//!   §7.3), or a private-use scheme of a native app (RFC 8252 §7.1) other than
//!   the schemes a browser would run or read (`javascript:`, `data:`, …).
//!   Never with a fragment.
//! - A presented redirect URI must equal a registered one character for
//!   character, except that a loopback `http` URI matches with any port.

use serde_json::{json, Map, Value};

use canvas_vocabulary::limits::oauth::{APPLICATION_TYPES, CLIENT_AUTH_METHODS, GRANT_TYPES, RESPONSE_TYPES};

/// Largest registration document accepted.
pub const MAX_METADATA_BYTES: usize = 16 * 1024;
pub const MAX_REDIRECT_URIS: usize = 10;
pub const MAX_URI_CHARS: usize = 2048;
const MAX_CLIENT_NAME: usize = 128;
/// Schemes a redirect may never use: a browser would run, read or fetch them itself.
const FORBIDDEN_SCHEMES: &[&str] =
    &["javascript", "data", "vbscript", "file", "blob", "about", "ftp", "ws", "wss", "filesystem", "view-source"];

/// A refusal the OAuth RFCs define: its `error` code and a description for the developer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthRefusal {
    pub error: &'static str,
    pub description: String,
}

impl OAuthRefusal {
    pub fn new(error: &'static str, description: impl Into<String>) -> Self {
        Self { error, description: description.into() }
    }
}

pub(crate) fn is_loopback(host: Option<url::Host<&str>>) -> bool {
    match host {
        Some(url::Host::Domain(domain)) => domain.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// Why a redirect URI cannot be registered; None when it can.
pub fn redirect_uri_problem(uri: &str) -> Option<String> {
    if !canvas_domain::text::storable(uri) {
        return Some(canvas_domain::text::NUL_RULE.into());
    }
    if uri.chars().count() > MAX_URI_CHARS {
        return Some(format!("must be at most {MAX_URI_CHARS} characters"));
    }
    let Ok(parsed) = url::Url::parse(uri) else { return Some("must be an absolute URI".into()) };
    if parsed.fragment().is_some() {
        return Some("must not have a fragment (RFC 6749 §3.1.2)".into());
    }
    match parsed.scheme() {
        "https" => None,
        "http" if is_loopback(parsed.host()) => None,
        "http" => Some("http is allowed only on a loopback host (localhost, 127.0.0.1, [::1]); use https".into()),
        scheme if FORBIDDEN_SCHEMES.contains(&scheme) => Some(format!("the scheme '{scheme}' is not allowed")),
        _ => None,
    }
}

/// Why `uri` does not suit a client of `application_type` (OpenID Connect Registration 1.0 §2, as
/// MCP 2026-07-28 asks clients to declare it); None when it does, or when no type was declared.
///
/// - `web`: an app served from a real host answers at `https://` on a host that is not loopback.
/// - `native`: an app on the person's device answers on a loopback address, at its own private-use
///   scheme, or at a claimed `https://` URI (RFC 8252 §7.1–7.3); the rules every redirect URI
///   meets already say that, so `native` narrows nothing more.
pub fn application_type_problem(application_type: Option<&str>, uri: &str) -> Option<String> {
    let Some("web") = application_type else { return None };
    let parsed = url::Url::parse(uri).ok()?;
    if parsed.scheme() != "https" {
        return Some("must be https, as every redirect URI of a web app (application_type 'web')".into());
    }
    if is_loopback(parsed.host()) {
        return Some(
            "is on a loopback host, which a web app cannot answer on: an app running on the person's \
             machine declares application_type 'native'"
                .into(),
        );
    }
    None
}

/// True when `presented` is the registered redirect URI `registered`.
pub fn redirect_matches(registered: &str, presented: &str) -> bool {
    if registered == presented {
        return true;
    }
    let (Ok(mut a), Ok(mut b)) = (url::Url::parse(registered), url::Url::parse(presented)) else { return false };
    if a.scheme() != "http" || !is_loopback(a.host()) {
        return false;
    }
    // RFC 8252 §7.3: a native app's loopback listener takes whatever port is free.
    let _ = a.set_port(None);
    let _ = b.set_port(None);
    a == b
}

fn string_list(metadata: &Map<String, Value>, field: &str) -> Result<Option<Vec<String>>, OAuthRefusal> {
    match metadata.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) => {
            items.iter().map(|item| item.as_str().map(str::to_owned)).collect::<Option<Vec<_>>>().map(Some).ok_or_else(
                || OAuthRefusal::new("invalid_client_metadata", format!("{field} must be an array of strings")),
            )
        }
        Some(_) => Err(OAuthRefusal::new("invalid_client_metadata", format!("{field} must be an array of strings"))),
    }
}

/// A registration document that passed: what to store and answer.
pub struct Registration {
    /// `client_name`, trimmed; empty when none was given.
    pub name: String,
    pub redirect_uris: Vec<String>,
    /// The client information response, before `client_id` is added.
    pub info: Map<String, Value>,
}

/// Checks a registration document.
pub fn checked_registration(metadata_json: &str) -> Result<Registration, OAuthRefusal> {
    let bad = |text: String| OAuthRefusal::new("invalid_client_metadata", text);
    if metadata_json.len() > MAX_METADATA_BYTES {
        return Err(bad(format!("the registration document must be at most {MAX_METADATA_BYTES} bytes")));
    }
    let Ok(Value::Object(mut metadata)) = serde_json::from_str::<Value>(metadata_json) else {
        return Err(bad("the registration document must be a JSON object".into()));
    };
    let uris = string_list(&metadata, "redirect_uris")?.unwrap_or_default();
    if uris.is_empty() || uris.len() > MAX_REDIRECT_URIS {
        return Err(OAuthRefusal::new(
            "invalid_redirect_uri",
            format!("redirect_uris must hold 1 to {MAX_REDIRECT_URIS} redirect URIs"),
        ));
    }
    for uri in &uris {
        if let Some(problem) = redirect_uri_problem(uri) {
            return Err(OAuthRefusal::new("invalid_redirect_uri", format!("redirect URI '{uri}' {problem}")));
        }
    }
    let application_type = match metadata.get("application_type") {
        None | Some(Value::Null) => None,
        Some(Value::String(kind)) if APPLICATION_TYPES.contains(&kind.as_str()) => Some(kind.clone()),
        Some(_) => {
            return Err(bad(format!("application_type must be one of: {}", APPLICATION_TYPES.join(", "))));
        }
    };
    for uri in &uris {
        if let Some(problem) = application_type_problem(application_type.as_deref(), uri) {
            return Err(OAuthRefusal::new("invalid_redirect_uri", format!("redirect URI '{uri}' {problem}")));
        }
    }
    match metadata.get("token_endpoint_auth_method").and_then(Value::as_str) {
        None => {}
        Some(method) if CLIENT_AUTH_METHODS.contains(&method) => {}
        Some(other) => {
            return Err(bad(format!(
                "token_endpoint_auth_method '{other}' is not supported: only public clients ('none') register here"
            )))
        }
    }
    let grants = string_list(&metadata, "grant_types")?.unwrap_or_else(|| vec!["authorization_code".into()]);
    if let Some(grant) = grants.iter().find(|g| !GRANT_TYPES.contains(&g.as_str())) {
        return Err(bad(format!("grant type '{grant}' is not supported ({})", GRANT_TYPES.join(", "))));
    }
    let responses = string_list(&metadata, "response_types")?.unwrap_or_else(|| vec!["code".into()]);
    if responses.iter().any(|r| !RESPONSE_TYPES.contains(&r.as_str())) {
        return Err(bad(format!("the response types supported are: {}", RESPONSE_TYPES.join(", "))));
    }
    let name = match metadata.get("client_name") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(name)) if !canvas_domain::text::storable(name) => {
            return Err(bad(format!("client_name {}", canvas_domain::text::NUL_RULE)))
        }
        Some(Value::String(name)) if name.trim().chars().count() <= MAX_CLIENT_NAME => name.trim().to_owned(),
        Some(_) => return Err(bad(format!("client_name must be a string of at most {MAX_CLIENT_NAME} characters"))),
    };
    metadata.insert("token_endpoint_auth_method".into(), json!(CLIENT_AUTH_METHODS[0]));
    metadata.insert("grant_types".into(), json!(grants));
    metadata.insert("response_types".into(), json!(responses));
    metadata.remove("client_secret");
    Ok(Registration { name, redirect_uris: uris, info: metadata })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirect_uris_that_may_be_registered() {
        for ok in [
            "https://app.example/cb",
            "http://127.0.0.1:33418/callback",
            "http://localhost/cb",
            "http://[::1]:9/x",
            "cursor://anysphere.cursor-retrieval/oauth",
            "com.example.app:/oauth2redirect",
        ] {
            assert_eq!(redirect_uri_problem(ok), None, "{ok}");
        }
        for bad in [
            "http://app.example/cb",
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            "data:text/html,x",
            "https://app.example/cb#frag",
            "/relative",
            "",
            "file:///etc/passwd",
        ] {
            assert!(redirect_uri_problem(bad).is_some(), "{bad}");
        }
        assert!(redirect_uri_problem(&format!("https://a.example/{}", "x".repeat(MAX_URI_CHARS))).is_some());
    }

    #[test]
    fn redirects_match_exactly_except_a_loopback_port() {
        assert!(redirect_matches("https://app.example/cb", "https://app.example/cb"));
        assert!(!redirect_matches("https://app.example/cb", "https://app.example/cb/"));
        assert!(!redirect_matches("https://app.example/cb", "https://app.example/cb?x=1"));
        assert!(!redirect_matches("https://app.example/cb", "https://APP.example:443/cb"), "exact, not normalised");
        assert!(!redirect_matches("https://app.example:8443/cb", "https://app.example:9443/cb"));
        assert!(redirect_matches("http://127.0.0.1/callback", "http://127.0.0.1:51234/callback"));
        assert!(redirect_matches("http://localhost:3000/callback", "http://localhost:4000/callback"));
        assert!(!redirect_matches("http://127.0.0.1/callback", "http://127.0.0.1:51234/other"));
        assert!(!redirect_matches("http://127.0.0.1/callback", "http://localhost:51234/callback"));
        assert!(!redirect_matches("http://127.0.0.1/callback", "https://127.0.0.1:51234/callback"));
    }

    proptest::proptest! {
        /// A presented redirect URI built from the pieces of real mix-ups (case, ports, paths,
        /// user info, encodings) matches an https registration only when it is the same text, and
        /// a loopback one only when everything but the port is the same.
        #[test]
        fn redirect_matching_is_exact_but_for_a_loopback_port(pieces in proptest::collection::vec(proptest::sample::select(vec![
            "https://", "http://", "app.example", "APP.example", "127.0.0.1", "localhost", "evil.example", "@",
            ":443", ":8080", ":1", "/cb", "/cb/", "/CB", "?x=1", "#f", "%2F", "..", "/",
        ]), 1..8)) {
            let presented = pieces.concat();
            proptest::prop_assert_eq!(redirect_matches("https://app.example/cb", &presented), presented == "https://app.example/cb");
            if redirect_matches("http://127.0.0.1/cb", &presented) {
                let url = url::Url::parse(&presented).unwrap();
                proptest::prop_assert_eq!((url.scheme(), url.host_str(), url.path(), url.query(), url.username()), ("http", Some("127.0.0.1"), "/cb", None, ""));
            }
        }
    }

    #[test]
    fn registration_documents() {
        let checked =
            checked_registration(r#"{"client_name":" Claude ","redirect_uris":["http://127.0.0.1:5/cb"]}"#).unwrap();
        assert_eq!((checked.name.as_str(), checked.redirect_uris.len()), ("Claude", 1));
        assert_eq!(checked.info["token_endpoint_auth_method"], "none");
        assert_eq!(checked.info["grant_types"], json!(["authorization_code"]));
        let refused = |doc: &str| checked_registration(doc).err().map(|r| r.error).unwrap_or("accepted");
        assert_eq!(refused("[]"), "invalid_client_metadata");
        assert_eq!(refused(r#"{"redirect_uris":[]}"#), "invalid_redirect_uri");
        assert_eq!(refused(r#"{"redirect_uris":"https://a.example/cb"}"#), "invalid_client_metadata");
        assert_eq!(refused(r#"{"redirect_uris":["javascript:alert(1)"]}"#), "invalid_redirect_uri");
        assert_eq!(
            refused(r#"{"redirect_uris":["https://a.example/cb"],"token_endpoint_auth_method":"client_secret_basic"}"#),
            "invalid_client_metadata"
        );
        assert_eq!(
            refused(r#"{"redirect_uris":["https://a.example/cb"],"grant_types":["password"]}"#),
            "invalid_client_metadata"
        );
        assert_eq!(
            refused(r#"{"redirect_uris":["https://a.example/cb"],"application_type":"desktop"}"#),
            "invalid_client_metadata"
        );
        assert_eq!(
            refused(r#"{"redirect_uris":["https://a.example/cb"],"application_type":7}"#),
            "invalid_client_metadata"
        );
        assert_eq!(
            refused(r#"{"redirect_uris":["http://127.0.0.1:5/cb"],"application_type":"web"}"#),
            "invalid_redirect_uri"
        );
        assert_eq!(refused(r#"{"redirect_uris":["cursor://x/cb"],"application_type":"web"}"#), "invalid_redirect_uri");
        for accepted in [
            r#"{"redirect_uris":["https://a.example/cb"],"application_type":"web"}"#,
            r#"{"redirect_uris":["http://127.0.0.1:5/cb","cursor://x/cb","https://a.example/cb"],"application_type":"native"}"#,
        ] {
            assert_eq!(refused(accepted), "accepted", "{accepted}");
        }
        assert_eq!(
            checked_registration(r#"{"redirect_uris":["https://a.example/cb"],"application_type":"web"}"#)
                .unwrap()
                .info["application_type"],
            "web",
            "the declared type is kept in the client information"
        );
        assert_eq!(
            refused(&format!(
                r#"{{"redirect_uris":["https://a.example/cb"],"x":"{}"}}"#,
                "y".repeat(MAX_METADATA_BYTES)
            )),
            "invalid_client_metadata"
        );
    }
}
