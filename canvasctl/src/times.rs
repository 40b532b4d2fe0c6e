//! How canvasctl writes a time: one format in every answer, text and `--json` alike.

/// A time as every canvasctl answer writes it: RFC 3339 in UTC with seconds
/// (`2026-12-06T07:43:30Z`), as the REST API does; `None` when the time is absent.
pub(crate) fn rfc3339(at: Option<&prost_types::Timestamp>) -> Option<String> {
    let at = at?;
    let time = chrono::DateTime::from_timestamp(at.seconds, u32::try_from(at.nanos).unwrap_or(0))?;
    Some(time.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
}

#[cfg(test)]
mod tests {
    #[test]
    fn times_are_rfc_3339_in_utc_with_seconds() {
        let at = prost_types::Timestamp { seconds: 1_796_543_010, nanos: 500_000_000 };
        assert_eq!(super::rfc3339(Some(&at)).as_deref(), Some("2026-12-06T07:43:30Z"));
        assert_eq!(super::rfc3339(None), None);
    }
}
