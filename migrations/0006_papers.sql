-- The paper library (SPEC L1): one row per paper, whatever identifiers it
-- is known by; authors in order, keywords, tags, files; FTS5 over title,
-- abstract, authors and keywords (kept in step by the store in the same
-- transaction).
CREATE TABLE papers (
    id              INTEGER PRIMARY KEY,
    title           TEXT    NOT NULL,
    abstract        TEXT    NOT NULL DEFAULT '',
    year            INTEGER,
    journal         TEXT    NOT NULL DEFAULT '',
    volume          TEXT    NOT NULL DEFAULT '',
    page            TEXT    NOT NULL DEFAULT '',
    arxiv_id        TEXT    UNIQUE,               -- version-less
    arxiv_version   INTEGER,
    bibcode         TEXT    UNIQUE,
    doi             TEXT    UNIQUE COLLATE NOCASE,
    citation_count  INTEGER,
    refereed        INTEGER NOT NULL DEFAULT 0,
    categories      TEXT    NOT NULL DEFAULT '',  -- space-separated arXiv categories
    download_status TEXT    NOT NULL DEFAULT 'none' CHECK (download_status IN ('none', 'downloading', 'downloaded', 'failed')),
    download_error  TEXT    NOT NULL DEFAULT '',
    parse_status    TEXT    NOT NULL DEFAULT 'none' CHECK (parse_status IN ('none', 'parsing', 'parsed', 'failed')),
    parse_error     TEXT    NOT NULL DEFAULT '',
    added_by        INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL,
    CHECK (arxiv_id IS NOT NULL OR bibcode IS NOT NULL OR doi IS NOT NULL)
);
CREATE INDEX papers_year ON papers (year);

CREATE TABLE paper_authors (
    paper_id INTEGER NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    PRIMARY KEY (paper_id, position)
) WITHOUT ROWID;

CREATE TABLE paper_keywords (
    paper_id INTEGER NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
    keyword  TEXT    NOT NULL,
    PRIMARY KEY (paper_id, keyword)
) WITHOUT ROWID;

CREATE TABLE paper_tags (
    paper_id INTEGER NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
    tag      TEXT    NOT NULL COLLATE NOCASE,
    PRIMARY KEY (paper_id, tag)
) WITHOUT ROWID;
CREATE INDEX paper_tags_tag ON paper_tags (tag);

CREATE TABLE paper_files (
    id         INTEGER PRIMARY KEY,
    paper_id   INTEGER NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL CHECK (kind IN ('pdf', 'html', 'markdown')),
    sha256     TEXT    NOT NULL,
    path       TEXT    NOT NULL, -- relative to the data directory
    bytes      INTEGER NOT NULL,
    source_url TEXT    NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL,
    UNIQUE (paper_id, kind, sha256)
);

CREATE VIRTUAL TABLE papers_fts USING fts5(
    title, abstract, authors, keywords,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
);
