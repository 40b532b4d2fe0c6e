//! How far a task's work got ([`crate::tasks`]): the tools say it, the task's worker reports it.

use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

/// The latest progress message of a task's work, not yet reported. Tools say where they are
/// ([`super::ToolContext::say`]); the worker reports it at once (a heartbeat early), so a client polling
/// sees where the work is even when it takes less than a heartbeat.
#[derive(Debug, Clone, Default)]
pub struct Progress {
    latest: Arc<Mutex<Option<String>>>,
    said: Arc<Notify>,
}

impl Progress {
    pub fn say(&self, message: String) {
        if let Ok(mut latest) = self.latest.lock() {
            *latest = Some(message);
        }
        self.said.notify_one();
    }

    /// The message said since the last take, if any.
    pub(crate) fn take(&self) -> Option<String> {
        self.latest.lock().ok().and_then(|mut latest| latest.take())
    }

    /// Resolves when something is said.
    pub(crate) async fn said(&self) {
        self.said.notified().await;
    }
}
