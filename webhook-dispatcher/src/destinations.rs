//! Calls in flight per destination, so one slow receiver never takes the dispatcher's every slot.
//!
//! A destination is a URL's scheme, host and port. When one has `--per-destination` calls in
//! flight, its webhooks are named in the next leases' `skip_webhook_ids`: their deliveries stay
//! queued in core-service (no lease runs out while they wait here), and the other destinations'
//! deliveries are leased past them. Deliveries leased before their destination was known to be
//! busy wait here for a turn, as many as the destination may have in flight (so each waits at most
//! about one call's time, well inside its lease); more are handed back at once. When a call to a
//! busy destination ends, the lease loop is woken: a waiting delivery can start, or that
//! destination's queued ones can be leased.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

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
}

/// A call's place at its destination; dropping it ends the call there.
pub struct Turn {
    destinations: Destinations,
    destination: String,
}

/// The most webhooks named in one lease's skip list (core-service honours as many).
pub const MAX_SKIPPED: usize = 256;

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
        Some(Turn { destinations: self.clone(), destination })
    }

    /// Webhooks whose destination is busy, for the next lease to skip.
    pub fn busy_webhooks(&self) -> Vec<String> {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let busy = |destination: &String| inner.in_flight.get(destination).is_some_and(|n| *n >= self.cap);
        inner.webhooks.iter().filter(|(_, d)| busy(d)).map(|(w, _)| w.clone()).take(MAX_SKIPPED).collect()
    }

    fn end(&self, destination: &str) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let Some(count) = inner.in_flight.get_mut(destination) else { return };
        let was_busy = *count >= self.cap;
        *count -= 1;
        if *count == 0 {
            inner.in_flight.remove(destination);
        }
        drop(inner);
        if was_busy {
            self.wake.notify_one();
        }
    }
}

/// Deliveries leased while their destination was busy, by destination, oldest first.
#[derive(Default)]
pub struct Waiting(HashMap<String, VecDeque<pb::LeasedDelivery>>);

impl Waiting {
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
        assert!(destinations.try_start("fast", "https://fast:1/").is_some());
        assert_eq!(destinations.busy_webhooks(), ["slow"]);
        drop(first);
        assert!(destinations.busy_webhooks().is_empty());
        assert!(destinations.try_start("slow", "https://slow:1/").is_some());
    }
}
