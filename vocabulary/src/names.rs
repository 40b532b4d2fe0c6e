//! How names sent by clients are compared: property names, request fields and option names.

/// The form in which names are compared: lower case without `_` and `-`, so `fontSize`,
/// `FontSize`, `font_size` and `font-size` are the same name.
pub fn fold_name(name: &str) -> String {
    name.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn casings_and_separators_fold_alike() {
        for spelling in ["fontSize", "FontSize", "font_size", "font-size", "FONT-SIZE"] {
            assert_eq!(fold_name(spelling), "fontsize");
        }
    }
}
