-- Idempotent retries (draft-ietf-httpapi-idempotency-key-header, PostgreSQL): the
-- `Idempotency-Key` of a creating call, per caller, with the fingerprint of the request it was
-- first used for and, once that call succeeded, its encoded answer, replayed to a retry for 24
-- hours.
--
-- `state` is 'in_progress' while the first call runs (held by `claim`, the attempt's id, until
-- `lease_until`, which the running call keeps extending; a row whose lease lapsed was left by a
-- replica that died and may be taken over) and 'done' once `response` holds the answer. A failed
-- call deletes its row. Rows past `expires_at` are ignored and pruned as new keys come in.
CREATE TABLE idempotency_keys (
    -- Whose key: `user:<uuid>` of the authenticated caller.
    scope        TEXT NOT NULL,
    key          TEXT NOT NULL,
    -- SHA-256 of the method, the project and the request message.
    fingerprint  BYTEA NOT NULL,
    state        TEXT NOT NULL CHECK (state IN ('in_progress', 'done')),
    claim        UUID NOT NULL,
    lease_until  TIMESTAMPTZ NOT NULL,
    -- The encoded gRPC answer (state 'done').
    response     BYTEA,
    created_at   TIMESTAMPTZ NOT NULL,
    expires_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
