-- The account site and OAuth for MCP clients (PostgreSQL). Every secret (session, sign-in link,
-- authorization code, OAuth token) is stored only as its SHA-256; see docs/ACCOUNTS.md.

-- A non-secret beginning of each API token (`svc_tk_` and four more characters), so a person can
-- recognise a token in a list. Tokens made before this migration show none.
ALTER TABLE api_tokens ADD COLUMN prefix TEXT NOT NULL DEFAULT '';

-- How a person signs in: a login (stored lower-cased, unique) and, once set, an Argon2id hash.
CREATE TABLE user_logins (
    user_id          UUID PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    login            TEXT NOT NULL UNIQUE,
    password_hash    TEXT,
    password_set_at  TIMESTAMPTZ
);

CREATE TABLE sessions (
    id              UUID PRIMARY KEY,
    user_id         UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    secret_hash     BYTEA NOT NULL UNIQUE,
    created_at      TIMESTAMPTZ NOT NULL,
    last_seen_at    TIMESTAMPTZ NOT NULL,
    -- The absolute end; the idle end is last_seen_at plus the configured idle time.
    expires_at      TIMESTAMPTZ NOT NULL,
    client_address  TEXT NOT NULL DEFAULT '',
    user_agent      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE sign_in_links (
    secret_hash  BYTEA PRIMARY KEY,
    user_id      UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   TIMESTAMPTZ NOT NULL,
    expires_at   TIMESTAMPTZ NOT NULL,
    used_at      TIMESTAMPTZ
);

-- Failed sign-ins per account (`login:<login>`) and per client address (`address:<addr>`).
CREATE TABLE sign_in_throttle (
    key                TEXT PRIMARY KEY,
    failures           INTEGER NOT NULL,
    window_started_at  TIMESTAMPTZ NOT NULL,
    last_failure_at    TIMESTAMPTZ NOT NULL
);
-- Counts idle for longer than the longest window are dropped as failures come in (a guesser
-- trying many logins must not grow this table without bound).
CREATE INDEX sign_in_throttle_last ON sign_in_throttle (last_failure_at);

-- What happened to an account, for its owner (ids are UUIDv7: their order is the time order).
CREATE TABLE audit_records (
    id              UUID PRIMARY KEY,
    user_id         UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind            TEXT NOT NULL,
    at              TIMESTAMPTZ NOT NULL,
    client_address  TEXT NOT NULL DEFAULT '',
    detail          TEXT NOT NULL DEFAULT ''
);
CREATE INDEX audit_records_user ON audit_records (user_id, id);

CREATE TABLE oauth_clients (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    redirect_uris  TEXT NOT NULL,
    metadata       TEXT NOT NULL,
    created_at     TIMESTAMPTZ NOT NULL
);

-- One consent: the client may act as the user at the resource until revoked.
CREATE TABLE oauth_grants (
    id          UUID PRIMARY KEY,
    client_id   TEXT NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
    user_id     UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    resource    TEXT NOT NULL,
    scope       TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    revoked_at  TIMESTAMPTZ
);

CREATE TABLE oauth_codes (
    code_hash       BYTEA PRIMARY KEY,
    client_id       TEXT NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
    user_id         UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    redirect_uri    TEXT NOT NULL,
    code_challenge  TEXT NOT NULL,
    resource        TEXT NOT NULL,
    scope           TEXT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    expires_at      TIMESTAMPTZ NOT NULL,
    used_at         TIMESTAMPTZ,
    -- The grant the code's exchange created; revoked if the code is presented again.
    grant_id        UUID
);

CREATE TABLE oauth_tokens (
    token_hash  BYTEA PRIMARY KEY,
    grant_id    UUID NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
    -- 'access' or 'refresh'.
    kind        TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL,
    -- A refresh token's rotation: set when it was exchanged for a new one.
    used_at     TIMESTAMPTZ
);
CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id);
