//! Following a project's changes live, from the change records (the outbox)
//! every write leaves in the same transaction.
//!
//! # Why a grace window
//! `events.seq` is allocated when a transaction inserts its event, not when it
//! commits. On PostgreSQL a transaction that took seq 10 can commit after one
//! that took seq 11, so a follower that only remembers "the last seq I saw"
//! would skip 10 for ever. A [`ProjectWatch`] therefore keeps a *floor*: every
//! poll re-reads all records above it and de-duplicates them by event id. The
//! floor only moves past a record once that record was first seen
//! [`GRACE`] ago; write transactions are short (a few statements, well under a
//! second), so any record with a lower seq has committed by then. SQLite
//! serialises writers, so there records commit in seq order and the window
//! costs only the re-reading.
//!
//! The cost is bounded: one indexed range read per poll covering the changes
//! of the last [`GRACE`] seconds of this project.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use uuid::Uuid;

use super::{Core, Principal};
use crate::domain::{ProjectId, ProjectRole};
use crate::error::CoreResult;
use crate::storage::EventRow;

/// How long after first sighting a record is taken as final for ordering.
pub const GRACE: Duration = Duration::from_secs(5);
/// Records read per query while paging.
const PAGE: u32 = 500;

/// A follower's position in one project's change records.
#[derive(Debug)]
pub struct ProjectWatch {
    project: ProjectId,
    /// Every record with `seq <= floor` has been delivered or predates the watch.
    floor: i64,
    /// Records above the floor already delivered: id → (seq, first seen).
    seen: HashMap<Uuid, (i64, Instant)>,
    /// The highest seq seen so far: the resume point to report.
    latest: i64,
}

impl ProjectWatch {
    pub fn project(&self) -> ProjectId {
        self.project
    }

    /// The seq a client passes as `after` to resume from here.
    pub fn resume_point(&self) -> i64 {
        self.latest
    }
}

impl Core {
    /// Starts following `project`: needs the Viewer role or above (404 for an
    /// unknown project, 403 without access). `after` > 0 resumes after that
    /// seq; otherwise only changes from now on are delivered.
    pub async fn watch_project(&self, who: &Principal, project: ProjectId, after: i64) -> CoreResult<ProjectWatch> {
        self.require_role(who, project, ProjectRole::Viewer).await?;
        let mut watch = ProjectWatch { project, floor: after.max(0), seen: HashMap::new(), latest: after.max(0) };
        if after <= 0 {
            // Skip the history, but remember its recent tail as seen, so a
            // record that commits late is not taken for a new one.
            let history = self.read_above(project, 0).await?;
            let recent = chrono::Utc::now() - chrono::Duration::from_std(GRACE).unwrap_or_default();
            let now = Instant::now();
            for row in history {
                watch.latest = watch.latest.max(row.seq);
                if row.occurred_at < recent {
                    watch.floor = watch.floor.max(row.seq);
                } else {
                    watch.seen.insert(row.id, (row.seq, now));
                }
            }
            watch.seen.retain(|_, (seq, _)| *seq > watch.floor);
        }
        Ok(watch)
    }

    /// Checks that the caller still may follow the project (a role can be
    /// taken away while a stream is open).
    pub async fn recheck_watch(&self, who: &Principal, watch: &ProjectWatch) -> CoreResult<()> {
        self.require_role(who, watch.project, ProjectRole::Viewer).await.map(|_| ())
    }

    /// The records committed since the last poll, each exactly once.
    pub async fn poll_watch(&self, watch: &mut ProjectWatch) -> CoreResult<Vec<EventRow>> {
        let rows = self.read_above(watch.project, watch.floor).await?;
        let now = Instant::now();
        let mut fresh = Vec::new();
        for row in rows {
            if watch.seen.contains_key(&row.id) {
                continue;
            }
            watch.seen.insert(row.id, (row.seq, now));
            watch.latest = watch.latest.max(row.seq);
            fresh.push(row);
        }
        advance_floor(watch, now);
        Ok(fresh)
    }

    /// Every record of the project above `floor`, oldest first.
    async fn read_above(&self, project: ProjectId, floor: i64) -> CoreResult<Vec<EventRow>> {
        let mut rows = Vec::new();
        let mut after = floor;
        loop {
            let page = self.storage.project_events(project.0, after, PAGE).await?;
            let full = page.len() as u32 == PAGE;
            if let Some(last) = page.last() {
                after = last.seq;
            }
            rows.extend(page);
            if !full {
                return Ok(rows);
            }
        }
    }
}

/// Moves the floor up to the highest seq below which every record seen is
/// older than [`GRACE`], and forgets the records under it.
fn advance_floor(watch: &mut ProjectWatch, now: Instant) {
    let mut by_seq: Vec<(i64, Instant)> = watch.seen.values().copied().collect();
    by_seq.sort_unstable_by_key(|(seq, _)| *seq);
    for (seq, first_seen) in by_seq {
        if now.duration_since(first_seen) < GRACE {
            break;
        }
        watch.floor = seq;
    }
    let floor = watch.floor;
    watch.seen.retain(|_, (seq, _)| *seq > floor);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn watch(seen: &[(i64, Duration)], now: Instant) -> ProjectWatch {
        let seen = seen.iter().map(|(seq, age)| (Uuid::new_v4(), (*seq, now - *age))).collect();
        ProjectWatch { project: ProjectId(Uuid::nil()), floor: 0, seen, latest: 0 }
    }

    #[test]
    fn the_floor_stops_below_records_still_in_their_grace_window() {
        let now = Instant::now();
        let old = GRACE + Duration::from_secs(1);
        let mut w = watch(&[(3, old), (5, old), (7, Duration::ZERO), (9, old)], now);
        advance_floor(&mut w, now);
        assert_eq!(w.floor, 5, "seq 7 is recent, so 9 stays above the floor too");
        let mut left: Vec<i64> = w.seen.values().map(|(s, _)| *s).collect();
        left.sort();
        assert_eq!(left, [7, 9]);
    }
}
