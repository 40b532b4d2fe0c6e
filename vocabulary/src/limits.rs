//! Limits and defaults of requests: page sizes, retrieval and webhook definitions. core-service
//! applies them (`core-service/src/service`); the gateways forward what the client sent and only
//! document these values (OpenAPI parameters, MCP schemas). docs/LIMITS.md states each decision.

/// A page size: `default` when the client sends none, at least 1, and anything above `max` taken
/// as `max` (clamped, like GitHub's `per_page`: a client asking for more simply gets full pages).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageSize {
    /// The name the client sends it by (REST query parameter, MCP argument), for errors.
    pub field: &'static str,
    /// When the client sends none.
    pub default: u32,
    /// The most one answer holds; larger requests are clamped to it.
    pub max: u32,
}

impl PageSize {
    /// The smallest page a client may ask for; 0 is refused (a 400 naming the field).
    pub const MIN: u32 = 1;

    /// The rule in words, for documentation (OpenAPI parameters, MCP argument schemas).
    pub fn rule(&self) -> String {
        format!(
            "page size, default {}; at most {} are returned (a larger value is taken as {}); 0 is refused",
            self.default, self.max, self.max
        )
    }
}

/// Largest uploaded file, and so largest request body a gateway accepts: the spec's 25 MB request
/// limit, read as 25 MiB so that a 25 MB file fits.
pub const MAX_UPLOAD_BYTES: usize = 25 * 1024 * 1024;

/// `GET .../items?limit=` and MCP `list_items` `limit`.
pub const ITEMS_PAGE: PageSize = PageSize { field: "limit", default: 100, max: 1000 };
/// MCP `list_projects` `amount` (the spec's default of 50).
pub const PROJECTS_PAGE: PageSize = PageSize { field: "amount", default: 50, max: 1000 };
/// `GET .../diagrams?limit=`: diagram records.
pub const DIAGRAMS_PAGE: PageSize = PageSize { field: "limit", default: 50, max: 200 };
/// `GET .../webhooks/{webhookId}/deliveries?limit=`.
pub const DELIVERIES_PAGE: PageSize = PageSize { field: "limit", default: 50, max: 100 };
/// The account site's activity page (gRPC `ListMyAuditRecords`).
pub const AUDIT_PAGE: PageSize = PageSize { field: "limit", default: 100, max: 500 };
/// `GET .../comments?limit=` and MCP `list_comments`: threads, each with its replies.
pub const COMMENTS_PAGE: PageSize = PageSize { field: "limit", default: 50, max: 200 };
/// `GET /api/v1/memory/index?limit=`.
pub const INDEX_STATUS_PAGE: PageSize = PageSize { field: "limit", default: 100, max: 1000 };

/// The OAuth 2.1 authorization server for MCP clients (docs/ACCOUNTS.md): what core-service
/// accepts, stated once, and what the metadata documents (RFC 8414 from rest-gateway, RFC 9728
/// from mcp-gateway) advertise from here.
pub mod oauth {
    /// The one scope: use the MCP tools as the person.
    pub const SCOPE: &str = "mcp";
    /// Authorization responses: the code flow only (OAuth 2.1 drops the implicit one).
    pub const RESPONSE_TYPES: &[&str] = &["code"];
    /// Grants the token endpoint serves.
    pub const GRANT_TYPES: &[&str] = &["authorization_code", "refresh_token"];
    /// PKCE methods (RFC 7636): S256 only, `plain` is refused.
    pub const CODE_CHALLENGE_METHODS: &[&str] = &["S256"];
    /// Client authentication at the token and revocation endpoints: public clients only.
    pub const CLIENT_AUTH_METHODS: &[&str] = &["none"];
    /// `application_type` values (OpenID Connect Registration 1.0 §2), as MCP 2026-07-28 asks
    /// clients to declare them: each narrows the redirect URIs the client may use.
    pub const APPLICATION_TYPES: &[&str] = &["native", "web"];
    /// Client ID Metadata Documents: seconds one fetch may take, connection included. A person
    /// waits on it before the consent page appears.
    pub const DOCUMENT_FETCH_SECS: u64 = 5;
    /// A fetched document is used again without a fetch for as long as its `Cache-Control:
    /// max-age` (or `Expires`) says, kept within these bounds (seconds); `no-store` and `no-cache`
    /// count as the least.
    pub const DOCUMENT_FRESH_MIN_SECS: u64 = 30;
    pub const DOCUMENT_FRESH_MAX_SECS: u64 = 86_400;
    /// How long a document that says nothing about caching is used again.
    pub const DOCUMENT_FRESH_DEFAULT_SECS: u64 = 3_600;
    /// Documents remembered at once by one core-service process; past it the stalest are
    /// forgotten (and fetched again when next used).
    pub const DOCUMENTS_REMEMBERED: usize = 10_000;
}

/// Bulk create (`POST .../items/bulk`, gRPC `CreateItems`, MCP `create_items`): beyond the spec.
pub mod bulk {
    /// Most items in one call (Miro's bulk create takes 20; a diagram needs more).
    pub const MAX_ITEMS: usize = 1000;
    /// Longest `ref`, in characters.
    pub const MAX_REF_CHARS: usize = 64;
    /// How an item of the batch names another where an item id is expected: `"ref:<name>"`.
    pub const REF_PREFIX: &str = "ref:";
    /// The `ref` rule in words, for documentation and errors.
    pub fn ref_rule() -> String {
        format!(
            "1 to {MAX_REF_CHARS} characters of letters, digits, '_', '-', '.' and ':', unique in the batch; \
             other items name this one by writing \"{REF_PREFIX}<ref>\" as a parent or a connector end's itemId"
        )
    }

    /// Whether `name` is a valid `ref`.
    pub fn valid_ref(name: &str) -> bool {
        !name.is_empty()
            && name.chars().count() <= MAX_REF_CHARS
            && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':'))
    }
}

/// Diagrams from text (`POST .../diagrams`, MCP `create_diagram`): beyond the spec.
pub mod diagrams {
    /// The languages a diagram may be written in; the first is the default.
    pub const FORMATS: &[&str] = &["mermaid"];
    /// The Mermaid diagram types a source may start with (`canvas-diagram` reads exactly these;
    /// its tests check it): flowcharts, mind maps, sequence, class, entity-relationship and state
    /// diagrams, with Mermaid's alternative spellings.
    pub const KINDS: &[&str] = &[
        "flowchart",
        "flowchart-elk",
        "graph",
        "mindmap",
        "sequenceDiagram",
        "classDiagram",
        "classDiagram-v2",
        "erDiagram",
        "stateDiagram-v2",
        "stateDiagram",
    ];
    /// The kinds in words, for descriptions of the diagram operations (each of [`KINDS`] appears in
    /// it; the gateways' tests check their descriptions name them all).
    pub const KINDS_IN_WORDS: &str = "flowchart/graph (or flowchart-elk), mindmap, sequenceDiagram, classDiagram (or \
        classDiagram-v2), erDiagram and stateDiagram-v2 (or stateDiagram)";
    /// Largest |x| or |y| of a diagram's or an arrangement's top-left corner: far beyond any map,
    /// and small enough that every laid-out position stays a finite, exact-enough number.
    pub const MAX_ORIGIN: f64 = 1e12;
}

/// Arranging existing items in one atomic update (`POST .../items/arrange`, MCP `arrange_items`):
/// beyond the spec.
pub mod arrange {
    /// How items may be laid out: `grid` in the order given; `layered` by the connectors between
    /// them (as a flowchart); `tree` from the items nothing points to, along the connectors.
    pub const STYLES: &[&str] = &["grid", "layered", "tree"];
    /// Most items in one arrangement.
    pub const MAX_ITEMS: usize = 1000;
}

/// Large destructive changes made by agents (docs/MCP.md, "Confirmation"): an MCP tool that would
/// delete or move more items than this asks the person first (MCP 2026-07-28 `input_required`),
/// or, for a client that cannot ask, fails naming the argument that confirms. REST and gRPC
/// callers ask for the same bound by sending `ask_above`; unset, nothing is asked.
pub mod confirm {
    /// Most items one tool call deletes or moves without asking.
    pub const ASK_ABOVE: u32 = 50;
    /// The tools' argument that says the person agreed.
    pub const ARGUMENT: &str = "confirm";
}

/// Long agent work as MCP tasks (the `io.modelcontextprotocol/tasks` extension, docs/MCP.md
/// "Tasks"): a client that declares the extension gets a task handle at once for the tool calls
/// below, and polls `tasks/get` for progress and the result. The task's state is core-service's
/// (both backends); the work runs in the mcp-gateway replica that took the call.
pub mod tasks {
    /// `create_items` with more items than this, and `create_diagram` of a source with more lines
    /// than this, run as tasks; smaller ones answer at once, as for a client without the extension.
    pub const ITEMS_ABOVE: usize = 100;
    /// How long a task and its result are kept after it started (`ttlMs`); a `tasks/get` after
    /// it answers that the task has expired.
    pub const KEEP_SECS: u64 = 3_600;
    /// The polling interval suggested to clients (`pollIntervalMs`).
    pub const POLL_INTERVAL_MS: u64 = 250;
    /// The gateway running a task says it is alive this often ...
    pub const HEARTBEAT_SECS: u64 = 1;
    /// ... and a working task not heard of for this long is failed: its gateway stopped. Its write
    /// is one transaction, so the failure says whether the change was made.
    pub const LEASE_SECS: u64 = 10;
    /// Most tasks one person has working at once; a further call answers when done, as without
    /// the extension (served, not refused).
    pub const MAX_WORKING_PER_PERSON: u32 = 8;
    /// Largest result kept (a `render_map` image is the largest); a larger one fails the task.
    pub const MAX_RESULT_BYTES: usize = 8 * 1024 * 1024;
}

/// Knowledge retrieval (`POST /api/v1/memory/retrieve`, MCP `retrieve_knowledge`). Unlike page
/// sizes, `maxResults` above its ceiling is a 400: the spec makes more than 50 with `postProcess`
/// an error, and one rule for both ceilings is easier to reason about.
pub mod retrieval {
    /// Citations when the request names no `maxResults` (the spec's default).
    pub const DEFAULT_MAX_RESULTS: u32 = 20;
    /// Ceiling of `maxResults` without `postProcess`.
    pub const MAX_RESULTS: u32 = 100;
    /// Ceiling of `maxResults` with `postProcess` (the spec's rule).
    pub const MAX_RESULTS_POST_PROCESS: u32 = 50;
    /// Longest `query`, in characters.
    pub const MAX_QUERY_CHARS: usize = 8192;
    /// Most `keywords`.
    pub const MAX_KEYWORDS: usize = 32;
    /// Most `itemIds`.
    pub const MAX_ITEM_IDS: usize = 1000;

    /// The `maxResults` rule in words, for documentation.
    pub fn max_results_rule() -> String {
        format!(
            "default {DEFAULT_MAX_RESULTS}, at most {MAX_RESULTS} ({MAX_RESULTS_POST_PROCESS} with postProcess); \
             more, or 0, is refused"
        )
    }
}

// The default fits under both ceilings (checked when compiling).
const _: () = assert!(
    retrieval::DEFAULT_MAX_RESULTS <= retrieval::MAX_RESULTS_POST_PROCESS
        && retrieval::MAX_RESULTS_POST_PROCESS <= retrieval::MAX_RESULTS
);

/// Presence on the live map (`POST .../presence`, gRPC `Announce`; docs/MAP.md): what one
/// announcement may say. core-service refuses beyond them naming the field; the OpenAPI
/// document shows the same numbers.
pub mod presence {
    /// The most items one announcement may name as selected.
    pub const MAX_SELECTION: usize = 200;
    /// The longest client id.
    pub const MAX_CLIENT_ID: usize = 64;
    /// The largest width or height of a viewport, in map units: a view of the whole of any map
    /// that can be drawn (the map clamps its zoom to at least 0.02 pixels per unit, so a
    /// 10,000-pixel screen shows at most 500,000 units), with room to spare.
    pub const MAX_VIEWPORT_EXTENT: f64 = 10_000_000.0;
}

/// A project's tags (`/api/v2/projects/{projectId}/tags`, MCP `list_tags` and the others; docs/ITEMS.md
/// "Tags"): beyond the spec. Items carry them by id in their `tags` property.
pub mod tags {
    /// Most tags one project has (Miro's boards take 100). A listing answers them all at once.
    pub const MAX_PER_PROJECT: usize = 500;
    /// Most tags one item carries (Miro's take 8).
    pub const MAX_PER_ITEM: usize = 16;
    /// Longest `name`, in characters (as Miro's). Names are trimmed, and unique per project
    /// ignoring case ([`name_key`]).
    pub const MAX_NAME_CHARS: usize = 120;
    /// The `color` of a tag created without one.
    pub const DEFAULT_COLOR: &str = "#8A8F98";
    /// The listing filter (`GET .../items?tag=`, MCP `list_items` `tag`).
    pub const FILTER: &str = "tag";

    /// The form in which two tag names are the same: trimmed and lower-cased (Unicode), so
    /// `Urgent` and ` urgent ` are one tag; `to-do` and `todo` are two.
    pub fn name_key(name: &str) -> String {
        name.trim().to_lowercase()
    }
}

/// Comment threads on an item or a point of the map (`/api/v2/projects/{projectId}/comments`, MCP
/// `list_comments` and the others; docs/COMMENTS.md): beyond the spec. core-service refuses beyond
/// them; the OpenAPI document and the MCP schemas show the same numbers.
pub mod comments {
    /// Longest comment text, in characters (Figma's comments take 5,000 words, GitHub's 65,536
    /// characters; a review note longer than this belongs in a document on the map).
    pub const MAX_TEXT_CHARS: usize = 10_000;
    /// Most replies one thread holds: a longer discussion is a new thread.
    pub const MAX_REPLIES: usize = 500;
    /// Most threads one project holds, open and resolved (10 times the bench's 5,000).
    pub const MAX_THREADS_PER_PROJECT: usize = 50_000;
    /// Most people one comment mentions.
    pub const MAX_MENTIONS: usize = 50;
    /// The largest coordinate of a thread's point, either sign (as a viewport's extent).
    pub const MAX_COORDINATE: f64 = 10_000_000.0;
    /// The subject type of comment events (`subject.type`, the change stream's `itemType`).
    pub const SUBJECT_TYPE: &str = "comment";
    /// The listing's `status` values; the first is the REST default.
    pub const STATUSES: [&str; 3] = ["all", "open", "resolved"];
}

/// Frames (beyond the spec; docs/ITEMS.md "Frames"): titled parts of the map that hold items.
pub mod frames {
    /// Longest `title`, in characters (plain text drawn above the frame; a sentence, not a page).
    pub const MAX_TITLE_CHARS: usize = 200;
    /// The query parameter naming a frame: the listing's (`GET .../items?frame=`, everything it holds
    /// at any depth), the drawing's (`render.svg?frame=`) and the Mermaid export's.
    pub const FILTER: &str = "frame";
    /// Room left between a frame's edge and a diagram or arrangement put inside it, in map units.
    pub const PADDING: f64 = 40.0;
    /// The reason an item moved with its frame carries on its `item.updated` event.
    pub const MOVED_REASON: &str = "frame moved";
}

/// Project archives (`GET .../export`, `POST /api/v2/projects/import`; docs/ARCHIVE.md).
pub mod archive;

/// Webhook definitions.
pub mod webhooks {
    /// Every event kind a webhook can select (core-service stores them as bits in this order): the
    /// spec's six, then the operational kinds (docs/WEBHOOKS.md "Operational events"), which the
    /// service raises about the project's own webhooks, then the comment kinds
    /// (docs/COMMENTS.md); only a definition that lists an extension kind receives it.
    pub const EVENT_KINDS: [&str; 12] = [
        "item.created",
        "item.updated",
        "item.deleted",
        "user.added",
        "user.roleChanged",
        "user.removed",
        "webhook.disabled",
        "webhook.deliveryExhausted",
        "comment.created",
        "comment.updated",
        "comment.resolved",
        "comment.deleted",
    ];
    /// The comment kinds' common prefix (docs/COMMENTS.md "Events").
    pub const COMMENT_PREFIX: &str = "comment.";
    /// The operational kinds' common prefix: the change stream leaves them out (they are about
    /// webhooks, which only Managers and Admins see, not about the map).
    pub const OPERATIONAL_PREFIX: &str = "webhook.";
    /// Longest `name`, in characters.
    pub const MAX_NAME_CHARS: usize = 128;
    /// Largest `customData`, in bytes of its JSON text.
    pub const MAX_CUSTOM_DATA_BYTES: usize = 4096;
    /// Longest `url`, in bytes.
    pub const MAX_URL_BYTES: usize = 2048;
    /// Largest `maxDeliveriesPerSecond` (the smallest is 1; null is no limit). A receiver that
    /// takes more needs no limit.
    pub const MAX_DELIVERIES_PER_SECOND: u32 = 1000;
    /// Most events one recovery (`POST .../recover`) sends again: its deliveries are written in
    /// one transaction, and a larger window is recovered in parts.
    pub const MAX_RECOVERY_EVENTS: usize = 100_000;
    /// The account site shows a managed webhook's deliveries given up of events of this many days
    /// (a week: older ones are still recoverable, by a window the person names).
    pub const ALERT_DAYS: i64 = 7;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_within_their_pages() {
        for page in
            [ITEMS_PAGE, PROJECTS_PAGE, DELIVERIES_PAGE, INDEX_STATUS_PAGE, AUDIT_PAGE, DIAGRAMS_PAGE, COMMENTS_PAGE]
        {
            assert!((PageSize::MIN..=page.max).contains(&page.default), "{page:?}");
        }
    }
}
