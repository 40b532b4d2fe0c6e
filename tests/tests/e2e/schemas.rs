//! The schemas clients are given against core-service's property table: the OpenAPI item bodies
//! and reads as served at `/api/openapi.json`, the MCP tool schemas and descriptions as
//! `tools/list` answers them, and real GET answers against the documented reads. The table is
//! read here kind by kind (`Kind`, the spec's rules), not through the export that generated the
//! schemas, so a change to either that makes them disagree fails here: names, types, required,
//! enumerations, defaults and numeric bounds.

use std::collections::BTreeSet;

use canvas_items::{definitions, ItemType};
use canvas_tests::{Backend, TestApp};
use canvas_vocabulary::items::{
    Creation, Kind, PropertyDef, CONNECTOR, CONNECTOR_POINT, DECORATORS, FILE_NAME_MAX_CHARS, IMAGE, LINE_TYPES,
    MIN_SIZE,
};
use canvas_vocabulary::limits::{retrieval, PageSize, ITEMS_PAGE, PROJECTS_PAGE};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::mcp::rpc;
use crate::support::{owner_with_project, send};

/// `sticky-note` → `StickyNote`, `fontSize` → `FontSize`.
fn pascal(name: &str) -> String {
    name.split('-').map(|word| word[..1].to_uppercase() + &word[1..]).collect()
}

fn names(schema: &Value, key: &str) -> BTreeSet<String> {
    match &schema[key] {
        Value::Object(map) => map.keys().cloned().collect(),
        Value::Array(list) => list.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        _ => BTreeSet::new(),
    }
}

/// The schema's type, without the `null` OpenAPI adds to optional properties.
fn type_of(schema: &Value) -> String {
    match &schema["type"] {
        Value::Array(types) => types.iter().find(|t| *t != "null").and_then(Value::as_str).unwrap_or("").to_owned(),
        other => other.as_str().unwrap_or("").to_owned(),
    }
}

fn words(schema: &Value) -> Vec<String> {
    schema["enum"].as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
}

fn number(schema: &Value, key: &str) -> Option<f64> {
    schema.get(key).and_then(Value::as_f64)
}

/// What `schema` must say for a value of `kind`; the disagreements, in words.
fn kind_errors(kind: Kind, schema: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    let mut expect = |what: &str, ok: bool| {
        if !ok {
            errors.push(format!("{what}: {schema}"));
        }
    };
    let size_members = |min: f64, required: bool| {
        let member = |name: &str| number(&schema["properties"][name], "minimum") == Some(min);
        member("width") && member("height") && (names(schema, "required").len() == 2) == required
    };
    match kind {
        Kind::Point => expect("{x, y}", names(schema, "required") == names(&json!({"r": ["x", "y"]}), "r")),
        Kind::Size => expect("each dimension >= MIN_SIZE, both required", size_members(MIN_SIZE, true)),
        Kind::AutoSize => expect("each dimension >= 0, either omitted", size_members(0.0, false)),
        Kind::NumberAbove(min) => expect("> min", number(schema, "exclusiveMinimum") == Some(min)),
        Kind::NumberAtLeast(min) => expect(">= min", number(schema, "minimum") == Some(min)),
        Kind::NumberBetween(min, max) => {
            expect("between", number(schema, "minimum") == Some(min) && number(schema, "maximum") == Some(max))
        }
        Kind::Name(max) => expect("length", schema["maxLength"] == json!(max) && schema["minLength"] == json!(1)),
        Kind::FileName => expect("file name length", schema["maxLength"] == json!(FILE_NAME_MAX_CHARS)),
        Kind::OneOf(list) => expect("enumeration", words(schema) == list),
        Kind::HexColor => expect("hex pattern", schema["pattern"].as_str().is_some_and(|p| p.starts_with("^#"))),
        Kind::NonNegativeList => expect("items >= 0", number(&schema["items"], "minimum") == Some(0.0)),
        Kind::ByteCount => expect("bytes >= 0", number(schema, "minimum") == Some(0.0)),
        Kind::ConnectorPoint => {
            let members: BTreeSet<String> = CONNECTOR_POINT.iter().map(|d| d.name.to_owned()).collect();
            expect("end members", names(schema, "properties") == members);
            expect("no other members", schema["additionalProperties"] == json!(false));
            expect("decorators", words(&schema["properties"]["decorator"]) == DECORATORS);
        }
        Kind::RichText | Kind::CssColor => expect("not empty", schema["minLength"] == json!(1)),
        Kind::TagIds => expect(
            "at most the per-item tags, each once",
            schema["maxItems"] == json!(canvas_vocabulary::limits::tags::MAX_PER_ITEM)
                && schema["uniqueItems"] == json!(true),
        ),
        Kind::Bool | Kind::PointList | Kind::WebUrl | Kind::ItemId => {}
    }
    let expected_type = match kind {
        Kind::Point | Kind::Size | Kind::AutoSize | Kind::ConnectorPoint => "object",
        Kind::NumberAbove(_) | Kind::NumberAtLeast(_) | Kind::NumberBetween(..) => "number",
        Kind::ByteCount => "integer",
        Kind::Bool => "boolean",
        Kind::NonNegativeList | Kind::PointList | Kind::TagIds => "array",
        _ => "string",
    };
    expect(&format!("type {expected_type}"), type_of(schema) == expected_type);
    errors
}

/// A request property against its definition, with its default when `with_default`.
fn property_errors(def: &PropertyDef, schema: &Value, with_default: bool) -> Vec<String> {
    let mut errors: Vec<String> =
        kind_errors(def.kind, schema).into_iter().map(|e| format!("{}: {e}", def.name)).collect();
    let default = schema.get("default").cloned();
    if with_default && default != def.default_value() {
        errors.push(format!("{}: default {default:?}, the table says {:?}", def.name, def.default));
    }
    errors
}

/// A body schema against a table: exactly `expected` properties, `required` as the table says,
/// no others accepted, and each property by its kind.
fn body_errors(schema: &Value, defs: &[&PropertyDef], required: bool, with_default: bool) -> Vec<String> {
    let mut errors = Vec::new();
    let expected: BTreeSet<String> = defs.iter().map(|d| d.name.to_owned()).collect();
    if names(schema, "properties") != expected {
        errors.push(format!("names {:?}, the table says {expected:?}", names(schema, "properties")));
    }
    let wanted: BTreeSet<String> = defs.iter().filter(|d| required && d.required).map(|d| d.name.to_owned()).collect();
    if names(schema, "required") != wanted {
        errors.push(format!("required {:?}, the table says {wanted:?}", names(schema, "required")));
    }
    if schema["additionalProperties"] != json!(false) {
        errors.push("accepts other properties".into());
    }
    for def in defs {
        errors.extend(property_errors(def, &schema["properties"][def.name], with_default));
    }
    errors
}

/// `schema` with every reference to a named schema replaced by that schema (the keywords beside
/// the reference kept), and every `anyOf` of one schema and `null` by that schema made nullable:
/// what the schema says, however the document shares its parts.
fn resolved(doc: &Value, schema: &Value) -> Value {
    match schema {
        Value::Object(object) => {
            let shared = object.get("$ref").and_then(Value::as_str).map(|r| {
                let name = r.strip_prefix("#/components/schemas/").expect("a schema reference");
                resolved(doc, &doc["components"]["schemas"][name])
            });
            let alternatives = object.get("anyOf").and_then(Value::as_array);
            let nullable_one = alternatives.filter(|a| a.len() == 2 && a.contains(&json!({"type": "null"}))).map(|a| {
                let mut one = resolved(doc, a.iter().find(|s| **s != json!({"type": "null"})).unwrap());
                one["type"] = json!([one["type"].clone(), "null"]);
                one
            });
            let mut result = shared.or(nullable_one).unwrap_or_else(|| json!({}));
            for (key, value) in object.iter().filter(|(key, _)| !matches!(key.as_str(), "$ref" | "anyOf")) {
                result[key] = resolved(doc, value);
            }
            if let Some(alternatives) = alternatives.filter(|_| result.get("type").is_none()) {
                result["anyOf"] = alternatives.iter().map(|a| resolved(doc, a)).collect();
            }
            result
        }
        Value::Array(items) => items.iter().map(|item| resolved(doc, item)).collect(),
        other => other.clone(),
    }
}

/// The JSON body schema of the operation `method path`.
fn request_body(doc: &Value, path: &str, method: &str) -> Value {
    let schema = &doc["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"];
    resolved(doc, schema)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openapi_item_schemas_are_core_service_tables() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let doc: Value =
        app.http.get(format!("{}/api/openapi.json", app.base_url)).send().await.unwrap().json().await.unwrap();
    let schemas = &doc["components"]["schemas"];
    let item = "/api/v2/projects/{projectId}/item";
    let mut errors = Vec::new();
    for item_type in ItemType::ALL {
        let defs = definitions(item_type);
        let name = pascal(item_type.as_str());
        let accepted: Vec<&PropertyDef> = defs.iter().filter(|d| !d.ignored).collect();
        let creation = item_type.vocabulary().creation;
        let create = request_body(&doc, &format!("{item}/{{parent}}/{item_type}"), "post");
        if creation == Creation::UploadOnly {
            assert!(create.is_null(), "{name}: {item_type} items are created by upload only");
        } else {
            errors
                .extend(body_errors(&create, &accepted, true, true).into_iter().map(|e| format!("create {name}.{e}")));
        }
        let changeable: Vec<&PropertyDef> = accepted.iter().copied().filter(|d| d.updatable).collect();
        let mut patch = request_body(&doc, &format!("{item}/{item_type}/{{itemId}}"), "patch");
        if item_type == ItemType::Connector {
            // The changes arrive wrapped, and only so.
            assert_eq!(patch["required"], json!(["properties"]), "{patch}");
            assert_eq!(patch["additionalProperties"], json!(false), "{patch}");
            assert!(patch["properties"]["parent"].is_object(), "the wrapped update takes `parent` too: {patch}");
            patch = patch["properties"]["properties"].clone();
        } else {
            // Beside the properties, the framing member that moves the item (docs/ITEMS.md).
            let parent = patch["properties"].as_object_mut().and_then(|p| p.remove("parent"));
            assert_eq!(parent.map(|p| p["type"].clone()), Some(json!("string")), "{name}: a patch takes `parent`");
        }
        errors.extend(body_errors(&patch, &changeable, false, false).into_iter().map(|e| format!("patch {name}.{e}")));
        // Reads: every property by its PascalCase name, the derived ones too, and the identity.
        let read = &schemas[format!("{name}Item")];
        let mut expected: BTreeSet<String> = defs.iter().map(|d| pascal(d.name)).collect();
        expected.extend(["ItemId", "ItemType", "ProjectId", "Parent", "CreatedAt", "UpdatedAt"].map(String::from));
        assert_eq!(names(read, "properties"), expected, "{name}Item");
        assert_eq!(read["properties"]["ItemType"]["enum"], json!([item_type.as_str()]), "{name}Item");
    }
    assert!(errors.is_empty(), "the document disagrees with core-service's table:\n{}", errors.join("\n"));

    // The documented page sizes are core-service's.
    let listing = &doc["paths"]["/api/v2/projects/{projectId}/items"]["get"]["parameters"];
    let limit = listing.as_array().unwrap().iter().find(|p| p["name"] == "limit").unwrap();
    assert_eq!(limit["schema"]["default"], ITEMS_PAGE.default);
    assert_eq!(limit["schema"]["minimum"], PageSize::MIN);
    let max_results = &request_body(&doc, "/api/v1/memory/retrieve", "post")["properties"]["maxResults"];
    assert_eq!(
        (max_results["default"].clone(), max_results["maximum"].clone()),
        (json!(retrieval::DEFAULT_MAX_RESULTS), json!(retrieval::MAX_RESULTS))
    );
}

/// What the service answers is what the document says a read holds: every documented property is
/// there (the required ones always), in the default PascalCase, and nothing else.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_answer_what_the_document_describes() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (owner, project) = owner_with_project(&app).await;
    let doc: Value =
        app.http.get(format!("{}/api/openapi.json", app.base_url)).send().await.unwrap().json().await.unwrap();
    let bodies = [
        ("label", json!({"text": "a"})),
        ("sticky-note", json!({"text": "b"})),
        ("shape", json!({"size": {"width": 20, "height": 10}, "type": "RoundedRectangle"})),
        ("web", json!({"url": "https://example.com/"})),
        (
            "connector",
            json!({"startPoint": {"position": {"x": 0, "y": 0}}, "endPoint": {"position": {"x": 9, "y": 0}}}),
        ),
    ];
    for (item_type, body) in bodies {
        let created = send(
            &app,
            Method::POST,
            &app.item_url(&project, &format!("/panel/{item_type}")),
            Some(&owner.bearer()),
            Some(body),
        )
        .await;
        assert_eq!(created.status, StatusCode::OK, "{item_type}: {}", created.body);
        let id = created.body["ItemId"].as_str().unwrap();
        let read =
            send(&app, Method::GET, &app.item_url(&project, &format!("/{id}")), Some(&owner.bearer()), None).await;
        let schema = &doc["components"]["schemas"][format!("{}Item", pascal(item_type))];
        let answered: BTreeSet<String> = read.body.as_object().unwrap().keys().cloned().collect();
        assert_eq!(answered, names(schema, "properties"), "{item_type}: {}", read.body);
        assert!(names(schema, "required").is_subset(&answered), "{item_type}");
        if item_type == "connector" {
            let end: BTreeSet<String> = read.body["StartPoint"].as_object().unwrap().keys().cloned().collect();
            assert_eq!(end, names(&schema["properties"]["StartPoint"], "properties"), "{}", read.body);
        }
    }
}

/// The input schema of each tool, by name.
async fn tools(app: &TestApp) -> Value {
    let (owner, _) = owner_with_project(app).await;
    let listed = rpc(app, &owner, "tools/list", json!({})).await;
    let tools = listed["result"]["tools"].as_array().expect("tools").clone();
    Value::Object(tools.into_iter().map(|t| (t["name"].as_str().unwrap().to_owned(), t)).collect())
}

/// An argument that changes the property `name` on items of any type: for a property every type
/// states alike, exactly that rule; otherwise what each accepts (the lowest lower bound, the
/// union of the words).
fn across_types_errors(name: &str, argument: &Value) -> Vec<String> {
    let defs: Vec<&PropertyDef> = ItemType::ALL
        .iter()
        .flat_map(|t| definitions(*t))
        .filter(|d| d.name == name && d.updatable && !d.ignored)
        .collect();
    assert!(!defs.is_empty(), "{name} is no changeable item property");
    if defs.iter().all(|d| d.kind == defs[0].kind) {
        return property_errors(defs[0], argument, false);
    }
    let lower = |kind: Kind| match kind {
        Kind::NumberAtLeast(min) | Kind::NumberBetween(min, _) => min,
        Kind::AutoSize => 0.0,
        Kind::Size => MIN_SIZE,
        _ => f64::NAN,
    };
    let lowest = defs.iter().map(|d| lower(d.kind)).fold(f64::INFINITY, f64::min);
    let found = number(argument, "minimum").or_else(|| number(&argument["properties"]["width"], "minimum"));
    match found {
        Some(min) if min != lowest => vec![format!("{name}: minimum {min}, the loosest type allows {lowest}")],
        None if lowest.is_finite() => vec![format!("{name}: no minimum, the table has {lowest}")],
        _ if argument.get("pattern").is_some() => vec![format!("{name}: a pattern only some types have")],
        _ => Vec::new(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_tool_schemas_are_core_service_tables() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let tools = tools(&app).await;
    let input = |tool: &str| tools[tool]["inputSchema"]["properties"].clone();
    let mut errors = Vec::new();
    // Every argument of these tools but the ids is an item property of the same name.
    let ids = ["projectId", "itemId", "expectedVersion"];
    for tool in ["style_item", "arrange_item"] {
        let schema = input(tool);
        for (name, argument) in schema.as_object().unwrap().iter().filter(|(n, _)| !ids.contains(&n.as_str())) {
            errors.extend(across_types_errors(name, argument).into_iter().map(|e| format!("{tool}.{e}")));
        }
    }
    let connector = |name: &str| CONNECTOR.iter().find(|d| d.name == name).unwrap();
    let decorator = CONNECTOR_POINT.iter().find(|d| d.name == "decorator").unwrap();
    let connect = input("connect_items");
    for (argument, def) in [
        ("lineType", connector("type")),
        ("color", connector("strokeColor")),
        ("strokeThickness", connector("strokeThickness")),
        ("startDecorator", decorator),
        ("endDecorator", decorator),
    ] {
        errors.extend(
            property_errors(def, &connect[argument], true)
                .into_iter()
                .map(|e| format!("connect_items.{argument}: {e}")),
        );
    }
    assert_eq!(words(&connect["lineType"]), LINE_TYPES);
    let upload = input("upload_image");
    for name in ["fileName", "position", "size"] {
        let def = IMAGE.iter().find(|d| d.name == name).unwrap();
        errors.extend(property_errors(def, &upload[name], false).into_iter().map(|e| format!("upload_image.{e}")));
    }
    assert!(errors.is_empty(), "the MCP schemas disagree with core-service's table:\n{}", errors.join("\n"));

    // Limits: core-service's defaults and floors; clamped maxima are not advertised as refusals.
    for (tool, argument, page) in [("list_items", "limit", ITEMS_PAGE), ("list_projects", "amount", PROJECTS_PAGE)] {
        let schema = &input(tool)[argument];
        assert_eq!(
            (schema["default"].clone(), schema["minimum"].clone()),
            (json!(page.default), json!(PageSize::MIN)),
            "{tool}"
        );
        assert!(schema.get("maximum").is_none(), "{tool}: larger values are clamped, not refused");
    }
    let max_results = &input("retrieve_knowledge")["maxResults"];
    assert_eq!(max_results["default"], retrieval::DEFAULT_MAX_RESULTS);
    assert_eq!(max_results["maximum"], retrieval::MAX_RESULTS);

    // create_item names every property of every type it creates, each with its rule; the
    // single-property change refers to those rules rather than restating them.
    let description = tools["create_item"]["description"].as_str().unwrap();
    for item_type in ItemType::ALL.into_iter().filter(|t| t.vocabulary().creation == Creation::Json) {
        assert!(description.contains(&format!("- {}:", item_type.as_str())), "create_item lacks {item_type}");
    }
    for item_type in [ItemType::Label, ItemType::Shape, ItemType::Connector, ItemType::Web] {
        let line = description.lines().find(|l| l.starts_with(&format!("- {}:", item_type.as_str()))).unwrap();
        // `name (rule; note; required; default …)`, one after the other.
        let segments: Vec<&str> = line.split_once(": ").unwrap().1.split("), ").collect();
        for def in definitions(item_type).iter().filter(|d| !d.ignored) {
            let stated = match def.kind {
                Kind::NumberAbove(min) => format!("{} (number > {min}", def.name),
                Kind::NumberAtLeast(min) => format!("{} (number >= {min}", def.name),
                Kind::NumberBetween(min, max) => format!("{} (number from {min} to {max}", def.name),
                Kind::Size => format!("{} ({{width, height}}, each >= {MIN_SIZE}", def.name),
                Kind::OneOf(words) => format!("{} (one of {}", def.name, words.join(", ")),
                _ => format!("{} (", def.name),
            };
            let segment = segments.iter().find(|s| s.starts_with(&format!("{} (", def.name)));
            let segment = segment.unwrap_or_else(|| panic!("create_item does not list {}:\n{line}", def.name));
            assert!(segment.starts_with(&stated), "create_item states {segment:?}, the table {stated:?}");
            assert_eq!(segment.contains("required"), def.required, "{item_type}.{}: {segment}", def.name);
            if let Some(default) = def.default {
                assert!(segment.contains(&format!("default {default}")), "{item_type}.{}: {segment}", def.name);
            }
        }
    }
    // update_item_property names what each type can change (its rules are create_item's).
    let description = tools["update_item_property"]["description"].as_str().unwrap();
    assert!(description.contains("create_item"));
    for item_type in ItemType::ALL {
        let names_type = |line: &&str| {
            let types = line.strip_prefix("- ").and_then(|l| l.split_once(": ")).map(|(types, _)| types);
            types.is_some_and(|types| types.split(", ").any(|t| t == item_type.as_str()))
        };
        let line = description.lines().find(names_type).unwrap_or_else(|| panic!("no line for {item_type}"));
        let listed: BTreeSet<&str> = line.split_once(": ").unwrap().1.trim_end_matches('.').split(", ").collect();
        let changeable: BTreeSet<&str> =
            definitions(item_type).iter().filter(|d| d.updatable && !d.ignored).map(|d| d.name).collect();
        assert_eq!(listed, changeable, "{item_type}: {line}");
    }
}
