-- Recoveries (POST .../webhooks/{webhookId}/recover; core-service/src/storage/webhooks/recoveries.rs):
-- every delivery of a time window that failed is sent again once, in the order of its event, one
-- call at a time. A recovery is a job: this row, and one delivery per event it sends again.
CREATE TABLE webhook_recoveries (
    id            UUID PRIMARY KEY NOT NULL,
    webhook_id    UUID NOT NULL,
    project_id    UUID NOT NULL,
    -- The window asked, on the deliveries' `created_at` (when the event was recorded).
    since         TIMESTAMPTZ NOT NULL,
    until_at      TIMESTAMPTZ NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    created_by    UUID NOT NULL,
    -- Deliveries the recovery sends (one per event).
    total         INTEGER NOT NULL,
    -- When the last of them was delivered or given up; NULL while it runs.
    done_at       TIMESTAMPTZ
);
CREATE INDEX webhook_recoveries_webhook ON webhook_recoveries (webhook_id, created_at);
-- Every report looks for running recoveries to move on (almost always none).
CREATE INDEX webhook_recoveries_running ON webhook_recoveries (id) WHERE done_at IS NULL;

-- A recovery's deliveries wait as 'held' and are made 'pending' one at a time, in
-- `recovery_position` order, when the one before is delivered or given up. A pending delivery
-- that a recovery takes over (it was failing and waiting for its next retry) becomes
-- 'recovered': finished, its event sent by the recovery instead; so does a given-up ('failed')
-- delivery whose event a recovery or a redelivery sends again.
ALTER TABLE webhook_deliveries ADD COLUMN recovery_id UUID;
ALTER TABLE webhook_deliveries ADD COLUMN recovery_position INTEGER;
CREATE INDEX webhook_deliveries_recovery ON webhook_deliveries (recovery_id, state, recovery_position)
    WHERE recovery_id IS NOT NULL;
-- What a recovery reads: a webhook's deliveries from the start of its window on (those of the
-- window, and later ones of the same events that may have delivered them since).
CREATE INDEX webhook_deliveries_made ON webhook_deliveries (webhook_id, created_at);
-- The account site's alerts (storage/webhooks/alerts.rs): a webhook's given-up deliveries of the
-- last days, without reading the ones that were delivered (almost all of them).
CREATE INDEX webhook_deliveries_given_up ON webhook_deliveries (webhook_id, created_at) WHERE state = 'failed';
