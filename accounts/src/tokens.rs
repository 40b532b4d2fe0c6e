//! Secrets: generation, hashing and comparison.
//!
//! Every secret the service hands out (API tokens, sessions, sign-in links,
//! OAuth codes and tokens) is a prefix naming its kind followed by 43 base62
//! characters carrying 256 random bits. Only its SHA-256 digest is stored:
//! with that much entropy a slow password hash adds nothing, and a digest can
//! be looked up by index. The prefix makes leaked secrets easy to scan for and
//! keeps one kind from being accepted where another is expected.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// Every token starts with this, so leaked tokens are easy to scan for.
pub const TOKEN_PREFIX: &str = "svc_tk_";
/// Account-site sessions (the cookie's value).
pub const SESSION_PREFIX: &str = "svc_ss_";
/// One-time sign-in links.
pub const LINK_PREFIX: &str = "svc_sl_";
/// OAuth authorization codes.
pub const CODE_PREFIX: &str = "svc_ac_";
/// OAuth access tokens (bound to one resource).
pub const ACCESS_PREFIX: &str = "svc_at_";
/// OAuth refresh tokens.
pub const REFRESH_PREFIX: &str = "svc_rt_";
/// How much of an API token the account site shows: the prefix and four characters.
pub const SHOWN_CHARS: usize = TOKEN_PREFIX.len() + 4;
const BODY_BYTES: usize = 32;
const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// A freshly generated secret token. Shown to its owner once, then dropped.
pub struct NewToken {
    /// The full secret (`svc_tk_...`).
    pub secret: String,
    /// What the database keeps.
    pub hash: [u8; 32],
}

pub fn generate() -> anyhow::Result<NewToken> {
    generate_with(TOKEN_PREFIX)
}

/// A fresh secret of the kind `prefix` names.
pub fn generate_with(prefix: &str) -> anyhow::Result<NewToken> {
    let mut bytes = [0u8; BODY_BYTES];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no system randomness: {e}"))?;
    let secret = format!("{prefix}{}", base62(&bytes));
    let hash = hash(&secret);
    Ok(NewToken { secret, hash })
}

/// The stored form of a token secret.
pub fn hash(secret: &str) -> [u8; 32] {
    Sha256::digest(secret.as_bytes()).into()
}

/// The CSRF value of a session: derived from its secret, so it needs no storage, cannot be
/// guessed without the secret, and changes with every session.
pub fn csrf_for(session_secret: &str) -> String {
    use base64::Engine;
    let digest = Sha256::new().chain_update(b"canvas-csrf\0").chain_update(session_secret.as_bytes()).finalize();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(digest)
}

/// Compares two strings (CSRF values, PKCE challenges) without leaking where they differ.
pub fn strings_match(a: &str, b: &str) -> bool {
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// Compares two digests without leaking, through timing, how many bytes match.
pub fn digests_match(a: &[u8], b: &[u8]) -> bool {
    a.ct_eq(b).into()
}

/// True when `raw` has the shape of a token; a cheap check before hashing.
pub fn looks_like_token(raw: &str) -> bool {
    looks_like(TOKEN_PREFIX, raw)
}

/// True when `raw` has the shape of a secret of the kind `prefix` names.
pub fn looks_like(prefix: &str, raw: &str) -> bool {
    raw.strip_prefix(prefix)
        .is_some_and(|body| !body.is_empty() && body.len() <= 128 && body.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// Big-endian base62 of the bytes, padded to a fixed width so every token has
/// the same length.
fn base62(bytes: &[u8]) -> String {
    // 62^43 > 2^256, so 43 digits always suffice for 32 bytes.
    const WIDTH: usize = 43;
    let mut number = bytes.to_vec();
    let mut digits = Vec::with_capacity(WIDTH);
    while digits.len() < WIDTH {
        let mut remainder = 0u32;
        for byte in number.iter_mut() {
            let acc = (remainder << 8) | u32::from(*byte);
            *byte = (acc / 62) as u8;
            remainder = acc % 62;
        }
        digits.push(BASE62[remainder as usize]);
    }
    digits.reverse();
    String::from_utf8(digits).expect("base62 alphabet is ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_have_prefix_fixed_length_and_differ() {
        let a = generate().unwrap();
        let b = generate().unwrap();
        assert!(a.secret.starts_with(TOKEN_PREFIX));
        assert_eq!(a.secret.len(), TOKEN_PREFIX.len() + 43);
        assert!(looks_like_token(&a.secret));
        assert_ne!(a.secret, b.secret);
        assert_eq!(hash(&a.secret), a.hash);
    }

    #[test]
    fn base62_of_known_values() {
        assert_eq!(base62(&[0; 32]), "0".repeat(43));
        let mut one = [0u8; 32];
        one[31] = 61;
        assert!(base62(&one).ends_with("0z"));
    }

    #[test]
    fn digest_comparison() {
        assert!(digests_match(&[1, 2, 3], &[1, 2, 3]));
        assert!(!digests_match(&[1, 2, 3], &[1, 2, 4]));
        assert!(!looks_like_token("svc_tk_"));
        assert!(!looks_like_token("Bearer x"));
        let session = generate_with(SESSION_PREFIX).unwrap();
        assert!(looks_like(SESSION_PREFIX, &session.secret));
        assert!(!looks_like_token(&session.secret), "a session is not an API token");
    }
}
