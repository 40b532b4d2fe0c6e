//! Signing keys: generation, encryption at rest, and ES256 signatures.
//!
//! One key signs the calls of every project. Private keys leave this module
//! only sealed (ChaCha20-Poly1305 under a key derived from the configured
//! secret, with the key id as associated data so a sealed key cannot be
//! swapped under another id) and are opened in memory only to sign.
//!
//! Keys are made and checked with `p256`; an opened key signs through ring's P-256 ([`Signer`]),
//! whose assembly signs several times faster than `p256`'s portable code: every delivery is
//! signed in the lease, and signing was a sixth of the process's time under load
//! (docs/PERFORMANCE.md, "Signing with ring").

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use std::sync::Arc;

use p256::ecdsa::SigningKey;
use ring::rand::SystemRandom;
use ring::signature::{EcdsaKeyPair, ECDSA_P256_SHA256_FIXED_SIGNING};
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

/// An opened private key, ready to sign (cheap to clone: the key pair is shared).
#[derive(Clone)]
pub struct Signer {
    pair: Arc<EcdsaKeyPair>,
    random: SystemRandom,
}

impl std::fmt::Debug for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Signer(<private key>)")
    }
}

impl Signer {
    /// Opens the key of `private` (the 32-byte scalar): its public point is computed again, so a
    /// key pair that does not match cannot be made.
    pub fn from_private(private: &[u8]) -> Result<Self, CoreError> {
        let key = SigningKey::from_slice(private)
            .map_err(|_| CoreError::internal("a stored signing key is not a P-256 scalar"))?;
        let public = key.verifying_key().to_encoded_point(false);
        let random = SystemRandom::new();
        let pair = EcdsaKeyPair::from_private_key_and_public_key(
            &ECDSA_P256_SHA256_FIXED_SIGNING,
            private,
            public.as_bytes(),
            &random,
        )
        .map_err(|e| CoreError::internal(format!("a stored signing key cannot sign: {e}")))?;
        Ok(Self { pair: Arc::new(pair), random })
    }

    /// `r || s` (64 bytes) of `message`: ECDSA P-256 over SHA-256, a fresh nonce each time
    /// (ring draws it with the system's random source).
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, CoreError> {
        let signature =
            self.pair.sign(&self.random, message).map_err(|_| CoreError::internal("signing a webhook call failed"))?;
        Ok(signature.as_ref().to_vec())
    }
}

/// The `Webhook-Signature` value: `es256;kid=<kid>;<base64(r || s)>` over
/// `{id}.{timestamp}.{body}` (ECDSA P-256, SHA-256).
pub fn signature_header(kid: &str, key: &Signer, id: &str, timestamp: i64, body: &[u8]) -> Result<String, CoreError> {
    let mut message = Vec::with_capacity(id.len() + body.len() + 24);
    message.extend_from_slice(id.as_bytes());
    message.push(b'.');
    message.extend_from_slice(timestamp.to_string().as_bytes());
    message.push(b'.');
    message.extend_from_slice(body);
    Ok(format!("es256;kid={kid};{}", STANDARD.encode(key.sign(&message)?)))
}

#[cfg(test)]
mod tests {
    use p256::ecdsa::signature::Verifier;
    use p256::ecdsa::{Signature, VerifyingKey};
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
        let signer = Signer::from_private(&key.private.to_bytes()).unwrap();
        let header = signature_header(&key.kid, &signer, "msg-1", 1_700_000_000, b"{\"a\":1}").unwrap();
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
        // Each signature takes a fresh nonce, and each verifies.
        let again = signature_header(&key.kid, &signer, "msg-1", 1_700_000_000, b"{\"a\":1}").unwrap();
        assert_ne!(again, header, "a fresh nonce per signature");
        let raw = STANDARD.decode(again.rsplit(';').next().unwrap()).unwrap();
        assert!(public.verify(b"msg-1.1700000000.{\"a\":1}", &Signature::from_slice(&raw).unwrap()).is_ok());
    }

    #[test]
    fn a_key_that_is_not_a_scalar_cannot_sign() {
        assert!(Signer::from_private(&[0u8; 32]).is_err(), "zero");
        assert!(Signer::from_private(&[0xff; 32]).is_err(), "above the group order");
        assert!(Signer::from_private(&[1u8; 31]).is_err(), "short");
    }

    #[test]
    fn a_key_survives_sealing() {
        let sealer = Sealer::from_secret("a-very-long-secret-of-at-least-32-chars").unwrap();
        let key = NewKey::generate().unwrap();
        let sealed = sealer.seal(&key.kid, &key.private.to_bytes()).unwrap();
        let restored = sealer.open(&key.kid, &sealed).unwrap();
        assert_eq!(restored, key.private.to_bytes().to_vec());
        assert!(Signer::from_private(&restored).is_ok());
    }
}
