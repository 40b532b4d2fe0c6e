//! PKCE (RFC 7636), S256 only: the verifier's form and its match against the challenge.

use base64::Engine;
use sha2::{Digest, Sha256};

use crate::tokens;

/// PKCE S256 (RFC 7636 §4.6): BASE64URL(SHA256(verifier)) equals the challenge.
pub fn pkce_matches(verifier: &str, challenge: &str) -> bool {
    let digest = Sha256::digest(verifier.as_bytes());
    tokens::strings_match(&base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(digest), challenge)
}

/// RFC 7636 §4.1: 43 to 128 characters of `[A-Za-z0-9-._~]`.
pub fn is_pkce_text(value: &str) -> bool {
    (43..=128).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pkce_s256_of_the_rfc_7636_example() {
        // RFC 7636 Appendix B.
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        assert!(pkce_matches(verifier, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"));
        assert!(!pkce_matches(verifier, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cN"));
        assert!(is_pkce_text(verifier));
        assert!(!is_pkce_text("short"));
        assert!(!is_pkce_text(&format!("{verifier}+")));
    }
}
