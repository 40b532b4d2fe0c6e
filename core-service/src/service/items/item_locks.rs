//! Writers of one item take turns.
//!
//! An update reads the item, validates the change against it and writes it guarded by the version
//! it read. Without coordination, many writers of one item (40 clients moving one connector) read
//! the same version, one wins, and the rest retry until they give up: half of them were refused
//! for nothing but contention. So writers of an item first take that item's lock here: within a
//! replica they run one after another and never lose a race. The lock holds no database
//! connection while it waits, so waiting writers do not starve the pool.
//!
//! Replicas do not share these locks; between replicas the version guard still decides, and the
//! loser reads again and retries until [`WRITE_DEADLINE`] (a deadline, not a count: a writer that
//! keeps losing to other replicas keeps trying as long as its caller would wait).

use std::hash::BuildHasher;
use std::time::Duration;

use tokio::sync::{Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};

use crate::domain::{ItemId, ProjectId};

/// How long a write keeps retrying after losing version races to other replicas.
pub const WRITE_DEADLINE: Duration = Duration::from_secs(20);

/// Lock stripes: items hash onto a fixed set of locks, so memory stays bounded however many
/// items exist; two items share a stripe with probability 1/STRIPES, which only orders them.
const STRIPES: usize = 1024;

/// Per-item write locks of this replica.
#[derive(Debug)]
pub struct ItemLocks {
    stripes: Box<[Mutex<()>]>,
    /// Seeds the stripe choice, so clients cannot aim many items at one stripe.
    hasher: std::collections::hash_map::RandomState,
}

impl Default for ItemLocks {
    fn default() -> Self {
        Self {
            stripes: (0..STRIPES).map(|_| Mutex::new(())).collect(),
            hasher: std::collections::hash_map::RandomState::new(),
        }
    }
}

impl ItemLocks {
    /// Waits for the item's turn (tokio's mutex is fair: first come, first served).
    pub async fn lock(&self, item: ItemId) -> MutexGuard<'_, ()> {
        self.stripes[self.stripe(item)].lock().await
    }

    /// Waits for the turn of every item of a multi-item write (an arrangement). Stripes are taken
    /// once each and in ascending order, so two such writers cannot wait for each other in a
    /// circle, and a single-item writer waits for at most one of them.
    pub async fn lock_many(&self, items: &[ItemId]) -> Vec<MutexGuard<'_, ()>> {
        let mut stripes: Vec<usize> = items.iter().map(|item| self.stripe(*item)).collect();
        stripes.sort_unstable();
        stripes.dedup();
        let mut guards = Vec::with_capacity(stripes.len());
        for stripe in stripes {
            guards.push(self.stripes[stripe].lock().await);
        }
        guards
    }

    fn stripe(&self, item: ItemId) -> usize {
        (self.hasher.hash_one(item.uuid()) as usize) % STRIPES
    }
}

/// Stripes of [`ContainerTurns`].
const PROJECT_STRIPES: usize = 256;

/// Creates into a container and deletes of a container, per project, within this replica.
///
/// A container's delete takes what it holds in one transaction and starts over when something was
/// put into it meanwhile (`storage/items/containment.rs`). Against writers that keep creating in
/// the container, that delete would start over for ever. So a create into a container holds its
/// project's turn shared while it runs, and a delete of a container (or a diagram write, which
/// may delete shapes people put items into) holds it exclusively: the delete waits for the
/// creates in flight, and the creates that come after it wait for it (tokio's lock is fair, so
/// one waiting delete holds the later creates back) and then find their container gone. Replicas
/// do not share these turns; between them the in-transaction check keeps the data right.
#[derive(Debug)]
pub struct ContainerTurns {
    stripes: Box<[RwLock<()>]>,
    hasher: std::collections::hash_map::RandomState,
}

impl Default for ContainerTurns {
    fn default() -> Self {
        Self {
            stripes: (0..PROJECT_STRIPES).map(|_| RwLock::new(())).collect(),
            hasher: std::collections::hash_map::RandomState::new(),
        }
    }
}

impl ContainerTurns {
    /// The turn of a create into a container of `project` (shared with other creates).
    pub async fn fill(&self, project: ProjectId) -> RwLockReadGuard<'_, ()> {
        self.stripes[self.stripe(project)].read().await
    }

    /// The turn of a delete that may take a container's content in `project` (exclusive).
    pub async fn empty(&self, project: ProjectId) -> RwLockWriteGuard<'_, ()> {
        self.stripes[self.stripe(project)].write().await
    }

    fn stripe(&self, project: ProjectId) -> usize {
        (self.hasher.hash_one(project.uuid()) as usize) % PROJECT_STRIPES
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    use super::*;

    #[tokio::test]
    async fn many_item_writers_sharing_items_never_deadlock() {
        let locks = Arc::new(ItemLocks::default());
        let items: Vec<ItemId> = (0..64).map(|_| ItemId::new()).collect();
        let tasks: Vec<_> = (0..16)
            .map(|i| {
                let (locks, mut mine) = (locks.clone(), items.clone());
                // Each writer names the items in its own order.
                mine.rotate_left(i * 3);
                tokio::spawn(async move {
                    let _turns = locks.lock_many(&mine).await;
                    tokio::task::yield_now().await;
                })
            })
            .collect();
        let all = async {
            for task in tasks {
                task.await.unwrap();
            }
        };
        tokio::time::timeout(std::time::Duration::from_secs(10), all).await.expect("no deadlock");
    }

    #[tokio::test]
    async fn writers_of_one_item_never_overlap() {
        let locks = Arc::new(ItemLocks::default());
        let item = ItemId::new();
        let inside = Arc::new(AtomicUsize::new(0));
        let tasks: Vec<_> = (0..32)
            .map(|_| {
                let (locks, inside) = (locks.clone(), inside.clone());
                tokio::spawn(async move {
                    let _turn = locks.lock(item).await;
                    assert_eq!(inside.fetch_add(1, Ordering::SeqCst), 0, "two writers inside at once");
                    tokio::task::yield_now().await;
                    inside.fetch_sub(1, Ordering::SeqCst);
                })
            })
            .collect();
        for task in tasks {
            task.await.unwrap();
        }
    }
}
