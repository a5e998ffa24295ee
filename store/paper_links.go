package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// LinkKind says which way a citation link points (docs/features.md L5).
type LinkKind string

// Link kinds.
const (
	// LinkCitation: the linked paper cites the library paper.
	LinkCitation LinkKind = "citation"
	// LinkReference: the library paper cites the linked paper.
	LinkReference LinkKind = "reference"
)

// PaperLink is a paper that cites, or is cited by, a library paper, as
// ADS describes it.
type PaperLink struct {
	Bibcode       string  `db:"bibcode" json:"bibcode"`
	Title         string  `db:"title" json:"title"`
	Authors       string  `db:"authors" json:"authors"` // first authors, "; "-joined
	Year          *int    `db:"year" json:"year,omitempty"`
	Journal       string  `db:"journal" json:"journal,omitempty"`
	ArxivID       *string `db:"arxiv_id" json:"arxiv_id,omitempty"`
	DOI           *string `db:"doi" json:"doi,omitempty"`
	CitationCount *int    `db:"citation_count" json:"citation_count,omitempty"`
}

// LinkedPaper is a stored link with the linked paper's library status:
// LibraryID is its library entry (nil when it is not in the library) and
// DownloadStatus that entry's PDF status.
type LinkedPaper struct {
	PaperLink
	LibraryID      *int64  `db:"library_id" json:"library_id,omitempty"`
	DownloadStatus *string `db:"download_status" json:"download_status,omitempty"`
}

// LinkList is one stored list of a paper's links.
type LinkList struct {
	Kind      LinkKind      `json:"-"`
	Total     int           `json:"total"` // how many ADS has in all (Links may hold fewer)
	FetchedAt time.Time     `json:"fetched_at"`
	Links     []LinkedPaper `json:"papers"`
}

// ReplacePaperLinks stores a freshly fetched list of paper id's links of
// kind, in order, replacing the previous list in one transaction; total is
// ADS's count. It fails with ErrNotFound when there is no such paper.
func (s *Store) ReplacePaperLinks(ctx context.Context, id int64, kind LinkKind, links []PaperLink, total int) error {
	return s.Tx(ctx, func(tx *sqlx.Tx) error {
		var one int
		if err := tx.GetContext(ctx, &one, `SELECT 1 FROM papers WHERE id = ?`, id); err != nil {
			return notFound(err, fmt.Sprintf("paper %d", id))
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM paper_links WHERE paper_id = ? AND kind = ?`, id, kind); err != nil {
			return fmt.Errorf("store: clear links: %w", err)
		}
		for i, l := range links {
			_, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO paper_links (paper_id, kind, position, bibcode, title, authors,
				year, journal, arxiv_id, doi, citation_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				id, kind, i, l.Bibcode, l.Title, l.Authors, l.Year, l.Journal, nilIfEmpty(l.ArxivID), nilIfEmpty(l.DOI), l.CitationCount)
			if err != nil {
				return fmt.Errorf("store: add link: %w", err)
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO paper_link_lists (paper_id, kind, total, fetched_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (paper_id, kind) DO UPDATE SET total = excluded.total, fetched_at = excluded.fetched_at`,
			id, kind, total, s.Now())
		if err != nil {
			return fmt.Errorf("store: link list: %w", err)
		}
		return nil
	})
}

// PaperLinks returns paper id's stored list of kind with each linked
// paper's library status, or ErrNotFound when the list was never fetched.
func (s *Store) PaperLinks(ctx context.Context, id int64, kind LinkKind) (LinkList, error) {
	list := LinkList{Kind: kind}
	var head struct {
		Total     int       `db:"total"`
		FetchedAt time.Time `db:"fetched_at"`
	}
	err := s.r.GetContext(ctx, &head, `SELECT total, fetched_at FROM paper_link_lists WHERE paper_id = ? AND kind = ?`, id, kind)
	if errors.Is(err, sql.ErrNoRows) {
		return list, fmt.Errorf("store: %s list of paper %d: %w", kind, id, ErrNotFound)
	}
	if err != nil {
		return list, fmt.Errorf("store: link list: %w", err)
	}
	list.Total, list.FetchedAt = head.Total, head.FetchedAt
	// The linked paper is in the library when any of its identifiers is.
	err = s.r.SelectContext(ctx, &list.Links, `SELECT l.bibcode, l.title, l.authors, l.year, l.journal, l.arxiv_id, l.doi,
		l.citation_count, p.id AS library_id, p.download_status
		FROM paper_links l
		LEFT JOIN papers p ON p.id = (SELECT q.id FROM papers q
			WHERE q.bibcode = l.bibcode OR q.arxiv_id = l.arxiv_id OR q.doi = l.doi ORDER BY q.id LIMIT 1)
		WHERE l.paper_id = ? AND l.kind = ? ORDER BY l.position`, id, kind)
	if err != nil {
		return list, fmt.Errorf("store: links: %w", err)
	}
	return list, nil
}
