//! Calls in flight per destination, so one slow receiver never takes the dispatcher's every slot.
//!
//! A destination is a URL's scheme, host and port. Each lease tells core-service how much room
//! the destinations with calls in flight have: a destination with `--per-destination` calls in
//! flight (or waiting here) has its webhooks named in `skip_webhook_ids`, so their deliveries stay
//! queued in core-service (no lease runs out while they wait here) and the other destinations'
//! deliveries are leased past them; one with room for n more (or called in the last second) has
//! its webhooks named in `limited_webhooks` with n, so no more of theirs are leased than can
//! start. Only deliveries of destinations idle for a second come unlimited; those beyond the cap wait here for a
//! turn, as many as the destination may have in flight (so each waits at most about one call's
//! time, well inside its lease), and more are handed back at once. When a call to a full
//! destination ends, the lease loop is woken: a waiting delivery can start, or that destination's
//! queued ones can be leased.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use canvas_proto::v1 as pb;
use tokio::sync::Notify;

/// In-flight counts by destination, and which destination each webhook seen so far calls.
#[derive(Clone)]
pub struct Destinations {
    inner: Arc<Mutex<Inner>>,
    cap: usize,
    /// The lease loop's wake-up.
    wake: Arc<Notify>,
}

#[derive(Default)]
struct Inner {
    in_flight: HashMap<String, usize>,
    /// Webhook id → destination, as last leased (a webhook's URL may change).
    webhooks: HashMap<String, String>,
    /// When each destination's last call started.
    last_start: HashMap<String, Instant>,
}

/// A destination whose last call started this recently is still limited to its cap when nothing
/// is in flight: under load its calls often all end between two leases, and an unlimited lease
/// then takes a whole batch of its deliveries, most of which are handed back.
const RECENT: Duration = Duration::from_secs(1);

/// A call's place at its destination; dropping it ends the call there.
pub struct Turn {
    destinations: Destinations,
    destination: String,
}

/// The most webhooks named in one lease's skip list (core-service honours as many).
pub const MAX_SKIPPED: usize = canvas_proto::limits::MAX_SKIPPED_WEBHOOKS;

impl Destinations {
    pub fn new(cap: usize, wake: Arc<Notify>) -> Self {
        Self { inner: Arc::default(), cap: cap.max(1), wake }
    }

    /// A turn at the delivery's destination, or None when it already has `cap` calls in flight.
    pub fn try_start(&self, webhook_id: &str, url: &str) -> Option<Turn> {
        let destination = destination(url);
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if inner.webhooks.get(webhook_id) != Some(&destination) {
            // Bounded by the webhooks this dispatcher calls; a changed URL replaces the entry.
            inner.webhooks.insert(webhook_id.to_owned(), destination.clone());
        }
        let count = inner.in_flight.entry(destination.clone()).or_default();
        if *count >= self.cap {
            return None;
        }
        *count += 1;
        inner.last_start.insert(destination.clone(), Instant::now());
        Some(Turn { destinations: self.clone(), destination })
    }

    /// What the next lease may take of the webhooks whose destination has calls in flight or
    /// deliveries waiting here: none of those without room (skipped), a share of the room of the
    /// others (limited: the room split between the destination's webhooks, rounded up, so many
    /// webhooks of one receiver are not each leased its whole room). At most [`MAX_SKIPPED`]
    /// webhooks in all, skipped ones first.
    pub fn allowances(&self, waiting: &Waiting) -> Allowances {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let mut webhooks_of: HashMap<&str, usize> = HashMap::new();
        for destination in inner.webhooks.values() {
            *webhooks_of.entry(destination.as_str()).or_default() += 1;
        }
        let mut allowances = Allowances::default();
        for (webhook, destination) in &inner.webhooks {
            let taken = inner.in_flight.get(destination).copied().unwrap_or(0) + waiting.len_for(destination);
            let recent = inner.last_start.get(destination).is_some_and(|at| at.elapsed() < RECENT);
            if taken == 0 && !recent {
                continue;
            }
            match self.cap.saturating_sub(taken) {
                0 => allowances.skip.push(webhook.clone()),
                room => {
                    let share = room.div_ceil(webhooks_of.get(destination.as_str()).copied().unwrap_or(1).max(1));
                    allowances.limited.push(pb::WebhookAllowance {
                        webhook_id: webhook.clone(),
                        max_deliveries: u32::try_from(share).unwrap_or(u32::MAX),
                    });
                }
            }
        }
        allowances.skip.truncate(MAX_SKIPPED);
        allowances.limited.truncate(MAX_SKIPPED - allowances.skip.len());
        allowances
    }

    fn end(&self, destination: &str) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let Some(count) = inner.in_flight.get_mut(destination) else { return };
        let was_busy = *count >= self.cap;
        *count -= 1;
        if *count == 0 {
            inner.in_flight.remove(destination);
            // Kept only while it matters (bounded by the destinations called in the last second).
            inner.last_start.retain(|_, at| at.elapsed() < RECENT);
        }
        drop(inner);
        if was_busy {
            self.wake.notify_one();
        }
    }
}

/// The webhooks a lease skips and those it takes only a few deliveries of.
#[derive(Debug, Default, PartialEq)]
pub struct Allowances {
    pub skip: Vec<String>,
    pub limited: Vec<pb::WebhookAllowance>,
}

/// Deliveries leased while their destination was busy, by destination, oldest first.
#[derive(Default)]
pub struct Waiting(HashMap<String, VecDeque<pb::LeasedDelivery>>);

impl Waiting {
    /// Deliveries waiting for `destination`.
    fn len_for(&self, destination: &str) -> usize {
        self.0.get(destination).map_or(0, VecDeque::len)
    }

    /// Keeps `delivery` until its destination has a turn, or returns it when as many as
    /// `destinations` lets that destination have in flight already wait.
    pub fn keep(&mut self, delivery: pb::LeasedDelivery, destinations: &Destinations) -> Option<pb::LeasedDelivery> {
        let queue = self.0.entry(destination(&delivery.url)).or_default();
        if queue.len() >= destinations.cap {
            return Some(delivery);
        }
        queue.push_back(delivery);
        None
    }

    /// Up to `free` waiting deliveries whose destination has a turn now, each with its turn.
    pub fn startable(&mut self, destinations: &Destinations, free: usize) -> Vec<(Turn, pb::LeasedDelivery)> {
        let mut started = Vec::new();
        for queue in self.0.values_mut() {
            while started.len() < free {
                let Some(next) = queue.front() else { break };
                let Some(turn) = destinations.try_start(&next.webhook_id, &next.url) else { break };
                started.extend(queue.pop_front().map(|delivery| (turn, delivery)));
            }
        }
        self.0.retain(|_, queue| !queue.is_empty());
        started
    }

    /// Every waiting delivery (the dispatcher is stopping).
    pub fn take_all(&mut self) -> Vec<pb::LeasedDelivery> {
        std::mem::take(&mut self.0).into_values().flatten().collect()
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        self.destinations.end(&self.destination);
    }
}

/// `scheme://host:port` of a URL (the part before its path, query or fragment), lower-cased.
pub fn destination(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    let host = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    format!("{}://{}", scheme.to_ascii_lowercase(), host.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destinations_are_scheme_host_and_port() {
        assert_eq!(destination("https://Example.com:8443/a/b?c#d"), "https://example.com:8443");
        assert_eq!(destination("https://example.com?x"), "https://example.com");
        assert_ne!(destination("https://127.0.0.1:1/hook"), destination("https://127.0.0.1:2/hook"));
    }

    fn leased(webhook: &str, url: &str) -> pb::LeasedDelivery {
        pb::LeasedDelivery { webhook_id: webhook.into(), url: url.into(), ..Default::default() }
    }

    #[test]
    fn deliveries_wait_for_a_turn_as_many_as_may_be_in_flight() {
        let destinations = Destinations::new(1, Arc::new(Notify::new()));
        let mut waiting = Waiting::default();
        let turn = destinations.try_start("slow", "https://slow:1/").unwrap();
        assert!(waiting.keep(leased("slow", "https://slow:1/a"), &destinations).is_none());
        assert!(waiting.keep(leased("slow", "https://slow:1/b"), &destinations).is_some(), "one waits at most");
        assert!(waiting.startable(&destinations, 8).is_empty(), "no turn yet");
        drop(turn);
        let started = waiting.startable(&destinations, 8);
        assert_eq!(started.len(), 1);
        assert_eq!(started[0].1.url, "https://slow:1/a");
        assert!(waiting.take_all().is_empty());
    }

    #[test]
    fn a_full_destination_is_skipped_until_a_call_ends() {
        let wake = Arc::new(Notify::new());
        let destinations = Destinations::new(2, wake);
        let first = destinations.try_start("slow", "https://slow:1/").unwrap();
        let _second = destinations.try_start("slow", "https://slow:1/").unwrap();
        assert!(destinations.try_start("slow", "https://slow:1/").is_none());
        let fast = destinations.try_start("fast", "https://fast:1/");
        assert!(fast.is_some());
        let waiting = Waiting::default();
        let allowances = destinations.allowances(&waiting);
        assert_eq!(allowances.skip, ["slow"]);
        assert_eq!(allowances.limited, [allowance("fast", 1)], "one more call fits the fast destination");
        drop(first);
        drop(fast);
        let allowances = destinations.allowances(&waiting);
        assert!(allowances.skip.is_empty());
        assert!(allowances.limited.contains(&allowance("slow", 1)), "{allowances:?}");
        assert!(allowances.limited.contains(&allowance("fast", 2)), "called a moment ago: {allowances:?}");
        assert!(destinations.try_start("slow", "https://slow:1/").is_some());
    }

    #[test]
    fn webhooks_of_one_receiver_share_its_room() {
        let destinations = Destinations::new(8, Arc::new(Notify::new()));
        let waiting = Waiting::default();
        let _turns: Vec<Turn> =
            ["a", "b", "c"].iter().map(|w| destinations.try_start(w, "https://shared:1/").unwrap()).collect();
        let mut limited = destinations.allowances(&waiting).limited;
        limited.sort_by(|x, y| x.webhook_id.cmp(&y.webhook_id));
        assert_eq!(limited, [allowance("a", 2), allowance("b", 2), allowance("c", 2)], "room 5 in three shares");
    }

    fn allowance(webhook: &str, max: u32) -> pb::WebhookAllowance {
        pb::WebhookAllowance { webhook_id: webhook.into(), max_deliveries: max }
    }

    #[test]
    fn deliveries_waiting_here_count_against_the_room_and_idle_destinations_are_unlimited() {
        let destinations = Destinations::new(3, Arc::new(Notify::new()));
        let mut waiting = Waiting::default();
        let turn = destinations.try_start("a", "https://a:1/").unwrap();
        assert!(waiting.keep(leased("a", "https://a:1/x"), &destinations).is_none());
        assert_eq!(destinations.allowances(&waiting).limited, [allowance("a", 1)]);
        assert!(waiting.keep(leased("a", "https://a:1/y"), &destinations).is_none());
        assert_eq!(destinations.allowances(&waiting).skip, ["a"]);
        drop(turn);
        let started = waiting.startable(&destinations, 8);
        assert_eq!(started.len(), 2);
        drop(started);
        assert_eq!(
            destinations.allowances(&waiting).limited,
            [allowance("a", 3)],
            "nothing in flight, but called a moment ago: the cap"
        );
        destinations.inner.lock().unwrap().last_start.clear();
        assert_eq!(destinations.allowances(&waiting), Allowances::default(), "idle: no limit");
    }
}
