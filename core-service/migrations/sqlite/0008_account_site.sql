-- The account site and OAuth for MCP clients (SQLite). Every secret (session, sign-in link,
-- authorization code, OAuth token) is stored only as its SHA-256; see docs/ACCOUNTS.md.

-- A non-secret beginning of each API token (`svc_tk_` and four more characters), so a person can
-- recognise a token in a list. Tokens made before this migration show none.
ALTER TABLE api_tokens ADD COLUMN prefix TEXT NOT NULL DEFAULT '';

-- How a person signs in: a login (stored lower-cased, unique) and, once set, an Argon2id hash.
CREATE TABLE user_logins (
    user_id          BLOB PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    login            TEXT NOT NULL UNIQUE,
    password_hash    TEXT,
    password_set_at  TEXT
);

CREATE TABLE sessions (
    id              BLOB PRIMARY KEY NOT NULL,
    user_id         BLOB NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    secret_hash     BLOB NOT NULL UNIQUE,
    created_at      TEXT NOT NULL,
    last_seen_at    TEXT NOT NULL,
    -- The absolute end; the idle end is last_seen_at plus the configured idle time.
    expires_at      TEXT NOT NULL,
    client_address  TEXT NOT NULL DEFAULT '',
    user_agent      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE sign_in_links (
    secret_hash  BLOB PRIMARY KEY NOT NULL,
    user_id      BLOB NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   TEXT NOT NULL,
    expires_at   TEXT NOT NULL,
    used_at      TEXT
);

-- Failed sign-ins per account (`login:<login>`) and per client address (`address:<addr>`).
CREATE TABLE sign_in_throttle (
    key                TEXT PRIMARY KEY NOT NULL,
    failures           INTEGER NOT NULL,
    window_started_at  TEXT NOT NULL,
    last_failure_at    TEXT NOT NULL
);
-- Counts idle for longer than the longest window are dropped as failures come in (a guesser
-- trying many logins must not grow this table without bound).
CREATE INDEX sign_in_throttle_last ON sign_in_throttle (last_failure_at);

-- What happened to an account, for its owner (ids are UUIDv7: their order is the time order).
CREATE TABLE audit_records (
    id              BLOB PRIMARY KEY NOT NULL,
    user_id         BLOB NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind            TEXT NOT NULL,
    at              TEXT NOT NULL,
    client_address  TEXT NOT NULL DEFAULT '',
    detail          TEXT NOT NULL DEFAULT ''
);
CREATE INDEX audit_records_user ON audit_records (user_id, id);

CREATE TABLE oauth_clients (
    id             TEXT PRIMARY KEY NOT NULL,
    name           TEXT NOT NULL,
    redirect_uris  TEXT NOT NULL,
    metadata       TEXT NOT NULL,
    created_at     TEXT NOT NULL
);

-- One consent: the client may act as the user at the resource until revoked.
CREATE TABLE oauth_grants (
    id          BLOB PRIMARY KEY NOT NULL,
    client_id   TEXT NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
    user_id     BLOB NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    resource    TEXT NOT NULL,
    scope       TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    revoked_at  TEXT
);

CREATE TABLE oauth_codes (
    code_hash       BLOB PRIMARY KEY NOT NULL,
    client_id       TEXT NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
    user_id         BLOB NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    redirect_uri    TEXT NOT NULL,
    code_challenge  TEXT NOT NULL,
    resource        TEXT NOT NULL,
    scope           TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    expires_at      TEXT NOT NULL,
    used_at         TEXT,
    -- The grant the code's exchange created; revoked if the code is presented again.
    grant_id        BLOB
);

CREATE TABLE oauth_tokens (
    token_hash  BLOB PRIMARY KEY NOT NULL,
    grant_id    BLOB NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
    -- 'access' or 'refresh'.
    kind        TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    expires_at  TEXT NOT NULL,
    -- A refresh token's rotation: set when it was exchanged for a new one.
    used_at     TEXT
);
CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id);
