//! Passwords: the rule a new one must meet, Argon2id hashing, and verification
//! that takes as long for an unknown account as for a known one.
//!
//! Parameters: Argon2id, 19 MiB of memory, 2 iterations, 1 lane, a 16-byte
//! random salt, stored as a PHC string (OWASP's recommended minimum for
//! Argon2id). The PHC string records them, so raising them later leaves old
//! hashes verifiable.

use std::sync::LazyLock;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

/// Shortest password accepted, in characters.
pub const MIN_CHARS: usize = 8;
/// Longest password accepted, in characters: long passphrases are welcome, megabytes are not.
pub const MAX_CHARS: usize = 256;

const MEMORY_KIB: u32 = 19 * 1024;
const ITERATIONS: u32 = 2;
const LANES: u32 = 1;

fn hasher() -> Argon2<'static> {
    let params = Params::new(MEMORY_KIB, ITERATIONS, LANES, None).expect("constant Argon2 parameters are valid");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Why a new password is refused, in words for the person choosing it; None when it is fine.
pub fn problem(password: &str) -> Option<String> {
    let chars = password.chars().count();
    if chars < MIN_CHARS {
        return Some(format!("must be at least {MIN_CHARS} characters"));
    }
    if chars > MAX_CHARS {
        return Some(format!("must be at most {MAX_CHARS} characters"));
    }
    if password.trim().is_empty() {
        return Some("must not be only spaces".into());
    }
    None
}

/// The PHC string of a new password. CPU- and memory-heavy: call it off the async workers.
pub fn hash(password: &str) -> anyhow::Result<String> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| anyhow::anyhow!("no system randomness: {e}"))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| anyhow::anyhow!("salt: {e}"))?;
    let phc = hasher().hash_password(password.as_bytes(), &salt).map_err(|e| anyhow::anyhow!("argon2: {e}"))?;
    Ok(phc.to_string())
}

/// A hash of a password nobody knows, verified against when the account does not exist (or has
/// no password), so that "unknown login" costs the same time as "wrong password".
static DECOY: LazyLock<String> = LazyLock::new(|| hash("decoy password that matches nothing").unwrap_or_default());

/// True when `password` matches `stored`. `None` (unknown login, no password yet) verifies
/// against a decoy hash and is always false. CPU-heavy: call it off the async workers.
pub fn verify(stored: Option<&str>, password: &str) -> bool {
    let (phc, real) = match stored {
        Some(phc) => (phc, true),
        None => (DECOY.as_str(), false),
    };
    let Ok(parsed) = PasswordHash::new(phc) else { return false };
    // argon2 compares the digests in constant time.
    let matches = hasher().verify_password(password.as_bytes(), &parsed).is_ok();
    real && matches
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_verifies_its_password_only_and_records_its_parameters() {
        let phc = hash("correct horse battery").unwrap();
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
        assert!(verify(Some(&phc), "correct horse battery"));
        assert!(!verify(Some(&phc), "correct horse batterY"));
        assert!(!verify(Some(&phc), ""));
        assert_ne!(phc, hash("correct horse battery").unwrap(), "salted");
        assert!(!verify(None, "decoy password that matches nothing"), "the decoy never signs anyone in");
        assert!(!verify(Some("not a phc string"), "x"));
    }

    #[test]
    fn the_password_rule() {
        assert!(problem("short").unwrap().contains("at least 8"));
        assert!(problem(&"x".repeat(257)).unwrap().contains("at most 256"));
        assert!(problem("        ").is_some());
        assert_eq!(problem("ünïcödé pässwörd"), None);
        assert_eq!(problem(&"é".repeat(256)), None, "counted in characters, not bytes");
    }
}
