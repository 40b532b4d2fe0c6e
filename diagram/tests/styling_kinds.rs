//! Styling and configuration beyond flowcharts: `classDef`, `class`/`cssClass`, `:::` and `style`
//! in class, state and ER diagrams, and a theme from front matter or `%%{init}%%`, as the drawn
//! boxes show them (fill, outline, outline width, text colour of the box and of its compartments).

use canvas_diagram::scene::{Scene, SceneBox};
use canvas_diagram::{layout, parse};

fn scene(source: &str) -> Scene {
    layout(&parse(source).unwrap_or_else(|e| panic!("{source}: {e}")))
}

fn shape<'a>(s: &'a Scene, id: &str) -> &'a SceneBox {
    s.boxes
        .iter()
        .find(|b| b.key == format!("n:{id}") || b.key == format!("sg:{id}"))
        .unwrap_or_else(|| panic!("no box for {id}"))
}

/// The colours of the texts drawn inside box `id` (its compartments).
fn texts_in(s: &Scene, id: &str) -> Vec<String> {
    let at = s.boxes.iter().position(|b| b.key == format!("n:{id}")).unwrap();
    s.texts.iter().filter(|t| t.owner == canvas_diagram::scene::Owner::Box(at)).map(|t| t.color.clone()).collect()
}

#[test]
fn class_diagrams_take_class_defs_css_classes_triple_colons_and_styles() {
    let s = scene(
        "classDiagram\nclass Animal:::warm {\n  +int age\n  +eat()\n}\nclass Duck\nDuck --|> Animal\nGoose:::warm\nclass Goose\n\
         classDef warm fill:#ffcc00,stroke:#333,stroke-width:3px,color:#111\nstyle Duck fill:#0000ff\n\
         cssClass \"Duck,Swan\" loud\nclassDef loud color:#ff0000\nclass Swan",
    );
    let animal = shape(&s, "Animal");
    assert_eq!((animal.fill.as_str(), animal.stroke.as_str(), animal.stroke_width), ("#FFCC00", "#333333", 3.0));
    let colours = texts_in(&s, "Animal");
    assert!(
        !colours.is_empty() && colours.iter().all(|c| c == "#111111"),
        "compartments in the class's text colour: {colours:?}"
    );
    assert_eq!(shape(&s, "Goose").fill, "#FFCC00", "`Name:::class` styles a class declared later");
    let duck = shape(&s, "Duck");
    assert_eq!((duck.fill.as_str(), duck.text_color.as_str()), ("#0000FF", "#FF0000"));
    assert_eq!(shape(&s, "Swan").text_color, "#FF0000", "cssClass may name a class declared later");
}

#[test]
fn state_diagrams_take_class_defs_classes_and_styles_and_a_composite_s_direction() {
    let s = scene(
        "stateDiagram-v2\nclassDef bad fill:#f00,color:white\n[*] --> Still\nStill --> Moving:::bad\nclass Still bad\n\
         state Crash {\n  direction LR\n  a --> b\n}\nstyle Crash fill:#222,stroke:#0f0",
    );
    for id in ["Still", "Moving"] {
        let b = shape(&s, id);
        assert_eq!((b.fill.as_str(), b.text_color.as_str()), ("#FF0000", "#FFFFFF"), "{id}");
    }
    let crash = shape(&s, "Crash");
    assert_eq!((crash.fill.as_str(), crash.stroke.as_str()), ("#222222", "#00FF00"));
    // Nothing outside links into Crash, so its own direction holds: a, then b to its right.
    let (a, b) = (shape(&s, "a").rect, shape(&s, "b").rect);
    assert!(b.x >= a.right() && (a.centre().1 - b.centre().1).abs() < 1.0, "{a:?} {b:?}");
}

#[test]
fn er_diagrams_take_class_defs_triple_colons_and_styles() {
    let s = scene("erDiagram\nCUSTOMER:::hot,big ||--o{ ORDER : places\nclassDef hot fill:#ff0000\nclassDef big stroke-width:5\nstyle ORDER stroke:#00ff00");
    let customer = shape(&s, "CUSTOMER");
    assert_eq!((customer.fill.as_str(), customer.stroke_width), ("#FF0000", 5.0));
    assert_eq!(shape(&s, "ORDER").stroke, "#00FF00");
}

#[test]
fn a_theme_from_front_matter_or_init_colours_what_the_diagram_leaves_unstyled() {
    let s = scene(
        "---\nconfig:\n  theme: forest\n---\n%%{init: {'themeVariables': {'lineColor': '#ff00ff'}}}%%\nflowchart LR\nsubgraph S\nA --> B\nend\nstyle B fill:#000000",
    );
    let a = shape(&s, "A");
    assert_eq!((a.fill.as_str(), a.stroke.as_str(), a.text_color.as_str()), ("#CDE498", "#13540C", "#000000"));
    assert_eq!(shape(&s, "B").fill, "#000000", "the diagram's own style wins over the theme");
    assert_eq!(shape(&s, "S").fill, "#CDFFB2");
    assert_eq!(s.lines[0].color, "#FF00FF");
    let class = scene("%%{init: {'themeVariables': {'primaryColor': '#123456'}}}%%\nclassDiagram\nclass A");
    assert_eq!(shape(&class, "A").fill, "#123456");
    // Mermaid's default and dark themes keep the map's own colours.
    let plain = scene("flowchart LR\nA");
    for theme in ["default", "dark", "base"] {
        let themed = scene(&format!("%%{{init: {{'theme': '{theme}'}}}}%%\nflowchart LR\nA"));
        assert_eq!(shape(&themed, "A"), shape(&plain, "A"), "{theme}");
    }
}
