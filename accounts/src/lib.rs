//! The pure rules of accounts and OAuth, with no storage and no transport: secrets (their
//! prefixes, generation, SHA-256 at rest, constant-time comparison: [`tokens`]), Argon2id
//! passwords ([`passwords`]), OAuth client registration and the redirect-URI rules ([`clients`]),
//! Client ID Metadata Documents ([`client_documents`]) and PKCE S256 ([`pkce`]). core-service's accounts, sessions and OAuth operations apply them.

pub mod client_documents;
pub mod clients;
pub mod passwords;
pub mod pkce;
pub mod tokens;
