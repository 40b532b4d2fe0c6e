//! Sign-in throttling, kept in the database so every replica counts alike.
//!
//! - Per account: the first [`FREE_FAILURES`] failures in a row cost nothing; each further one
//!   makes the account wait `2^(n - FREE_FAILURES)` seconds before its next attempt is checked
//!   at all, capped at `--sign-in-max-delay-secs` (60 s). A success clears the count, and a
//!   count idle for [`ACCOUNT_WINDOW`] is forgotten. So a run of wrong passwords slows a guesser
//!   down exponentially but never locks the right password out for longer than the cap.
//! - Per client address: more than [`ADDRESS_LIMIT`] failures within [`ADDRESS_WINDOW`] refuse
//!   that address's sign-ins until the window ends (a guesser spreading over many accounts).
//!
//! Unknown logins are counted under their own key, so throttling does not tell them apart
//! from real accounts either.

use chrono::{DateTime, Utc};

use super::AccountsService;
use crate::error::{CoreError, CoreResult};
use crate::service::access::credentials::secs;
use crate::storage::ThrottleRow;

pub const FREE_FAILURES: i32 = 5;
pub const ADDRESS_LIMIT: i32 = 50;
const ACCOUNT_WINDOW: chrono::Duration = chrono::Duration::hours(1);
const ADDRESS_WINDOW: chrono::Duration = chrono::Duration::minutes(15);

fn account_key(login: &str) -> String {
    format!("login:{login}")
}

fn address_key(address: &str) -> String {
    format!("address:{address}")
}

/// Seconds the account must still wait after `failures` failures in a row, the last at `last`.
fn account_wait(row: &ThrottleRow, now: DateTime<Utc>, cap_secs: u64) -> Option<u64> {
    if row.failures <= FREE_FAILURES || now - row.last_failure_at >= ACCOUNT_WINDOW {
        return None;
    }
    let exponent = u32::try_from(row.failures - FREE_FAILURES).unwrap_or(u32::MAX).min(30);
    let delay = (1u64 << exponent).min(cap_secs);
    remaining(row.last_failure_at + secs(delay), now)
}

fn address_wait(row: &ThrottleRow, now: DateTime<Utc>) -> Option<u64> {
    if row.failures <= ADDRESS_LIMIT {
        return None;
    }
    remaining(row.window_started_at + ADDRESS_WINDOW, now)
}

/// Whole seconds from `now` until `until`, rounded up; None once it has passed.
fn remaining(until: DateTime<Utc>, now: DateTime<Utc>) -> Option<u64> {
    let millis = (until - now).num_milliseconds();
    (millis > 0).then(|| u64::try_from(millis).unwrap_or(0).div_ceil(1000))
}

impl AccountsService {
    /// Refuses the attempt (RATE_LIMITED, with how long to wait) while the account or the
    /// address must wait. Checked before the password, so a waiting account costs no hashing.
    pub(crate) async fn check_sign_in_throttle(&self, login: &str, address: &str) -> CoreResult<()> {
        let mut keys = vec![account_key(login)];
        if !address.is_empty() {
            keys.push(address_key(address));
        }
        let now = Utc::now();
        let cap = self.settings.accounts.sign_in_max_delay_secs;
        let wait = self
            .store
            .throttle_rows(&keys)
            .await?
            .iter()
            .filter_map(|row| {
                if row.key.starts_with("login:") {
                    account_wait(row, now, cap)
                } else {
                    address_wait(row, now)
                }
            })
            .max();
        match wait {
            Some(secs) => Err(CoreError::RateLimited {
                message: format!("too many failed sign-ins; try again in {secs} seconds"),
                retry_after_secs: secs,
            }),
            None => Ok(()),
        }
    }

    pub(crate) async fn record_sign_in_failure(&self, login: &str, address: &str) -> CoreResult<()> {
        let now = Utc::now();
        // The account window is the longest: a count idle for longer can no longer slow anyone.
        let forget = now - ACCOUNT_WINDOW;
        self.store.record_sign_in_failure(&account_key(login), now, now - ACCOUNT_WINDOW, forget).await?;
        if !address.is_empty() {
            self.store.record_sign_in_failure(&address_key(address), now, now - ADDRESS_WINDOW, forget).await?;
        }
        Ok(())
    }

    pub(crate) async fn clear_sign_in_failures(&self, login: &str) -> CoreResult<()> {
        self.store.clear_sign_in_failures(&account_key(login)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(key: &str, failures: i32, started: DateTime<Utc>, last: DateTime<Utc>) -> ThrottleRow {
        ThrottleRow { key: key.into(), failures, window_started_at: started, last_failure_at: last }
    }

    #[test]
    fn an_account_waits_twice_as_long_after_each_failure_beyond_five_up_to_the_cap() {
        let now = Utc::now();
        let waits: Vec<Option<u64>> = (1..=20).map(|n| account_wait(&row("login:a", n, now, now), now, 60)).collect();
        assert_eq!(&waits[..5], &[None; 5]);
        assert_eq!(&waits[5..10], &[Some(2), Some(4), Some(8), Some(16), Some(32)]);
        assert!(waits[10..].iter().all(|w| *w == Some(60)), "{waits:?}");
        // After the wait, the next attempt is checked again.
        assert_eq!(account_wait(&row("login:a", 20, now, now - secs(60)), now, 60), None);
        // An old run is forgotten.
        assert_eq!(account_wait(&row("login:a", 20, now, now - chrono::Duration::hours(2)), now, 3600), None);
    }

    #[test]
    fn an_address_is_refused_past_its_limit_until_its_window_ends() {
        let now = Utc::now();
        assert_eq!(address_wait(&row("address:x", ADDRESS_LIMIT, now, now), now), None);
        assert_eq!(address_wait(&row("address:x", ADDRESS_LIMIT + 1, now, now), now), Some(15 * 60));
        let started = now - chrono::Duration::minutes(15);
        assert_eq!(address_wait(&row("address:x", 500, started, now), now), None);
    }
}
