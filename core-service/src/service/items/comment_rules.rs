//! The rules of a comment's fields (docs/COMMENTS.md "Rules"), pure: its text (the label rule,
//! bounded), the `@login` mentions read from it, a thread's point, and the listing's `status`.

use serde_json::Value;

use crate::error::{CoreError, CoreResult};
use canvas_items::schema::{parse_value, Kind};
use canvas_vocabulary::limits::comments::{MAX_COORDINATE, MAX_MENTIONS, MAX_TEXT_CHARS, STATUSES};

/// A comment's text: required, not blank, at most [`MAX_TEXT_CHARS`] characters, storable (no
/// U+0000), plain text or HTML under the label rule (no active content). Kept as written.
pub(super) fn comment_text(raw: Option<&str>) -> CoreResult<String> {
    let Some(text) = raw else {
        return Err(CoreError::invalid("text", "is required"));
    };
    let chars = text.chars().count();
    if chars > MAX_TEXT_CHARS {
        return Err(CoreError::invalid(
            "text",
            format!("must be at most {MAX_TEXT_CHARS} characters (it has {chars})"),
        ));
    }
    canvas_domain::text::check("text", text).map_err(CoreError::from)?;
    let mut errors = Vec::new();
    match parse_value(Kind::RichText, "text", &Value::String(text.to_owned()), &mut errors) {
        Some(Value::String(text)) => Ok(text),
        _ => Err(CoreError::Validation(errors)),
    }
}

/// Whether `c` may be in a login (the account site's rule: letters, digits and `. _ - @ +`).
fn login_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '@' | '+')
}

/// The logins `text` mentions, lower-cased, each once, in the order first mentioned: the longest
/// login-shaped run after an `@` that begins the text or follows a character that cannot be in a
/// login, without trailing `.` `-` `_` (sentence punctuation). HTML is read as its text.
pub(super) fn mentioned_logins(text: &str) -> Vec<String> {
    let plain = canvas_html::to_text(text);
    let chars: Vec<char> = plain.chars().collect();
    let mut logins: Vec<String> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts = chars[i] == '@' && (i == 0 || !login_char(chars[i - 1]));
        if !starts {
            i += 1;
            continue;
        }
        let mut end = i + 1;
        while end < chars.len() && login_char(chars[end]) {
            end += 1;
        }
        let run: String = chars[i + 1..end].iter().collect();
        let login = run.trim_end_matches(['.', '-', '_']).to_lowercase();
        // A run whose lower case leaves the login characters (a dotted capital I) names no login.
        if !login.is_empty() && login.chars().all(login_char) && !logins.contains(&login) {
            logins.push(login);
        }
        i = end.max(i + 1);
    }
    logins
}

/// At most [`MAX_MENTIONS`] people in one comment.
pub(super) fn check_mention_count(count: usize) -> CoreResult<()> {
    if count > MAX_MENTIONS {
        return Err(CoreError::invalid(
            "text",
            format!("mentions {count} people; at most {MAX_MENTIONS} may be mentioned"),
        ));
    }
    Ok(())
}

/// A thread's point: finite coordinates within ±[`MAX_COORDINATE`].
pub(super) fn thread_point(x: f64, y: f64) -> CoreResult<(f64, f64)> {
    for (field, value) in [("position.x", x), ("position.y", y)] {
        if !value.is_finite() || value.abs() > MAX_COORDINATE {
            return Err(CoreError::invalid(
                field,
                format!("must be a number between -{MAX_COORDINATE} and {MAX_COORDINATE}"),
            ));
        }
    }
    Ok((x, y))
}

/// The listing's `status`: None for all, Some(resolved?) otherwise.
pub(super) fn status_filter(raw: Option<&str>) -> CoreResult<Option<bool>> {
    match raw.map(|s| s.trim().to_ascii_lowercase()).as_deref() {
        None | Some("") | Some("all") => Ok(None),
        Some("open") => Ok(Some(false)),
        Some("resolved") => Ok(Some(true)),
        Some(_) => Err(CoreError::invalid("status", format!("must be one of {}", STATUSES.join(", ")))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn mentions_start_at_an_at_sign_that_begins_a_word() {
        assert_eq!(mentioned_logins("@ann can you, @Bob.?"), ["ann", "bob"]);
        assert_eq!(mentioned_logins("write to bob@example.com"), Vec::<String>::new());
        assert_eq!(mentioned_logins("(@ann.lee) and @ann.lee again"), ["ann.lee"]);
        assert_eq!(mentioned_logins("@ann@example.com, thanks"), ["ann@example.com"]);
        assert_eq!(mentioned_logins("<p>ask <b>@zoë</b></p>"), ["zoë"]);
        assert_eq!(mentioned_logins("@ @. @-"), Vec::<String>::new());
    }

    #[test]
    fn text_is_the_label_rule_bounded() {
        assert!(comment_text(None).is_err());
        assert!(comment_text(Some("  ")).is_err());
        assert!(comment_text(Some("<script>x</script>")).is_err());
        assert!(comment_text(Some("a\u{0}b")).is_err());
        assert!(comment_text(Some(&"é".repeat(MAX_TEXT_CHARS))).is_ok());
        assert!(comment_text(Some(&"é".repeat(MAX_TEXT_CHARS + 1))).is_err());
        assert_eq!(comment_text(Some("<b>ok</b>")).ok().as_deref(), Some("<b>ok</b>"));
    }

    #[test]
    fn points_and_statuses() {
        assert!(thread_point(f64::NAN, 0.0).is_err());
        assert!(thread_point(0.0, MAX_COORDINATE * 2.0).is_err());
        assert_eq!(thread_point(-MAX_COORDINATE, 5.5).ok(), Some((-MAX_COORDINATE, 5.5)));
        assert_eq!(status_filter(Some("Open")).ok(), Some(Some(false)));
        assert_eq!(status_filter(None).ok(), Some(None));
        assert!(status_filter(Some("closed")).is_err());
    }

    proptest! {
        /// Whatever the text, every login read is non-empty, lower-case, made of login characters,
        /// without trailing punctuation, read once, and was written after an `@` in the text.
        #[test]
        fn every_mention_read_is_a_login_written_after_an_at(text in "\\PC{0,80}") {
            let logins = mentioned_logins(&text);
            let lowered = canvas_html::to_text(&text).to_lowercase();
            let mut seen = std::collections::HashSet::new();
            for login in &logins {
                prop_assert!(!login.is_empty());
                prop_assert!(login.chars().all(login_char));
                prop_assert!(!login.ends_with(['.', '-', '_']));
                prop_assert!(seen.insert(login.clone()), "{login} read twice");
                prop_assert!(lowered.contains(&format!("@{login}")), "{login} not after an @ in {text:?}");
            }
        }

        /// A mention written between spaces is read back exactly (lower-cased).
        #[test]
        fn a_login_between_spaces_is_read(login in "[A-Za-z0-9][A-Za-z0-9._+-]{0,20}[A-Za-z0-9]", before in "[a-z ]{0,10}") {
            let text = format!("{before} @{login} please");
            prop_assert_eq!(mentioned_logins(&text), vec![login.to_lowercase()]);
        }
    }
}
