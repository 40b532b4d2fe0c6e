//! "Mentions of me" (the account site's page; docs/COMMENTS.md "Mentions of me"): the open threads
//! that mention the caller across the projects they are a member of. The projects come from the
//! accounts context (the caller's gRPC handler reads them); each project's threads are read as
//! its listing reads them, with `mentions=me`, so the access rules and the filter are one.

use super::comments::{ThreadQuery, ThreadView};
use super::ItemsService;
use crate::domain::ProjectId;
use crate::error::CoreResult;
use crate::service::{page_size, Principal};
use canvas_vocabulary::limits::COMMENTS_PAGE;

/// Pages of one project's mentions read at most: a person mentioned in more than 1,000 open
/// threads of one project sees the 1,000 its listing reaches first.
const MOST_PAGES: usize = 5;

impl ItemsService {
    /// The open threads of `projects` that mention `who`, the most recently changed first, at most
    /// `requested` (the comments' page size), each with the project it is in.
    pub async fn mentions_of(
        &self,
        who: &Principal,
        projects: &[ProjectId],
        requested: Option<u32>,
    ) -> CoreResult<Vec<ThreadView>> {
        let limit = page_size(requested, COMMENTS_PAGE)?;
        let mut found = Vec::new();
        for project in projects {
            let mut cursor = None;
            for _ in 0..MOST_PAGES {
                let query = ThreadQuery {
                    status: Some("open".into()),
                    mentions: Some("me".into()),
                    page_size: Some(COMMENTS_PAGE.max),
                    cursor: cursor.take(),
                    ..ThreadQuery::default()
                };
                let page = self.list_threads(who, *project, query).await?;
                found.extend(page.threads);
                match page.next_cursor {
                    Some(next) => cursor = Some(next),
                    None => break,
                }
            }
        }
        found.sort_by(|a, b| b.thread.updated_at.cmp(&a.thread.updated_at).then(b.thread.id.cmp(&a.thread.id)));
        found.truncate(limit as usize);
        Ok(found)
    }
}
