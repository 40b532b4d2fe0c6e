//! Presence: who has a project's map open, where their cursor is and what they have selected.
//!
//! Presence is kept in memory only, never in a table: an announcement (sent by an open map when
//! its cursor or selection changes) is checked here, then reaches every replica's [`PresenceHub`]:
//! on PostgreSQL through one `NOTIFY` on the presence channel, which each replica's listener
//! ([`ItemsService::run_presence`]) feeds into its hub (this replica's own included); on SQLite
//! (one process) directly. Each hub keeps, per project, the state of every present client and a
//! broadcast channel of changes; a follower gets the present clients first, then the changes. A
//! client not heard from for [`PRESENCE_EXPIRY`] has left, as has one that says it is leaving.
//!
//! A client id is held by the person who first announced it, until it leaves: another person's
//! announcement under the same id is refused (409), and on other replicas ignored.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use super::presence_checks::check_announcement;
pub use super::presence_checks::{Announcement, Viewport, MAX_CLIENT_ID, MAX_SELECTION};
use super::presence_resync::{aged, OwnAnnouncements, RESYNC_GRACE, RESYNC_REQUEST};
use super::ItemsService;
use crate::domain::{ItemId, ProjectId, ProjectRole, UserId};
use crate::error::{CoreError, CoreResult};
use crate::service::access::fair_share::{self, FairShareConfig, Over, Slot};
use crate::service::notifications::{self, Follower, LISTEN_WITHIN};
use crate::service::Principal;

/// A client not heard from for this long has left.
pub const PRESENCE_EXPIRY: Duration = Duration::from_secs(30);
/// Changes buffered per project for followers; one that falls further behind is ended (it
/// follows again and gets a fresh list of the present clients).
const BUFFER: usize = 256;
/// How often expired clients are looked for.
const SWEEP_EVERY: Duration = Duration::from_millis(250);

/// The colours of people on a map, each readable on the map's white background and under white
/// text; a person's is [`colour_for`] their user id, the same on every replica and every visit.
pub const PALETTE: [&str; 12] = [
    "#d32f2f", "#c2185b", "#7b1fa2", "#512da8", "#303f9f", "#1565c0", "#00796b", "#2e7d32", "#558b2f", "#ef6c00",
    "#d84315", "#5d4037",
];

/// The colour of `user` on every map: one of [`PALETTE`], picked by the user id's bits.
pub fn colour_for(user: UserId) -> &'static str {
    let bits = user.uuid().as_u128();
    let folded = (bits ^ (bits >> 64)) as u64;
    PALETTE[(folded % PALETTE.len() as u64) as usize]
}

/// One present client, as followers see it.
#[derive(Debug, Clone, PartialEq)]
pub struct Present {
    pub client_id: String,
    pub user_id: UserId,
    /// The person's name (or login).
    pub name: String,
    /// `#rrggbb`, [`colour_for`] the user.
    pub colour: &'static str,
    pub cursor: Option<(f64, f64)>,
    pub selection: Vec<ItemId>,
    /// The part of the map the client shows, if it said.
    pub viewport: Option<Viewport>,
    /// This announcement asks everyone to follow the client's view: passed on once, never kept
    /// in the state a new follower is sent.
    pub summons: bool,
    /// When the announcement was received, in Unix milliseconds.
    pub at_unix_ms: i64,
}

/// A change of a project's presence.
#[derive(Debug, Clone, PartialEq)]
pub enum PresenceChange {
    Present(Present),
    Left { client_id: String },
}

/// A checked announcement as it travels between replicas (the `NOTIFY` payload): short names and
/// the selection as one base64url string of 16-byte ids, so 200 ids and a long name stay well
/// under PostgreSQL's 8000 bytes.
#[derive(Debug, Serialize, Deserialize)]
struct Wire {
    /// Project.
    p: Uuid,
    /// Client id.
    c: String,
    /// User id.
    u: Uuid,
    /// Name.
    n: String,
    /// Cursor.
    x: Option<f64>,
    y: Option<f64>,
    /// Selection.
    s: String,
    /// Received at (Unix ms).
    t: i64,
    /// Leaving.
    l: bool,
    /// Viewport: x, y, width, height.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    v: Option<[f64; 4]>,
    /// Summons.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    m: bool,
}

impl Wire {
    fn of(project: ProjectId, present: &Present, leaving: bool) -> Self {
        let mut ids = Vec::with_capacity(present.selection.len() * 16);
        for id in &present.selection {
            ids.extend_from_slice(id.uuid().as_bytes());
        }
        Self {
            p: project.uuid(),
            c: present.client_id.clone(),
            u: present.user_id.uuid(),
            n: present.name.clone(),
            x: present.cursor.map(|c| c.0),
            y: present.cursor.map(|c| c.1),
            s: URL_SAFE_NO_PAD.encode(ids),
            t: present.at_unix_ms,
            l: leaving,
            v: present.viewport.map(|v| [v.x, v.y, v.width, v.height]),
            m: present.summons,
        }
    }

    fn read(payload: &str) -> Option<(ProjectId, Present, bool)> {
        let wire: Wire = serde_json::from_str(payload).ok()?;
        let ids = URL_SAFE_NO_PAD.decode(wire.s.as_bytes()).ok()?;
        let selection = ids
            .chunks(16)
            .map(|chunk| Uuid::from_slice(chunk).ok().map(ItemId::from_uuid))
            .collect::<Option<Vec<_>>>()?;
        let user_id = UserId::from_uuid(wire.u);
        let present = Present {
            client_id: wire.c,
            user_id,
            name: wire.n,
            colour: colour_for(user_id),
            cursor: wire.x.zip(wire.y),
            selection,
            viewport: wire.v.map(|[x, y, width, height]| Viewport { x, y, width, height }),
            summons: wire.m,
            at_unix_ms: wire.t,
        };
        Some((ProjectId::from_uuid(wire.p), present, wire.l))
    }
}

/// One project's present clients and its followers' channel.
#[derive(Debug)]
struct ProjectPresence {
    clients: HashMap<String, (Present, Instant)>,
    changes: broadcast::Sender<PresenceChange>,
}

impl Default for ProjectPresence {
    fn default() -> Self {
        Self { clients: HashMap::new(), changes: broadcast::channel(BUFFER).0 }
    }
}

/// Every project's present clients, and how many each person has present.
#[derive(Debug, Default)]
struct Rooms {
    projects: HashMap<ProjectId, ProjectPresence>,
    /// Present clients per person, across projects: the bound per person.
    people: HashMap<UserId, usize>,
}

impl Rooms {
    fn arrived(&mut self, person: UserId) {
        *self.people.entry(person).or_default() += 1;
    }

    fn left(&mut self, person: UserId) {
        crate::service::access::fair_share::decrement(&mut self.people, person);
    }
}

/// This replica's presence of every project, in memory. Every replica's hub applies the same
/// announcements in the same order (PostgreSQL delivers notifications in commit order), so the
/// bounds per person and per project hold across replicas, not per replica.
#[derive(Debug)]
pub struct PresenceHub {
    rooms: Mutex<Rooms>,
    /// [`PRESENCE_EXPIRY`], or a test's shorter time, in milliseconds.
    expiry_ms: AtomicU64,
    /// Clients one person may have present at once, across projects.
    per_person: usize,
    /// Clients present at once on one project's map.
    per_project: usize,
    /// What the clients of this replica last announced, to send again when a replica's listener
    /// missed notifications (`presence_resync.rs`).
    own: OwnAnnouncements,
}

impl Default for PresenceHub {
    fn default() -> Self {
        let bounds = FairShareConfig::default();
        Self::bounded(bounds.presence_clients_per_person, bounds.presence_clients_per_project)
    }
}

/// A follower of one project's presence: the clients present when it started, then the changes.
#[derive(Debug)]
pub struct PresenceFollow {
    pub project: ProjectId,
    pub present: Vec<Present>,
    pub changes: broadcast::Receiver<PresenceChange>,
    /// The follower's place in the person's and the project's share of open streams: keep it
    /// for as long as the stream is open (`service/access/fair_share.rs`).
    pub slot: Option<Slot>,
}

impl PresenceHub {
    /// A hub where one person may have `per_person` clients present and one project
    /// `per_project`.
    pub fn bounded(per_person: u32, per_project: u32) -> Self {
        Self {
            rooms: Mutex::default(),
            expiry_ms: AtomicU64::new(PRESENCE_EXPIRY.as_millis() as u64),
            per_person: per_person.max(1) as usize,
            per_project: per_project.max(1) as usize,
            own: OwnAnnouncements::default(),
        }
    }

    fn rooms(&self) -> std::sync::MutexGuard<'_, Rooms> {
        // The maps stay consistent whatever a panicking holder did (each change is one insert or
        // remove with its count), so a poisoned lock is used as it is.
        self.rooms.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Who holds `client_id` in `project`, if anyone.
    fn holder(&self, project: ProjectId, client_id: &str) -> Option<UserId> {
        self.rooms().projects.get(&project)?.clients.get(client_id).map(|(present, _)| present.user_id)
    }

    /// Whether `person` may have `client_id` present in `project`: it is already, or neither
    /// bound is reached.
    fn room_for(&self, project: ProjectId, client_id: &str, person: UserId) -> Result<(), Over> {
        let rooms = self.rooms();
        let entry = rooms.projects.get(&project);
        if entry.is_some_and(|entry| entry.clients.contains_key(client_id)) {
            return Ok(());
        }
        if rooms.people.get(&person).copied().unwrap_or(0) >= self.per_person {
            return Err(Over::Person);
        }
        if entry.is_some_and(|entry| entry.clients.len() >= self.per_project) {
            return Err(Over::Project);
        }
        Ok(())
    }

    /// The 429 of a new client past a bound: a client not heard from leaves within the expiry.
    fn refusal(&self, over: Over) -> CoreError {
        let (scope, quota) = match over {
            Over::Person => ("person", self.per_person),
            Over::Project => ("project", self.per_project),
        };
        let expiry_secs = self.expiry_ms.load(Ordering::Relaxed).div_ceil(1000);
        fair_share::too_many("map clients", "presence-clients", scope, quota, expiry_secs)
    }

    /// Applies an announcement: the client is present with this state, or has left. Another
    /// person's announcement under a client id already held is ignored, as is a new client past
    /// either bound (one that raced others past [`ItemsService::announce`]'s check).
    fn apply(&self, project: ProjectId, present: Present, leaving: bool) {
        let mut rooms = self.rooms();
        let person = present.user_id;
        let present_now = rooms.people.get(&person).copied().unwrap_or(0);
        let entry = rooms.projects.entry(project).or_default();
        let held = entry.clients.get(&present.client_id).map(|(held, _)| held.user_id);
        if held.is_some_and(|holder| holder != person) {
            return;
        }
        // A send fails only when nobody follows, which is fine.
        if leaving {
            if entry.clients.remove(&present.client_id).is_some() {
                let _ = entry.changes.send(PresenceChange::Left { client_id: present.client_id });
                rooms.left(person);
            }
            return;
        }
        let arrives = held.is_none();
        if arrives && (present_now >= self.per_person || entry.clients.len() >= self.per_project) {
            return;
        }
        // A summons is passed on now and forgotten: a follower arriving later is not summoned.
        let kept = Present { summons: false, ..present.clone() };
        entry.clients.insert(present.client_id.clone(), (kept, Instant::now()));
        let _ = entry.changes.send(PresenceChange::Present(present));
        if arrives {
            rooms.arrived(person);
        }
    }

    /// Starts following `project`: its present clients, and a receiver of what changes after.
    fn follow(&self, project: ProjectId) -> PresenceFollow {
        let mut rooms = self.rooms();
        let entry = rooms.projects.entry(project).or_default();
        let mut present: Vec<Present> = entry.clients.values().map(|(present, _)| present.clone()).collect();
        present.sort_by_key(|p| p.at_unix_ms);
        PresenceFollow { project, present, changes: entry.changes.subscribe(), slot: None }
    }

    /// After notifications were missed: every client held leaves [`RESYNC_GRACE`] from `now`
    /// unless it is announced again meanwhile (as the resync request makes every replica do).
    fn age(&self, now: Instant) {
        let expiry = Duration::from_millis(self.expiry_ms.load(Ordering::Relaxed));
        let deadline = aged(now, expiry, RESYNC_GRACE);
        let mut rooms = self.rooms();
        for entry in rooms.projects.values_mut() {
            for (_, seen) in entry.clients.values_mut() {
                *seen = (*seen).min(deadline);
            }
        }
    }

    /// Clients not heard from within the expiry leave; projects nobody is in or follows are
    /// forgotten.
    fn sweep(&self, now: Instant) {
        let expiry = Duration::from_millis(self.expiry_ms.load(Ordering::Relaxed));
        self.own.expire(now, expiry);
        let mut rooms = self.rooms();
        let mut gone = Vec::new();
        rooms.projects.retain(|_, entry| {
            let expired: Vec<String> = entry
                .clients
                .iter()
                .filter(|(_, (_, seen))| now.saturating_duration_since(*seen) >= expiry)
                .map(|(id, _)| id.clone())
                .collect();
            for client_id in expired {
                if let Some((present, _)) = entry.clients.remove(&client_id) {
                    gone.push(present.user_id);
                }
                let _ = entry.changes.send(PresenceChange::Left { client_id });
            }
            !entry.clients.is_empty() || entry.changes.receiver_count() > 0
        });
        for person in gone {
            rooms.left(person);
        }
    }
}

/// Announcements of other replicas (and this one's, back from the database) feed the hub.
impl Follower for PresenceHub {
    /// Listening started, or resumed after notifications were missed: age what this hub holds and
    /// ask every replica for its clients' announcements again (`presence_resync.rs`).
    fn listening(&self) {
        self.age(Instant::now());
        self.own.must_ask.notify_one();
    }

    fn received(&self, payload: String) {
        if payload == RESYNC_REQUEST {
            self.own.asked.notify_one();
            return;
        }
        match Wire::read(&payload) {
            Some((project, present, leaving)) => self.apply(project, present, leaving),
            None => tracing::warn!("presence: an announcement that does not decode was ignored"),
        }
    }
}

impl ItemsService {
    /// Records what one client of `project`'s map says about itself (needs the Viewer role or
    /// above) and passes it to every follower on every replica. Writes nothing to the database.
    pub async fn announce(&self, who: &Principal, project: ProjectId, announcement: Announcement) -> CoreResult<()> {
        let selection = check_announcement(&announcement)?;
        self.access.require_role(who, project, ProjectRole::Viewer).await?;
        if self.presence.holder(project, &announcement.client_id).is_some_and(|holder| holder != who.user_id) {
            return Err(CoreError::Conflict(format!(
                "client id '{}' is in use by another person on this map; choose another",
                announcement.client_id
            )));
        }
        if !announcement.leaving {
            if let Err(over) = self.presence.room_for(project, &announcement.client_id, who.user_id) {
                return Err(self.presence.refusal(over));
            }
        }
        let present = Present {
            client_id: announcement.client_id,
            user_id: who.user_id,
            name: who.name.clone(),
            colour: colour_for(who.user_id),
            cursor: announcement.cursor,
            selection,
            viewport: announcement.viewport,
            summons: announcement.summon,
            at_unix_ms: chrono::Utc::now().timestamp_millis(),
        };
        if self.store.shares_presence() {
            let wire = |present: &Present| {
                serde_json::to_string(&Wire::of(project, present, announcement.leaving)).map_err(CoreError::internal)
            };
            let payload = wire(&present)?;
            // What a resync sends again is the state, never the summons.
            let state =
                if present.summons { wire(&Present { summons: false, ..present.clone() })? } else { payload.clone() };
            self.presence.own.sent(project, &present.client_id, &state, announcement.leaving);
            self.store.notify_presence(&payload).await
        } else {
            self.presence.apply(project, present, announcement.leaving);
            Ok(())
        }
    }

    /// Starts following `project`'s presence (needs the Viewer role or above).
    pub async fn follow_presence(&self, who: &Principal, project: ProjectId) -> CoreResult<PresenceFollow> {
        self.access.require_role(who, project, ProjectRole::Viewer).await?;
        let slot = self.open_stream(who, project)?;
        Ok(PresenceFollow { slot: Some(slot), ..self.presence.follow(project) })
    }

    /// Whether a follower still may follow (its role is checked again now and then).
    pub async fn recheck_presence(&self, who: &Principal, project: ProjectId) -> CoreResult<()> {
        self.access.require_role(who, project, ProjectRole::Viewer).await.map(|_| ())
    }

    /// How long a client not heard from stays present ([`PRESENCE_EXPIRY`]); tests shorten it.
    pub fn set_presence_expiry(&self, expiry: Duration) {
        self.presence.expiry_ms.store(expiry.as_millis().max(1) as u64, Ordering::Relaxed);
    }

    /// Keeps this replica's presence until `shutdown`: sweeps out expired clients and, on
    /// PostgreSQL, feeds the hub from the presence channel.
    pub async fn run_presence(&self, shutdown: CancellationToken) {
        let sweep = async {
            let mut every = tokio::time::interval(SWEEP_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    () = shutdown.cancelled() => return,
                    _ = every.tick() => self.presence.sweep(Instant::now()),
                }
            }
        };
        tokio::join!(sweep, self.relay_presence(&shutdown), self.resync_presence(&shutdown));
    }

    /// Sends the resync request when this replica's listener resumed, and this replica's clients'
    /// announcements again when any replica asked (PostgreSQL; `presence_resync.rs`).
    async fn resync_presence(&self, shutdown: &CancellationToken) {
        if !self.store.shares_presence() {
            return;
        }
        let own = &self.presence.own;
        loop {
            let payloads = tokio::select! {
                () = shutdown.cancelled() => return,
                () = own.must_ask.notified() => vec![RESYNC_REQUEST.to_owned()],
                () = own.asked.notified() => own.payloads(),
            };
            for payload in payloads {
                if let Err(err) = self.store.notify_presence(&payload).await {
                    tracing::warn!(error = %err, "presence: cannot send an announcement again");
                    break;
                }
            }
        }
    }

    /// Feeds the hub from the database's presence channel (PostgreSQL; on SQLite it returns at
    /// once).
    async fn relay_presence(&self, shutdown: &CancellationToken) {
        let listen = || self.store.listen_presence(LISTEN_WITHIN);
        notifications::follow("presence", listen, &*self.presence, shutdown).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn present(client: &str, user: u128) -> Present {
        let user_id = UserId::from_uuid(Uuid::from_u128(user));
        Present {
            client_id: client.into(),
            user_id,
            name: "Ada".into(),
            colour: colour_for(user_id),
            cursor: Some((1.5, -2.0)),
            selection: vec![ItemId::from_uuid(Uuid::from_u128(7))],
            viewport: Some(Viewport { x: -10.5, y: 20.0, width: 1280.0, height: 720.0 }),
            summons: false,
            at_unix_ms: 1,
        }
    }

    #[test]
    fn colours_come_from_the_palette_and_stay_per_user() {
        let a = UserId::from_uuid(Uuid::from_u128(0x0190_0000_0000_7000_8000_0000_0000_0001));
        assert_eq!(colour_for(a), colour_for(a));
        let used: std::collections::HashSet<_> =
            (0..240u128).map(|n| colour_for(UserId::from_uuid(Uuid::from_u128(n)))).collect();
        assert_eq!(used.len(), PALETTE.len(), "every colour is reached");
    }

    #[test]
    fn the_wire_carries_the_largest_announcement_well_under_the_limit() {
        let mut largest = present(&"c".repeat(MAX_CLIENT_ID), 9);
        largest.name = "\u{1F600}".repeat(128);
        largest.selection = (0..MAX_SELECTION as u128).map(|n| ItemId::from_uuid(Uuid::from_u128(n))).collect();
        let project = ProjectId::from_uuid(Uuid::from_u128(3));
        let payload = serde_json::to_string(&Wire::of(project, &largest, false)).unwrap();
        assert!(payload.len() < crate::storage::MAX_PRESENCE_PAYLOAD, "{} bytes", payload.len());
        assert_eq!(Wire::read(&payload), Some((project, largest, false)));
    }

    #[tokio::test]
    async fn followers_get_the_present_clients_then_changes_and_expiries() {
        let hub = PresenceHub::default();
        let project = ProjectId::from_uuid(Uuid::from_u128(1));
        hub.apply(project, present("a", 1), false);
        let mut follow = hub.follow(project);
        assert_eq!(follow.present, vec![present("a", 1)]);
        hub.apply(project, present("b", 2), false);
        // Another person cannot take a held client id, nor make it leave.
        hub.apply(project, present("a", 2), true);
        hub.apply(project, present("b", 2), true);
        assert_eq!(follow.changes.recv().await.unwrap(), PresenceChange::Present(present("b", 2)));
        assert_eq!(follow.changes.recv().await.unwrap(), PresenceChange::Left { client_id: "b".into() });
        hub.expiry_ms.store(0, Ordering::Relaxed);
        hub.sweep(Instant::now());
        assert_eq!(follow.changes.recv().await.unwrap(), PresenceChange::Left { client_id: "a".into() });
        assert!(follow.changes.try_recv().is_err(), "nothing more");
        drop(follow);
        hub.sweep(Instant::now());
        let rooms = hub.rooms();
        assert!(rooms.projects.is_empty(), "an empty project nobody follows is forgotten");
        assert!(rooms.people.is_empty(), "and nobody is counted as present");
    }

    #[tokio::test]
    async fn a_summons_reaches_those_following_then_and_nobody_after() {
        let hub = PresenceHub::default();
        let project = ProjectId::from_uuid(Uuid::from_u128(1));
        let mut early = hub.follow(project);
        let summoning = Present { summons: true, ..present("a", 1) };
        hub.apply(project, summoning.clone(), false);
        assert_eq!(early.changes.recv().await.unwrap(), PresenceChange::Present(summoning));
        let late = hub.follow(project);
        assert_eq!(late.present, vec![present("a", 1)], "the state, without the summons");
        let payload = serde_json::to_string(&Wire::of(project, &Present { summons: true, ..present("a", 1) }, false));
        let (_, read, _) = Wire::read(&payload.unwrap()).unwrap();
        assert!(read.summons && read.viewport == present("a", 1).viewport, "the wire carries both");
    }
}
