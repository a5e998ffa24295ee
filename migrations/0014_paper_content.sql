-- Parsed papers and reading notes (SPEC T10, T11, T14, L2). A paper has at
-- most one current Markdown document, replaced whole in one statement; the
-- engine that produced it is recorded. Notes and highlights belong to one
-- user; their anchor is the quoted text with a little context on each side
-- (and a character offset as a hint), so they can be found again after the
-- paper is parsed anew.
CREATE TABLE paper_content (
    paper_id  INTEGER PRIMARY KEY REFERENCES papers (id) ON DELETE CASCADE,
    markdown  TEXT      NOT NULL,
    engine    TEXT      NOT NULL,
    source    TEXT      NOT NULL DEFAULT '',
    pages     INTEGER   NOT NULL DEFAULT 0,
    parsed_at TIMESTAMP NOT NULL
);

CREATE TABLE paper_notes (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    paper_id   INTEGER   NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
    kind       TEXT      NOT NULL CHECK (kind IN ('highlight', 'note')),
    quote      TEXT      NOT NULL DEFAULT '',
    prefix     TEXT      NOT NULL DEFAULT '',
    suffix     TEXT      NOT NULL DEFAULT '',
    position   INTEGER   NOT NULL DEFAULT -1, -- offset of the quote in the reader's text; -1 unknown
    body       TEXT      NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    CHECK (quote <> '' OR body <> '')
);
CREATE INDEX paper_notes_user_paper ON paper_notes (user_id, paper_id, id);

CREATE VIRTUAL TABLE paper_notes_fts USING fts5(
    quote, body,
    content = 'paper_notes', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER paper_notes_fts_ai AFTER INSERT ON paper_notes BEGIN
    INSERT INTO paper_notes_fts (rowid, quote, body) VALUES (new.id, new.quote, new.body);
END;
CREATE TRIGGER paper_notes_fts_ad AFTER DELETE ON paper_notes BEGIN
    INSERT INTO paper_notes_fts (paper_notes_fts, rowid, quote, body) VALUES ('delete', old.id, old.quote, old.body);
END;
CREATE TRIGGER paper_notes_fts_au AFTER UPDATE OF quote, body ON paper_notes BEGIN
    INSERT INTO paper_notes_fts (paper_notes_fts, rowid, quote, body) VALUES ('delete', old.id, old.quote, old.body);
    INSERT INTO paper_notes_fts (rowid, quote, body) VALUES (new.id, new.quote, new.body);
END;
