package store

import (
	"context"
	"fmt"
	"strings"
	"unicode"
)

// PhraseQuery is an FTS5 query matching any of names as a phrase
// ("NGC 4258" OR "M 106" ...): every name's words, quoted, so no user text
// becomes an operator. Names without letters or digits are skipped; ""
// when none is left.
func PhraseQuery(names []string) string {
	var parts []string
	seen := map[string]bool{}
	for _, n := range names {
		words := strings.FieldsFunc(n, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
		if len(words) == 0 {
			continue
		}
		p := `"` + strings.ToLower(strings.Join(words, " ")) + `"`
		if !seen[p] {
			seen[p] = true
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " OR ")
}

// PassageMention is a passage of a library paper that names an object.
type PassageMention struct {
	ChunkID     int64   `db:"id" json:"passage_id"`
	PaperID     int64   `db:"paper_id" json:"paper_id"`
	SectionPath string  `db:"section_path" json:"section"`
	Text        string  `db:"text" json:"text"`
	Title       string  `db:"title" json:"title"`
	Year        *int    `db:"year" json:"year"`
	Bibcode     *string `db:"bibcode" json:"bibcode"`
}

// PassagesMentioning returns up to limit passages matching the FTS5 query
// match (see PhraseQuery), best first.
func (s *Store) PassagesMentioning(ctx context.Context, match string, limit int) ([]PassageMention, error) {
	if match == "" {
		return nil, nil
	}
	var out []PassageMention
	err := s.r.SelectContext(ctx, &out, `SELECT c.id, c.paper_id, c.section_path, c.text, p.title, p.year, p.bibcode
		FROM rag_chunks_fts JOIN rag_chunks c ON c.id = rag_chunks_fts.rowid JOIN papers p ON p.id = c.paper_id
		WHERE rag_chunks_fts MATCH ? ORDER BY bm25(rag_chunks_fts) LIMIT ?`, match, limit)
	if err != nil {
		return nil, fmt.Errorf("store: passages mentioning %q: %w", match, err)
	}
	return out, nil
}

// NotesMentioning returns up to limit of the user's notes matching the
// FTS5 query match, best first.
func (s *Store) NotesMentioning(ctx context.Context, userID int64, match string, limit int) ([]PaperNote, error) {
	if match == "" {
		return nil, nil
	}
	var out []PaperNote
	err := s.r.SelectContext(ctx, &out, `SELECT `+noteColumnsOfN+`, p.title AS paper_title
		FROM paper_notes_fts JOIN paper_notes n ON n.id = paper_notes_fts.rowid JOIN papers p ON p.id = n.paper_id
		WHERE paper_notes_fts MATCH ? AND n.user_id = ? ORDER BY bm25(paper_notes_fts) LIMIT ?`, match, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: notes mentioning %q: %w", match, err)
	}
	return out, nil
}
