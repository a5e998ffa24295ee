-- Sessions that are not research conversations (issue 20): every tool call
-- an MCP client makes is audited in one 'mcp' session per user, since
-- agent_audit_log rows belong to a session. Such sessions are left out of
-- the research list and history search; the unique index makes the
-- per-user session a get-or-create.
ALTER TABLE agent_sessions ADD COLUMN kind TEXT NOT NULL DEFAULT 'research' CHECK (kind IN ('research', 'mcp'));
CREATE UNIQUE INDEX agent_sessions_one_mcp ON agent_sessions (user_id) WHERE kind = 'mcp';
