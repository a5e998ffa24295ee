-- History search (docs/features.md L6, T20) matches the last word of a
-- query as a prefix ("perse" finds "Perseus"). Without a prefix index
-- FTS5 merges the doclists of every term with that prefix on each query:
-- "the" cost ~200 ms over 100,000 messages. Prefix indexes of 3 and 4
-- characters make the common short prefixes one lookup; a longer prefix is
-- expanded to at most a few terms through the vocabulary table. The tables are
-- rebuilt from their content tables; the triggers keep working (they name
-- the tables).

DROP TABLE agent_messages_fts;
CREATE VIRTUAL TABLE agent_messages_fts USING fts5(
    content,
    content = 'agent_messages', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '3 4'
);
INSERT INTO agent_messages_fts (agent_messages_fts) VALUES ('rebuild');

DROP TABLE agent_sessions_fts;
CREATE VIRTUAL TABLE agent_sessions_fts USING fts5(
    title, summary,
    content = 'agent_sessions', content_rowid = 'rowid',
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '3 4'
);
INSERT INTO agent_sessions_fts (agent_sessions_fts) VALUES ('rebuild');

-- The message index's vocabulary, for expanding a long prefix into a
-- bounded number of terms (store.SearchHistory).
CREATE VIRTUAL TABLE agent_messages_vocab USING fts5vocab('agent_messages_fts', 'row');
CREATE VIRTUAL TABLE agent_sessions_vocab USING fts5vocab('agent_sessions_fts', 'row');
