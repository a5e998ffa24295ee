-- Background work of the agent (SPEC T22, T23, T25): tool runs started with
-- bg_task_run and coordinator workers. Rows survive a page reload; a server
-- restart marks the unfinished ones 'interrupted' (never silently lost).

CREATE TABLE agent_background_tasks (
    id          TEXT    PRIMARY KEY,
    session_id  TEXT    NOT NULL REFERENCES agent_sessions (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    turn        INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('tool', 'worker')),
    name        TEXT    NOT NULL,             -- the tool, or the worker's title
    arguments   TEXT    NOT NULL DEFAULT '{}', -- the tool's arguments, or the worker's task
    agent_name  TEXT    NOT NULL DEFAULT '',   -- who runs it (sub_<id> for workers)
    status      TEXT    NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'timeout', 'cancelled', 'interrupted')),
    output      TEXT    NOT NULL DEFAULT '',
    notified    INTEGER NOT NULL DEFAULT 0,    -- 1 once the result was put into the agent's context (C6)
    created_at  TIMESTAMP NOT NULL,
    started_at  TIMESTAMP,
    finished_at TIMESTAMP
);
CREATE INDEX agent_background_session ON agent_background_tasks (session_id, created_at);
CREATE INDEX agent_background_open ON agent_background_tasks (status) WHERE status IN ('queued', 'running');
CREATE INDEX agent_background_unnotified ON agent_background_tasks (session_id) WHERE notified = 0;
