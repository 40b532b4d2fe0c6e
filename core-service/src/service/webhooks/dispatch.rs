//! The delivery side of webhooks: the signing key ring, leases for
//! webhook-dispatcher, outcome reports with retry scheduling and the
//! automatic disable, and test calls (which use the same client and rules).
//!
//! Private keys never leave core-service, so core signs: each lease is signed
//! for sending now (`Webhook-Timestamp` = lease time; a lease lasts at most a
//! few minutes and is sent at once, well inside receivers' 300 s tolerance).
//! Every attempt is a new lease, so every retry carries a fresh timestamp.

use std::time::Duration;

use chrono::{DateTime, Utc};
use subtle::ConstantTimeEq;
use uuid::Uuid;
use webhook_client::{Call, Outcome};

use super::WebhooksService;
use crate::error::{CoreError, CoreResult, Dependency};
use crate::storage::{AttemptOutcome, EventRow, Recorded, SigningKeyRow, SlowDown};
use crate::webhooks::keys::{self, NewKey};
use crate::webhooks::runtime::{
    DeliveryReport, LeasedCall, DEFAULT_LEASE, KEY_RING_FRESH, LEASE_BOUNDS, MAX_LEASE_BATCH, MAX_REPORT_BATCH,
    MAX_SKIPPED_WEBHOOKS, RETIRE_GRACE,
};
use crate::webhooks::{body, retry, Definition};

impl WebhooksService {
    /// Start-up work: a first signing key when the ring is empty, and
    /// `inactive = invalidDefinition` set or cleared on every webhook by
    /// today's rules (the destination allow-list may have changed).
    pub async fn prepare_webhooks(&self) -> CoreResult<()> {
        let now = Utc::now();
        if !self.store.published_signing_keys(now).await?.iter().any(|k| k.activates_at <= now) {
            self.add_signing_key(now, None).await?;
            tracing::info!("created the first webhook signing key");
        }
        let policy = self.runtime.client.policy();
        for row in self.store.all_webhooks().await? {
            let definition = Definition {
                name: row.name.clone(),
                url: row.url.clone(),
                enabled: row.enabled,
                events: row.events.clone(),
                custom_data: row.custom_data.clone(),
                max_deliveries_per_second: row.max_deliveries_per_second.map(|n| n.max(0) as u32),
            };
            let valid = definition.still_valid(policy);
            let marked = row.inactive.as_deref() == Some(crate::webhooks::inactive::INVALID);
            if valid == marked {
                if !valid {
                    tracing::warn!(webhook = %row.id, url = %row.url, "webhook no longer passes validation; inactive");
                }
                self.store.mark_invalid(row.id, !valid).await?;
            }
        }
        Ok(())
    }

    async fn add_signing_key(
        &self,
        activates_at: DateTime<Utc>,
        retire_others_at: Option<DateTime<Utc>>,
    ) -> CoreResult<SigningKeyRow> {
        let key = NewKey::generate()?;
        let sealed = self.runtime.settings.sealer.seal(&key.kid, &key.private.to_bytes())?;
        let row = SigningKeyRow {
            kid: key.kid,
            public_x: key.x,
            public_y: key.y,
            sealed_private: sealed,
            created_at: Utc::now(),
            activates_at,
            retires_at: None,
        };
        self.store.insert_signing_key(&row, retire_others_at).await?;
        // This replica signs from the new ring at once.
        *self.runtime.key_ring() = None;
        Ok(row)
    }

    /// The published key set (no authentication): keys not yet retired,
    /// including a rotated-in key that does not sign yet.
    pub async fn signing_keys(&self) -> CoreResult<Vec<SigningKeyRow>> {
        self.store.published_signing_keys(Utc::now()).await
    }

    /// Publishes a new key that signs after `delay` (None: the configured
    /// delay); the current keys retire [`RETIRE_GRACE`] after it takes over.
    pub async fn rotate_signing_key(
        &self,
        who: &crate::service::Principal,
        delay: Option<Duration>,
    ) -> CoreResult<SigningKeyRow> {
        self.access.require_system_admin(who)?;
        let settings = &self.runtime.settings;
        let delay = delay.unwrap_or(settings.rotation_delay);
        if delay < settings.min_rotation_delay {
            return Err(CoreError::invalid(
                "delaySecs",
                format!(
                    "must be at least {} seconds: receivers cache key sets that long",
                    settings.min_rotation_delay.as_secs()
                ),
            ));
        }
        let activates_at = Utc::now() + chrono::Duration::from_std(delay).map_err(CoreError::internal)?;
        let retire_at = activates_at + chrono::Duration::from_std(RETIRE_GRACE).map_err(CoreError::internal)?;
        let row = self.add_signing_key(activates_at, Some(retire_at)).await?;
        tracing::info!(kid = %row.kid, activates_at = %row.activates_at, "webhook signing key rotated");
        Ok(row)
    }

    /// The key that signs at `now`: the newest active one, opened once.
    async fn signer(&self, now: DateTime<Utc>) -> CoreResult<(String, keys::Signer)> {
        let signing = |keys: &[SigningKeyRow]| {
            keys.iter()
                .filter(|k| k.activates_at <= now && k.retires_at.is_none_or(|retires| retires > now))
                .max_by_key(|k| k.activates_at)
                .cloned()
        };
        let cached = self
            .runtime
            .key_ring()
            .as_ref()
            .filter(|(read_at, _)| read_at.elapsed() < KEY_RING_FRESH)
            .and_then(|(_, keys)| signing(keys));
        let row = match cached {
            Some(row) => row,
            None => {
                let keys = self.store.published_signing_keys(now).await?;
                let row = signing(&keys);
                *self.runtime.key_ring() = Some((std::time::Instant::now(), keys));
                row.ok_or_else(|| {
                    CoreError::unavailable(Dependency::SigningKey, "no webhook signing key is active yet", 1)
                })?
            }
        };
        if let Some(key) = self.runtime.opened().get(&row.kid) {
            return Ok((row.kid, key.clone()));
        }
        let key = keys::Signer::from_private(&self.runtime.settings.sealer.open(&row.kid, &row.sealed_private)?)?;
        self.runtime.opened().insert(row.kid.clone(), key.clone());
        Ok((row.kid, key))
    }

    /// Checks the dispatcher's `authorization` metadata.
    pub fn authorize_dispatcher(&self, authorization: Option<&str>) -> CoreResult<()> {
        let settings = &self.runtime.settings;
        match &settings.dispatcher_secret {
            Some(secret) => {
                let expected = format!("Bearer {secret}");
                let given = authorization.unwrap_or("");
                if bool::from(given.as_bytes().ct_eq(expected.as_bytes())) {
                    Ok(())
                } else {
                    Err(CoreError::Unauthenticated("the dispatcher secret is missing or wrong".into()))
                }
            }
            None if settings.dispatch_open => Ok(()),
            None => Err(CoreError::PermissionDenied("CANVAS_DISPATCHER_SECRET is not configured".into())),
        }
    }

    /// Leases due deliveries, none of the webhooks in `skip` (the dispatcher's busy destinations)
    /// and at most its allowance of each webhook in `limited` (destinations with a little room),
    /// and signs each for sending now. At most [`MAX_SKIPPED_WEBHOOKS`] of the two lists count,
    /// skips first.
    pub async fn lease_deliveries(
        &self,
        max: u32,
        lease: Option<Duration>,
        skip: &[Uuid],
        limited: &[(Uuid, u32)],
    ) -> CoreResult<Vec<LeasedCall>> {
        let now = Utc::now();
        let lease = lease.unwrap_or(DEFAULT_LEASE).as_secs().clamp(LEASE_BOUNDS.0, LEASE_BOUNDS.1);
        let token = Uuid::new_v4();
        let until = now + chrono::Duration::seconds(lease as i64);
        let skip = &skip[..skip.len().min(MAX_SKIPPED_WEBHOOKS)];
        let limited = &limited[..limited.len().min(MAX_SKIPPED_WEBHOOKS - skip.len())];
        let max = max.clamp(1, MAX_LEASE_BATCH);
        let started = std::time::Instant::now();
        let rows = self.store.lease_deliveries(now, until, token, max, skip, limited).await?;
        if rows.is_empty() {
            return Ok(Vec::new());
        }
        let stored = started.elapsed().as_secs_f64() * 1000.0;
        let (kid, key) = self.signer(now).await?;
        let keyed = started.elapsed().as_secs_f64() * 1000.0;
        let timestamp = now.timestamp();
        let calls = rows
            .into_iter()
            .map(|row| {
                let event = EventRow {
                    seq: row.event_seq,
                    id: crate::domain::EventId::from_uuid(row.event_id),
                    project_id: row.project_id,
                    kind: row.kind,
                    subject_id: row.subject_id,
                    subject_type: row.subject_type,
                    actor_user_id: row.actor_user_id,
                    occurred_at: row.occurred_at,
                    payload: row.payload,
                };
                let bytes = body::render(
                    row.project_id.uuid(),
                    Some(row.webhook_id),
                    row.delivery_id,
                    body::change(&event),
                    row.custom_data.as_deref(),
                )?;
                let id = row.delivery_id.to_string();
                let signature = keys::signature_header(&kid, &key, &id, timestamp, &bytes)?;
                Ok(LeasedCall {
                    delivery_id: row.delivery_id,
                    webhook_id: row.webhook_id,
                    call: Call { url: row.url, headers: signed_headers(id, timestamp, signature), body: bytes },
                    attempt: row.attempts.max(1) as u32,
                    lease_token: token,
                })
            })
            .collect::<CoreResult<Vec<_>>>()?;
        tracing::debug!(target: "core_service::webhooks::lease", stored, keyed, signed = started.elapsed().as_secs_f64() * 1000.0,
            calls = calls.len(), "lease and sign (ms since the lease began)");
        Ok(calls)
    }

    /// Releases leases whose attempts were cut off or not started (their destination was busy),
    /// in one transaction; returns how many were still held. They are due at once, so the
    /// dispatchers are woken.
    pub async fn release_deliveries(&self, leases: &[(Uuid, Uuid)]) -> CoreResult<u32> {
        let released = self.store.release_deliveries(leases).await?;
        if released > 0 {
            self.runtime.due.written();
        }
        Ok(released)
    }

    /// Records an attempt and schedules the next one: success (2xx) ends the
    /// delivery; 410 Gone disables the webhook; anything else retries by the
    /// schedule (lengthened by `Retry-After`) until the attempts run out; a 429 with
    /// `Retry-After` slows the webhook down instead (`webhooks::retry`).
    pub async fn report_delivery(&self, report: DeliveryReport) -> CoreResult<bool> {
        let recorded = self.store.record_attempt(&self.attempt_outcome(&report, Utc::now())).await?;
        self.wake_if_enqueued(&recorded);
        Ok(recorded.recorded.first().copied().unwrap_or(false))
    }

    /// A recovery's next delivery became due in a report's transaction (`storage/webhooks/recoveries.rs`),
    /// or an operational event was raised there (`storage/webhooks/operational.rs`): the
    /// dispatchers are told now rather than at their next poll.
    fn wake_if_enqueued(&self, recorded: &Recorded) {
        if recorded.enqueued() {
            self.runtime.due.written();
        }
    }

    /// Records many attempts as [`WebhooksService::report_delivery`] does, in one transaction;
    /// returns how many were recorded (stale leases are skipped). At most [`MAX_REPORT_BATCH`].
    pub async fn report_deliveries(&self, reports: &[DeliveryReport]) -> CoreResult<u32> {
        if reports.len() > MAX_REPORT_BATCH {
            return Err(CoreError::invalid("reports", format!("at most {MAX_REPORT_BATCH} reports per call")));
        }
        let now = Utc::now();
        let outcomes: Vec<AttemptOutcome> = reports.iter().map(|r| self.attempt_outcome(r, now)).collect();
        let recorded = self.store.record_attempts(&outcomes).await?;
        self.wake_if_enqueued(&recorded);
        Ok(recorded.recorded.into_iter().filter(|r| *r).count() as u32)
    }

    /// What storage records for `report`, with the retry time and the disable rule.
    fn attempt_outcome(&self, report: &DeliveryReport, now: DateTime<Utc>) -> AttemptOutcome {
        let settings = &self.runtime.settings;
        let outcome = &report.outcome;
        let gone = outcome.status_code == Some(410);
        let retry_at = if outcome.succeeded() || gone {
            None
        } else {
            settings
                .retry
                .next_delay(report.attempt, outcome.retry_after, unit_random())
                .and_then(|delay| chrono::Duration::from_std(delay).ok())
                .map(|delay| now + delay)
        };
        let span = chrono::Duration::from_std(settings.disable.span).unwrap_or(chrono::Duration::MAX);
        // A 429 with `Retry-After` is a slow-down while the delivery is younger than the schedule
        // (storage decides by the delivery's creation time, `SlowDown`).
        let slow_down = match (outcome.status_code, outcome.retry_after) {
            (Some(429), Some(asked)) => {
                let hold = chrono::Duration::from_std(retry::slow_down(asked)).unwrap_or(chrono::Duration::MAX);
                let schedule = chrono::Duration::from_std(settings.retry.span()).unwrap_or(chrono::Duration::MAX);
                Some(SlowDown {
                    until: now.checked_add_signed(hold).unwrap_or(DateTime::<Utc>::MAX_UTC),
                    unless_created_by: now.checked_sub_signed(schedule).unwrap_or(DateTime::<Utc>::MIN_UTC),
                })
            }
            _ => None,
        };
        AttemptOutcome {
            delivery_id: report.delivery_id,
            lease_token: report.lease_token,
            at: now,
            status_code: outcome.status_code.map(i32::from),
            duration_ms: outcome.duration.as_millis().min(i64::MAX as u128) as i64,
            error: outcome.error.clone(),
            retry_at,
            disable_now: gone.then(|| "the receiver answered 410 Gone".to_owned()),
            disable_rule: (
                settings.disable.failures as i32,
                now.checked_sub_signed(span).unwrap_or(DateTime::<Utc>::MIN_UTC),
            ),
            slow_down,
        }
    }

    /// Sends one signed ping to `definition` through the shared client.
    pub(crate) async fn send_test_call(&self, project_id: Uuid, definition: &Definition) -> CoreResult<Outcome> {
        let now = Utc::now();
        let (kid, key) = self.signer(now).await?;
        let id = Uuid::now_v7();
        let bytes = body::render(project_id, None, id, body::ping(now), definition.custom_data.as_deref())?;
        let id = id.to_string();
        let signature = keys::signature_header(&kid, &key, &id, now.timestamp(), &bytes)?;
        let call =
            Call { url: definition.url.clone(), headers: signed_headers(id, now.timestamp(), signature), body: bytes };
        Ok(self.runtime.client.send(&call).await)
    }
}

fn signed_headers(id: String, timestamp: i64, signature: String) -> Vec<(String, String)> {
    vec![
        ("Webhook-Id".to_owned(), id),
        ("Webhook-Timestamp".to_owned(), timestamp.to_string()),
        ("Webhook-Signature".to_owned(), signature),
    ]
}

/// A uniform draw in [0, 1) for the retry jitter.
fn unit_random() -> f64 {
    let mut bytes = [0u8; 4];
    let _ = getrandom::fill(&mut bytes);
    f64::from(u32::from_le_bytes(bytes)) / (f64::from(u32::MAX) + 1.0)
}
