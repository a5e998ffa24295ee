-- Full-text search over past work (SPEC L6, T20): session titles and
-- summaries, and message text. External-content FTS5 tables kept in step
-- by triggers, so the text is stored once.

CREATE VIRTUAL TABLE agent_sessions_fts USING fts5(
    title, summary,
    content = 'agent_sessions', content_rowid = 'rowid',
    tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER agent_sessions_fts_ai AFTER INSERT ON agent_sessions BEGIN
    INSERT INTO agent_sessions_fts (rowid, title, summary) VALUES (new.rowid, new.title, new.summary);
END;
CREATE TRIGGER agent_sessions_fts_ad AFTER DELETE ON agent_sessions BEGIN
    INSERT INTO agent_sessions_fts (agent_sessions_fts, rowid, title, summary) VALUES ('delete', old.rowid, old.title, old.summary);
END;
CREATE TRIGGER agent_sessions_fts_au AFTER UPDATE OF title, summary ON agent_sessions BEGIN
    INSERT INTO agent_sessions_fts (agent_sessions_fts, rowid, title, summary) VALUES ('delete', old.rowid, old.title, old.summary);
    INSERT INTO agent_sessions_fts (rowid, title, summary) VALUES (new.rowid, new.title, new.summary);
END;

CREATE VIRTUAL TABLE agent_messages_fts USING fts5(
    content,
    content = 'agent_messages', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER agent_messages_fts_ai AFTER INSERT ON agent_messages BEGIN
    INSERT INTO agent_messages_fts (rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER agent_messages_fts_ad AFTER DELETE ON agent_messages BEGIN
    INSERT INTO agent_messages_fts (agent_messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER agent_messages_fts_au AFTER UPDATE OF content ON agent_messages BEGIN
    INSERT INTO agent_messages_fts (agent_messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
    INSERT INTO agent_messages_fts (rowid, content) VALUES (new.id, new.content);
END;

-- Sessions and messages that existed before this migration.
INSERT INTO agent_sessions_fts (agent_sessions_fts) VALUES ('rebuild');
INSERT INTO agent_messages_fts (agent_messages_fts) VALUES ('rebuild');
