-- Long-term memory (SPEC C11): the text lives in files under the data
-- directory; this table indexes them per user.
CREATE TABLE memories (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL CHECK (kind IN ('user', 'feedback', 'project', 'reference')),
    content    TEXT    NOT NULL,
    file       TEXT    NOT NULL, -- path relative to the data directory
    source     TEXT    NOT NULL DEFAULT 'agent', -- agent, extraction, compaction, user
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX memories_user ON memories (user_id, updated_at DESC);
