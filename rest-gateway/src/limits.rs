//! The REST gateway's request-body limits. What happens at them is the HTTP edge's rule, shared
//! with the MCP gateway (`canvas_runtime::edge`): a body whose `Content-Length` is over the limit is
//! drained within the edge's budget and time cap before the 413 goes out (`crate::app` for the API,
//! `crate::account` for the forms), bodies without a length are cut at the limit by axum's
//! `DefaultBodyLimit` in the handlers, and a body slower than `--body-timeout-secs` is cut off with
//! a 408.

/// Largest request body: 25 MiB, the spec's 25 MB limit with room for
/// multipart framing.
pub const MAX_BODY_BYTES: usize = canvas_vocabulary::limits::MAX_UPLOAD_BYTES;

/// Largest body of an account-site form or OAuth request: 64 KiB holds every form (a password is
/// at most 256 characters, an OAuth registration 16 KiB) many times over, and a sign-in form of
/// megabytes is never read whole just to be refused.
pub const MAX_FORM_BYTES: usize = 64 * 1024;

/// How much of an oversized account form is read and dropped: a browser posting a form of a few
/// megabytes sees the 413 page instead of a reset; beyond this the connection is closed. (An API
/// body gets the edge's `DRAIN_LIMIT`.)
pub const FORM_DRAIN_LIMIT: u64 = 4 * 1024 * 1024;
