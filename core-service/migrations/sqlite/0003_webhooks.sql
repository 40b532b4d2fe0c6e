-- Webhooks, their deliveries (the fan-out of the outbox), attempts, the
-- signing key ring and the test-call counter (SQLite).

CREATE TABLE webhooks (
    id                    BLOB PRIMARY KEY NOT NULL,
    project_id            BLOB NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    name                  TEXT,
    url                   TEXT NOT NULL,
    enabled               INTEGER NOT NULL,
    -- The event kinds as sent (JSON array text) and as a bit mask for the fan-out.
    events                TEXT NOT NULL,
    event_mask            INTEGER NOT NULL,
    -- customData exactly as the client sent it (JSON text), or NULL.
    custom_data           TEXT,
    created_at            TEXT NOT NULL,
    updated_at            TEXT NOT NULL,
    -- 'copiedFromOtherProject' or 'invalidDefinition': never called.
    inactive              TEXT,
    last_attempt_at       TEXT,
    last_success_at       TEXT,
    last_status_code      INTEGER,
    last_error            TEXT,
    consecutive_failures  INTEGER NOT NULL DEFAULT 0,
    first_failure_at      TEXT,
    disabled_at           TEXT,
    disabled_reason       TEXT
);
CREATE INDEX webhooks_project ON webhooks (project_id, id);

-- One row per event and webhook, written in the event's transaction. The
-- dispatcher leases due rows; an expired lease makes a row due again.
CREATE TABLE webhook_deliveries (
    id                BLOB PRIMARY KEY NOT NULL,
    webhook_id        BLOB NOT NULL,
    project_id        BLOB NOT NULL,
    event_id          BLOB NOT NULL,
    -- 'pending', 'delivered' or 'failed' (gave up).
    state             TEXT NOT NULL,
    attempts          INTEGER NOT NULL DEFAULT 0,
    next_attempt_at   TEXT NOT NULL,
    lease_until       TEXT,
    lease_token       BLOB,
    created_at        TEXT NOT NULL,
    finished_at       TEXT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id);

CREATE TABLE webhook_attempts (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    delivery_id    BLOB NOT NULL,
    webhook_id     BLOB NOT NULL,
    attempt        INTEGER NOT NULL,
    attempted_at   TEXT NOT NULL,
    status_code    INTEGER,
    duration_ms    INTEGER NOT NULL,
    error          TEXT
);
CREATE INDEX webhook_attempts_webhook ON webhook_attempts (webhook_id, id);

-- The key ring: one signing key at a time, old ones published until retired.
-- Private keys are sealed (ChaCha20-Poly1305) with the configured secret.
CREATE TABLE signing_keys (
    kid            TEXT PRIMARY KEY NOT NULL,
    public_x       TEXT NOT NULL,
    public_y       TEXT NOT NULL,
    sealed_private BLOB NOT NULL,
    created_at     TEXT NOT NULL,
    activates_at   TEXT NOT NULL,
    retires_at     TEXT
);

-- Test calls per user, counted across replicas for the rate limit.
CREATE TABLE webhook_test_calls (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id     BLOB NOT NULL,
    called_at   TEXT NOT NULL
);
CREATE INDEX webhook_test_calls_user ON webhook_test_calls (user_id, called_at);
