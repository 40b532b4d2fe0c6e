//! Signing keys: generation, encryption at rest, and ES256 signatures.
//!
//! One key signs the calls of every project. Private keys leave this module
//! only sealed (ChaCha20-Poly1305 under a key derived from the configured
//! secret, with the key id as associated data so a sealed key cannot be
//! swapped under another id) and are opened in memory only to sign.

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use sha2::{Digest, Sha256};

use crate::error::CoreError;

/// Bytes of the random nonce stored in front of each sealed key.
const NONCE_BYTES: usize = 12;

/// Seals and opens private keys with the key derived from the secret.
#[derive(Clone)]
pub struct Sealer {
    /// ChaCha20-Poly1305 key: SHA-256 of a domain label and the secret.
    key: [u8; 32],
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sealer(<secret>)")
    }
}

impl Sealer {
    /// Derives the sealing key. The secret must be at least 32 characters so
    /// it carries enough entropy for a 256-bit key.
    pub fn from_secret(secret: &str) -> anyhow::Result<Self> {
        anyhow::ensure!(secret.chars().count() >= 32, "the signing-key secret must be at least 32 characters");
        let mut hasher = Sha256::new();
        hasher.update(b"canvas webhook signing keys v1\0");
        hasher.update(secret.as_bytes());
        Ok(Self { key: hasher.finalize().into() })
    }

    /// `nonce || ciphertext` of `plain`, bound to `kid`.
    pub fn seal(&self, kid: &str, plain: &[u8]) -> Result<Vec<u8>, CoreError> {
        let mut nonce = [0u8; NONCE_BYTES];
        getrandom::fill(&mut nonce).map_err(|e| CoreError::internal(format!("no randomness: {e}")))?;
        let cipher = ChaCha20Poly1305::new(Key::from_slice(&self.key));
        let sealed = cipher
            .encrypt(Nonce::from_slice(&nonce), Payload { msg: plain, aad: kid.as_bytes() })
            .map_err(|_| CoreError::internal("sealing a signing key failed"))?;
        Ok([nonce.as_slice(), &sealed].concat())
    }

    /// Opens a sealed key; fails when the secret is not the one it was sealed
    /// with (a configuration error worth a loud log line).
    pub fn open(&self, kid: &str, sealed: &[u8]) -> Result<Vec<u8>, CoreError> {
        if sealed.len() <= NONCE_BYTES {
            return Err(CoreError::internal(format!("signing key {kid} is truncated")));
        }
        let (nonce, ciphertext) = sealed.split_at(NONCE_BYTES);
        let cipher = ChaCha20Poly1305::new(Key::from_slice(&self.key));
        cipher.decrypt(Nonce::from_slice(nonce), Payload { msg: ciphertext, aad: kid.as_bytes() }).map_err(|_| {
            CoreError::internal(format!(
                "signing key {kid} cannot be decrypted: CANVAS_SIGNING_KEY_SECRET differs from the one it was sealed with"
            ))
        })
    }
}

/// A freshly generated key pair, public half in JWK form.
pub struct NewKey {
    /// Key id: creation date and random bits, unique and readable.
    pub kid: String,
    /// Affine x, base64url without padding.
    pub x: String,
    /// Affine y, base64url without padding.
    pub y: String,
    /// The private scalar (32 bytes), to be sealed before storing.
    pub private: SigningKey,
}

impl NewKey {
    pub fn generate() -> Result<Self, CoreError> {
        let private = loop {
            let mut scalar = [0u8; 32];
            getrandom::fill(&mut scalar).map_err(|e| CoreError::internal(format!("no randomness: {e}")))?;
            // Fails only for 0 or values >= the group order (probability ~2^-32).
            if let Ok(key) = SigningKey::from_slice(&scalar) {
                break key;
            }
        };
        let point = private.verifying_key().to_encoded_point(false);
        let (Some(x), Some(y)) = (point.x(), point.y()) else {
            return Err(CoreError::internal("generated public key has no affine coordinates"));
        };
        let mut tag = [0u8; 6];
        getrandom::fill(&mut tag).map_err(|e| CoreError::internal(format!("no randomness: {e}")))?;
        let kid = format!("{}-{}", chrono::Utc::now().format("%Y%m%d"), URL_SAFE_NO_PAD.encode(tag));
        Ok(Self { kid, x: URL_SAFE_NO_PAD.encode(x), y: URL_SAFE_NO_PAD.encode(y), private })
    }
}

/// Restores a private key from its 32 opened bytes.
pub fn signing_key(bytes: &[u8]) -> Result<SigningKey, CoreError> {
    SigningKey::from_slice(bytes).map_err(|_| CoreError::internal("a stored signing key is not a P-256 scalar"))
}

/// The `Webhook-Signature` value: `es256;kid=<kid>;<base64(r || s)>` over
/// `{id}.{timestamp}.{body}` (ECDSA P-256, SHA-256, deterministic nonces).
pub fn signature_header(kid: &str, key: &SigningKey, id: &str, timestamp: i64, body: &[u8]) -> String {
    let mut message = Vec::with_capacity(id.len() + body.len() + 24);
    message.extend_from_slice(id.as_bytes());
    message.push(b'.');
    message.extend_from_slice(timestamp.to_string().as_bytes());
    message.push(b'.');
    message.extend_from_slice(body);
    let signature: Signature = key.sign(&message);
    format!("es256;kid={kid};{}", STANDARD.encode(signature.to_bytes()))
}

#[cfg(test)]
mod tests {
    use p256::ecdsa::signature::Verifier;
    use p256::ecdsa::VerifyingKey;
    use p256::EncodedPoint;

    use super::*;

    #[test]
    fn sealed_keys_open_only_with_the_same_secret_and_kid() {
        let sealer = Sealer::from_secret("a-very-long-secret-of-at-least-32-chars").unwrap();
        let sealed = sealer.seal("kid-1", b"scalar bytes").unwrap();
        assert_ne!(&sealed[NONCE_BYTES..], b"scalar bytes".as_slice(), "stored encrypted");
        assert_eq!(sealer.open("kid-1", &sealed).unwrap(), b"scalar bytes");
        assert!(sealer.open("kid-2", &sealed).is_err(), "bound to its kid");
        let other = Sealer::from_secret("another-very-long-secret-of-32-chars!!").unwrap();
        assert!(other.open("kid-1", &sealed).is_err());
        assert!(Sealer::from_secret("short").is_err());
    }

    #[test]
    fn signatures_verify_with_the_published_coordinates_only() {
        let key = NewKey::generate().unwrap();
        let header = signature_header(&key.kid, &key.private, "msg-1", 1_700_000_000, b"{\"a\":1}");
        let parts: Vec<&str> = header.split(';').collect();
        assert_eq!(parts.len(), 3);
        assert_eq!(parts[0], "es256");
        assert_eq!(parts[1], format!("kid={}", key.kid));
        let raw = STANDARD.decode(parts[2]).unwrap();
        assert_eq!(raw.len(), 64, "r || s, 32 bytes each");

        let x = URL_SAFE_NO_PAD.decode(&key.x).unwrap();
        let y = URL_SAFE_NO_PAD.decode(&key.y).unwrap();
        let point = EncodedPoint::from_affine_coordinates(x.as_slice().into(), y.as_slice().into(), false);
        let public = VerifyingKey::from_encoded_point(&point).unwrap();
        let signature = Signature::from_slice(&raw).unwrap();
        assert!(public.verify(b"msg-1.1700000000.{\"a\":1}", &signature).is_ok());
        assert!(public.verify(b"msg-1.1700000001.{\"a\":1}", &signature).is_err());
    }

    #[test]
    fn a_key_survives_sealing() {
        let sealer = Sealer::from_secret("a-very-long-secret-of-at-least-32-chars").unwrap();
        let key = NewKey::generate().unwrap();
        let sealed = sealer.seal(&key.kid, &key.private.to_bytes()).unwrap();
        let restored = signing_key(&sealer.open(&key.kid, &sealed).unwrap()).unwrap();
        assert_eq!(restored.to_bytes(), key.private.to_bytes());
    }
}
