//! Conditional writes (RFC 9110 section 13.2.2) on an item or a diagram record, evaluated by
//! core-service against the state it is about to change, inside the write's retry loop, so the
//! condition and the version-guarded write see the same state. The gateways read the headers
//! (protocol) and hand the conditions over; the comparison is here.
//!
//! The RFC's order for a state-changing request:
//! 1. `If-Match` (strong comparison): false → 412.
//! 2. Without `If-Match`, `If-Unmodified-Since`: modified after the date (whole seconds, the
//!    resolution of `Last-Modified`) → 412. The gateway leaves the date out when `If-Match` was
//!    sent, as step 2 says.
//! 3. `If-None-Match` (weak comparison): `*` or a listed version matches → 412 (a write never
//!    answers 304).
//!
//! `If-Modified-Since` is for reads only and never reaches a write.

use chrono::{DateTime, Utc};

use crate::error::{CoreError, CoreResult};

/// What an `If-None-Match` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoneMatch {
    /// `*`: any current representation (so any existing item or record).
    Any,
    /// These versions (weak and strong tags alike).
    Versions(Vec<i64>),
}

/// The conditions of one write; the default is none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Preconditions {
    /// `If-Match`: the write applies only at one of these versions (None: absent or `*`).
    pub if_match: Option<Vec<i64>>,
    /// `If-Unmodified-Since`.
    pub if_unmodified_since: Option<DateTime<Utc>>,
    /// `If-None-Match`.
    pub if_none_match: Option<NoneMatch>,
}

impl Preconditions {
    /// Only `If-Match` (what the MCP tools and older gRPC callers send).
    pub fn if_match(versions: Option<Vec<i64>>) -> Self {
        Self { if_match: versions, ..Self::default() }
    }

    /// Whether the write may go on, for `kind` at `version`, last changed at `updated_at`.
    pub fn check(&self, kind: &'static str, version: i64, updated_at: DateTime<Utc>) -> CoreResult<()> {
        let failed = |failed: &'static str, expected: Vec<i64>| CoreError::PreconditionFailed {
            kind,
            failed,
            expected,
            current: version,
        };
        match &self.if_match {
            Some(versions) if !versions.contains(&version) => return Err(failed("If-Match", versions.clone())),
            Some(_) => {}
            None => {
                if self.if_unmodified_since.is_some_and(|since| updated_at.timestamp() > since.timestamp()) {
                    return Err(failed("If-Unmodified-Since", Vec::new()));
                }
            }
        }
        match &self.if_none_match {
            Some(NoneMatch::Any) => Err(failed("If-None-Match", Vec::new())),
            Some(NoneMatch::Versions(versions)) if versions.contains(&version) => {
                Err(failed("If-None-Match", Vec::new()))
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(secs: i64) -> DateTime<Utc> {
        Utc.timestamp_opt(secs, 0).unwrap()
    }

    /// The RFC's evaluation order, row by row: (conditions, version 7 changed at t=100) → passes.
    #[test]
    fn the_rfc_order_for_a_write() {
        let none = || Preconditions::default();
        let rows: Vec<(&str, Preconditions, bool)> = vec![
            ("no conditions", none(), true),
            ("If-Match names the version", Preconditions::if_match(Some(vec![6, 7])), true),
            ("If-Match names another", Preconditions::if_match(Some(vec![6])), false),
            ("If-Match with no usable tag", Preconditions::if_match(Some(vec![])), false),
            ("If-Unmodified-Since at the change", Preconditions { if_unmodified_since: Some(at(100)), ..none() }, true),
            ("If-Unmodified-Since before it", Preconditions { if_unmodified_since: Some(at(99)), ..none() }, false),
            (
                "If-Unmodified-Since within the same second",
                Preconditions { if_unmodified_since: Some(Utc.timestamp_opt(100, 0).unwrap()), ..none() },
                true,
            ),
            (
                "If-Match true wins over a failing If-Unmodified-Since (step 2 skipped)",
                Preconditions { if_match: Some(vec![7]), if_unmodified_since: Some(at(1)), ..none() },
                true,
            ),
            ("If-None-Match *", Preconditions { if_none_match: Some(NoneMatch::Any), ..none() }, false),
            (
                "If-None-Match names the version",
                Preconditions { if_none_match: Some(NoneMatch::Versions(vec![7])), ..none() },
                false,
            ),
            (
                "If-None-Match names another",
                Preconditions { if_none_match: Some(NoneMatch::Versions(vec![6])), ..none() },
                true,
            ),
            (
                "If-Match true, then If-None-Match names the version",
                Preconditions { if_match: Some(vec![7]), if_none_match: Some(NoneMatch::Versions(vec![7])), ..none() },
                false,
            ),
            (
                "If-Unmodified-Since fails before If-None-Match is looked at",
                Preconditions {
                    if_unmodified_since: Some(at(1)),
                    if_none_match: Some(NoneMatch::Versions(vec![6])),
                    ..none()
                },
                false,
            ),
        ];
        for (name, conditions, passes) in rows {
            let outcome = conditions.check("item", 7, Utc.timestamp_opt(100, 500_000_000).unwrap());
            assert_eq!(outcome.is_ok(), passes, "{name}: {outcome:?}");
            if let Err(error) = outcome {
                assert!(matches!(error, CoreError::PreconditionFailed { current: 7, .. }), "{name}: {error:?}");
                assert!(error.to_string().starts_with("item is at version 7; "), "{name}: {error}");
            }
        }
    }
}
