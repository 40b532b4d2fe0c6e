//! A project's HNSW graph, built on the one builder thread once the project outgrows exact search,
//! off every lock but for short copies, and saved with the index once installed.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use super::project::ProjectIndex;
use super::{vectors, ProjectSlot, SearchIndexes};

/// Vectors copied per read lock while the builder gathers them (queries keep running between).
const COPY_BATCH: usize = 1024;

impl SearchIndexes {
    /// Starts a graph build on the builder thread when the project outgrew exact search; once the
    /// graph is installed, the project's snapshot is written (with the graph in it).
    pub(super) fn build_graph_if_wanted(&self, slot: &Arc<ProjectSlot>) {
        let slots = slot.write(|index| match &mut index.vectors {
            Some(vectors) if vectors.wants_graph(self.exact_below) => {
                Some((vectors.begin_graph(), vectors.dimension()))
            }
            _ => None,
        });
        let Some((slots, dimension)) = slots else { return };
        let (slot, threads, snapshots) = (slot.clone(), self.graph_threads, self.snapshots());
        self.builder.spawn(move || {
            let started = Instant::now();
            let mut copied = Vec::with_capacity(slots.len());
            for batch in slots.chunks(COPY_BATCH) {
                copied.extend(slot.read(|index| index.vectors.as_ref().map(|v| v.copy_vectors(batch)).unwrap_or_default()));
            }
            let built = vectors::build_graph(dimension, &copied, threads);
            drop(copied);
            let installed = slot.write(|index| {
                let Some(vectors) = &mut index.vectors else { return Ok(()) };
                match built {
                    Ok(graph) => vectors.install_graph(graph, threads),
                    Err(error) => {
                        vectors.abandon_graph();
                        Err(error)
                    }
                }
            });
            slot.bytes.store(slot.read(ProjectIndex::heap_bytes), Ordering::Relaxed);
            match installed {
                Ok(()) => {
                    tracing::info!(project = %slot.project, vectors = slots.len(), elapsed = ?started.elapsed(), "vector graph built");
                    // Already on the builder thread: saved now, before another project's build.
                    if let Some(snapshots) = snapshots {
                        snapshots.save(&slot);
                    }
                }
                Err(error) => tracing::error!(project = %slot.project, %error, "vector graph build failed; searches stay exact"),
            }
        });
    }
}
