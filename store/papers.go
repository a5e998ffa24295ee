package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// Paper is one library entry (docs/features.md L1).
type Paper struct {
	ID             int64     `db:"id" json:"id"`
	Title          string    `db:"title" json:"title"`
	Abstract       string    `db:"abstract" json:"abstract"`
	Year           *int      `db:"year" json:"year,omitempty"`
	Journal        string    `db:"journal" json:"journal,omitempty"`
	Volume         string    `db:"volume" json:"volume,omitempty"`
	Page           string    `db:"page" json:"page,omitempty"`
	ArxivID        *string   `db:"arxiv_id" json:"arxiv_id,omitempty"`
	ArxivVersion   *int      `db:"arxiv_version" json:"arxiv_version,omitempty"`
	Bibcode        *string   `db:"bibcode" json:"bibcode,omitempty"`
	DOI            *string   `db:"doi" json:"doi,omitempty"`
	CitationCount  *int      `db:"citation_count" json:"citation_count,omitempty"`
	Refereed       bool      `db:"refereed" json:"refereed"`
	Categories     string    `db:"categories" json:"categories,omitempty"`
	DownloadStatus string    `db:"download_status" json:"download_status"`
	DownloadError  string    `db:"download_error" json:"download_error,omitempty"`
	ParseStatus    string    `db:"parse_status" json:"parse_status"`
	ParseError     string    `db:"parse_error" json:"parse_error,omitempty"`
	AddedBy        *int64    `db:"added_by" json:"-"`
	CreatedAt      time.Time `db:"created_at" json:"created_at"`
	UpdatedAt      time.Time `db:"updated_at" json:"updated_at"`
	Authors        []string  `db:"-" json:"authors"`
	Keywords       []string  `db:"-" json:"keywords"`
	Tags           []string  `db:"-" json:"tags"`
}

const paperColumns = `id, title, abstract, year, journal, volume, page, arxiv_id, arxiv_version, bibcode, doi,
	citation_count, refereed, categories, download_status, download_error, parse_status, parse_error, added_by,
	created_at, updated_at`

// PaperIDs are the identifiers a paper may be looked up by.
type PaperIDs struct {
	ArxivID, Bibcode, DOI string
}

// UpsertPaper adds p to the library, or — when a paper with any of its
// identifiers exists — fills in what the existing entry lacks and updates
// the citation count. It runs in one write transaction, so two imports of
// the same paper at once give one entry. It reports whether a new entry
// was created.
func (s *Store) UpsertPaper(ctx context.Context, p Paper) (Paper, bool, error) {
	var out Paper
	created := false
	err := s.Tx(ctx, func(tx *sqlx.Tx) error {
		existing, err := findPaper(ctx, tx, p)
		switch {
		case errors.Is(err, ErrNotFound):
			created = true
			return insertPaper(ctx, tx, &p, s.Now(), &out)
		case err != nil:
			return err
		}
		return mergePaper(ctx, tx, existing, p, s.Now(), &out)
	})
	if err != nil {
		return Paper{}, false, err
	}
	return out, created, nil
}

func findPaper(ctx context.Context, tx *sqlx.Tx, p Paper) (Paper, error) {
	var conds []string
	var args []any
	if p.ArxivID != nil && *p.ArxivID != "" {
		conds, args = append(conds, "arxiv_id = ?"), append(args, *p.ArxivID)
	}
	if p.Bibcode != nil && *p.Bibcode != "" {
		conds, args = append(conds, "bibcode = ?"), append(args, *p.Bibcode)
	}
	if p.DOI != nil && *p.DOI != "" {
		conds, args = append(conds, "doi = ?"), append(args, *p.DOI)
	}
	if len(conds) == 0 {
		return Paper{}, fmt.Errorf("store: paper without identifiers: %w", ErrNotFound)
	}
	var got Paper
	err := tx.GetContext(ctx, &got, `SELECT `+paperColumns+` FROM papers WHERE `+strings.Join(conds, " OR ")+` ORDER BY id LIMIT 1`, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return Paper{}, ErrNotFound
	}
	return got, err
}

func insertPaper(ctx context.Context, tx *sqlx.Tx, p *Paper, now time.Time, out *Paper) error {
	err := tx.GetContext(ctx, out, `INSERT INTO papers (title, abstract, year, journal, volume, page, arxiv_id,
		arxiv_version, bibcode, doi, citation_count, refereed, categories, added_by, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING `+paperColumns,
		p.Title, p.Abstract, p.Year, p.Journal, p.Volume, p.Page, nilIfEmpty(p.ArxivID), p.ArxivVersion,
		nilIfEmpty(p.Bibcode), nilIfEmpty(p.DOI), p.CitationCount, p.Refereed, p.Categories, p.AddedBy, now, now)
	if err != nil {
		return fmt.Errorf("store: insert paper: %w", err)
	}
	if err := writeLists(ctx, tx, out.ID, p.Authors, p.Keywords); err != nil {
		return err
	}
	out.Authors, out.Keywords = p.Authors, p.Keywords
	return indexPaper(ctx, tx, *out, false)
}

// mergePaper fills the existing entry's gaps from p (identifiers, abstract,
// journal, authors) and refreshes the citation count.
func mergePaper(ctx context.Context, tx *sqlx.Tx, old, p Paper, now time.Time, out *Paper) error {
	err := tx.GetContext(ctx, out, `UPDATE papers SET
		title = CASE WHEN title = '' THEN ? ELSE title END,
		abstract = CASE WHEN abstract = '' THEN ? ELSE abstract END,
		year = COALESCE(year, ?), journal = CASE WHEN journal = '' THEN ? ELSE journal END,
		volume = CASE WHEN volume = '' THEN ? ELSE volume END, page = CASE WHEN page = '' THEN ? ELSE page END,
		arxiv_id = COALESCE(arxiv_id, ?), arxiv_version = MAX(COALESCE(arxiv_version, 0), COALESCE(?, 0)),
		bibcode = COALESCE(bibcode, ?), doi = COALESCE(doi, ?),
		citation_count = COALESCE(?, citation_count), refereed = MAX(refereed, ?),
		categories = CASE WHEN categories = '' THEN ? ELSE categories END, updated_at = ?
		WHERE id = ? RETURNING `+paperColumns,
		p.Title, p.Abstract, p.Year, p.Journal, p.Volume, p.Page, nilIfEmpty(p.ArxivID), p.ArxivVersion,
		nilIfEmpty(p.Bibcode), nilIfEmpty(p.DOI), p.CitationCount, p.Refereed, p.Categories, now, old.ID)
	if err != nil {
		return fmt.Errorf("store: merge paper %d: %w", old.ID, err)
	}
	authors, keywords, err := paperLists(ctx, tx, old.ID)
	if err != nil {
		return err
	}
	if len(authors) == 0 && len(p.Authors) > 0 {
		authors = p.Authors
		if err := writeLists(ctx, tx, old.ID, authors, nil); err != nil {
			return err
		}
	}
	if len(keywords) == 0 && len(p.Keywords) > 0 {
		keywords = p.Keywords
		if err := writeLists(ctx, tx, old.ID, nil, keywords); err != nil {
			return err
		}
	}
	out.Authors, out.Keywords = authors, keywords
	return indexPaper(ctx, tx, *out, true)
}

func writeLists(ctx context.Context, tx *sqlx.Tx, id int64, authors, keywords []string) error {
	for i, a := range authors {
		if _, err := tx.ExecContext(ctx, `INSERT INTO paper_authors (paper_id, position, name) VALUES (?, ?, ?)`, id, i, a); err != nil {
			return fmt.Errorf("store: paper author: %w", err)
		}
	}
	for _, k := range keywords {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO paper_keywords (paper_id, keyword) VALUES (?, ?)`, id, k); err != nil {
			return fmt.Errorf("store: paper keyword: %w", err)
		}
	}
	return nil
}

type queryer interface {
	SelectContext(ctx context.Context, dest any, query string, args ...any) error
}

func paperLists(ctx context.Context, q queryer, id int64) (authors, keywords []string, err error) {
	if err := q.SelectContext(ctx, &authors, `SELECT name FROM paper_authors WHERE paper_id = ? ORDER BY position`, id); err != nil {
		return nil, nil, fmt.Errorf("store: paper authors: %w", err)
	}
	if err := q.SelectContext(ctx, &keywords, `SELECT keyword FROM paper_keywords WHERE paper_id = ? ORDER BY keyword`, id); err != nil {
		return nil, nil, fmt.Errorf("store: paper keywords: %w", err)
	}
	return authors, keywords, nil
}

// indexPaper writes the paper's full-text row (replacing the old one).
func indexPaper(ctx context.Context, tx *sqlx.Tx, p Paper, replace bool) error {
	if replace {
		if _, err := tx.ExecContext(ctx, `DELETE FROM papers_fts WHERE rowid = ?`, p.ID); err != nil {
			return fmt.Errorf("store: unindex paper: %w", err)
		}
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO papers_fts (rowid, title, abstract, authors, keywords) VALUES (?, ?, ?, ?, ?)`,
		p.ID, p.Title, p.Abstract, strings.Join(p.Authors, "; "), strings.Join(p.Keywords, "; "))
	if err != nil {
		return fmt.Errorf("store: index paper: %w", err)
	}
	return nil
}

// PaperByID returns one library entry with its lists, or ErrNotFound.
func (s *Store) PaperByID(ctx context.Context, id int64) (Paper, error) {
	var p Paper
	if err := s.r.GetContext(ctx, &p, `SELECT `+paperColumns+` FROM papers WHERE id = ?`, id); err != nil {
		return Paper{}, notFound(err, fmt.Sprintf("paper %d", id))
	}
	return s.withLists(ctx, p)
}

// PaperByIdentifier finds a library entry by arXiv id, bibcode or DOI.
// Only the identifiers given are matched, each through its unique index.
func (s *Store) PaperByIdentifier(ctx context.Context, ids PaperIDs) (Paper, error) {
	where, args := ids.where()
	if where == "" {
		return Paper{}, fmt.Errorf("store: paper by identifier: no identifier: %w", ErrNotFound)
	}
	var p Paper
	if err := s.r.GetContext(ctx, &p, `SELECT `+paperColumns+` FROM papers WHERE `+where+` ORDER BY id LIMIT 1`, args...); err != nil {
		return Paper{}, notFound(err, "paper by identifier")
	}
	return s.withLists(ctx, p)
}

// where is the condition matching any of the non-empty identifiers ("" when
// there are none). Conditions on empty values would keep SQLite from using
// the indexes.
func (ids PaperIDs) where() (string, []any) {
	var conds []string
	var args []any
	for _, c := range []struct{ col, val string }{{"arxiv_id", ids.ArxivID}, {"bibcode", ids.Bibcode}, {"doi", ids.DOI}} {
		if c.val != "" {
			conds, args = append(conds, c.col+" = ?"), append(args, c.val)
		}
	}
	return strings.Join(conds, " OR "), args
}

func (s *Store) withLists(ctx context.Context, p Paper) (Paper, error) {
	var err error
	p.Authors, p.Keywords, err = paperLists(ctx, s.r, p.ID)
	if err != nil {
		return Paper{}, err
	}
	if err := s.r.SelectContext(ctx, &p.Tags, `SELECT tag FROM paper_tags WHERE paper_id = ? ORDER BY tag`, p.ID); err != nil {
		return Paper{}, fmt.Errorf("store: paper tags: %w", err)
	}
	return p, nil
}

func nilIfEmpty(s *string) *string {
	if s == nil || *s == "" {
		return nil
	}
	return s
}

// fillLists loads the authors, keywords and tags of a page of papers with
// three queries (not three per paper).
func (s *Store) fillLists(ctx context.Context, papers []Paper) error {
	if len(papers) == 0 {
		return nil
	}
	ids := make([]int64, len(papers))
	at := make(map[int64]int, len(papers))
	for i, p := range papers {
		ids[i], at[p.ID] = p.ID, i
	}
	type row struct {
		PaperID int64  `db:"paper_id"`
		Value   string `db:"value"`
	}
	load := func(query string, put func(*Paper, string)) error {
		var rows []row
		if err := s.selectIn(ctx, &rows, query, ids); err != nil {
			return fmt.Errorf("store: paper lists: %w", err)
		}
		for _, r := range rows {
			put(&papers[at[r.PaperID]], r.Value)
		}
		return nil
	}
	if err := load(`SELECT paper_id, name AS value FROM paper_authors WHERE paper_id IN (?) ORDER BY paper_id, position`,
		func(p *Paper, v string) { p.Authors = append(p.Authors, v) }); err != nil {
		return err
	}
	if err := load(`SELECT paper_id, keyword AS value FROM paper_keywords WHERE paper_id IN (?) ORDER BY paper_id, keyword`,
		func(p *Paper, v string) { p.Keywords = append(p.Keywords, v) }); err != nil {
		return err
	}
	return load(`SELECT paper_id, tag AS value FROM paper_tags WHERE paper_id IN (?) ORDER BY paper_id, tag`,
		func(p *Paper, v string) { p.Tags = append(p.Tags, v) })
}

// PaperFile is a stored file of a paper (PDF, HTML, Markdown).
type PaperFile struct {
	ID        int64     `db:"id" json:"id"`
	PaperID   int64     `db:"paper_id" json:"paper_id"`
	Kind      string    `db:"kind" json:"kind"`
	SHA256    string    `db:"sha256" json:"sha256"`
	Path      string    `db:"path" json:"path"`
	Bytes     int64     `db:"bytes" json:"bytes"`
	SourceURL string    `db:"source_url" json:"source_url"`
	CreatedAt time.Time `db:"created_at" json:"created_at"`
}

// SetDownloadStatus records a paper's download state and error text.
func (s *Store) SetDownloadStatus(ctx context.Context, id int64, status, errText string) error {
	_, err := s.w.ExecContext(ctx, `UPDATE papers SET download_status = ?, download_error = ?, updated_at = ? WHERE id = ?`,
		status, errText, s.Now(), id)
	if err != nil {
		return fmt.Errorf("store: download status: %w", err)
	}
	return nil
}

// AddPaperFile records a file and marks the paper downloaded (for a PDF),
// in one transaction. The same content for the same paper is recorded once.
func (s *Store) AddPaperFile(ctx context.Context, f PaperFile) (PaperFile, error) {
	var out PaperFile
	err := s.Tx(ctx, func(tx *sqlx.Tx) error {
		err := tx.GetContext(ctx, &out, `INSERT INTO paper_files (paper_id, kind, sha256, path, bytes, source_url, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (paper_id, kind, sha256) DO UPDATE SET source_url = excluded.source_url
			RETURNING id, paper_id, kind, sha256, path, bytes, source_url, created_at`,
			f.PaperID, f.Kind, f.SHA256, f.Path, f.Bytes, f.SourceURL, s.Now())
		if err != nil {
			return fmt.Errorf("store: add paper file: %w", err)
		}
		if f.Kind == "pdf" {
			_, err = tx.ExecContext(ctx, `UPDATE papers SET download_status = 'downloaded', download_error = '', updated_at = ? WHERE id = ?`, s.Now(), f.PaperID)
		}
		return err
	})
	return out, err
}

// PaperFiles returns a paper's files, newest first.
func (s *Store) PaperFiles(ctx context.Context, paperID int64) ([]PaperFile, error) {
	var out []PaperFile
	err := s.r.SelectContext(ctx, &out, `SELECT id, paper_id, kind, sha256, path, bytes, source_url, created_at
		FROM paper_files WHERE paper_id = ? ORDER BY id DESC`, paperID)
	if err != nil {
		return nil, fmt.Errorf("store: paper files: %w", err)
	}
	return out, nil
}
