-- Daily arXiv triage (issue 19). Each user follows arXiv categories and
-- names keywords, objects (with the aliases Sesame gave) and authors; the
-- server fetches each day's new submissions once per category
-- (triage_fetches records every category-day, so missed days are caught up
-- and done ones never fetched again), keeps the papers (triage_papers),
-- ranks them per user (triage_scores, with the reasons shown), remembers
-- what each user hid or added (triage_feedback) and the model's one-line
-- summaries (triage_summaries, once per paper).

CREATE TABLE triage_settings (
    user_id    INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    categories TEXT    NOT NULL DEFAULT '[]', -- JSON array of arXiv categories
    keywords   TEXT    NOT NULL DEFAULT '[]', -- JSON array of phrases
    objects    TEXT    NOT NULL DEFAULT '[]', -- JSON array of {name, canonical, aliases, resolved}
    authors    TEXT    NOT NULL DEFAULT '[]', -- JSON array of names
    feed_token TEXT    UNIQUE,                -- the personal token in the Atom feed URL
    updated_at TIMESTAMP NOT NULL
);

-- One row per category and UTC day that was fetched or tried.
CREATE TABLE triage_fetches (
    category     TEXT    NOT NULL,
    day          TEXT    NOT NULL, -- YYYY-MM-DD, UTC
    status       TEXT    NOT NULL CHECK (status IN ('done', 'failed')),
    papers       INTEGER NOT NULL DEFAULT 0,
    requests     INTEGER NOT NULL DEFAULT 0,
    attempts     INTEGER NOT NULL DEFAULT 0,
    error        TEXT    NOT NULL DEFAULT '',
    next_attempt TIMESTAMP,        -- failed: not before this
    updated_at   TIMESTAMP NOT NULL,
    PRIMARY KEY (category, day)
) WITHOUT ROWID;

CREATE TABLE triage_papers (
    arxiv_id         TEXT PRIMARY KEY, -- version-less
    version          INTEGER NOT NULL DEFAULT 1,
    day              TEXT    NOT NULL, -- submission day, YYYY-MM-DD UTC
    title            TEXT    NOT NULL,
    abstract         TEXT    NOT NULL DEFAULT '',
    authors          TEXT    NOT NULL DEFAULT '[]', -- JSON array of names
    categories       TEXT    NOT NULL DEFAULT '',   -- space-separated, primary first
    published        TIMESTAMP,
    fetched_at       TIMESTAMP NOT NULL
);
CREATE INDEX triage_papers_day ON triage_papers (day);

CREATE TABLE triage_scores (
    user_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    arxiv_id  TEXT    NOT NULL REFERENCES triage_papers (arxiv_id) ON DELETE CASCADE,
    day       TEXT    NOT NULL,
    score     REAL    NOT NULL,
    reasons   TEXT    NOT NULL DEFAULT '[]', -- JSON array of sentences
    ranked_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, arxiv_id)
) WITHOUT ROWID;
CREATE INDEX triage_scores_day ON triage_scores (user_id, day, score DESC);

CREATE TABLE triage_feedback (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    arxiv_id   TEXT    NOT NULL,
    action     TEXT    NOT NULL CHECK (action IN ('hidden', 'added')),
    title      TEXT    NOT NULL DEFAULT '',
    abstract   TEXT    NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, arxiv_id)
) WITHOUT ROWID;

CREATE TABLE triage_summaries (
    arxiv_id   TEXT PRIMARY KEY,
    summary    TEXT NOT NULL,
    model      TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL
);

-- Embeddings of new papers and library papers (title and abstract), per
-- model, when an embedding model is configured: each text is embedded once.
CREATE TABLE triage_vectors (
    kind   TEXT NOT NULL CHECK (kind IN ('new', 'library')),
    ref    TEXT NOT NULL, -- arXiv id (new) or library paper id (library)
    model  TEXT NOT NULL,
    vector BLOB NOT NULL, -- little-endian float32
    PRIMARY KEY (kind, ref, model)
) WITHOUT ROWID;
