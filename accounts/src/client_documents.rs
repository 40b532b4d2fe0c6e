//! Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, which MCP
//! 2026-07-28 prefers to dynamic registration): a client names itself by an `https://` URL, and
//! the authorization server fetches the JSON document there to learn its name and redirect URIs.
//! These are the rules of that URL and of the document; fetching (under the webhook destination
//! rules) and caching are core-service's.
//!
//! - The URL is `https://`, has a path other than `/`, no user or password, no fragment, no `.` or
//!   `..` segments, and is written as the URL parser writes it back (lowercase host, no default
//!   port): the document must name it by simple string comparison, so two spellings of one URL
//!   would be two clients.
//! - The document is a JSON object of at most [`MAX_METADATA_BYTES`] whose `client_id` is that URL
//!   exactly, with a `client_name` and `redirect_uris`; everything a registration document must
//!   meet ([`checked_registration`]) holds for it too.
//! - It may hold no shared secret (`client_secret`, `client_secret_expires_at`, a `client_secret_*`
//!   authentication method): a document anyone can read cannot keep one.

use serde_json::Value;

use crate::clients::{checked_registration, OAuthRefusal, Registration, MAX_METADATA_BYTES, MAX_URI_CHARS};

/// True when `client_id` is meant as a metadata document's URL rather than a registered id.
/// Registered ids are UUIDs, so any absolute `http(s)` URL is meant as a document (an `http://`
/// one is then refused by [`document_url_problem`], not looked up).
pub fn is_document_client_id(client_id: &str) -> bool {
    let lower = client_id.get(..8).unwrap_or(client_id).to_ascii_lowercase();
    lower.starts_with("https://") || lower.starts_with("http://")
}

/// Why `client_id` cannot be a metadata document's URL; None when it can.
pub fn document_url_problem(client_id: &str) -> Option<String> {
    if client_id.chars().count() > MAX_URI_CHARS {
        return Some(format!("must be at most {MAX_URI_CHARS} characters"));
    }
    let Ok(url) = url::Url::parse(client_id) else { return Some("must be an absolute https URL".into()) };
    if url.scheme() != "https" {
        return Some("must use the https scheme".into());
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Some("must name a host".into());
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Some("must not hold a user name or password".into());
    }
    if url.fragment().is_some() {
        return Some("must not have a fragment".into());
    }
    if url.path() == "/" || url.path().is_empty() {
        return Some("must have a path naming the document, such as https://app.example/oauth/client.json".into());
    }
    let raw_path = client_id.split(['?', '#']).next().unwrap_or("").splitn(4, '/').nth(3).unwrap_or("");
    if raw_path.split('/').any(|segment| matches!(segment, "." | ".." | "%2e" | "%2E" | "%2e%2e" | "%2E%2E")) {
        return Some("must not have '.' or '..' path segments".into());
    }
    if url.as_str() != client_id {
        return Some(format!(
            "must be written in its normal form ('{url}'): the document names it by exact comparison"
        ));
    }
    None
}

/// The host (with its port, when the URL has one) that publishes the document a client is named
/// by, which is what vouches for the client's name; None for a registered client.
pub fn document_host(client_id: &str) -> Option<String> {
    if !is_document_client_id(client_id) {
        return None;
    }
    let url = url::Url::parse(client_id).ok()?;
    let host = url.host_str()?;
    Some(url.port().map_or_else(|| host.to_owned(), |port| format!("{host}:{port}")))
}

/// Checks a fetched document against the URL it was fetched from; what to store and use.
pub fn checked_document(client_id: &str, body: &[u8]) -> Result<Registration, OAuthRefusal> {
    let bad = |text: String| OAuthRefusal::new("invalid_client_metadata", text);
    if body.len() > MAX_METADATA_BYTES {
        return Err(bad(format!("the document must be at most {MAX_METADATA_BYTES} bytes")));
    }
    let Ok(text) = std::str::from_utf8(body) else { return Err(bad("the document must be UTF-8 JSON".into())) };
    let Ok(Value::Object(document)) = serde_json::from_str::<Value>(text) else {
        return Err(bad("the document must be a JSON object".into()));
    };
    match document.get("client_id") {
        Some(Value::String(named)) if named == client_id => {}
        Some(Value::String(named)) => {
            return Err(bad(format!("the document's client_id '{named}' is not the URL it was fetched from")));
        }
        _ => return Err(bad("the document must hold client_id, the URL it was fetched from".into())),
    }
    for secret in ["client_secret", "client_secret_expires_at"] {
        if document.contains_key(secret) {
            return Err(bad(format!("a metadata document must not hold {secret}: anyone can read it")));
        }
    }
    if !matches!(document.get("client_name"), Some(Value::String(name)) if !name.trim().is_empty()) {
        return Err(bad("the document must hold client_name, the name shown to the person".into()));
    }
    checked_registration(text).map_err(|mut refusal| {
        refusal.description = format!("the document is refused: {}", refusal.description);
        refusal
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const URL: &str = "https://app.example/oauth/client.json";

    fn document(extra: &str) -> String {
        format!(
            r#"{{"client_id":"{URL}","client_name":"Example Agent","redirect_uris":["http://127.0.0.1/cb"]{extra}}}"#
        )
    }

    #[test]
    fn document_urls() {
        for ok in [URL, "https://app.example:8443/c", "https://127.0.0.1:9/c.json", "https://a.example/c?v=2"] {
            assert_eq!(document_url_problem(ok), None, "{ok}");
            assert!(is_document_client_id(ok), "{ok}");
        }
        for bad in [
            "http://app.example/c",
            "https://app.example",
            "https://app.example/",
            "https://user:pw@app.example/c",
            "https://app.example/c#f",
            "https://app.example/a/../c",
            "https://app.example/./c",
            "https://app.example/%2e%2e/c",
            "https://APP.example/c",
            "https://app.example:443/c",
            "https:app.example/c",
            "https:///c",
        ] {
            assert!(document_url_problem(bad).is_some(), "{bad}");
        }
        for registered in ["0190d6a8-7c5e-7000-8000-000000000000", "", "urn:x", "ftp://a.example/c"] {
            assert!(!is_document_client_id(registered), "{registered}");
        }
        assert!(is_document_client_id("HTTPS://app.example/c"), "any spelling is meant as a document");
        assert_eq!(document_host(URL).as_deref(), Some("app.example"));
        assert_eq!(document_host("https://127.0.0.1:8443/c").as_deref(), Some("127.0.0.1:8443"));
        assert_eq!(document_host("0190d6a8-7c5e-7000-8000-000000000000"), None);
        assert!(document_url_problem(&format!("https://a.example/{}", "x".repeat(MAX_URI_CHARS))).is_some());
    }

    #[test]
    fn documents() {
        let checked = checked_document(URL, document("").as_bytes()).unwrap();
        assert_eq!(
            (checked.name.as_str(), checked.redirect_uris.as_slice()),
            ("Example Agent", &["http://127.0.0.1/cb".to_owned()][..])
        );
        let refused = |body: &str| checked_document(URL, body.as_bytes()).err().map(|r| r.error).unwrap_or("accepted");
        assert_eq!(refused(&document(r#","client_secret":"s""#)), "invalid_client_metadata");
        assert_eq!(refused(&document(r#","client_secret_expires_at":0"#)), "invalid_client_metadata");
        assert_eq!(
            refused(&document(r#","token_endpoint_auth_method":"client_secret_basic""#)),
            "invalid_client_metadata"
        );
        assert_eq!(refused(&document(r#","token_endpoint_auth_method":"none""#)), "accepted");
        assert_eq!(refused(&document(r#","application_type":"web""#)), "invalid_redirect_uri");
        assert_eq!(
            refused(&document("").replace(URL, "https://app.example/oauth/other.json")),
            "invalid_client_metadata"
        );
        assert_eq!(refused(&document("").replace(r#""client_name":"Example Agent","#, "")), "invalid_client_metadata");
        assert_eq!(refused(&document("").replace("Example Agent", "  ")), "invalid_client_metadata");
        assert_eq!(refused(&document("").replace(r#"["http://127.0.0.1/cb"]"#, "[]")), "invalid_redirect_uri");
        assert_eq!(refused("[]"), "invalid_client_metadata");
        assert_eq!(refused("\u{feff}{}"), "invalid_client_metadata");
        let padded = document(&format!(r#","logo":"{}""#, "x".repeat(MAX_METADATA_BYTES)));
        assert_eq!(refused(&padded), "invalid_client_metadata");
        assert_eq!(checked_document(URL, &[0xff, 0xfe]).err().map(|r| r.error), Some("invalid_client_metadata"));
    }

    proptest::proptest! {
        /// Whatever the document says, it is accepted only when its client_id is the URL itself,
        /// byte for byte: another spelling (case, a slash, a port, an encoding) is another client.
        #[test]
        fn a_document_speaks_only_for_its_own_url(pieces in proptest::collection::vec(proptest::sample::select(vec![
            "https://", "HTTPS://", "app.example", "APP.example", ":443", "/oauth", "/client.json", "/", "%2F", "?x=1", "#f",
        ]), 1..7)) {
            let named = pieces.concat();
            let body = document("").replace(URL, &named);
            proptest::prop_assert_eq!(checked_document(URL, body.as_bytes()).is_ok(), named == URL);
        }
    }
}
