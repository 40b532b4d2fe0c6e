//! Fetching a small JSON document from a URL a user chose: an OAuth Client ID Metadata Document
//! (docs/ACCOUNTS.md). The URL is as untrusted as a webhook's, so the fetch goes through the same
//! client: the same destination rules at connect time, no redirects, no proxy. On top it bounds
//! what it reads (the length is checked before and while reading) and how long it waits, and reads
//! how long the answer may be used again from its caching headers.

use std::time::{Duration, SystemTime};

use reqwest::header::{ACCEPT, CACHE_CONTROL, DATE, EXPIRES};
use reqwest::Url;

use crate::{describe, literal_ip_refusal, refusal_in, WebhookClient};

/// A document as fetched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchedDocument {
    /// The body, at most the size asked for.
    pub body: Vec<u8>,
    /// How long the answer may be used again, as its `Cache-Control` or `Expires` says; None when
    /// they say nothing (the caller picks a default).
    pub fresh_for: Option<Duration>,
}

impl WebhookClient {
    /// GETs `url` (https only) and returns its body when it answers `200` within `limit` with at
    /// most `max_bytes`; otherwise a short reason, safe to show (no body is ever quoted).
    pub async fn fetch_document(
        &self,
        url: &str,
        max_bytes: usize,
        limit: Duration,
    ) -> Result<FetchedDocument, String> {
        let url = match Url::parse(url) {
            Ok(url) if url.scheme() == "https" => url,
            _ => return Err("the URL is not an absolute https URL".into()),
        };
        if let Some(refusal) = literal_ip_refusal(&self.policy, &url) {
            return Err(refusal.to_string());
        }
        let started = self.http.get(url).header(ACCEPT, "application/json").timeout(limit).send().await;
        let mut response = match started {
            Ok(response) => response,
            Err(err) => return Err(refusal_in(&err).map_or_else(|| describe(&err, limit), |r| r.to_string())),
        };
        let status = response.status();
        if status.is_redirection() {
            return Err(format!("HTTP {}: redirects are not followed", status.as_u16()));
        }
        if status != reqwest::StatusCode::OK {
            return Err(format!("HTTP {}", status.as_u16()));
        }
        let too_big = || format!("the document is larger than {max_bytes} bytes");
        if response.content_length().is_some_and(|length| length > max_bytes as u64) {
            return Err(too_big());
        }
        let header = |name| response.headers().get(name).and_then(|v: &reqwest::header::HeaderValue| v.to_str().ok());
        let fresh_for = freshness(header(CACHE_CONTROL), header(EXPIRES), header(DATE), SystemTime::now());
        let mut body = Vec::new();
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) if body.len() + chunk.len() > max_bytes => return Err(too_big()),
                Ok(Some(chunk)) => body.extend_from_slice(&chunk),
                Ok(None) => break,
                Err(err) => return Err(describe(&err, limit)),
            }
        }
        Ok(FetchedDocument { body, fresh_for })
    }
}

/// How long an answer stays fresh (RFC 9111 §4.2.1): `no-store` or `no-cache` is not at all,
/// `max-age` wins over `Expires`, and `Expires` counts from the answer's `Date` (or `now`); an
/// `Expires` that is not a date is already past. None when the headers say nothing.
pub fn freshness(
    cache_control: Option<&str>,
    expires: Option<&str>,
    date: Option<&str>,
    now: SystemTime,
) -> Option<Duration> {
    let mut max_age = None;
    for directive in cache_control.unwrap_or("").split(',').map(str::trim) {
        let (name, value) = directive.split_once('=').unwrap_or((directive, ""));
        match name.trim().to_ascii_lowercase().as_str() {
            "no-store" | "no-cache" => return Some(Duration::ZERO),
            "max-age" => {
                let digits = value.trim().trim_matches('"');
                max_age = Some(if digits.bytes().all(|b| b.is_ascii_digit()) && !digits.is_empty() {
                    Duration::from_secs(digits.parse().unwrap_or(u64::MAX))
                } else {
                    Duration::ZERO
                });
            }
            _ => {}
        }
    }
    if max_age.is_some() {
        return max_age;
    }
    let expires = expires?;
    let Ok(at) = httpdate::parse_http_date(expires.trim()) else { return Some(Duration::ZERO) };
    let since = date.and_then(|d| httpdate::parse_http_date(d.trim()).ok()).unwrap_or(now);
    Some(at.duration_since(since).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime, UNIX_EPOCH};

    use super::freshness;

    const NOW: u64 = 1_764_979_200; // Sat, 06 Dec 2025 00:00:00 GMT

    fn now() -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(NOW)
    }

    fn secs(n: u64) -> Option<Duration> {
        Some(Duration::from_secs(n))
    }

    #[test]
    fn caching_headers_as_rfc_9111_reads_them() {
        assert_eq!(freshness(None, None, None, now()), None, "nothing said");
        assert_eq!(freshness(Some("public, max-age=600"), None, None, now()), secs(600));
        assert_eq!(freshness(Some("MAX-AGE=\"60\""), None, None, now()), secs(60));
        assert_eq!(freshness(Some("max-age=600, no-cache"), None, None, now()), secs(0));
        assert_eq!(freshness(Some("no-store"), None, None, now()), secs(0));
        assert_eq!(freshness(Some("max-age=ten"), None, None, now()), secs(0), "an invalid max-age is stale");
        assert_eq!(freshness(Some("max-age=-5"), None, None, now()), secs(0));
        assert_eq!(freshness(Some("max-age=99999999999999999999999"), None, None, now()), secs(u64::MAX));
        let expires = Some("Sat, 06 Dec 2025 01:00:00 GMT");
        assert_eq!(freshness(Some("max-age=5"), expires, None, now()), secs(5), "max-age wins over Expires");
        assert_eq!(freshness(Some("public"), expires, None, now()), secs(3600));
        assert_eq!(freshness(None, expires, Some("Sat, 06 Dec 2025 00:30:00 GMT"), now()), secs(1800), "from Date");
        assert_eq!(freshness(None, Some("0"), None, now()), secs(0), "an Expires that is not a date is past");
        assert_eq!(freshness(None, Some("Fri, 05 Dec 2025 00:00:00 GMT"), None, now()), secs(0));
    }

    proptest::proptest! {
        /// Any header text at all gives an answer without a panic, and `no-store` always wins.
        #[test]
        fn any_header_text(control in "[ -~]{0,40}", expires in "[ -~]{0,32}") {
            let _ = freshness(Some(&control), Some(&expires), None, now());
            let stored = format!("{control}, no-store");
            proptest::prop_assert_eq!(freshness(Some(&stored), Some(&expires), None, now()), secs(0));
        }
    }
}
