-- Retrieval over the library (SPEC T12). Each parsed paper's Markdown is cut
-- into passages (rag_chunks, with [start_byte, end_byte) offsets into that
-- Markdown), indexed by FTS5 (external content, kept in step by triggers)
-- and, when an embedding model is configured, by vectors: the float32
-- vectors in rag_embeddings (exact cosine rescoring with sqlite-vec's
-- vec_distance_cosine) and their binary quantisation in a sqlite-vec vec0
-- table that the rag package creates at run time once it knows the model's
-- dimension (rag_vectors; see research/rag/vectors.go).

-- One row per paper that is queued for or has been through indexing: the
-- persisted queue, so indexing resumes after a restart.
CREATE TABLE rag_documents (
    paper_id    INTEGER PRIMARY KEY REFERENCES papers (id) ON DELETE CASCADE,
    status      TEXT    NOT NULL CHECK (status IN ('queued', 'chunking', 'embedding', 'indexed', 'failed')),
    md_sha256   TEXT    NOT NULL DEFAULT '', -- of the Markdown the chunks were cut from
    chunks      INTEGER NOT NULL DEFAULT 0,
    embedded    INTEGER NOT NULL DEFAULT 0,  -- chunks with a vector from embed_model
    embed_model TEXT    NOT NULL DEFAULT '',
    error       TEXT    NOT NULL DEFAULT '',
    queued_at   TIMESTAMP NOT NULL,
    updated_at  TIMESTAMP NOT NULL
);
CREATE INDEX rag_documents_status ON rag_documents (status, queued_at);

CREATE TABLE rag_chunks (
    id           INTEGER PRIMARY KEY,
    paper_id     INTEGER NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL,
    section_path TEXT    NOT NULL,
    start_byte   INTEGER NOT NULL,
    end_byte     INTEGER NOT NULL,
    text         TEXT    NOT NULL,
    UNIQUE (paper_id, seq),
    CHECK (0 <= start_byte AND start_byte < end_byte)
);

CREATE VIRTUAL TABLE rag_chunks_fts USING fts5(
    text, section_path,
    content = 'rag_chunks', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER rag_chunks_fts_ai AFTER INSERT ON rag_chunks BEGIN
    INSERT INTO rag_chunks_fts (rowid, text, section_path) VALUES (new.id, new.text, new.section_path);
END;
CREATE TRIGGER rag_chunks_fts_ad AFTER DELETE ON rag_chunks BEGIN
    INSERT INTO rag_chunks_fts (rag_chunks_fts, rowid, text, section_path) VALUES ('delete', old.id, old.text, old.section_path);
END;

-- A passage's embedding (little-endian float32) from the model named in
-- rag_settings.
CREATE TABLE rag_embeddings (
    chunk_id  INTEGER PRIMARY KEY REFERENCES rag_chunks (id) ON DELETE CASCADE,
    embedding BLOB NOT NULL
);

-- Settings of the index itself: which embedding model (and dimension) the
-- vectors in rag_vectors come from.
CREATE TABLE rag_settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
