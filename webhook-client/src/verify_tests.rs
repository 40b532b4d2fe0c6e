//! One test per receiver rule.

use p256::ecdsa::signature::Signer;
use p256::ecdsa::SigningKey;
use serde_json::json;

use super::*;

fn key(seed: u8) -> SigningKey {
    SigningKey::from_slice(&[seed; 32]).unwrap()
}

fn jwk(kid: &str, key: &SigningKey) -> Value {
    let point = key.verifying_key().to_encoded_point(false);
    json!({"kty": "EC", "crv": "P-256", "kid": kid, "use": "sig", "alg": "ES256",
           "x": URL_SAFE_NO_PAD.encode(point.x().unwrap()), "y": URL_SAFE_NO_PAD.encode(point.y().unwrap())})
}

fn sign(kid: &str, key: &SigningKey, id: &str, ts: &str, body: &[u8]) -> String {
    let signature: Signature = key.sign(&[id.as_bytes(), b".", ts.as_bytes(), b".", body].concat());
    format!("es256;kid={kid};{}", STANDARD.encode(signature.to_bytes()))
}

#[test]
fn rule_1_header_form_and_signature_over_the_raw_body() {
    let set = KeySet::from_jwks(&json!({"keys": [jwk("k1", &key(1))]}));
    let body = br#"{"projectId":"p"}"#;
    let header = sign("k1", &key(1), "d1", "100", body);
    let parsed = parse_signature(&header).unwrap();
    assert_eq!(set.verify(&parsed, "d1", "100", body), Ok(()));
    // One changed byte of the raw body, id or timestamp fails.
    assert_eq!(set.verify(&parsed, "d1", "100", br#"{"projectId": "p"}"#), Err(Rejection::BadSignature));
    assert_eq!(set.verify(&parsed, "d2", "100", body), Err(Rejection::BadSignature));
    assert_eq!(set.verify(&parsed, "d1", "101", body), Err(Rejection::BadSignature));
    // Form: three parts, es256 first.
    for bad in ["es256;kid=k1", "rs256;kid=k1;AAAA", "es256;kid=k1;AAAA;x", "es256;k1;AAAA", "es256;kid=k1;%%%"] {
        assert!(matches!(parse_signature(bad), Err(Rejection::MalformedSignature(_))), "{bad}");
    }
}

#[test]
fn rule_2_timestamps_more_than_300_seconds_off_are_rejected() {
    assert_eq!(check_timestamp("1000", 1300), Ok(1000));
    assert_eq!(check_timestamp("1000", 700), Ok(1000));
    assert_eq!(check_timestamp("1000", 1301), Err(Rejection::StaleTimestamp));
    assert_eq!(check_timestamp("1000", 699), Err(Rejection::StaleTimestamp));
    assert_eq!(check_timestamp("soon", 1000), Err(Rejection::StaleTimestamp));
}

#[test]
fn rule_3_project_and_webhook_must_be_the_registered_ones() {
    let body = json!({"projectId": "p1", "webhookId": "w1"});
    assert_eq!(check_identity(&body, "p1", Some("w1")), Ok(()));
    assert!(check_identity(&body, "p2", Some("w1")).is_err());
    assert!(check_identity(&body, "p1", Some("w2")).is_err());
    assert_eq!(check_identity(&body, "p1", None), Ok(()), "webhook not pinned");
    // A test call names no webhook (its definition is not saved): a lone ping passes with the
    // right project, nothing else does.
    let ping = json!({"projectId": "p1", "webhookId": null, "changes": [{"kind": "ping"}]});
    assert_eq!(check_identity(&ping, "p1", Some("w1")), Ok(()));
    assert!(check_identity(&ping, "p2", Some("w1")).is_err());
    let disguised =
        json!({"projectId": "p1", "webhookId": null, "changes": [{"kind": "ping"}, {"kind": "item.deleted"}]});
    assert!(check_identity(&disguised, "p1", Some("w1")).is_err());
    let unnamed = json!({"projectId": "p1", "changes": [{"kind": "item.created"}]});
    assert!(check_identity(&unnamed, "p1", Some("w1")).is_err());
}

#[test]
fn rule_4_repeated_delivery_ids_are_ignored() {
    let mut seen = SeenIds::new(2);
    assert!(seen.first_time("a"));
    assert!(!seen.first_time("a"));
    assert!(seen.first_time("b"));
    assert!(seen.first_time("c"), "capacity evicts the oldest");
    assert!(seen.first_time("a"));
}

#[test]
fn rule_5_keys_are_cached_at_most_five_minutes_and_reloaded_for_unknown_kids() {
    let start = Instant::now();
    let mut cache = KeyCache::default();
    assert!(cache.needs_reload("k1", start));
    cache.store(KeySet::from_jwks(&json!({"keys": [jwk("k1", &key(1))]})), start);
    assert!(!cache.needs_reload("k1", start + Duration::from_secs(299)));
    assert!(cache.needs_reload("k1", start + Duration::from_secs(301)));
    assert!(cache.needs_reload("k2", start + Duration::from_secs(1)), "unknown kid reloads at once");
}

#[test]
fn rule_6_during_rotation_old_and_new_keys_both_verify() {
    let set = KeySet::from_jwks(&json!({"keys": [jwk("old", &key(1)), jwk("new", &key(2))]}));
    let body = b"{}";
    for (kid, k) in [("old", key(1)), ("new", key(2))] {
        let parsed = parse_signature(&sign(kid, &k, "d", "5", body)).unwrap();
        assert_eq!(set.verify(&parsed, "d", "5", body), Ok(()), "{kid}");
    }
    // A signature claiming the new kid but made with the old key fails.
    let forged = parse_signature(&sign("new", &key(1), "d", "5", body)).unwrap();
    assert_eq!(set.verify(&forged, "d", "5", body), Err(Rejection::BadSignature));
}
