//! Receiver-side verification of webhook calls: the six rules of the spec,
//! one function or type per rule, each with its own test.
//!
//! 1. [`parse_signature`] + [`KeySet::verify`]: the header has exactly three
//!    `;`-separated parts, the first `es256`; the key whose `kid` matches
//!    verifies the raw body (before it is parsed).
//! 2. [`check_timestamp`]: at most 300 s from the receiver's clock.
//! 3. [`check_identity`]: `projectId` and `webhookId` are the registered ones.
//! 4. [`SeenIds`]: `deliveryId` values already processed are ignored.
//! 5. [`KeyCache`]: keys are cached at most 5 minutes and reloaded when a
//!    signature names an unknown `kid`.
//! 6. [`KeySet`] holds every published key, so during a rotation calls
//!    signed by the old and by the new key both verify.

use std::collections::{HashMap, HashSet, VecDeque};
use std::time::{Duration, Instant};

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use p256::ecdsa::signature::Verifier;
use p256::ecdsa::{Signature, VerifyingKey};
use p256::EncodedPoint;
use serde_json::Value;

/// Rule 2: the largest difference between `Webhook-Timestamp` and now.
pub const TIMESTAMP_TOLERANCE_SECS: i64 = 300;
/// Rule 5: the longest a key set is cached.
pub const KEY_CACHE_MAX_AGE: Duration = Duration::from_secs(300);

/// Why a call was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejection {
    /// Signature header not `es256;kid=…;<base64 of 64 bytes>`.
    MalformedSignature(String),
    /// No key in the set has this kid (even after a reload).
    UnknownKey(String),
    /// The signature does not verify over id, timestamp and raw body.
    BadSignature,
    /// Timestamp missing, not a number, or too far from now.
    StaleTimestamp,
    /// `projectId` or `webhookId` are not the registered ones.
    WrongIdentity(String),
}

/// A parsed `Webhook-Signature` header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureHeader {
    pub kid: String,
    /// r || s, 64 bytes.
    pub signature: Vec<u8>,
}

/// Rule 1 (form): exactly three parts, `es256`, `kid=<kid>`, base64 r||s.
pub fn parse_signature(header: &str) -> Result<SignatureHeader, Rejection> {
    let parts: Vec<&str> = header.split(';').collect();
    let malformed = |why: &str| Rejection::MalformedSignature(why.to_owned());
    if parts.len() != 3 {
        return Err(malformed("the header must have exactly three ';'-separated parts"));
    }
    if parts[0] != "es256" {
        return Err(malformed("the algorithm must be es256"));
    }
    let kid = parts[1]
        .strip_prefix("kid=")
        .filter(|k| !k.is_empty())
        .ok_or_else(|| malformed("the second part must be kid=<kid>"))?;
    let signature = STANDARD.decode(parts[2]).map_err(|_| malformed("the signature is not base64"))?;
    if signature.len() != 64 {
        return Err(malformed("the signature must be 64 bytes (r || s)"));
    }
    Ok(SignatureHeader { kid: kid.to_owned(), signature })
}

/// Rule 2.
pub fn check_timestamp(header: &str, now_unix: i64) -> Result<i64, Rejection> {
    let timestamp: i64 = header.trim().parse().map_err(|_| Rejection::StaleTimestamp)?;
    if (now_unix - timestamp).abs() > TIMESTAMP_TOLERANCE_SECS {
        return Err(Rejection::StaleTimestamp);
    }
    Ok(timestamp)
}

/// Rule 3: run on the body only after the signature verified. A test call (`POST …/webhooks/test`)
/// tests a definition that is not saved, so it has no webhook id: it carries `"webhookId": null`
/// and exactly one change, of kind `ping`. Such a ping passes rule 3 with the right `projectId`;
/// any other body needs the registered `webhookId`.
pub fn check_identity(body: &Value, project_id: &str, webhook_id: Option<&str>) -> Result<(), Rejection> {
    if body.get("projectId").and_then(Value::as_str) != Some(project_id) {
        return Err(Rejection::WrongIdentity("projectId is not the registered project".into()));
    }
    if let Some(expected) = webhook_id {
        if is_test_ping(body) {
            return Ok(());
        }
        if body.get("webhookId").and_then(Value::as_str) != Some(expected) {
            return Err(Rejection::WrongIdentity("webhookId is not the registered webhook".into()));
        }
    }
    Ok(())
}

/// A test call's body: `webhookId` null and a single `ping` change.
pub fn is_test_ping(body: &Value) -> bool {
    let changes = body.get("changes").and_then(Value::as_array);
    body.get("webhookId").is_some_and(Value::is_null)
        && changes.is_some_and(|c| c.len() == 1 && c[0].get("kind").and_then(Value::as_str) == Some("ping"))
}

/// Rule 6: every key of a JWK set, by kid.
#[derive(Debug, Clone, Default)]
pub struct KeySet {
    keys: HashMap<String, VerifyingKey>,
}

impl KeySet {
    /// Reads `{keys: [{kty: EC, crv: P-256, x, y, kid, …}]}`; other keys are skipped.
    pub fn from_jwks(jwks: &Value) -> Self {
        let mut keys = HashMap::new();
        for jwk in jwks.get("keys").and_then(Value::as_array).into_iter().flatten() {
            let field = |name: &str| jwk.get(name).and_then(Value::as_str);
            if field("kty") != Some("EC") || field("crv") != Some("P-256") {
                continue;
            }
            let (Some(kid), Some(x), Some(y)) = (field("kid"), field("x"), field("y")) else { continue };
            let (Ok(x), Ok(y)) = (URL_SAFE_NO_PAD.decode(x), URL_SAFE_NO_PAD.decode(y)) else { continue };
            if x.len() != 32 || y.len() != 32 {
                continue;
            }
            let point = EncodedPoint::from_affine_coordinates(x.as_slice().into(), y.as_slice().into(), false);
            if let Ok(key) = VerifyingKey::from_encoded_point(&point) {
                keys.insert(kid.to_owned(), key);
            }
        }
        Self { keys }
    }

    pub fn contains(&self, kid: &str) -> bool {
        self.keys.contains_key(kid)
    }

    /// Rule 1 (signature): verifies `{id}.{timestamp}.{raw body}`.
    pub fn verify(&self, signature: &SignatureHeader, id: &str, timestamp: &str, body: &[u8]) -> Result<(), Rejection> {
        let key = self.keys.get(&signature.kid).ok_or_else(|| Rejection::UnknownKey(signature.kid.clone()))?;
        let parsed = Signature::from_slice(&signature.signature).map_err(|_| Rejection::BadSignature)?;
        let message = [id.as_bytes(), b".", timestamp.as_bytes(), b".", body].concat();
        key.verify(&message, &parsed).map_err(|_| Rejection::BadSignature)
    }
}

/// Rule 5: a key set with its age.
#[derive(Debug, Default)]
pub struct KeyCache {
    /// The set and when it was fetched.
    current: Option<(KeySet, Instant)>,
}

impl KeyCache {
    /// Whether the set must be (re)loaded before verifying a call signed by
    /// `kid`: none yet, older than 5 minutes, or the kid is unknown.
    pub fn needs_reload(&self, kid: &str, now: Instant) -> bool {
        match &self.current {
            None => true,
            Some((set, fetched)) => now.duration_since(*fetched) > KEY_CACHE_MAX_AGE || !set.contains(kid),
        }
    }

    pub fn store(&mut self, set: KeySet, now: Instant) {
        self.current = Some((set, now));
    }

    pub fn keys(&self) -> Option<&KeySet> {
        self.current.as_ref().map(|(set, _)| set)
    }
}

/// Rule 4: delivery ids already processed, the most recent `capacity`.
#[derive(Debug)]
pub struct SeenIds {
    order: VecDeque<String>,
    set: HashSet<String>,
    capacity: usize,
}

impl SeenIds {
    pub fn new(capacity: usize) -> Self {
        Self { order: VecDeque::new(), set: HashSet::new(), capacity: capacity.max(1) }
    }

    /// True the first time an id is seen; false for a repeat.
    pub fn first_time(&mut self, id: &str) -> bool {
        if self.set.contains(id) {
            return false;
        }
        if self.order.len() == self.capacity {
            if let Some(old) = self.order.pop_front() {
                self.set.remove(&old);
            }
        }
        self.order.push_back(id.to_owned());
        self.set.insert(id.to_owned());
        true
    }
}

#[cfg(test)]
#[path = "verify_tests.rs"]
mod tests;
