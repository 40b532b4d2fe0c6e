//! The allow-lists of the SVG sanitiser and its URL rule.
//!
//! Anything absent from these lists is removed: an element with its whole subtree, an attribute on its
//! own. The lists follow SVG 1.1/2 and the choices of DOMPurify's SVG profile: shapes, text, paint
//! servers, clipping, masking, markers and filter primitives stay; scripting, embedding, animation that
//! can rewrite attributes (`animate`, `set`), fonts, cursors and foreign content go. Element and
//! attribute names are case-sensitive in SVG, so the lists are too.

/// Elements kept (in the SVG namespace, or in no namespace, which is read as SVG).
///
/// Notable absences: `script`, `foreignObject`, `iframe`, `object`, `embed`, `audio`, `video`,
/// `canvas`, `handler`, `listener`, `animate`, `set`, `animateColor`, `discard`, `cursor`, `font`,
/// `font-face`, `glyph`, `metadata`, `view`, `tref`.
pub const ELEMENTS: &[&str] = &[
    // structure
    "svg",
    "g",
    "defs",
    "symbol",
    "use",
    "switch",
    "a",
    "title",
    "desc",
    "style",
    // shapes and images
    "path",
    "rect",
    "circle",
    "ellipse",
    "line",
    "polyline",
    "polygon",
    "image",
    // text
    "text",
    "tspan",
    "textPath",
    // paint servers, clipping, masking, markers
    "linearGradient",
    "radialGradient",
    "stop",
    "pattern",
    "clipPath",
    "mask",
    "marker",
    // motion along a path and transform animation cannot change attributes other than position
    "animateMotion",
    "animateTransform",
    "mpath",
    // filters
    "filter",
    "feBlend",
    "feColorMatrix",
    "feComponentTransfer",
    "feComposite",
    "feConvolveMatrix",
    "feDiffuseLighting",
    "feDisplacementMap",
    "feDistantLight",
    "feDropShadow",
    "feFlood",
    "feFuncA",
    "feFuncB",
    "feFuncG",
    "feFuncR",
    "feGaussianBlur",
    "feImage",
    "feMerge",
    "feMergeNode",
    "feMorphology",
    "feOffset",
    "fePointLight",
    "feSpecularLighting",
    "feSpotLight",
    "feTile",
    "feTurbulence",
];

/// Attributes in no namespace kept on any allowed element, besides `aria-*`.
///
/// Notable absences: every `on*` event handler, `src`, `xml:base`, `requiredExtensions` (a URI list),
/// `externalResourcesRequired`, `target`, `data-*`. `attributeName` is kept only when it names
/// `transform`, `gradientTransform` or `patternTransform` (on `animateTransform`).
pub const ATTRIBUTES: &[&str] = &[
    // core, styling and accessibility
    "id",
    "class",
    "style",
    "lang",
    "role",
    "tabindex",
    "systemLanguage",
    "version",
    "baseProfile",
    // geometry and coordinate systems
    "x",
    "y",
    "x1",
    "y1",
    "x2",
    "y2",
    "cx",
    "cy",
    "r",
    "rx",
    "ry",
    "fx",
    "fy",
    "fr",
    "width",
    "height",
    "d",
    "points",
    "pathLength",
    "transform",
    "viewBox",
    "preserveAspectRatio",
    "transform-origin",
    // text layout
    "dx",
    "dy",
    "rotate",
    "textLength",
    "lengthAdjust",
    "startOffset",
    "method",
    "spacing",
    "side",
    // paint servers, clipping, masking, markers
    "gradientUnits",
    "gradientTransform",
    "spreadMethod",
    "offset",
    "patternUnits",
    "patternContentUnits",
    "patternTransform",
    "clipPathUnits",
    "maskUnits",
    "maskContentUnits",
    "markerUnits",
    "markerWidth",
    "markerHeight",
    "refX",
    "refY",
    "orient",
    "href",
    // filter primitives
    "filterUnits",
    "primitiveUnits",
    "in",
    "in2",
    "result",
    "stdDeviation",
    "mode",
    "operator",
    "k1",
    "k2",
    "k3",
    "k4",
    "values",
    "type",
    "tableValues",
    "slope",
    "intercept",
    "amplitude",
    "exponent",
    "order",
    "kernelMatrix",
    "divisor",
    "bias",
    "targetX",
    "targetY",
    "edgeMode",
    "kernelUnitLength",
    "preserveAlpha",
    "surfaceScale",
    "diffuseConstant",
    "specularConstant",
    "specularExponent",
    "scale",
    "xChannelSelector",
    "yChannelSelector",
    "azimuth",
    "elevation",
    "pointsAtX",
    "pointsAtY",
    "pointsAtZ",
    "limitingConeAngle",
    "z",
    "radius",
    "baseFrequency",
    "numOctaves",
    "seed",
    "stitchTiles",
    // animateMotion / animateTransform timing and values
    "attributeName",
    "attributeType",
    "begin",
    "dur",
    "end",
    "min",
    "max",
    "restart",
    "repeatCount",
    "repeatDur",
    "fill",
    "calcMode",
    "keyTimes",
    "keySplines",
    "keyPoints",
    "from",
    "to",
    "by",
    "additive",
    "accumulate",
    "path",
    // presentation attributes (CSS properties); those that can hold url() are in URL_PROPERTIES too
    "alignment-baseline",
    "baseline-shift",
    "clip",
    "clip-path",
    "clip-rule",
    "color",
    "color-interpolation",
    "color-interpolation-filters",
    "color-rendering",
    "cursor",
    "direction",
    "display",
    "dominant-baseline",
    "fill-opacity",
    "fill-rule",
    "filter",
    "flood-color",
    "flood-opacity",
    "font-family",
    "font-size",
    "font-size-adjust",
    "font-stretch",
    "font-style",
    "font-variant",
    "font-weight",
    "image-rendering",
    "letter-spacing",
    "lighting-color",
    "marker-start",
    "marker-mid",
    "marker-end",
    "mask",
    "mix-blend-mode",
    "isolation",
    "opacity",
    "overflow",
    "paint-order",
    "pointer-events",
    "shape-rendering",
    "stop-color",
    "stop-opacity",
    "stroke",
    "stroke-dasharray",
    "stroke-dashoffset",
    "stroke-linecap",
    "stroke-linejoin",
    "stroke-miterlimit",
    "stroke-opacity",
    "stroke-width",
    "text-anchor",
    "text-decoration",
    "text-rendering",
    "unicode-bidi",
    "vector-effect",
    "visibility",
    "word-spacing",
    "writing-mode",
    // <style> element
    "media",
    "title",
];

/// Attributes whose value is CSS that may contain `url(...)`; their values go through the CSS
/// sanitiser. `style` holds declarations; the others hold one property value each.
pub(crate) const URL_PROPERTIES: &[&str] =
    &["style", "fill", "stroke", "clip-path", "mask", "filter", "marker-start", "marker-mid", "marker-end", "cursor"];

/// The attributes `animateTransform` may target; anything else (`href` above all) is refused.
pub(crate) const ANIMATABLE: &[&str] = &["transform", "gradientTransform", "patternTransform"];

/// Raster types an embedded `data:` URI may carry. `image/svg+xml` is absent: a nested SVG would
/// escape this sanitiser.
const DATA_IMAGE_TYPES: &[&str] = &["image/png", "image/jpeg", "image/gif", "image/webp"];

/// Whether an element (local name, in the SVG or no namespace) is kept.
pub(crate) fn element_allowed(name: &str) -> bool {
    ELEMENTS.contains(&name)
}

/// Whether an attribute in no namespace is kept (the value checks come after).
pub(crate) fn attribute_allowed(name: &str) -> bool {
    ATTRIBUTES.contains(&name)
        || name
            .strip_prefix("aria-")
            .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'))
}

/// The URL rule for `href`/`xlink:href` and for CSS `url(...)`: a same-document fragment (`#id`) or a
/// `data:` URI of one of the four raster types. Everything else (other documents, `javascript:`,
/// `data:text/html`, relative paths, protocol-relative URLs) is refused.
pub(crate) fn url_allowed(raw: &str) -> bool {
    // Browsers ignore leading/trailing whitespace and control characters in URLs, and strip tabs and
    // newlines anywhere; normalise the same way before deciding so `java\tscript:` cannot slip through.
    let url: String = raw.chars().filter(|c| !matches!(c, '\t' | '\n' | '\r')).collect();
    let url = url.trim_matches(|c: char| c.is_ascii_whitespace() || c.is_ascii_control());
    if let Some(fragment) = url.strip_prefix('#') {
        return !fragment.is_empty() && !fragment.contains(['(', ')', '\'', '"', '\\']);
    }
    let Some(rest) = strip_prefix_ignore_case(url, "data:") else {
        return false;
    };
    let Some((header, _payload)) = rest.split_once(',') else {
        return false;
    };
    let media_type = header.split(';').next().unwrap_or("").trim();
    DATA_IMAGE_TYPES.iter().any(|allowed| media_type.eq_ignore_ascii_case(allowed))
}

fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| &text[prefix.len()..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_rule_accepts_fragments_and_raster_data_only() {
        assert!(url_allowed("#grad1"));
        assert!(url_allowed(" data:image/PNG;base64,iVBORw0KGgo= "));
        assert!(!url_allowed("#"));
        assert!(!url_allowed("https://example.com/a.png"));
        assert!(!url_allowed("//example.com/a.png"));
        assert!(!url_allowed("java\tscript:alert(1)"));
        assert!(!url_allowed("data:text/html;base64,PHNjcmlwdD4="));
        assert!(!url_allowed("data:image/svg+xml,<svg/>"));
        assert!(!url_allowed("other.svg#frag"));
    }

    #[test]
    fn attribute_list_refuses_handlers() {
        assert!(attribute_allowed("fill"));
        assert!(attribute_allowed("aria-label"));
        assert!(!attribute_allowed("onload"));
        assert!(!attribute_allowed("aria-"));
        assert!(!element_allowed("script"));
        assert!(!element_allowed("foreignObject"));
    }
}
