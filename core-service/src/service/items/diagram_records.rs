//! Diagram records (beyond the spec): a diagram created from text remembers its source and which
//! item draws which Mermaid element, so it can be read, edited in place, read back and deleted.
//!
//! Every write (create, update, delete) is one transaction holding the items, their events and
//! the record, planned by `diagram_plan.rs`. Writers of one diagram take turns (the item write
//! locks, keyed by the diagram's id); between replicas the record's version decides and the loser
//! plans again from a fresh read. The rules are in docs/diagrams/records.md.

use std::collections::{BTreeMap, HashMap, HashSet};

use chrono::Utc;
use tokio::time::Instant;
use uuid::Uuid;

use super::crud::{lost_race, written};
use super::diagram_plan::{self, Change, Prior};
use super::item_locks::WRITE_DEADLINE;
use super::preconditions::Preconditions;
use super::ItemsService;
use crate::domain::{DiagramId, ItemId, ProjectId, ProjectRole};
use crate::error::{CoreError, CoreResult, FieldViolation, ViolationReason};
use crate::service::{page_size, Principal};
use crate::storage::{
    Attachment, DependentUpdate, DiagramRow, DiagramWrite, ElementRow, ItemRow, LandedDiagram, RecordChange,
};
use canvas_diagram::{Diagram, PlannedItem};
use canvas_items::{connector, Parent};
use canvas_vocabulary::limits::DIAGRAMS_PAGE;
use serde_json::Value;

/// A record as readers see it: the element map lists only items that still exist.
#[derive(Debug, Clone)]
pub struct DiagramRecord {
    pub row: DiagramRow,
    pub elements: Vec<ElementRow>,
}

/// What a diagram update or delete must hold to besides its content.
#[derive(Debug, Clone, Default)]
pub struct WriteGuards {
    /// HTTP `If-Match`, `If-None-Match`, `If-Unmodified-Since` (`preconditions.rs`).
    pub conditions: Preconditions,
    /// Refuse with `CONFIRMATION_REQUIRED` when more items than this would be deleted (MCP asks
    /// the person first, docs/MCP.md); None: never.
    pub ask_above: Option<u32>,
}

/// What a diagram write answers.
#[derive(Debug, Clone, Default)]
pub struct DiagramWritten {
    pub diagram: Option<DiagramId>,
    /// The record's version after the write (for a delete: the version deleted).
    pub version: i64,
    /// Every item of the diagram after the write, in creation order.
    pub item_ids: Vec<ItemId>,
    /// Mermaid node (or participant) id → its shape.
    pub nodes: BTreeMap<String, ItemId>,
    pub created: Vec<ItemId>,
    pub updated: Vec<ItemId>,
    pub deleted: Vec<ItemId>,
}

/// Reads Mermaid source, with its errors as a 400 on `source` naming line and column.
pub(super) fn parse_source(source: &str) -> CoreResult<Diagram> {
    crate::domain::text::check("source", source)?;
    canvas_diagram::parse(source).map_err(|error| {
        CoreError::Validation(vec![FieldViolation::with_reason(
            ViolationReason::InvalidValue,
            "source",
            error.to_string(),
        )])
    })
}

/// The diagram kind a record names: `flowchart`, `mindmap`, `sequence`, … (the model's variant).
fn kind_of(diagram: &Diagram) -> String {
    let debug = format!("{diagram:?}");
    debug.split(['(', ' ', '{']).next().unwrap_or("diagram").to_ascii_lowercase()
}

impl ItemsService {
    /// Creates the items of `planned` and the record remembering them, in one transaction.
    pub(super) async fn write_new_diagram(
        &self,
        who: &Principal,
        project: ProjectId,
        (format, source, diagram): (&str, &str, &Diagram),
        (origin, outer): ((f64, f64), Parent),
        planned: Vec<PlannedItem>,
    ) -> CoreResult<DiagramWritten> {
        let id = DiagramId::new();
        let now = Utc::now();
        let record = DiagramRow {
            id,
            project_id: project,
            kind: kind_of(diagram),
            format: format.trim().to_ascii_lowercase(),
            source: source.to_owned(),
            origin_x: origin.0,
            origin_y: origin.1,
            version: 1,
            created_by: who.user_id,
            updated_by: who.user_id,
            created_at: now,
            updated_at: now,
        };
        let change = diagram_plan::plan(
            who,
            project,
            id,
            planned,
            &Prior { elements: Vec::new(), items: HashMap::new(), people: Vec::new(), outer },
        )?;
        let mut change = change;
        if let Parent::Item(frame) = outer {
            change.attached.push(Attachment::item("frame", frame));
        }
        self.commit_diagram(&record, RecordChange::Insert, &change, Vec::new()).await?;
        Ok(answer(id, 1, change))
    }

    /// A diagram record with the items it still has.
    pub async fn get_diagram(&self, who: &Principal, project: ProjectId, id: DiagramId) -> CoreResult<DiagramRecord> {
        self.access.require_role(who, project, ProjectRole::Viewer).await?;
        let row = self.load_diagram(project, id).await?;
        let live: HashSet<Uuid> =
            self.store.diagram_items(project, id).await?.into_iter().map(|item| item.id.uuid()).collect();
        let elements =
            self.store.diagram_elements(id).await?.into_iter().filter(|e| live.contains(&e.item_id.uuid())).collect();
        Ok(DiagramRecord { row, elements })
    }

    /// A page of a project's diagram records, oldest first, and the cursor of the next page.
    pub async fn list_diagrams(
        &self,
        who: &Principal,
        project: ProjectId,
        requested: Option<u32>,
        cursor: Option<&str>,
    ) -> CoreResult<(Vec<DiagramRow>, Option<String>)> {
        self.access.require_role(who, project, ProjectRole::Viewer).await?;
        let limit = page_size(requested, DIAGRAMS_PAGE)?;
        let after = match cursor.map(str::trim).filter(|c| !c.is_empty()) {
            Some(raw) => Some(
                DiagramId::parse(raw)
                    .map_err(|_| CoreError::invalid("cursor", "is not a cursor returned by a previous page"))?
                    .uuid(),
            ),
            None => None,
        };
        let mut rows = self.store.list_diagrams(project, after, limit + 1).await?;
        let next = if rows.len() > limit as usize {
            rows.truncate(limit as usize);
            rows.last().map(|r| r.id.to_string())
        } else {
            None
        };
        Ok((rows, next))
    }

    /// Replaces the diagram's source and updates its items in place (see `diagram_plan.rs`), while
    /// `conditions` hold (`preconditions.rs`: HTTP `If-Match`, `If-None-Match`, `If-Unmodified-Since`).
    pub async fn update_diagram(
        &self,
        who: &Principal,
        project: ProjectId,
        id: DiagramId,
        source: &str,
        kind: Option<&str>,
        guards: WriteGuards,
    ) -> CoreResult<DiagramWritten> {
        let WriteGuards { conditions, ask_above } = guards;
        self.access.require_role(who, project, ProjectRole::Editor).await?;
        let diagram = parse_source(source)?;
        let written_kind = kind_of(&diagram);
        let meant = kind.map(|k| k.trim().to_ascii_lowercase()).filter(|k| !k.is_empty());
        if let Some(meant) = &meant {
            if *meant != written_kind {
                return Err(CoreError::invalid(
                    "kind",
                    format!("is '{meant}', but the source is a {written_kind} diagram; name the source's kind"),
                ));
            }
        }
        // A record's writes take turns under its id, in the item turns' key space (ids never collide).
        let _turn = self.item_locks.lock(ItemId::from_uuid(id.uuid())).await;
        // It may delete shapes that hold people's items (`containers.rs`).
        let _emptying = self.container_turns.empty(project).await;
        let deadline = Instant::now() + WRITE_DEADLINE;
        loop {
            let current = self.load_diagram(project, id).await?;
            conditions.check("diagram", current.version, current.updated_at)?;
            if current.kind != written_kind && meant.is_none() {
                // A diagram read back as another kind (or a wrong paste) must not replace it unasked.
                return Err(CoreError::invalid(
                    "source",
                    format!(
                        "is a {written_kind} diagram, but this diagram is a {} diagram; to change its kind, \
                         send kind: \"{written_kind}\" with the source",
                        current.kind
                    ),
                ));
            }
            let prior = self.prior(project, id).await?;
            let planned =
                canvas_diagram::to_items(&canvas_diagram::layout(&diagram), (current.origin_x, current.origin_y));
            let change = diagram_plan::plan(who, project, id, planned, &prior)?;
            let (change, dependents) = self.with_removal(who, project, change).await?;
            CoreError::ask_first(ask_above, change.deletes.len(), "delete")?;
            let record = DiagramRow {
                kind: written_kind.clone(),
                source: source.to_owned(),
                version: current.version + 1,
                updated_by: who.user_id,
                updated_at: Utc::now(),
                ..current.clone()
            };
            let change_kind = RecordChange::Update(current.version);
            if written(self.commit_diagram(&record, change_kind, &change, dependents).await)? {
                return Ok(answer(id, record.version, change));
            }
            lost_race(deadline).await?;
        }
    }

    /// Deletes the record and, unless `keep_items`, every item it still has (people's connectors
    /// attached to them are detached, as by a single delete).
    pub async fn delete_diagram(
        &self,
        who: &Principal,
        project: ProjectId,
        id: DiagramId,
        keep_items: bool,
        guards: WriteGuards,
    ) -> CoreResult<DiagramWritten> {
        let WriteGuards { conditions, ask_above } = guards;
        self.access.require_role(who, project, ProjectRole::Editor).await?;
        // A record's writes take turns under its id, in the item turns' key space (ids never collide).
        let _turn = self.item_locks.lock(ItemId::from_uuid(id.uuid())).await;
        // It may delete shapes that hold people's items (`containers.rs`).
        let _emptying = self.container_turns.empty(project).await;
        let deadline = Instant::now() + WRITE_DEADLINE;
        loop {
            let current = self.load_diagram(project, id).await?;
            conditions.check("diagram", current.version, current.updated_at)?;
            let prior = self.prior(project, id).await?;
            let change = match keep_items {
                true => Change::default(),
                false => diagram_plan::plan(who, project, id, Vec::new(), &prior)?,
            };
            let (change, dependents) = self.with_removal(who, project, change).await?;
            CoreError::ask_first(ask_above, change.deletes.len(), "delete")?;
            let change_kind = RecordChange::Delete(current.version);
            if written(self.commit_diagram(&current, change_kind, &change, dependents).await)? {
                return Ok(answer(id, current.version, change));
            }
            lost_race(deadline).await?;
        }
    }

    /// The items of the diagram as they are now, as readers see them, with the connectors people
    /// drew between two of them: what a read-back writes as Mermaid.
    pub async fn diagram_as_drawn(
        &self,
        who: &Principal,
        project: ProjectId,
        id: DiagramId,
    ) -> CoreResult<(DiagramRecord, Vec<ItemRow>)> {
        let record = self.get_diagram(who, project, id).await?;
        let mut rows = self.store.diagram_items(project, id).await?;
        let people = self.connectors_between(project, &rows).await?;
        rows.extend(people);
        rows.sort_by_key(|r| r.id);
        Ok((record, self.present(project, rows).await?))
    }

    async fn load_diagram(&self, project: ProjectId, id: DiagramId) -> CoreResult<DiagramRow> {
        self.store.get_diagram(project, id).await?.ok_or_else(|| CoreError::not_found("diagram", id))
    }

    async fn prior(&self, project: ProjectId, id: DiagramId) -> CoreResult<Prior> {
        let elements = self.store.diagram_elements(id).await?;
        let rows = self.store.diagram_items(project, id).await?;
        let people = self.connectors_between(project, &rows).await?;
        let items: HashMap<Uuid, ItemRow> = rows.into_iter().map(|i| (i.id.uuid(), i)).collect();
        // The parent the diagram gave an item that is none of its own: the frame it was drawn into.
        let own: HashSet<Uuid> = elements.iter().map(|e| e.item_id.uuid()).collect();
        let outer = elements
            .iter()
            .filter_map(|e| e.planned.get("parent").and_then(Value::as_str))
            .filter_map(|raw| Parent::parse(raw).ok())
            .find(|p| matches!(p, Parent::Item(id) if !own.contains(&id.uuid())))
            .unwrap_or(Parent::Panel);
        Ok(Prior { elements, items, people, outer })
    }

    /// The connectors people drew between two of `own` (the diagram's items), which are not the
    /// diagram's own: a read-back shows them as links, and a write adopts them.
    async fn connectors_between(&self, project: ProjectId, own: &[ItemRow]) -> CoreResult<Vec<ItemRow>> {
        let ids: HashSet<String> = own.iter().map(|r| r.id.to_string()).collect();
        let mine: HashSet<Uuid> = own.iter().map(|r| r.id.uuid()).collect();
        let mut between = Vec::new();
        for c in self.store.project_connectors(project).await? {
            let ends = c.properties.as_object().map(connector::attached_items).unwrap_or_default();
            if !mine.contains(&c.id.uuid()) && ends.len() == 2 && ends.iter().all(|e| ids.contains(e)) {
                between.push(c);
            }
        }
        Ok(between)
    }

    /// The items a change deletes with everything they hold that the new source does not keep
    /// (items a person put into the diagram's shapes go with them), each with its `item.deleted`
    /// event, and the connectors that are not the diagram's detached from them, as a single
    /// delete does (`containers.rs`).
    async fn with_removal(
        &self,
        who: &Principal,
        project: ProjectId,
        mut change: Change,
    ) -> CoreResult<(Change, Vec<DependentUpdate>)> {
        if change.deletes.is_empty() {
            return Ok((change, Vec::new()));
        }
        let kept: HashSet<ItemId> = change.order.iter().copied().collect();
        let removal = self.removal(who, project, std::mem::take(&mut change.deletes), &kept).await?;
        change.deletes = removal.rows;
        change.events.extend(removal.events);
        Ok((change, removal.dependents))
    }

    /// Writes a planned change, its dependents and the record in one transaction; false on a lost
    /// race (nothing written).
    async fn commit_diagram(
        &self,
        record: &DiagramRow,
        kind: RecordChange,
        change: &Change,
        dependents: Vec<DependentUpdate>,
    ) -> CoreResult<bool> {
        let mut updates = change.updates.clone();
        let mut events = change.events.clone();
        for dependent in dependents {
            updates.push((dependent.row, dependent.expected_version));
            events.push(dependent.event);
        }
        let deletes: Vec<(Uuid, i64)> = change.deletes.iter().map(|d| (d.id.uuid(), d.version)).collect();
        // A create's answer, for a retry whose first answer was lost (`Once`, `CreateDiagram`).
        let landed = (kind == RecordChange::Insert).then(|| LandedDiagram {
            diagram: record.id.uuid(),
            items: change.order.iter().map(|id| id.uuid()).collect(),
            nodes: change.nodes.iter().map(|(node, id)| (node.clone(), id.uuid())).collect(),
        });
        let write = DiagramWrite {
            record,
            change: kind,
            inserts: &change.inserts,
            attached: &change.attached,
            updates: &updates,
            deletes: &deletes,
            events: &events,
            elements: &change.elements,
            landed: landed.as_ref(),
        };
        let done = self.store.write_diagram(&write).await?;
        if done {
            self.outbox_written(record.project_id);
        }
        Ok(done)
    }
}

fn answer(id: DiagramId, version: i64, change: Change) -> DiagramWritten {
    DiagramWritten {
        diagram: Some(id),
        version,
        item_ids: change.order,
        nodes: change.nodes,
        created: change.created,
        updated: change.updated,
        deleted: change.deletes.iter().map(|d| d.id).collect(),
    }
}
