//! Following a project's changes live, from the change records (the outbox)
//! every write leaves in the same transaction.
//!
//! # Why a floor of transactions, not of seqs
//! `events.seq` is allocated when a transaction inserts its event, not when it
//! commits. On PostgreSQL a transaction that took seq 10 can commit after one
//! that took seq 11, so a follower that only remembers "the last seq I saw"
//! would skip 10 for ever. A [`ProjectWatch`] therefore keeps a *floor* of
//! positions: on PostgreSQL the id of the writing transaction (migration 0009),
//! on SQLite the seq (its one writer commits in seq order). Every poll reads
//! the records at or above the floor, delivers those not yet delivered, and
//! moves the floor to the horizon the storage read: on PostgreSQL the `xmin` of
//! a snapshot taken before the read, below which every transaction has ended.
//! So a record is never skipped however long its transaction ran, and only the
//! records of transactions still in flight are read again (the same approach
//! as retrieval's change records, `Storage::chunk_changes`).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use tokio::sync::watch;
use uuid::Uuid;

use super::ItemsService;
use crate::domain::{ProjectId, ProjectRole};
use crate::error::CoreResult;
use crate::service::access::fair_share::{Slot, STREAM_RETRY_AFTER_SECS};
use crate::service::Principal;
use crate::storage::EventRow;

/// Records read per query while resuming from a client's seq.
const PAGE: u32 = 500;

/// Per project with an open change stream on this replica, a counter rung after each write of
/// the project's this replica commits (`ItemsService::outbox_written`), which the project's
/// streams follow (a `watch`: a burst of writes is one wake-up, and a slow stream never holds a
/// writer up).
///
/// Per project, not one signal for all: with a thousand maps open, a write wakes the streams of
/// its own project, not a thousand database reads. Only this replica's writes ring: another
/// replica's (PostgreSQL) reach a stream at its poll, since the notifications between replicas
/// (`canvas_webhook_due`) name no project and a `NOTIFY` per write is what
/// ARCHITECTURE.md's "No NOTIFY inside a writing transaction" keeps off the write path.
#[derive(Debug, Default)]
pub(crate) struct ChangeBells(Mutex<HashMap<ProjectId, watch::Sender<u64>>>);

impl ChangeBells {
    /// The bell of `project`, made if it has none. Bells nobody follows any more are dropped here
    /// (and at a write of their project), so the map holds the projects with open streams.
    pub(crate) fn follow(&self, project: ProjectId) -> watch::Receiver<u64> {
        let mut bells = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        bells.retain(|_, bell| bell.receiver_count() > 0);
        bells.entry(project).or_insert_with(|| watch::channel(0).0).subscribe()
    }

    /// Wakes the streams following `project` (one lookup when it has none).
    pub(crate) fn ring(&self, project: ProjectId) {
        let mut bells = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(bell) = bells.get(&project) {
            if bell.receiver_count() == 0 {
                bells.remove(&project);
            } else {
                bell.send_modify(|n| *n = n.wrapping_add(1));
            }
        }
    }
}

/// A follower's position in one project's change records.
#[derive(Debug)]
pub struct ProjectWatch {
    project: ProjectId,
    /// Every record whose position is below the floor has been delivered or predates the watch.
    floor: i64,
    /// A client's resume point (`after`), read at the first poll: the records with a higher seq.
    resume_after: Option<i64>,
    /// Records at or above the floor already delivered: id → position.
    seen: HashMap<Uuid, i64>,
    /// The highest seq delivered so far (or the project's last at the start): the resume point.
    latest: i64,
    /// This stream's place in the person's and the project's share of open streams, given back
    /// when the watch is dropped (`service/access/fair_share.rs`).
    _slot: Slot,
}

impl ProjectWatch {
    pub fn project(&self) -> ProjectId {
        self.project
    }

    /// The seq a client passes as `after` to resume from here.
    pub fn resume_point(&self) -> i64 {
        self.latest
    }

    /// Delivers `row` unless it already was; true when it is new.
    fn take(&mut self, row: &EventRow, position: i64) -> bool {
        if self.seen.insert(row.id.uuid(), position).is_some() {
            return false;
        }
        self.latest = self.latest.max(row.seq);
        true
    }
}

impl ItemsService {
    /// Starts following `project`: needs the Viewer role or above (404 for an
    /// unknown project, 403 without access). `Some(after)` resumes after that seq (`Some(0)`: from
    /// the project's first change still recorded, what a consumer rebuilding the map starts
    /// from); None delivers only changes committed from now on.
    pub async fn watch_project(
        &self,
        who: &Principal,
        project: ProjectId,
        after: Option<i64>,
    ) -> CoreResult<ProjectWatch> {
        if after.is_some_and(|a| a < 0) {
            return Err(crate::error::CoreError::invalid("after", "must be a whole number >= 0 (a change's seq)"));
        }
        self.access.require_role(who, project, ProjectRole::Viewer).await?;
        let slot = self.open_stream(who, project)?;
        // The horizon first: a transaction in flight now is at or above it, so its records are
        // delivered when it commits, whichever seq it took.
        let horizon = self.store.event_horizon().await?;
        let latest = match after {
            Some(after) => after,
            None => self.store.project_last_seq(project).await?,
        };
        let mut watch =
            ProjectWatch { project, floor: horizon, resume_after: after, seen: HashMap::new(), latest, _slot: slot };
        // Records above the horizon that are already committed (a transaction elsewhere in the
        // cluster can hold the horizon back) are history, not news: remember them as delivered,
        // except those a resuming client asked for (seq above `after`, read at the first poll).
        let visible = self.store.project_event_changes(project, horizon).await?;
        for (row, position) in visible.records {
            if after.is_none_or(|after| row.seq <= after) {
                watch.seen.insert(row.id.uuid(), position);
            }
        }
        watch.floor = visible.next_floor;
        let floor = watch.floor;
        watch.seen.retain(|_, position| *position >= floor);
        Ok(watch)
    }

    /// A place for one more open event stream of `who` on `project` (a change or presence
    /// stream), or the 429 of the bound it would pass.
    pub(super) fn open_stream(&self, who: &Principal, project: ProjectId) -> CoreResult<Slot> {
        let streams = &self.access.shares().streams;
        streams.take(who.user_id, project.uuid()).map_err(|over| streams.refusal(over, STREAM_RETRY_AFTER_SECS))
    }

    /// Changes after each write with change records in `project` that this replica commits, so
    /// a stream reads them at once rather than at its next poll. Another replica's writes are not
    /// rung here: they are read at the poll (see [`ChangeBells`]).
    pub fn changes_written(&self, project: ProjectId) -> watch::Receiver<u64> {
        self.change_bells.follow(project)
    }

    /// Checks that the caller still may follow the project (a role can be
    /// taken away while a stream is open).
    pub async fn recheck_watch(&self, who: &Principal, watch: &ProjectWatch) -> CoreResult<()> {
        self.access.require_role(who, watch.project, ProjectRole::Viewer).await.map(|_| ())
    }

    /// The records committed since the last poll, each exactly once.
    pub async fn poll_watch(&self, watch: &mut ProjectWatch) -> CoreResult<Vec<EventRow>> {
        let mut fresh = Vec::new();
        if let Some(after) = watch.resume_after {
            let mut cursor = after;
            loop {
                let page = self.store.project_events_after(watch.project, cursor, PAGE).await?;
                let full = page.len() == PAGE as usize;
                for (row, position) in page {
                    cursor = row.seq;
                    if watch.take(&row, position) {
                        fresh.push(row);
                    }
                }
                if !full {
                    break;
                }
            }
            watch.resume_after = None;
        }
        let changes = self.store.project_event_changes(watch.project, watch.floor).await?;
        for (row, position) in changes.records {
            if watch.take(&row, position) {
                fresh.push(row);
            }
        }
        watch.floor = changes.next_floor;
        let floor = watch.floor;
        watch.seen.retain(|_, position| *position >= floor);
        // Resumed records and new ones may interleave: deliver in seq order.
        fresh.sort_by_key(|row| row.seq);
        Ok(fresh)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_rings_the_bell_of_its_own_project_only() {
        let bells = ChangeBells::default();
        let (here, there) = (ProjectId::from_uuid(Uuid::now_v7()), ProjectId::from_uuid(Uuid::now_v7()));
        let (mut a, mut b, mut other) = (bells.follow(here), bells.follow(here), bells.follow(there));
        bells.ring(here);
        assert!(a.has_changed().unwrap() && b.has_changed().unwrap());
        assert!(!other.has_changed().unwrap());
        a.borrow_and_update();
        b.borrow_and_update();
        // Rung three times before a stream looks: one wake-up.
        for _ in 0..3 {
            bells.ring(there);
        }
        assert!(other.has_changed().unwrap() && !a.has_changed().unwrap());
        other.borrow_and_update();
        assert!(!other.has_changed().unwrap());
        // Nobody follows `there` any more: its bell goes at its next write, or the next follow.
        drop(other);
        bells.ring(there);
        assert_eq!(bells.0.lock().unwrap().len(), 1);
        drop((a, b));
        let _c = bells.follow(there);
        assert_eq!(bells.0.lock().unwrap().keys().collect::<Vec<_>>(), [&there]);
    }
}
