package store

import (
	"context"
	"fmt"
	"strings"
)

// PaperSort is an order of the library list.
type PaperSort string

// The list's orders. SortDefault is SortRelevance when there is a query and
// SortNewest otherwise; SortRelevance without a query is SortNewest.
const (
	SortDefault   PaperSort = ""
	SortRelevance PaperSort = "relevance" // best full-text match first
	SortNewest    PaperSort = "newest"    // most recently added first
	SortYear      PaperSort = "year"      // latest publication year first (unknown years last)
	SortTitle     PaperSort = "title"     // A to Z, case-insensitive
	SortCited     PaperSort = "cited"     // most cited first (unknown counts last)
)

// ValidSort reports whether s is one of the list's orders.
func ValidSort(s PaperSort) bool {
	switch s {
	case SortDefault, SortRelevance, SortNewest, SortYear, SortTitle, SortCited:
		return true
	}
	return false
}

// sortClauses are the ORDER BY of each order over papers p; every one ends
// with the id so pages never overlap or skip, and each reads an index
// (migrations 0007 and 0009).
var sortClauses = map[PaperSort]string{
	SortNewest: "p.created_at DESC, p.id DESC",
	SortYear:   "p.year DESC, p.id DESC",
	SortTitle:  "p.title COLLATE NOCASE, p.id",
	SortCited:  "p.citation_count DESC, p.id DESC",
}

// PaperFilter selects library entries.
type PaperFilter struct {
	Query  string // full text over title, abstract, authors, keywords
	Tag    string
	Year   int
	Status string // download status: none, downloading, downloaded, failed ("" = any)
	Sort   PaperSort
	Limit  int // default 50, at most 500
	Offset int
}

// Effective returns f's order once the default is resolved.
func (f PaperFilter) Effective() PaperSort {
	hasQuery := FTSQuery(f.Query) != ""
	switch {
	case f.Sort == SortDefault && hasQuery, f.Sort == SortRelevance && hasQuery:
		return SortRelevance
	case f.Sort == SortDefault, f.Sort == SortRelevance:
		return SortNewest
	}
	return f.Sort
}

// listQuery is the FROM and WHERE of a filter, shared by the page and the
// count.
type listQuery struct {
	from, where string
	args        []any
	order       string
	empty       bool // the query has nothing searchable: no paper matches
}

func (f PaperFilter) query() listQuery {
	q := listQuery{from: "papers p", order: sortClauses[f.Effective()]}
	var where []string
	if match := FTSQuery(f.Query); match != "" {
		// Relevance orders by FTS5's rank, which FTS5 sorts itself; the
		// sorter then holds ids and scores, not whole rows.
		q.from = "(SELECT rowid AS id, rank AS score FROM papers_fts WHERE papers_fts MATCH ?) h JOIN papers p ON p.id = h.id"
		q.args = append(q.args, match)
		if f.Effective() == SortRelevance {
			q.order = "h.score, p.id"
		}
	} else if strings.TrimSpace(f.Query) != "" {
		q.empty = true
	}
	if f.Tag != "" {
		where, q.args = append(where, "EXISTS (SELECT 1 FROM paper_tags t WHERE t.paper_id = p.id AND t.tag = ?)"), append(q.args, f.Tag)
	}
	if f.Year != 0 {
		where, q.args = append(where, "p.year = ?"), append(q.args, f.Year)
	}
	if f.Status != "" {
		where, q.args = append(where, "p.download_status = ?"), append(q.args, f.Status)
	}
	if len(where) > 0 {
		q.where = " WHERE " + strings.Join(where, " AND ")
	}
	return q
}

// ListPapers returns one page of library entries matching f, in f's order,
// and the total count.
func (s *Store) ListPapers(ctx context.Context, f PaperFilter) ([]Paper, int, error) {
	out, err := s.ListPapersPage(ctx, f)
	if err != nil {
		return nil, 0, err
	}
	total, err := s.CountPapers(ctx, f)
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// CountPapers returns how many library entries match f (Limit, Offset and
// Sort aside).
func (s *Store) CountPapers(ctx context.Context, f PaperFilter) (int, error) {
	q := f.query()
	if q.empty {
		return 0, nil
	}
	var total int
	if err := s.r.GetContext(ctx, &total, `SELECT COUNT(*) FROM `+q.from+q.where, q.args...); err != nil {
		return 0, fmt.Errorf("store: count papers: %w", err)
	}
	return total, nil
}

// ListPapersPage returns one page of library entries matching f, in f's
// order, with their authors, keywords and tags. It works in two steps —
// the page's ids in order, then those rows — so sorting never carries
// abstracts.
func (s *Store) ListPapersPage(ctx context.Context, f PaperFilter) ([]Paper, error) {
	if f.Limit <= 0 || f.Limit > 500 {
		f.Limit = 50
	}
	f.Offset = max(f.Offset, 0)
	q := f.query()
	if q.empty {
		return nil, nil
	}
	var ids []int64
	err := s.r.SelectContext(ctx, &ids, `SELECT p.id FROM `+q.from+q.where+` ORDER BY `+q.order+` LIMIT ? OFFSET ?`,
		append(q.args, f.Limit, f.Offset)...)
	if err != nil {
		return nil, fmt.Errorf("store: list papers: %w", err)
	}
	return s.papersByIDs(ctx, ids)
}

// papersByIDs loads the papers with these ids, in this order, with their
// lists. Ids of papers that are gone are skipped.
func (s *Store) papersByIDs(ctx context.Context, ids []int64) ([]Paper, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var rows []Paper
	err := s.selectIn(ctx, &rows, `SELECT `+paperColumns+` FROM papers WHERE id IN (?)`, ids)
	if err != nil {
		return nil, fmt.Errorf("store: papers by id: %w", err)
	}
	byID := make(map[int64]Paper, len(rows))
	for _, p := range rows {
		byID[p.ID] = p
	}
	out := make([]Paper, 0, len(rows))
	for _, id := range ids {
		if p, ok := byID[id]; ok {
			out = append(out, p)
		}
	}
	if err := s.fillLists(ctx, out); err != nil {
		return nil, err
	}
	return out, nil
}

// PaperStatus is a paper's library entry as search results show it: the
// entry's id (0 when the paper is not in the library) and statuses.
type PaperStatus struct {
	ID             int64  `db:"id"`
	DownloadStatus string `db:"download_status"`
	ParseStatus    string `db:"parse_status"`
}

// PaperStatuses looks up, in one query, which of the papers named by ids
// are in the library: out[i] is the entry for ids[i] (ID 0 when none).
// At most 500 at a time.
func (s *Store) PaperStatuses(ctx context.Context, ids []PaperIDs) ([]PaperStatus, error) {
	out := make([]PaperStatus, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	if len(ids) > 500 {
		return nil, fmt.Errorf("store: paper statuses: %d lookups, at most 500", len(ids))
	}
	// Empty identifiers become NULL, which matches nothing but keeps each
	// comparison an index lookup.
	values := make([]string, len(ids))
	args := make([]any, 0, 4*len(ids))
	null := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	for i, id := range ids {
		values[i] = "(?, ?, ?, ?)"
		args = append(args, i, null(id.ArxivID), null(id.Bibcode), null(id.DOI))
	}
	var rows []struct {
		I int `db:"i"`
		PaperStatus
	}
	err := s.r.SelectContext(ctx, &rows, `WITH q(i, a, b, d) AS (VALUES `+strings.Join(values, ", ")+`)
		SELECT q.i, p.id, p.download_status, p.parse_status FROM q
		JOIN papers p ON p.id = (SELECT x.id FROM papers x WHERE x.arxiv_id = q.a OR x.bibcode = q.b OR x.doi = q.d ORDER BY x.id LIMIT 1)`,
		args...)
	if err != nil {
		return nil, fmt.Errorf("store: paper statuses: %w", err)
	}
	for _, r := range rows {
		out[r.I] = r.PaperStatus
	}
	return out, nil
}
