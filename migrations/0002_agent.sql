-- Agent runtime (SPEC R7, R8, R15): sessions, messages, the event log,
-- tasks, audit rows and permission rules.

CREATE TABLE agent_sessions (
    id         TEXT    PRIMARY KEY, -- UUID
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title      TEXT    NOT NULL DEFAULT '',
    model      TEXT    NOT NULL DEFAULT '',
    turn_count INTEGER NOT NULL DEFAULT 0,
    summary    TEXT    NOT NULL DEFAULT '',
    metadata   TEXT    NOT NULL DEFAULT '{}',
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX agent_sessions_user ON agent_sessions (user_id, updated_at DESC);

CREATE TABLE agent_messages (
    id           INTEGER PRIMARY KEY,
    session_id   TEXT    NOT NULL REFERENCES agent_sessions (id) ON DELETE CASCADE,
    turn         INTEGER NOT NULL,
    step         INTEGER NOT NULL,
    agent_name   TEXT    NOT NULL DEFAULT 'lead',
    role         TEXT    NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
    content      TEXT    NOT NULL DEFAULT '',
    thought      TEXT    NOT NULL DEFAULT '',
    tool_calls   TEXT,             -- JSON array of {id,name,arguments}, NULL when none
    tool_call_id TEXT,
    token_count  INTEGER NOT NULL DEFAULT 0,
    metadata     TEXT    NOT NULL DEFAULT '{}',
    raw_json     TEXT    NOT NULL DEFAULT '{}', -- the message exactly as sent to the model
    created_at   TIMESTAMP NOT NULL
);
CREATE INDEX agent_messages_history ON agent_messages (session_id, agent_name, id);

-- Every event of every turn, in per-session order; the source of truth for
-- replay and reconnects (Last-Event-ID).
CREATE TABLE agent_events (
    session_id TEXT    NOT NULL REFERENCES agent_sessions (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    turn       INTEGER NOT NULL,
    agent      TEXT    NOT NULL,
    kind       TEXT    NOT NULL,
    data       TEXT    NOT NULL, -- JSON object with the kind's fields
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;

CREATE TABLE agent_tasks (
    session_id TEXT    NOT NULL REFERENCES agent_sessions (id) ON DELETE CASCADE,
    task_id    TEXT    NOT NULL,
    subject    TEXT    NOT NULL,
    status     TEXT    NOT NULL CHECK (status IN ('pending', 'in_progress', 'completed')),
    blocked_by TEXT    NOT NULL DEFAULT '[]', -- JSON array of task ids
    position   INTEGER NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (session_id, task_id)
);

CREATE TABLE agent_audit_log (
    id             INTEGER PRIMARY KEY,
    session_id     TEXT    NOT NULL REFERENCES agent_sessions (id) ON DELETE CASCADE,
    turn           INTEGER NOT NULL,
    step           INTEGER NOT NULL,
    agent_name     TEXT    NOT NULL,
    tool           TEXT    NOT NULL,
    tool_call_id   TEXT    NOT NULL,
    status         TEXT    NOT NULL, -- ok, error, denied, blocked, invalid, duplicate, timeout, cancelled, interrupted
    elapsed_ms     INTEGER NOT NULL,
    output_preview TEXT    NOT NULL DEFAULT '',
    created_at     TIMESTAMP NOT NULL
);
CREATE INDEX agent_audit_session ON agent_audit_log (session_id, id);
CREATE INDEX agent_audit_tool ON agent_audit_log (tool, id);

-- Central permission rules per user (R15): Deny > Allow > Ask, default Allow.
CREATE TABLE permission_rules (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    tool       TEXT    NOT NULL,             -- tool name or '*'
    pattern    TEXT    NOT NULL DEFAULT '*', -- matched against the call's argument summary
    decision   TEXT    NOT NULL CHECK (decision IN ('allow', 'ask', 'deny')),
    created_at TIMESTAMP NOT NULL,
    UNIQUE (user_id, tool, pattern)
);
