//! The token check of one `tools/call`: filled in by the tool's own core-service calls, read by
//! the transport before it answers (see [`crate::auth`] for why a tool call needs no `WhoAmI`).
//! Its own module so that the request's state (which carries it) and the authentication (which
//! reads it) do not import each other.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Mutex;

use canvas_proto::failure::Refusal;

/// What core-service said of the token while a tool ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// No core-service answer says anything of the token (no call was made, or none was answered).
    Unknown,
    /// A call was answered as this caller: core-service authenticates every call before anything
    /// else, so any answer but UNAUTHENTICATED accepted the token.
    Accepted,
    /// A call was answered UNAUTHENTICATED.
    Refused,
}

/// The token check of one `tools/call`, filled in by the tool's own core-service calls and read
/// by the transport before it sends the answer. Shared by the clones of the request's [`Caller`].
#[derive(Debug, Default)]
pub struct TokenCheck {
    /// A core-service call was sent with the caller's credentials.
    sent: AtomicBool,
    /// The [`Verdict`] (as its index), [`Verdict::Unknown`] until the tool settles it.
    verdict: AtomicU8,
    /// The caller's request budget was used up: an HTTP 429, as when `WhoAmI` meets it.
    rate_limited: Mutex<Option<Refusal>>,
}

impl TokenCheck {
    /// Notes that a core-service call carries the credentials.
    pub fn sent(&self) {
        self.sent.store(true, Ordering::Release);
    }

    /// Settles the verdict from how the tool ended (its last core-service answer, or its output).
    pub fn settle(&self, verdict: Verdict) {
        let code = match verdict {
            Verdict::Unknown => 0,
            Verdict::Accepted => 1,
            Verdict::Refused => 2,
        };
        self.verdict.store(code, Ordering::Release);
    }

    /// Notes that core-service refused a call for the caller's rate limit.
    pub fn rate_limited(&self, refusal: &Refusal) {
        if let Ok(mut slot) = self.rate_limited.lock() {
            *slot = Some(refusal.clone());
        }
    }

    /// The rate-limit refusal met by the tool, if any.
    pub fn rate_limit(&self) -> Option<Refusal> {
        self.rate_limited.lock().ok().and_then(|slot| slot.clone())
    }

    /// The verdict; an acceptance counts only when a call was sent (a tool whose arguments the
    /// gateway refused reached no core-service).
    pub fn verdict(&self) -> Verdict {
        match self.verdict.load(Ordering::Acquire) {
            2 => Verdict::Refused,
            1 if self.sent.load(Ordering::Acquire) => Verdict::Accepted,
            _ => Verdict::Unknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_acceptance_needs_a_call() {
        let check = TokenCheck::default();
        check.settle(Verdict::Accepted);
        assert_eq!(check.verdict(), Verdict::Unknown, "the gateway refused the arguments: nothing was checked");
        check.sent();
        assert_eq!(check.verdict(), Verdict::Accepted);
        check.settle(Verdict::Refused);
        assert_eq!(check.verdict(), Verdict::Refused);
    }
}
