-- Accounts: users, personal API tokens and the cookie-session store (scs).

CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    username      TEXT    NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT    NOT NULL,
    role          TEXT    NOT NULL CHECK (role IN ('admin', 'member')),
    disabled      INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
    -- Incremented whenever every session of the user must die (password
    -- change, disable). Sessions remember the epoch they were created in.
    session_epoch INTEGER NOT NULL DEFAULT 0,
    created_at    TIMESTAMP NOT NULL,
    updated_at    TIMESTAMP NOT NULL
);

CREATE TABLE api_tokens (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    token_hash   BLOB    NOT NULL UNIQUE, -- SHA-256 of the secret; the secret is never stored
    hint         TEXT    NOT NULL,        -- the first characters, to recognise a token in lists
    created_at   TIMESTAMP NOT NULL,
    last_used_at TIMESTAMP,
    revoked_at   TIMESTAMP
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);

-- Same shape as scs's sqlite3store so its documentation applies.
CREATE TABLE http_sessions (
    token  TEXT PRIMARY KEY,
    data   BLOB NOT NULL,
    expiry REAL NOT NULL -- Julian day, as julianday('now')
);
CREATE INDEX http_sessions_expiry ON http_sessions (expiry);
