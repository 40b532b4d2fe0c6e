//! "Mentions of me" (docs/COMMENTS.md): the open threads mentioning the caller across every
//! project they are a member of. It spans two contexts, so it is composed here: accounts gives
//! the caller's projects (names) and the authors' logins, items the threads, each project read
//! as its listing reads it (role checked there).

use std::collections::HashMap;

use canvas_vocabulary::limits::PROJECTS_PAGE;

use super::ProjectsService;
use crate::domain::UserId;
use crate::error::CoreResult;
use crate::service::items::comments::ThreadView;
use crate::service::Principal;

/// The threads mentioning a person, newest change first, each with its project's name, and the
/// login of every author of their comments.
#[derive(Debug)]
pub struct MentionsOfMe {
    pub threads: Vec<(String, ThreadView)>,
    pub logins: HashMap<UserId, String>,
}

impl ProjectsService {
    /// The open threads mentioning `who` in their first `PROJECTS_PAGE.max` projects, a page of
    /// `page_size` (the comments listing's default and bound).
    pub async fn mentions_of_me(&self, who: &Principal, page_size: Option<u32>) -> CoreResult<MentionsOfMe> {
        let projects = self.accounts.list_user_projects(who, who.user_id, Some(PROJECTS_PAGE.max)).await?;
        let ids: Vec<_> = projects.iter().map(|p| p.id).collect();
        let found = self.items.mentions_of(who, &ids, page_size).await?;
        let mut authors: Vec<UserId> = found
            .iter()
            .flat_map(|view| std::iter::once(&view.opening).chain(&view.replies))
            .map(|comment| comment.author_user_id)
            .collect();
        authors.sort();
        authors.dedup();
        let logins = self.accounts.logins_of(&authors).await?;
        let threads = found
            .into_iter()
            .map(|view| {
                let name = projects.iter().find(|p| p.id == view.thread.project_id).map(|p| p.name.clone());
                (name.unwrap_or_default(), view)
            })
            .collect();
        Ok(MentionsOfMe { threads, logins })
    }
}
