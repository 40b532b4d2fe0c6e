-- Webhooks, their deliveries (the fan-out of the outbox), attempts, the
-- signing key ring and the test-call counter (PostgreSQL).

CREATE TABLE webhooks (
    id                    UUID PRIMARY KEY,
    project_id            UUID NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    name                  TEXT,
    url                   TEXT NOT NULL,
    enabled               BOOLEAN NOT NULL,
    -- The event kinds as sent (JSON array text) and as a bit mask for the fan-out.
    events                JSONB NOT NULL,
    event_mask            BIGINT NOT NULL,
    -- customData exactly as the client sent it (JSON text), or NULL.
    custom_data           TEXT,
    created_at            TIMESTAMPTZ NOT NULL,
    updated_at            TIMESTAMPTZ NOT NULL,
    -- 'copiedFromOtherProject' or 'invalidDefinition': never called.
    inactive              TEXT,
    last_attempt_at       TIMESTAMPTZ,
    last_success_at       TIMESTAMPTZ,
    last_status_code      INTEGER,
    last_error            TEXT,
    consecutive_failures  INTEGER NOT NULL DEFAULT 0,
    first_failure_at      TIMESTAMPTZ,
    disabled_at           TIMESTAMPTZ,
    disabled_reason       TEXT
);
CREATE INDEX webhooks_project ON webhooks (project_id, id);

-- One row per event and webhook, written in the event's transaction. The
-- dispatcher leases due rows; an expired lease makes a row due again.
CREATE TABLE webhook_deliveries (
    id                UUID PRIMARY KEY,
    webhook_id        UUID NOT NULL,
    project_id        UUID NOT NULL,
    event_id          UUID NOT NULL,
    -- 'pending', 'delivered' or 'failed' (gave up).
    state             TEXT NOT NULL,
    attempts          INTEGER NOT NULL DEFAULT 0,
    next_attempt_at   TIMESTAMPTZ NOT NULL,
    lease_until       TIMESTAMPTZ,
    lease_token       UUID,
    created_at        TIMESTAMPTZ NOT NULL,
    finished_at       TIMESTAMPTZ
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id);

CREATE TABLE webhook_attempts (
    id             BIGSERIAL PRIMARY KEY,
    delivery_id    UUID NOT NULL,
    webhook_id     UUID NOT NULL,
    attempt        INTEGER NOT NULL,
    attempted_at   TIMESTAMPTZ NOT NULL,
    status_code    INTEGER,
    duration_ms    BIGINT NOT NULL,
    error          TEXT
);
CREATE INDEX webhook_attempts_webhook ON webhook_attempts (webhook_id, id);

-- The key ring: one signing key at a time, old ones published until retired.
-- Private keys are sealed (ChaCha20-Poly1305) with the configured secret.
CREATE TABLE signing_keys (
    kid            TEXT PRIMARY KEY NOT NULL,
    public_x       TEXT NOT NULL,
    public_y       TEXT NOT NULL,
    sealed_private BYTEA NOT NULL,
    created_at     TIMESTAMPTZ NOT NULL,
    activates_at   TIMESTAMPTZ NOT NULL,
    retires_at     TIMESTAMPTZ
);

-- Test calls per user, counted across replicas for the rate limit.
CREATE TABLE webhook_test_calls (
    id          BIGSERIAL PRIMARY KEY,
    user_id     UUID NOT NULL,
    called_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX webhook_test_calls_user ON webhook_test_calls (user_id, called_at);
