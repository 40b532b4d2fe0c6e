//! Citations of comment threads (docs/COMMENTS.md "Knowledge"): an open thread is indexed under its
//! own id, so a chunk of one is cited as the thread (`threadId`) on its item (the citation's `id`);
//! a thread on a point of the map, which has no item, is cited by its own id in both.

use super::{Answer, RetrievalService};
use crate::domain::ItemId;
use crate::error::CoreResult;

impl RetrievalService {
    /// Names, in `answer`'s citations, the threads among the cited keys and the item each is on.
    pub(super) async fn name_threads(&self, mut answer: Answer) -> CoreResult<Answer> {
        if answer.citations.is_empty() {
            return Ok(answer);
        }
        let keys: Vec<ItemId> = answer.citations.iter().map(|c| ItemId::from_uuid(c.item_id)).collect();
        let threads = self.store.cited_threads(&keys).await?;
        for citation in &mut answer.citations {
            if let Some(item) = threads.get(&ItemId::from_uuid(citation.item_id)) {
                citation.thread_id = Some(citation.item_id);
                if let Some(item) = item {
                    citation.item_id = item.uuid();
                }
            }
        }
        Ok(answer)
    }
}
