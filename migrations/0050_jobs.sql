-- One stored job system (docs/features.md L7): the paper page's PDF
-- downloads and parses become rows of the agent's background task table,
-- with the agent's restart semantics (unfinished rows are marked
-- interrupted at start-up). A paper job has no session; it names its paper
-- and keeps its progress. At most one open job of each kind per paper.

CREATE TABLE agent_background_tasks_new (
    id          TEXT    PRIMARY KEY,
    session_id  TEXT    REFERENCES agent_sessions (id) ON DELETE CASCADE, -- NULL: started from a page
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    turn        INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('tool', 'worker', 'download', 'parse')),
    name        TEXT    NOT NULL,             -- the tool, the worker's title, or the paper's title
    arguments   TEXT    NOT NULL DEFAULT '{}', -- the tool's arguments, or the worker's task
    agent_name  TEXT    NOT NULL DEFAULT '',   -- who runs it (sub_<id> for workers)
    status      TEXT    NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'timeout', 'cancelled', 'interrupted')),
    output      TEXT    NOT NULL DEFAULT '',
    notified    INTEGER NOT NULL DEFAULT 0,    -- 1 once the result was put into the agent's context (C6)
    paper_id    INTEGER REFERENCES papers (id) ON DELETE CASCADE, -- download and parse jobs
    progress    TEXT    NOT NULL DEFAULT '',   -- JSON, kind-specific (a download: source, read, total)
    created_at  TIMESTAMP NOT NULL,
    started_at  TIMESTAMP,
    finished_at TIMESTAMP,
    CHECK (session_id IS NOT NULL OR kind IN ('download', 'parse'))
);
INSERT INTO agent_background_tasks_new
    (id, session_id, user_id, turn, kind, name, arguments, agent_name, status, output, notified, created_at, started_at, finished_at)
    SELECT id, session_id, user_id, turn, kind, name, arguments, agent_name, status, output, notified, created_at, started_at, finished_at
    FROM agent_background_tasks;
DROP TABLE agent_background_tasks;
ALTER TABLE agent_background_tasks_new RENAME TO agent_background_tasks;

CREATE INDEX agent_background_session ON agent_background_tasks (session_id, created_at);
CREATE INDEX agent_background_open ON agent_background_tasks (status) WHERE status IN ('queued', 'running');
CREATE INDEX agent_background_unnotified ON agent_background_tasks (session_id) WHERE notified = 0;
CREATE INDEX agent_background_user ON agent_background_tasks (user_id, created_at);
CREATE UNIQUE INDEX agent_background_paper_open ON agent_background_tasks (paper_id, kind)
    WHERE paper_id IS NOT NULL AND status IN ('queued', 'running');
