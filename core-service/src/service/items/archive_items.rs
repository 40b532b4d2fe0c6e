//! The items side of a project archive (docs/ARCHIVE.md): a project's items and diagram records
//! read as one snapshot for an export, and an archive's items checked by every rule of a create,
//! given new ids with every reference among them remapped, and written into a new project in one
//! transaction. The archive's container (entries, sizes, JSON lines) is `service/projects/`'s; the
//! diagram records' own checks are [`diagrams`], the comment threads' (both ways) `comments`.

use std::collections::HashMap;
use std::path::PathBuf;

use chrono::Utc;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

use super::crud::{first_version, item_event, NewItem, Upload};
use super::ItemsService;
use crate::domain::{EventKind, ItemId, ProjectId, UserId};
use crate::error::{CoreError, CoreResult, FieldViolation};
use crate::service::Principal;
use crate::storage::{
    comment_event, comment_fields, ArchivedThreads, DiagramRow, ElementRow, ItemRow, NewEvent, ProjectSnapshot, TagRow,
};
use canvas_items::schema::fold_name;
use canvas_items::{ItemFacts, ItemType, Parent};

mod comments;
mod diagrams;
mod offences;
mod tags;

pub use comments::line as thread_line;
use diagrams::PlannedDiagrams;
pub use offences::{at, Offences, MAX_LISTED};

/// The members of an item line that are not properties: where it is, what it is, and its file.
pub const ITEM_FIELDS: [&str; 6] = ["itemId", "itemType", "parent", "createdAt", "updatedAt", "contentSha256"];

/// An archive's item: its id there, its new id here, and its type once known.
#[derive(Debug, Clone, Copy)]
pub struct Renamed {
    pub line: usize,
    pub id: ItemId,
    pub item_type: Option<ItemType>,
}

/// The archive's item ids and what each becomes.
pub type IdMap = HashMap<ItemId, Renamed>;

/// The item an archive's id text names, if any.
pub fn named<'a>(ids: &'a IdMap, raw: &str) -> Option<&'a Renamed> {
    ItemId::parse(raw).ok().and_then(|id| ids.get(&id))
}

/// An archive's items and diagram records, checked and given new ids, ready to write.
#[derive(Debug, Default)]
pub struct ArchivePlan {
    rows: Vec<ItemRow>,
    events: Vec<NewEvent>,
    diagrams: Vec<DiagramRow>,
    elements: Vec<ElementRow>,
    tags: Vec<TagRow>,
    threads: ArchivedThreads,
    /// The files to store before the write: key (SHA-256 of the bytes as stored) → where they are.
    files: HashMap<String, PathBuf>,
}

impl ArchivePlan {
    /// Items, diagram records and distinct files the write will hold.
    pub fn counts(&self) -> (usize, usize, usize) {
        (self.rows.len(), self.diagrams.len(), self.files.len())
    }
}

/// The entries of an archive the items context reads: item lines, diagram record lines, tags,
/// comment thread lines, and the files by the SHA-256 of their bytes (already verified).
#[derive(Debug, Clone, Copy)]
pub struct ArchiveEntries<'a> {
    pub items: &'a [Value],
    pub diagrams: &'a [Value],
    pub tags: &'a [Value],
    pub threads: &'a [Value],
    pub files: &'a HashMap<String, PathBuf>,
}

impl ItemsService {
    /// The project as one moment saw it, for an export: items (creation order), diagram records,
    /// the element rows whose items exist, tags, comment threads and their comments.
    pub(crate) async fn archive_snapshot(&self, project: ProjectId) -> CoreResult<ProjectSnapshot> {
        let mut snapshot = self.store.project_snapshot(project).await?;
        // Element rows of items people deleted stay in the database, and readers skip them
        // (`get_diagram`); an archive names only items it holds.
        let live: std::collections::HashSet<ItemId> = snapshot.items.iter().map(|row| row.id).collect();
        snapshot.elements.retain(|row| live.contains(&row.item_id));
        Ok(snapshot)
    }

    /// The stored bytes of a file by its key.
    pub(crate) async fn archive_file(&self, key: &str) -> CoreResult<Vec<u8>> {
        self.blobs.get(key).await
    }

    /// Checks an archive's items, diagram records, tags and comment threads by the rules of a
    /// create and gives them new ids; `people` are the users here by the logins the archive names.
    /// Every offence of every line is gathered (up to [`MAX_LISTED`]); nothing is written.
    pub(crate) async fn plan_archive(
        &self,
        who: &Principal,
        entries: ArchiveEntries<'_>,
        people: &HashMap<String, UserId>,
    ) -> CoreResult<ArchivePlan> {
        let ArchiveEntries { items, diagrams, tags, threads, files } = entries;
        let mut offences = Offences::default();
        let ids = rename_items(items, &mut offences);
        let mut plan = ArchivePlan::default();
        let (tag_rows, tag_ids) = tags::plan(who, tags, &mut offences);
        plan.tags = tag_rows;
        let mut parents: Vec<Option<usize>> = vec![None; items.len()];
        let now = Utc::now();
        // Rows are written with the new project's id once it exists (`commit_archive`).
        let placeholder = ProjectId::from_uuid(uuid::Uuid::nil());
        for (i, line) in items.iter().enumerate() {
            if offences.full() {
                break;
            }
            let Some(object) = line.as_object() else { continue }; // named by `rename_items`
            let Some(me) = object.get("itemId").and_then(Value::as_str).and_then(|id| named(&ids, id)).copied() else {
                continue;
            };
            if me.line != i {
                continue; // a repeated id, named by `rename_items`
            }
            let Some(item_type) = me.item_type else {
                offences.push(at("items.jsonl", i, "itemType"), "must be one of the item types (label, shape, …)");
                continue;
            };
            let parent = self.archive_parent(object, i, item_type, &ids, &mut parents, &mut offences);
            let mut properties: Map<String, Value> = object
                .iter()
                .filter(|(key, _)| !ITEM_FIELDS.contains(&key.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if item_type == ItemType::Connector {
                remap_ends(&mut properties, i, me.id, &ids, &mut offences);
            }
            tags::remap(&mut properties, i, &tag_ids, &mut offences);
            let content =
                match self.archive_content(object, i, item_type, files, &mut properties, &mut offences).await? {
                    Ok(content) => content,
                    Err(()) => continue,
                };
            let facts = ItemFacts { has_content: content.is_some() };
            let props = match canvas_items::validate_create(item_type, properties, facts) {
                Ok(props) => props,
                Err(invalid) => {
                    offences.extend_under(&at("items.jsonl", i, ""), invalid.0);
                    continue;
                }
            };
            let Some(parent) = parent else { continue };
            let content_key = content.map(|(key, path)| {
                plan.files.insert(key.clone(), path);
                key
            });
            let new = NewItem { id: me.id, project: placeholder, item_type, parent, props: &props, content_key };
            let row = first_version(new, who, now);
            let payload = json!({"parent": row.parent.to_string(), "new": props});
            plan.events.push(item_event(who, placeholder, me.id, item_type, EventKind::ItemCreated, payload));
            plan.rows.push(row);
        }
        parent_loops(&parents, &mut offences);
        let PlannedDiagrams { rows, elements } = diagrams::plan(who, diagrams, &ids, &mut offences);
        plan.threads = comments::plan(who, threads, &ids, people, &mut offences);
        offences.into_result()?;
        (plan.diagrams, plan.elements) = (rows, elements);
        Ok(plan)
    }

    /// Stores the plan's files (content-addressed: until the rows naming them commit, nothing
    /// shows them), then writes its items, events and diagram records into `project` in one
    /// transaction. Answers (items, diagrams, files).
    pub(crate) async fn commit_archive(
        &self,
        project: ProjectId,
        mut plan: ArchivePlan,
    ) -> CoreResult<(usize, usize, usize)> {
        let counts = plan.counts();
        for (key, path) in &plan.files {
            let bytes = tokio::fs::read(path).await.map_err(CoreError::internal)?;
            let stored = self.blobs.put(bytes).await?;
            if &stored != key {
                return Err(CoreError::internal(format!("archive file {key} was stored as {stored}")));
            }
        }
        plan.rows.iter_mut().for_each(|row| row.project_id = project);
        plan.events.iter_mut().for_each(|event| event.project_id = project);
        plan.diagrams.iter_mut().for_each(|row| row.project_id = project);
        plan.tags.iter_mut().for_each(|row| row.project_id = project);
        plan.threads.threads.iter_mut().for_each(|row| row.project_id = project);
        plan.threads.comments.iter_mut().for_each(|row| row.project_id = project);
        // Each comment's `comment.created`, as a create writes it.
        for comment in &plan.threads.comments {
            let Some(thread) = plan.threads.threads.iter().find(|t| t.id == comment.thread_id) else { continue };
            let first = (comment.id == thread.id.opening()).then_some(thread);
            let new = comment_fields(first, comment);
            let (kind, author) = (EventKind::CommentCreated, comment.author_user_id);
            plan.events.push(comment_event(kind, author, thread, comment.id, Some(new), None, comment.created_at));
        }
        self.store
            .insert_archive(&plan.rows, &plan.events, &plan.diagrams, &plan.elements, &plan.tags, &plan.threads)
            .await?;
        self.outbox_written(project);
        Ok(counts)
    }

    /// The item's parent with its new id; None (an offence named) when it cannot be.
    fn archive_parent(
        &self,
        object: &Map<String, Value>,
        i: usize,
        item_type: ItemType,
        ids: &IdMap,
        parents: &mut [Option<usize>],
        offences: &mut Offences,
    ) -> Option<Parent> {
        let field = at("items.jsonl", i, "parent");
        let raw = object.get("parent").and_then(Value::as_str).unwrap_or("panel");
        match Parent::parse(raw) {
            Err(_) => {
                offences.push(field, "must be panel, inbox or the itemId of an item of the archive");
                None
            }
            Ok(Parent::Item(old)) => match ids.get(&old) {
                None => {
                    offences.push(field, format!("names no item of the archive ('{old}')"));
                    None
                }
                Some(parent) if parent.line == i => {
                    offences.push(field, "an item cannot be its own parent");
                    None
                }
                Some(parent) => match parent.item_type.map(|holder| may_hold(holder, item_type)) {
                    Some(Err(rule)) => {
                        offences.push(field, rule);
                        None
                    }
                    _ => {
                        parents[i] = Some(parent.line);
                        Some(Parent::Item(parent.id))
                    }
                },
            },
            Ok(other) => Some(other),
        }
    }

    /// The item's file, checked and cleaned as an upload is (`accept_upload`: the type sniffed
    /// from the bytes, SVGs sanitised), its facts put into `properties`: its key as stored and
    /// where the stored bytes are. Ok(None) for an item without a file; Err(()) when an offence
    /// was named.
    async fn archive_content(
        &self,
        object: &Map<String, Value>,
        i: usize,
        item_type: ItemType,
        files: &HashMap<String, PathBuf>,
        properties: &mut Map<String, Value>,
        offences: &mut Offences,
    ) -> CoreResult<Result<Option<(String, PathBuf)>, ()>> {
        let field = at("items.jsonl", i, "contentSha256");
        let takes_file = matches!(item_type, ItemType::Image | ItemType::Document | ItemType::Svg);
        let name = match object.get("contentSha256") {
            None | Some(Value::Null) if takes_file && !item_type.vocabulary().creation.from_json() => {
                offences.push(field, format!("a {item_type} item needs its file (files/<sha256> of the archive)"));
                return Ok(Err(()));
            }
            None | Some(Value::Null) => return Ok(Ok(None)),
            Some(_) if !takes_file => {
                offences.push(field, format!("a {item_type} item has no file"));
                return Ok(Err(()));
            }
            Some(Value::String(name)) => name,
            Some(_) => {
                offences.push(field, "must be the SHA-256 (64 hex digits) naming a file of the archive");
                return Ok(Err(()));
            }
        };
        let Some(path) = files.get(name.as_str()) else {
            offences
                .push(field, format!("names no file of the archive (files/{})", canvas_domain::ids::truncate(name)));
            return Ok(Err(()));
        };
        let content = tokio::fs::read(path).await.map_err(CoreError::internal)?;
        let text = |key: &str| properties.iter().find(|(k, _)| fold_name(k) == key).and_then(|(_, v)| v.as_str());
        let upload = Upload {
            file_name: text("filename").unwrap_or("upload").to_owned(),
            declared_mime_type: text("mimetype").unwrap_or_default().to_owned(),
            content,
        };
        let original = upload.content.len();
        match self.accept_upload(item_type, upload, properties) {
            Ok(stored) => {
                let key = hex(&Sha256::digest(&stored));
                if key == *name && stored.len() == original {
                    return Ok(Ok(Some((key, path.clone()))));
                }
                // Sanitising changed it (an SVG written by something else): keep the clean bytes.
                let clean = path.with_extension("clean");
                tokio::fs::write(&clean, &stored).await.map_err(CoreError::internal)?;
                Ok(Ok(Some((key, clean))))
            }
            Err(CoreError::Validation(violations)) => {
                let renamed = violations
                    .into_iter()
                    .map(
                        |v| if v.field == "binary" { FieldViolation { field: "contentSha256".into(), ..v } } else { v },
                    )
                    .collect();
                offences.extend_under(&at("items.jsonl", i, ""), renamed);
                Ok(Err(()))
            }
            Err(CoreError::PayloadTooLarge(why)) => {
                offences.push(field, why);
                Ok(Err(()))
            }
            Err(other) => Err(other),
        }
    }
}

/// Whether an item of type `holder` may hold one of type `child`: the container rule of a create
/// (canvas-vocabulary, `items/containers.rs`), refused with its text.
fn may_hold(holder: ItemType, child: ItemType) -> Result<(), String> {
    match holder.holds(child) {
        true => Ok(()),
        false => Err(canvas_vocabulary::items::containers::refusal(holder, child)),
    }
}

/// The archive's item ids, each given a new one in line order (so the new project lists its
/// items in the archive's order); a line that is no object, an id that is no GUID and an id used
/// twice are offences.
fn rename_items(items: &[Value], offences: &mut Offences) -> IdMap {
    let mut ids = IdMap::new();
    for (i, line) in items.iter().enumerate() {
        let Some(object) = line.as_object() else {
            offences.push(at("items.jsonl", i, ""), "must be a JSON object (one item per line)");
            continue;
        };
        let Some(raw) = object.get("itemId").and_then(Value::as_str) else {
            offences.push(at("items.jsonl", i, "itemId"), "is required: the item's id in the archive");
            continue;
        };
        let Ok(old) = ItemId::parse(raw) else {
            offences.push(at("items.jsonl", i, "itemId"), "must be a GUID");
            continue;
        };
        let item_type = object.get("itemType").and_then(Value::as_str).and_then(|t| ItemType::parse(t).ok());
        if let Some(first) = ids.get(&old) {
            offences.push(at("items.jsonl", i, "itemId"), format!("is already the itemId of line {}", first.line + 1));
            continue;
        }
        ids.insert(old, Renamed { line: i, id: ItemId::new(), item_type });
    }
    ids
}

/// Points a connector's attached ends (any casing of the names, as a create reads them) at the
/// new ids of the items they name; an end naming no item of the archive, itself or another
/// connector is an offence.
fn remap_ends(properties: &mut Map<String, Value>, i: usize, me: ItemId, ids: &IdMap, offences: &mut Offences) {
    for (key, point) in properties.iter_mut() {
        let end = match fold_name(key).as_str() {
            "startpoint" => "startPoint.itemId",
            "endpoint" => "endPoint.itemId",
            _ => continue,
        };
        let Some(point) = point.as_object_mut() else { continue };
        let Some((_, value)) = point.iter_mut().find(|(name, _)| fold_name(name) == "itemid") else { continue };
        let Some(raw) = value.as_str() else { continue }; // null, or refused by the item rules
        let field = at("items.jsonl", i, end);
        match named(ids, raw) {
            None => {
                offences.push(field, format!("names no item of the archive ('{}')", canvas_domain::ids::truncate(raw)))
            }
            Some(target) if target.id == me => offences.push(field, "a connector cannot attach to itself"),
            Some(target) if target.item_type == Some(ItemType::Connector) => {
                offences.push(field, "a connector cannot attach to another connector")
            }
            Some(target) => *value = Value::String(target.id.to_string()),
        }
    }
}

/// Parents must not form a loop (`a` in `b` in `a`): each item on one is named. Each item is
/// walked once (linear in the items, however deep the nesting).
fn parent_loops(parents: &[Option<usize>], offences: &mut Offences) {
    // 0: not seen; 1: on the walk under way; 2: done.
    let mut state = vec![0u8; parents.len()];
    for start in 0..parents.len() {
        let mut walk = Vec::new();
        let mut at_line = Some(start);
        while let Some(line) = at_line {
            match state[line] {
                2 => break,
                1 => {
                    let from = walk.iter().position(|&seen| seen == line).unwrap_or(0);
                    for &member in &walk[from..] {
                        offences.push(
                            at("items.jsonl", member, "parent"),
                            "the archive's parents form a loop through this item",
                        );
                    }
                    break;
                }
                _ => {
                    state[line] = 1;
                    walk.push(line);
                    at_line = parents[line];
                }
            }
        }
        walk.iter().for_each(|&line| state[line] = 2);
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
