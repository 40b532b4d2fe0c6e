//! Mermaid's configuration written in the source, read for what applies to items.
//!
//! Two places hold it, merged as Mermaid merges them: a leading front matter block's `config:`
//! (YAML), then each `%%{init: …}%%` (or `%%{initialize: …}%%`) directive over it, in order
//! (JSON5, as Mermaid accepts it: single quotes, unquoted keys). The front matter's `title` is read
//! here too.
//!
//! What applies: `theme` and `themeVariables`, the colours of what the diagram draws as boxes
//! and lines. The map draws on a dark page, and Mermaid's `default` and `dark` themes are its
//! own renderer's looks, so they keep the map's colours; `forest` and `neutral` give their main
//! colours; `base` is Mermaid's theme to be set by `themeVariables`, which apply over any theme:
//! `primaryColor`, `primaryBorderColor` and `primaryTextColor` (nodes, classes, entities,
//! states), `clusterBkg`, `clusterBorder` and `titleColor` (subgraphs, composite states),
//! `lineColor` (flowchart links). Styling statements in the diagram (`classDef`, `style`…) win
//! over the theme, as in Mermaid.
//!
//! What does not apply is ignored: `layout` (`elk`, `tidy-tree`: the map lays out its own way),
//! `look`, fonts and spacing, curves, `securityLevel`, and every other key. A configuration that
//! cannot be read (broken YAML or JSON5) is ignored too: it only changes colours, and the
//! diagram itself is still drawn.

use serde_json::{Map, Value};

use crate::styling::{Color, Style};

/// The configuration's parts that apply to items.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Config {
    /// The front matter's `title`.
    pub title: Option<String>,
    /// Colours under every node's own styling.
    pub node: Style,
    /// Colours under every subgraph's (composite state's) own styling.
    pub group: Style,
    /// Colours under every flowchart link's own styling.
    pub link: Style,
}

/// Reads the front matter and the directives of `source`.
pub fn read(source: &str) -> Config {
    let front = front_matter(source);
    let mut merged = Map::new();
    if let Some(Value::Object(config)) = front.as_ref().and_then(|f| f.get("config")) {
        deep_merge(&mut merged, config);
    }
    for directive in directives(source) {
        deep_merge(&mut merged, &directive);
    }
    let title = front.as_ref().and_then(|f| f.get("title")).and_then(scalar).filter(|t| !t.trim().is_empty());
    let mut config = Config { title, ..Config::default() };
    config.theme(merged.get("theme").and_then(Value::as_str).unwrap_or("default"));
    if let Some(Value::Object(variables)) = merged.get("themeVariables") {
        config.variables(variables);
    }
    config
}

impl Config {
    /// A named theme's main colours (Mermaid's `theme-forest` and `theme-neutral`).
    fn theme(&mut self, name: &str) {
        let (node, group, line) = match name.trim() {
            "forest" => (["#cde498", "#13540c", "#000000"], ["#cdffb2", "#6eaa49", "#333333"], "#008000"),
            "neutral" => (["#eeeeee", "#999999", "#111111"], ["#f4f4f4", "#999999", "#333333"], "#666666"),
            _ => return,
        };
        let colour = |css: &str| Color::parse(css);
        self.node =
            Style { fill: colour(node[0]), stroke: colour(node[1]), color: colour(node[2]), ..Style::default() };
        self.group =
            Style { fill: colour(group[0]), stroke: colour(group[1]), color: colour(group[2]), ..Style::default() };
        self.link = Style { stroke: colour(line), ..Style::default() };
    }

    /// `themeVariables` over the theme.
    fn variables(&mut self, variables: &Map<String, Value>) {
        let colour = |name: &str| variables.get(name).and_then(scalar).and_then(|v| Color::parse(&v));
        let set = |slot: &mut Option<Color>, name: &str| {
            if let Some(c) = colour(name) {
                *slot = Some(c);
            }
        };
        set(&mut self.node.fill, "primaryColor");
        set(&mut self.node.stroke, "primaryBorderColor");
        set(&mut self.node.color, "primaryTextColor");
        set(&mut self.group.fill, "clusterBkg");
        set(&mut self.group.stroke, "clusterBorder");
        set(&mut self.group.color, "titleColor");
        set(&mut self.link.stroke, "lineColor");
    }
}

/// A string or number as text (YAML reads `fill: 123456` as a number).
fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// `over`'s keys into `into`, objects merged key by key.
fn deep_merge(into: &mut Map<String, Value>, over: &Map<String, Value>) {
    for (key, value) in over {
        match (into.get_mut(key), value) {
            (Some(Value::Object(mine)), Value::Object(theirs)) => deep_merge(mine, theirs),
            _ => {
                into.insert(key.clone(), value.clone());
            }
        }
    }
}

/// The leading `---` block, read as YAML (None when absent or unreadable).
fn front_matter(source: &str) -> Option<Map<String, Value>> {
    let mut lines = source.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    lines.by_ref().find(|l| !l.trim().is_empty()).filter(|l| l.trim() == "---")?;
    let mut body = String::new();
    for line in lines {
        if line.trim() == "---" {
            return match serde_yaml_ng::from_str::<Value>(&body) {
                Ok(Value::Object(map)) => Some(map),
                _ => None,
            };
        }
        body.push_str(line);
        body.push('\n');
    }
    None
}

/// The `init` (or `initialize`) object of each `%%{…}%%` directive, in order.
fn directives(source: &str) -> Vec<Map<String, Value>> {
    let mut out = Vec::new();
    let mut rest = source;
    while let Some(start) = rest.find("%%{") {
        let after = &rest[start + 3..];
        let Some(end) = after.find("}%%") else { break };
        let body = &after[..end];
        rest = &after[end + 3..];
        let Ok(Value::Object(directive)) = json5::from_str::<Value>(&format!("{{{body}}}")) else { continue };
        for key in ["init", "initialize"] {
            if let Some(Value::Object(init)) = directive.get(key) {
                out.push(init.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(style: &Style) -> [Option<String>; 3] {
        [style.fill, style.stroke, style.color].map(|c| c.map(|c| c.hex_argb()))
    }

    #[test]
    fn front_matter_and_directives_merge_in_mermaid_s_order() {
        let source = "---\ntitle: \"Flows\"\nconfig:\n  theme: forest\n  themeVariables:\n    primaryColor: '#ff0000'\n    lineColor: '#0000ff'\n---\n\
                      %%{init: {'themeVariables': {'primaryColor': '#00ff00', primaryTextColor: 'white'}}}%%\nflowchart LR\nA";
        let config = read(source);
        assert_eq!(config.title.as_deref(), Some("Flows"));
        // The directive's primaryColor wins over the front matter's, which wins over the theme.
        assert_eq!(hex(&config.node), [Some("#00FF00".into()), Some("#13540C".into()), Some("#FFFFFF".into())]);
        assert_eq!(config.link.stroke.map(|c| c.hex_argb()).as_deref(), Some("#0000FF"));
        assert_eq!(hex(&config.group), [Some("#CDFFB2".into()), Some("#6EAA49".into()), Some("#333333".into())]);
    }

    #[test]
    fn what_does_not_apply_or_cannot_be_read_changes_nothing() {
        for source in [
            "flowchart LR\nA",
            "---\nconfig:\n  layout: elk\n  look: handDrawn\n---\nflowchart LR\nA",
            "%%{init: {'theme': 'dark', 'flowchart': {'curve': 'linear'}}}%%\nflowchart LR\nA",
            "%%{init: {'theme':'default'}}%%\ngraph\nA",
            "---\nconfig: [unclosed\n---\nflowchart\nA",
            "%%{init: {'themeVariables': {'primaryColor': 'not a colour'}}}%%\nflowchart\nA",
            "%%{init: {oops}%%\nflowchart\nA",
            "%%{init: ",
            "---\ntitle: |\n  two\n  lines\n",
        ] {
            let config = read(source);
            assert_eq!((config.node, config.group, config.link), Default::default(), "{source}");
        }
        assert_eq!(read("---\ntitle: 2024\n---\ngraph\nA").title.as_deref(), Some("2024"));
        assert_eq!(read("---\nconfig:\n  title: no\n---\ngraph").title, None);
    }
}
