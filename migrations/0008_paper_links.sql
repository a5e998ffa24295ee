-- Citations and references of library papers (SPEC L5), as ADS lists them.
-- kind 'citation': the row's paper cites paper_id; kind 'reference':
-- paper_id cites the row's paper. Rows keep ADS's order (position) and a
-- summary of the other paper, so the detail page needs no ADS call; its
-- library status is found by joining its identifiers to papers.
CREATE TABLE paper_links (
    paper_id       INTEGER NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
    kind           TEXT    NOT NULL CHECK (kind IN ('citation', 'reference')),
    position       INTEGER NOT NULL,
    bibcode        TEXT    NOT NULL,
    title          TEXT    NOT NULL DEFAULT '',
    authors        TEXT    NOT NULL DEFAULT '', -- the first authors, "; "-joined, " et al." when more
    year           INTEGER,
    journal        TEXT    NOT NULL DEFAULT '',
    arxiv_id       TEXT,                          -- version-less
    doi            TEXT    COLLATE NOCASE,
    citation_count INTEGER,
    PRIMARY KEY (paper_id, kind, bibcode)
) WITHOUT ROWID;
CREATE INDEX paper_links_order ON paper_links (paper_id, kind, position);

-- One row per fetched list: when it was fetched and how many records ADS
-- has in all (the stored rows may be fewer).
CREATE TABLE paper_link_lists (
    paper_id   INTEGER   NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
    kind       TEXT      NOT NULL CHECK (kind IN ('citation', 'reference')),
    total      INTEGER   NOT NULL,
    fetched_at TIMESTAMP NOT NULL,
    PRIMARY KEY (paper_id, kind)
) WITHOUT ROWID;
