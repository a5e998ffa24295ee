-- Values reported in the library's papers (issue 16): one row per value the
-- rule-based extractor (research/measure) found in a paper's parsed
-- Markdown, with the passage (rag_chunks) holding its sentence. Rows go
-- with their passage: re-indexing a re-parsed paper deletes them, and the
-- worker extracts again from the new text.
CREATE TABLE measurements (
    id         INTEGER PRIMARY KEY,
    paper_id   INTEGER NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
    chunk_id   INTEGER NOT NULL REFERENCES rag_chunks (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,          -- order within the paper
    quantity   TEXT    NOT NULL,          -- "H0", "distance", ... or ''
    value      REAL    NOT NULL,
    upper      REAL    NOT NULL DEFAULT 0, -- upper end of a range
    err_plus   REAL    NOT NULL DEFAULT 0,
    err_minus  REAL    NOT NULL DEFAULT 0,
    err_stat   REAL    NOT NULL DEFAULT 0,
    err_sys    REAL    NOT NULL DEFAULT 0,
    bound      TEXT    NOT NULL DEFAULT '' CHECK (bound IN ('', '<', '>', '~', 'range')),
    unit       TEXT    NOT NULL DEFAULT '',
    object     TEXT    NOT NULL DEFAULT '',
    sentence   TEXT    NOT NULL,
    start_byte INTEGER NOT NULL,          -- the sentence, as offsets into the paper's Markdown
    end_byte   INTEGER NOT NULL,
    UNIQUE (paper_id, seq)
);
CREATE INDEX measurements_quantity ON measurements (quantity, unit);
CREATE INDEX measurements_object ON measurements (object COLLATE NOCASE);
CREATE INDEX measurements_chunk ON measurements (chunk_id);

-- Which text each paper's values were extracted from: the md_sha256 of
-- rag_documents at the time. A paper whose passages have a different hash
-- (re-parsed and re-indexed) is extracted again.
CREATE TABLE measure_documents (
    paper_id     INTEGER PRIMARY KEY REFERENCES papers (id) ON DELETE CASCADE,
    md_sha256    TEXT      NOT NULL,
    values_found INTEGER   NOT NULL,
    extracted_at TIMESTAMP NOT NULL
);
