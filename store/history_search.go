package store

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
)

// HistoryHit is one search result over past work: a session whose title or
// summary matches (MessageID 0), or a message.
type HistoryHit struct {
	SessionID    string    `db:"session_id" json:"session_id"`
	SessionTitle string    `db:"session_title" json:"session_title"`
	MessageID    int64     `db:"message_id" json:"message_id,omitempty"`
	Turn         int       `db:"turn" json:"turn,omitempty"`
	Role         string    `db:"role" json:"role,omitempty"`
	Snippet      string    `db:"snippet" json:"snippet"`
	CreatedAt    time.Time `db:"created_at" json:"created_at"`
}

// Snippet markers: the matched terms are wrapped in these private-use
// characters, so callers can highlight them after escaping the text.
const (
	MarkStart = "\uE000"
	MarkEnd   = "\uE001"
)

// SearchHistory searches the user's session titles/summaries and the
// conversation of the user and the lead agent (their questions and
// answers; not tool results, sub-agents or the memory extractor) for
// query, optionally within one session, best matches first. Only userID's
// sessions are searched (SPEC S8). An empty or punctuation-only query
// returns nothing.
func (s *Store) SearchHistory(ctx context.Context, userID int64, query, sessionID string, limit int) ([]HistoryHit, error) {
	return s.searchHistory(ctx, userID, query, sessionID, limit, false)
}

// SearchHistoryAll is SearchHistory over every message: tool results and
// the work of sub-agents and the memory extractor included.
func (s *Store) SearchHistoryAll(ctx context.Context, userID int64, query, sessionID string, limit int) ([]HistoryHit, error) {
	return s.searchHistory(ctx, userID, query, sessionID, limit, true)
}

func (s *Store) searchHistory(ctx context.Context, userID int64, query, sessionID string, limit int, all bool) ([]HistoryHit, error) {
	match := FTSQuery(query)
	if match == "" {
		return nil, nil
	}
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	var hits []HistoryHit
	err := s.r.SelectContext(ctx, &hits, `
		SELECT session_id, session_title, message_id, turn, role, snippet, created_at FROM (
			SELECT s.id AS session_id, s.title AS session_title, 0 AS message_id, 0 AS turn, '' AS role,
			       snippet(agent_sessions_fts, -1, ?, ?, '…', 12) AS snippet, s.updated_at AS created_at,
			       bm25(agent_sessions_fts) - 1 AS rank
			FROM agent_sessions_fts JOIN agent_sessions s ON s.rowid = agent_sessions_fts.rowid
			WHERE agent_sessions_fts MATCH ? AND s.user_id = ? AND s.kind = 'research' AND (? = '' OR s.id = ?)
			UNION ALL
			SELECT s.id, s.title, m.id, m.turn, m.role,
			       snippet(agent_messages_fts, 0, ?, ?, '…', 16), m.created_at,
			       bm25(agent_messages_fts)
			FROM agent_messages_fts
			JOIN agent_messages m ON m.id = agent_messages_fts.rowid
			JOIN agent_sessions s ON s.id = m.session_id
			WHERE agent_messages_fts MATCH ? AND s.user_id = ? AND (? = '' OR s.id = ?)
			  AND (? OR (m.agent_name = 'lead' AND m.role IN ('user', 'assistant')))
		) ORDER BY rank LIMIT ?`,
		MarkStart, MarkEnd, match, userID, sessionID, sessionID,
		MarkStart, MarkEnd, match, userID, sessionID, sessionID, all, limit)
	if err != nil {
		return nil, fmt.Errorf("store: search history: %w", err)
	}
	return hits, nil
}

// FTSQuery turns free text into a safe FTS5 query: each word becomes a
// quoted term (so FTS5 operators and punctuation in user input are inert),
// all terms must match, and the last one matches as a prefix (typing
// "perse" finds "Perseus").
func FTSQuery(q string) string {
	words := strings.FieldsFunc(q, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	if len(words) > 16 {
		words = words[:16]
	}
	for i, w := range words {
		words[i] = `"` + w + `"`
	}
	if len(words) == 0 {
		return ""
	}
	words[len(words)-1] += "*"
	return strings.Join(words, " ")
}
