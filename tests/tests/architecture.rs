//! ARCHITECTURE.md's invariants, checked against the source tree, so breaking one fails the build
//! instead of waiting for a reviewer. Each test names the invariant it guards.
//!
//! The scan reads the production sources of the workspace (every crate's `src/`, not the test
//! harness under `tests/` nor `bench/`), skipping comments and `#[cfg(test)]` modules.

use std::path::{Path, PathBuf};

/// The workspace root (this crate lives in `tests/`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace root").to_path_buf()
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return files };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The production sources: `(path relative to the root, code lines)` of every crate's `src/`,
/// comments and test modules left out.
fn production_sources() -> Vec<(String, Vec<(usize, String)>)> {
    let root = root();
    let mut crates: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("workspace root")
        .flatten()
        .map(|e| e.path().join("src"))
        .filter(|src| src.is_dir())
        .filter(|src| !src.starts_with(root.join("tests")) && !src.starts_with(root.join("bench")))
        .collect();
    crates.sort();
    let mut sources = Vec::new();
    for src in crates {
        for file in rust_files(&src) {
            let text = std::fs::read_to_string(&file).expect("readable source");
            let code = text
                .lines()
                .enumerate()
                .take_while(|(_, line)| line.trim() != "#[cfg(test)]")
                .filter(|(_, line)| !line.trim_start().starts_with("//"))
                .map(|(i, line)| (i + 1, line.to_owned()))
                .collect();
            let relative = file.strip_prefix(&root).unwrap().to_string_lossy().into_owned();
            sources.push((relative, code));
        }
    }
    assert!(sources.len() > 50, "the scan found the sources ({} files)", sources.len());
    sources
}

/// Lines matching `pattern` outside the files `allowed` accepts.
fn offences(pattern: impl Fn(&str) -> bool, allowed: impl Fn(&str) -> bool) -> Vec<String> {
    production_sources()
        .into_iter()
        .filter(|(path, _)| !allowed(path))
        .flat_map(|(path, lines)| {
            lines
                .into_iter()
                .filter(|(_, line)| pattern(line))
                .map(move |(n, line)| format!("{path}:{n}: {}", line.trim()))
        })
        .collect()
}

/// "Only `core-service/src/storage` imports sqlx" (nor rusqlite and tokio-postgres, its item reads
/// without sqlx).
/// Everything above it works with rows and domain types.
#[test]
fn only_storage_uses_sqlx() {
    let found = offences(
        |line| {
            ["sqlx::", "use sqlx", "rusqlite::", "use rusqlite", "tokio_postgres"]
                .iter()
                .any(|driver| line.contains(driver))
        },
        // The id newtypes derive sqlx's `Type` (transparent) behind canvas-domain's `sqlx` feature,
        // which only core-service enables, so storage binds and decodes them as their UUIDs.
        |path| path.starts_with("core-service/src/storage/") || path == "domain/src/ids.rs",
    );
    assert!(found.is_empty(), "a database driver outside core-service/src/storage:\n{}", found.join("\n"));
}

/// "Only rest-gateway knows about JSON casing."
#[test]
fn only_rest_gateway_knows_json_casing() {
    let found = offences(
        |line| line.contains("jsonCasing") || line.contains("json_casing") || line.contains("Casing::"),
        |path| path.starts_with("rest-gateway/src/"),
    );
    assert!(found.is_empty(), "JSON casing outside rest-gateway:\n{}", found.join("\n"));
}

/// "One error type, one mapping per transport": the gateways map `ErrorReason`s and never read a
/// status message, a field violation's description or a rule's text to decide anything.
#[test]
fn gateways_never_match_message_text() {
    let reads_text = |line: &str| {
        let compact: String = line.split_whitespace().collect();
        compact.contains(".message()")
            || ["message", "description", "rule", "detail", "text"].iter().any(|name| {
                ["contains(", "starts_with(", "ends_with(", "==\"", "find("]
                    .iter()
                    .any(|op| compact.contains(&format!("{name}.{op}")) || compact.contains(&format!("{name}(){op}")))
            })
    };
    let found =
        offences(reads_text, |path| !(path.starts_with("rest-gateway/src/") || path.starts_with("mcp-gateway/src/")));
    assert!(found.is_empty(), "a gateway reads message text:\n{}", found.join("\n"));
}

/// "core-service owns every rule": no gateway (nor the dispatcher) links core-service or a
/// database driver (sqlx, rusqlite, tokio-postgres), so
/// none can call a rule or touch the database directly.
#[test]
fn gateways_depend_on_no_core_crate() {
    for gateway in ["rest-gateway", "mcp-gateway", "webhook-dispatcher"] {
        let manifest = std::fs::read_to_string(root().join(gateway).join("Cargo.toml")).unwrap();
        let dependencies = manifest.split("[dependencies]").nth(1).unwrap_or("").split("\n[").next().unwrap_or("");
        for line in dependencies.lines().filter(|l| !l.trim_start().starts_with('#')) {
            let name = line.split(['=', '.']).next().unwrap_or("").trim();
            assert!(
                !["core-service", "sqlx", "rusqlite", "tokio-postgres"].contains(&name),
                "{gateway} depends on {name}"
            );
        }
    }
}

/// "One client never hurts another": core-service's gRPC server states its transport limits from
/// `canvas_proto::limits`, the one place they are written, and no other source restates a message
/// or metadata size, so a gateway's limits and core-service's cannot drift apart.
#[test]
fn transport_limits_are_stated_once() {
    let restated = offences(
        |line| {
            let compact: String = line.split_whitespace().collect();
            compact.contains("32*1024*1024") || (compact.contains("64*1024;") && compact.contains("METADATA"))
        },
        |path| path == "proto/src/limits.rs",
    );
    assert!(restated.is_empty(), "a transport limit restated outside proto/src/limits.rs:\n{}", restated.join("\n"));
    let server = std::fs::read_to_string(root().join("core-service/src/grpc/mod.rs")).unwrap();
    for setting in
        [".http2_max_header_list_size(MAX_METADATA_BYTES)", ".max_concurrent_streams(MAX_CONCURRENT_STREAMS)"]
    {
        assert!(server.contains(setting), "core-service's gRPC server no longer sets {setting}");
    }
    let gateway_limit = std::fs::read_to_string(root().join("runtime/src/edge/limits.rs")).unwrap();
    assert!(
        gateway_limit.contains("canvas_proto::limits::MAX_FORWARDED_HEADER_BYTES"),
        "the gateways' --max-header-bytes is no longer bounded by canvas_proto::limits"
    );
}

/// The top-level modules of a crate's `src/` (a file `x.rs` or a directory `x/`), by name.
fn top_level_modules(src: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(src)
        .expect("a crate's src")
        .flatten()
        .map(|e| e.path())
        .filter_map(|path| {
            let name = path.file_stem()?.to_string_lossy().into_owned();
            (path.is_dir() || path.extension().is_some_and(|e| e == "rs")).then_some(name)
        })
        .filter(|name| name != "lib" && name != "main")
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The names a line reaches through `crate::`: `crate::a::…` gives `a`, and `use crate::{a, b::c}`
/// gives `a` and `b`.
fn crate_paths(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in line.match_indices("crate::") {
        // `canvas_crate::` or `core_crate::` are other crates' paths, not this one's.
        if line[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &line[at + "crate::".len()..];
        let ident = |text: &str| text.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
        if let Some(group) = rest.strip_prefix('{') {
            let inner = group.split('}').next().unwrap_or("");
            found.extend(inner.split(',').map(|part| ident(part.trim())).filter(|name| !name.is_empty()));
        } else {
            found.push(ident(rest));
        }
    }
    found
}

/// "No module cycles inside a crate": for every crate, the `use crate::…` edges between its
/// top-level modules (`service` → `storage`) form no cycle, so each module can be read (and split
/// out into a crate) knowing only what it depends on. A reference to `super::` never leaves a
/// top-level module in this code base, so `crate::` paths are the edges.
#[test]
fn no_module_cycles_inside_a_crate() {
    use std::collections::{BTreeMap, BTreeSet};

    let root = root();
    let mut edges: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (path, lines) in production_sources() {
        let Some((krate, inside)) = path.split_once("/src/") else { continue };
        let modules = top_level_modules(&root.join(krate).join("src"));
        let from = inside.split('/').next().unwrap_or("").trim_end_matches(".rs").to_owned();
        if !modules.contains(&from) {
            continue;
        }
        for line in joined_groups(lines.into_iter().map(|(_, line)| line)) {
            for to in crate_paths(&line) {
                if to != from && modules.contains(&to) {
                    edges.entry(krate.to_owned()).or_default().entry(from.clone()).or_default().insert(to);
                }
            }
        }
    }
    assert!(edges.contains_key("core-service"), "the scan found core-service's module edges");
    let mut cycles = Vec::new();
    for (krate, graph) in &edges {
        // Depth-first search from every module; a path that comes back to a module on it is a cycle.
        fn visit(
            graph: &BTreeMap<String, BTreeSet<String>>,
            module: &str,
            path: &mut Vec<String>,
            done: &mut BTreeSet<String>,
            cycles: &mut Vec<String>,
        ) {
            if let Some(start) = path.iter().position(|m| m == module) {
                cycles.push(format!("{} → {module}", path[start..].join(" → ")));
                return;
            }
            if !done.insert(module.to_owned()) {
                return;
            }
            path.push(module.to_owned());
            for next in graph.get(module).into_iter().flatten() {
                visit(graph, next, path, done, cycles);
            }
            path.pop();
        }
        let mut done = BTreeSet::new();
        let mut found = Vec::new();
        for module in graph.keys() {
            visit(graph, module, &mut Vec::new(), &mut done, &mut found);
        }
        cycles.extend(found.into_iter().map(|cycle| format!("{krate}: {cycle}")));
    }
    assert!(cycles.is_empty(), "module cycles (`use crate::…` between top-level modules):\n{}", cycles.join("\n"));
}

/// Lines with a `crate::{…}` group that runs over several lines joined into one, so the group's
/// later names are read as edges too (`use crate::{\n    a,\n    b::c,\n};`).
fn joined_groups(lines: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut joined = Vec::new();
    let mut open: Option<String> = None;
    for line in lines {
        let text = match open.take() {
            Some(mut group) => {
                group.push(' ');
                group.push_str(line.trim());
                group
            }
            None => line,
        };
        let unclosed = text.rfind("crate::{").is_some_and(|at| !text[at..].contains('}'));
        if unclosed {
            open = Some(text);
        } else {
            joined.push(text);
        }
    }
    joined.extend(open);
    joined
}

#[test]
fn the_module_scan_reads_every_form_of_crate_path() {
    let group =
        joined_groups(["use crate::{".to_owned(), "    a,".to_owned(), "    b::c,".to_owned(), "};".to_owned()]);
    assert_eq!(group.len(), 1);
    assert_eq!(crate_paths(&group[0]), ["a", "b"]);
    assert_eq!(crate_paths("use crate::storage::{ItemRow, Storage};"), ["storage"]);
    assert_eq!(crate_paths("use crate::{error::CoreError, service};"), ["error", "service"]);
    assert_eq!(crate_paths("let x = crate::webhooks::inactive::COPIED; canvas_crate::y"), ["webhooks"]);
}

/// "An unknown event kind is impossible by construction": change events carry
/// `core-service`'s `EventKind`, and the kinds' names are spelt only in the one list they come
/// from (`canvas_vocabulary::limits::webhooks::EVENT_KINDS`), never as a string literal at a call
/// site. Unit-test files (`*_tests.rs`) may spell them as the JSON a client sends.
#[test]
fn event_kinds_are_spelt_only_by_their_list() {
    const KINDS: [&str; 8] = [
        "\"webhook.disabled\"",
        "\"webhook.deliveryExhausted\"",
        "\"item.created\"",
        "\"item.updated\"",
        "\"item.deleted\"",
        "\"user.added\"",
        "\"user.roleChanged\"",
        "\"user.removed\"",
    ];
    let found = offences(
        |line| KINDS.iter().any(|kind| line.contains(kind)),
        |path| path == "vocabulary/src/limits.rs" || path.ends_with("_tests.rs"),
    );
    assert!(found.is_empty(), "an event kind spelt outside EVENT_KINDS (use EventKind):\n{}", found.join("\n"));
    let enum_source = std::fs::read_to_string(root().join("core-service/src/domain/events.rs")).unwrap();
    assert!(enum_source.contains("EVENT_KINDS[self as usize]"), "EventKind no longer names its kinds from EVENT_KINDS");
}

/// The context services of core-service's service layer, each with the one directory of
/// `core-service/src/service/` its operations are written in.
const CONTEXT_SERVICES: [(&str, &str); 6] = [
    ("Access", "access/"),
    ("ItemsService", "items/"),
    ("AccountsService", "accounts/"),
    ("RetrievalService", "retrieval/"),
    ("WebhooksService", "webhooks/"),
    ("ProjectsService", "projects/"),
];

/// Contexts that compose others and run no query of their own (project archives span accounts,
/// items and webhooks): they hold those contexts' services, never a store.
const STORELESS_SERVICES: [&str; 1] = ["ProjectsService"];

/// The type an inherent `impl` line names (`impl Foo {`, `impl<T> Foo<T> {`), or None for a
/// trait implementation or any other line.
fn inherent_impl_of(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix("impl")?;
    let rest = if let Some(generic) = rest.strip_prefix('<') { generic.split_once('>')?.1 } else { rest };
    if !rest.starts_with(' ') || rest.contains(" for ") {
        return None;
    }
    let name = rest.trim_start();
    let end = name.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(name.len());
    Some(&name[..end]).filter(|name| !name.is_empty())
}

/// "core-service's operations live on per-context services composed by a thin root": no
/// `impl Core` outside `service/mod.rs`, each context service implemented only in its own
/// directory (so a file of one context never adds operations to another), and the services'
/// fields private (another context reaches a service only through its public methods).
#[test]
fn each_context_service_is_implemented_only_in_its_context() {
    let service_dir = "core-service/src/service/";
    let mut offences = Vec::new();
    for (path, lines) in production_sources() {
        let inside_service = path.strip_prefix(service_dir);
        for (n, line) in &lines {
            let Some(name) = inherent_impl_of(line) else { continue };
            let allowed = match name {
                "Core" => inside_service == Some("mod.rs"),
                _ => match CONTEXT_SERVICES.iter().find(|(service, _)| *service == name) {
                    Some((_, dir)) => inside_service.is_some_and(|file| file.starts_with(dir)),
                    None => true,
                },
            };
            if !allowed {
                offences.push(format!("{path}:{n}: {}", line.trim()));
            }
        }
    }
    assert!(
        offences.is_empty(),
        "an operation written outside its context (put it in core-service/src/service/<context>/ on that context's \
         service; `impl Core` only in service/mod.rs):\n{}",
        offences.join("\n")
    );

    for (service, dir) in CONTEXT_SERVICES {
        let defining = root().join(service_dir).join(dir).join("mod.rs");
        let text = std::fs::read_to_string(&defining).expect("each context has a mod.rs");
        let header = format!("pub struct {service} {{");
        let body =
            text.split_once(&header).unwrap_or_else(|| panic!("{service} is defined in {}", defining.display())).1;
        let fields: Vec<&str> = body.split_once("\n}").expect("the struct ends").0.lines().map(str::trim).collect();
        let public: Vec<&&str> = fields.iter().filter(|field| field.starts_with("pub")).collect();
        assert!(public.is_empty(), "{service}'s fields are private to its context: {public:?}");
        let has_store = fields.iter().any(|field| field.starts_with("store:"));
        assert_eq!(has_store, !STORELESS_SERVICES.contains(&service), "the scan read {service}'s fields: {fields:?}");
    }
}

/// The root `Core` only builds the services and hands them out: its methods are this list. An
/// operation added to the root instead of a context service fails here.
const CORE_ROOT_METHODS: &[&str] = &[
    "new",
    "assemble",
    "with_webhooks",
    "with_knowledge",
    "access",
    "items",
    "accounts",
    "retrieval",
    "webhooks",
    "projects",
    "storage",
    "stores",
];

#[test]
fn the_service_root_only_hands_out_services() {
    let text = std::fs::read_to_string(root().join("core-service/src/service/mod.rs")).unwrap();
    let (_, block) = text.split_once("\nimpl Core {").expect("the root's impl block");
    let block = block.split_once("\n}\n").expect("the block ends").0;
    let methods: Vec<String> = block
        .lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let signature = line.strip_prefix("pub ").unwrap_or(line);
            let signature = signature.strip_prefix("async ").unwrap_or(signature);
            let name = signature.strip_prefix("fn ")?;
            Some(name.split(|c: char| !(c.is_alphanumeric() || c == '_')).next()?.to_owned())
        })
        .collect();
    assert_eq!(methods, CORE_ROOT_METHODS, "the root's methods: an operation belongs on a context service");
}

/// Each context's store and the directories of core-service that may name it: its service (and,
/// for the accounts store, the shared `Access` that reads credentials and roles; for retrieval, the
/// knowledge indexer its service builds). `storage/` defines them; `service/mod.rs` hands each to
/// its service.
const STORE_USERS: &[(&str, &[&str])] = &[
    ("ItemsStore", &["service/items/"]),
    ("AccountsStore", &["service/accounts/", "service/access/"]),
    ("RetrievalStore", &["service/retrieval/", "knowledge/"]),
    ("WebhooksStore", &["service/webhooks/"]),
];

/// Whether `line` names `word` as a whole identifier (`ItemsStore`, not `MyItemsStores`).
fn names(line: &str, word: &str) -> bool {
    line.match_indices(word).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + word.len()..].chars().next();
        let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !ident(before) && !ident(after)
    })
}

/// "One store per context, each used only by its service": a store type is named only in
/// `storage/`, `service/mod.rs` (which hands each service its own) and its context's directories,
/// and the whole set (`Stores`, `.stores()`) is reached only there, so a service cannot run another
/// context's queries without this failing. (Tests and benches may seed and check rows through
/// `Core::stores()`; they are not production sources.)
#[test]
fn each_store_is_used_only_by_its_service() {
    let core = "core-service/src/";
    let mut offences = Vec::new();
    let mut seen = 0;
    for (path, lines) in production_sources() {
        let Some(inside) = path.strip_prefix(core) else {
            for (n, line) in &lines {
                if STORE_USERS.iter().any(|(store, _)| names(line, store)) || names(line, "Stores") {
                    offences.push(format!("{path}:{n}: {}", line.trim()));
                }
            }
            continue;
        };
        if inside.starts_with("storage/") || inside == "service/mod.rs" {
            continue;
        }
        for (n, line) in &lines {
            for (store, dirs) in STORE_USERS {
                if names(line, store) {
                    seen += 1;
                    if !dirs.iter().any(|dir| inside.starts_with(dir)) {
                        offences.push(format!("{path}:{n}: {}", line.trim()));
                    }
                }
            }
            if names(line, "Stores") || line.contains(".stores()") {
                offences.push(format!("{path}:{n}: {}", line.trim()));
            }
        }
    }
    assert!(seen >= 8, "the scan found the services' stores ({seen})");
    assert!(
        offences.is_empty(),
        "a store used outside its context (reach another context through its service):\n{}",
        offences.join("\n")
    );
}

/// "Typed ids to the row": a storage signature or row field that names a project, an item, a user
/// or a diagram has its id type (`ProjectId`, `ItemId`, `UserId`, `DiagramId`), never a bare `Uuid`,
/// so swapping a project id for an item id is a compile error at every store call. (The ids' field
/// is private: `.0` does not compile outside canvas-domain.)
#[test]
fn storage_takes_and_returns_typed_ids() {
    let named =
        ["project_id", "project", "item_id", "user_id", "diagram_id", "created_by", "updated_by", "actor_user_id"];
    let mut offences = Vec::new();
    let mut seen = 0;
    for (path, lines) in production_sources() {
        if !path.starts_with("core-service/src/storage/") {
            continue;
        }
        for (n, line) in &lines {
            let line = line.replace("uuid::Uuid", "Uuid");
            for name in named {
                for typed in [": Uuid", ": Option<Uuid>", ": &[Uuid]", ": Vec<Uuid>"] {
                    if line
                        .match_indices(&format!("{name}{typed}"))
                        .any(|(at, _)| !line[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
                    {
                        offences.push(format!("{path}:{n}: {}", line.trim()));
                    }
                }
                if line.contains(&format!("{name}: ProjectId"))
                    || line.contains(&format!("{name}: ItemId"))
                    || line.contains(&format!("{name}: UserId"))
                {
                    seen += 1;
                }
            }
        }
    }
    // A store function named after an entity with an id type takes that type, whatever its
    // parameter is called (`get_user(id)`, `get_items(project_id, ids)`).
    for (path, lines) in production_sources() {
        if !path.starts_with("core-service/src/storage/") {
            continue;
        }
        for (n, line) in &lines {
            let Some(at) = line.find("fn ") else { continue };
            let name: String = line[at + 3..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            let entity = ["user", "project", "item", "token", "event", "diagram"].iter().any(|e| name.contains(e));
            let params = line[at..].split_once('(').and_then(|(_, rest)| rest.split_once(')')).map_or("", |(p, _)| p);
            let bare =
                ["id: Uuid", "ids: &[Uuid]", "id: uuid::Uuid", "ids: &[uuid::Uuid]"].iter().any(|b| params.contains(b));
            if entity && bare {
                offences.push(format!("{path}:{n}: {}", line.trim()));
            }
        }
    }
    assert!(seen >= 40, "the scan found storage's typed ids ({seen})");
    assert!(offences.is_empty(), "a bare UUID where storage names an id:\n{}", offences.join("\n"));
}

/// "One item vocabulary": the item types are `canvas_vocabulary::items::ItemType`, and their names
/// are spelt only there. No other production source declares the list again (an enum with a
/// `StickyNote` variant) or spells the one name no other word shares, `"sticky-note"`; the renderer,
/// canvas-diagram and core-service name types as `ItemType::…` and read them with
/// `ItemType::parse` or `ItemType::named`.
#[test]
fn item_types_are_named_only_by_the_vocabulary() {
    let found = offences(
        |line| line.trim() == "StickyNote," || line.contains("\"sticky-note\""),
        |path| path == "vocabulary/src/items/types.rs",
    );
    assert!(found.is_empty(), "an item type spelt outside canvas-vocabulary:\n{}", found.join("\n"));
}

#[test]
fn the_store_scan_reads_whole_names() {
    assert!(names("store: ItemsStore,", "ItemsStore"));
    assert!(names("use crate::storage::{ItemsStore, ItemRow};", "ItemsStore"));
    assert!(!names("struct MyItemsStores;", "ItemsStore"));
    assert!(!names("let items_store = 1;", "ItemsStore"));
}

#[test]
fn the_impl_scan_reads_inherent_impls_only() {
    assert_eq!(inherent_impl_of("impl ItemsService {"), Some("ItemsService"));
    assert_eq!(inherent_impl_of("impl<'a> Credentials<'a> {"), Some("Credentials"));
    assert_eq!(inherent_impl_of("impl fmt::Display for Core {"), None);
    assert_eq!(inherent_impl_of("let implied = 1;"), None);
}

/// The storage calls that take access away or change it (as method calls: `storage.revoke_token(`
/// or `.revoke_token(` on a chain's own line); each must be followed by
/// `self.access.changed()` (core-service/src/service/access/cache.rs says why).
const ACCESS_CHANGING_WRITES: [&str; 8] = [
    ".revoke_token(",
    ".add_member(",
    ".set_member_role(",
    ".remove_member(",
    ".delete_session(",
    ".delete_other_sessions(",
    ".revoke_oauth_grant(",
    ".expire_oauth_token(",
];

/// "A replica never answers from a remembered token or role after a change of access it made":
/// every write that changes access is followed, within the next four code lines, by
/// `self.access.changed()`, which forgets at once and tells the other replicas. (Refresh-token
/// rotation takes nothing away: the access tokens issued before stay valid until they expire.)
#[test]
fn every_change_of_access_forgets_the_remembered_answers() {
    let mut missing = Vec::new();
    let mut seen = 0;
    for (path, lines) in production_sources() {
        if !path.starts_with("core-service/src/service/") {
            continue;
        }
        for (i, (n, line)) in lines.iter().enumerate() {
            if !ACCESS_CHANGING_WRITES.iter().any(|call| line.contains(call)) {
                continue;
            }
            seen += 1;
            let forgets =
                lines.iter().skip(i + 1).take(4).any(|(_, next)| next.contains("self.access.changed().await"));
            if !forgets {
                missing.push(format!("{path}:{n}: {}", line.trim()));
            }
        }
    }
    assert!(seen >= 13, "the scan found the access-changing writes ({seen})");
    assert!(missing.is_empty(), "a change of access not followed by self.access.changed():\n{}", missing.join("\n"));
}
