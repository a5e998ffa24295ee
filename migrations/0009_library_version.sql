-- library_version counts writes to the library's tables: every insert,
-- update and delete bumps it (triggers below), whatever code path wrote.
-- Caches of library pages are keyed by it, so a cached page can never
-- outlive the data it shows.
CREATE TABLE library_version (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
);
INSERT INTO library_version (id, version) VALUES (1, 0);

CREATE TRIGGER papers_version_i AFTER INSERT ON papers BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER papers_version_u AFTER UPDATE ON papers BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER papers_version_d AFTER DELETE ON papers BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER paper_authors_version_i AFTER INSERT ON paper_authors BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER paper_authors_version_u AFTER UPDATE ON paper_authors BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER paper_authors_version_d AFTER DELETE ON paper_authors BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER paper_keywords_version_i AFTER INSERT ON paper_keywords BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER paper_keywords_version_u AFTER UPDATE ON paper_keywords BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER paper_keywords_version_d AFTER DELETE ON paper_keywords BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER paper_tags_version_i AFTER INSERT ON paper_tags BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER paper_tags_version_u AFTER UPDATE ON paper_tags BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER paper_tags_version_d AFTER DELETE ON paper_tags BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER paper_files_version_i AFTER INSERT ON paper_files BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER paper_files_version_u AFTER UPDATE ON paper_files BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER paper_files_version_d AFTER DELETE ON paper_files BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER paper_links_version_i AFTER INSERT ON paper_links BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER paper_links_version_u AFTER UPDATE ON paper_links BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER paper_links_version_d AFTER DELETE ON paper_links BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER paper_link_lists_version_i AFTER INSERT ON paper_link_lists BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER paper_link_lists_version_u AFTER UPDATE ON paper_link_lists BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER paper_link_lists_version_d AFTER DELETE ON paper_link_lists BEGIN UPDATE library_version SET version = version + 1 WHERE id = 1; END;

-- The list's sort orders (newest first has papers_created): each reads an
-- index instead of sorting the library on every page.
CREATE INDEX papers_title_order ON papers (title COLLATE NOCASE, id);
CREATE INDEX papers_year_order ON papers (year DESC, id DESC);
CREATE INDEX papers_cited_order ON papers (citation_count DESC, id DESC);
