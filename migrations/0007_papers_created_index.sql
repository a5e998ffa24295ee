-- The library list's default order (newest first) reads this index instead
-- of sorting every paper on each page load.
CREATE INDEX papers_created ON papers (created_at DESC, id DESC);
