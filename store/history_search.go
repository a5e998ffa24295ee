package store

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
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

// historyRankLimit is how many matching messages a query may have for its
// messages to be ranked by BM25. FTS5 scores every match before it can
// sort, so a common word over a million messages took about a second;
// past this many matches the messages come newest first instead, which
// FTS5 streams in rowid order and stops after the page (measured by
// BenchmarkSearchHistory).
const historyRankLimit = 1000

// SearchHistory searches the user's research session titles/summaries and
// the conversation of the user and the lead agent (their questions and
// answers; not tool results, sub-agents or the memory extractor) for
// query, optionally within one session: best matches first, or — when more
// than historyRankLimit messages match — the matching sessions by rank and
// then the newest matching messages. Only userID's sessions are searched
// (docs/features.md S8). An empty or punctuation-only query returns
// nothing.
func (s *Store) SearchHistory(ctx context.Context, userID int64, query, sessionID string, limit int) ([]HistoryHit, error) {
	return s.searchHistory(ctx, userID, query, sessionID, limit, false)
}

// SearchHistoryAll is SearchHistory over every message: tool results and
// the work of sub-agents and the memory extractor included.
func (s *Store) SearchHistoryAll(ctx context.Context, userID int64, query, sessionID string, limit int) ([]HistoryHit, error) {
	return s.searchHistory(ctx, userID, query, sessionID, limit, true)
}

func (s *Store) searchHistory(ctx context.Context, userID int64, query, sessionID string, limit int, all bool) ([]HistoryHit, error) {
	match, err := s.historyMatch(ctx, query)
	if err != nil || match == "" {
		return nil, err
	}
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	var n int
	err = s.r.GetContext(ctx, &n, `SELECT COUNT(*) FROM (SELECT 1 FROM agent_messages_fts
		WHERE agent_messages_fts MATCH ? LIMIT ?)`, match, historyRankLimit+1)
	if err != nil {
		return nil, fmt.Errorf("store: search history: %w", err)
	}
	if n > historyRankLimit {
		return s.searchHistoryNewest(ctx, userID, match, sessionID, limit, all)
	}
	// Rank first without snippets (SQLite would build one per match before
	// sorting), then make the snippets of the page only.
	var top []struct {
		Kind int   `db:"kind"` // 0 session, 1 message
		ID   int64 `db:"id"`   // session rowid or message id
	}
	err = s.r.SelectContext(ctx, &top, `
		SELECT kind, id FROM (
			SELECT 0 AS kind, s.rowid AS id, bm25(agent_sessions_fts) - 1 AS rank
			FROM agent_sessions_fts JOIN agent_sessions s ON s.rowid = agent_sessions_fts.rowid
			WHERE agent_sessions_fts MATCH ? AND s.user_id = ? AND s.kind = 'research' AND (? = '' OR s.id = ?)
			UNION ALL
			SELECT 1, m.id, bm25(agent_messages_fts)
			FROM agent_messages_fts
			JOIN agent_messages m ON m.id = agent_messages_fts.rowid
			JOIN agent_sessions s ON s.id = m.session_id
			WHERE agent_messages_fts MATCH ? AND s.user_id = ? AND s.kind = 'research' AND (? = '' OR s.id = ?)
			  AND (? OR (m.agent_name = 'lead' AND m.role IN ('user', 'assistant')))
		) ORDER BY rank LIMIT ?`,
		match, userID, sessionID, sessionID, match, userID, sessionID, sessionID, all, limit)
	if err != nil {
		return nil, fmt.Errorf("store: search history: %w", err)
	}
	var sessions, messages []int64
	for _, t := range top {
		if t.Kind == 0 {
			sessions = append(sessions, t.ID)
		} else {
			messages = append(messages, t.ID)
		}
	}
	byKey := map[[2]int64]HistoryHit{}
	if len(sessions) > 0 {
		var rows []struct {
			HistoryHit
			RowID int64 `db:"row_id"`
		}
		err := s.selectIn(ctx, &rows, `SELECT s.rowid AS row_id, s.id AS session_id, s.title AS session_title, 0 AS message_id,
			0 AS turn, '' AS role, snippet(agent_sessions_fts, -1, ?, ?, '…', 12) AS snippet, s.updated_at AS created_at
			FROM agent_sessions_fts JOIN agent_sessions s ON s.rowid = agent_sessions_fts.rowid
			WHERE agent_sessions_fts MATCH ? AND agent_sessions_fts.rowid IN (?)`, MarkStart, MarkEnd, match, sessions)
		if err != nil {
			return nil, fmt.Errorf("store: search history snippets: %w", err)
		}
		for _, r := range rows {
			byKey[[2]int64{0, r.RowID}] = r.HistoryHit
		}
	}
	if len(messages) > 0 {
		var rows []HistoryHit
		err := s.selectIn(ctx, &rows, `SELECT s.id AS session_id, s.title AS session_title, m.id AS message_id, m.turn, m.role,
			snippet(agent_messages_fts, 0, ?, ?, '…', 16) AS snippet, m.created_at
			FROM agent_messages_fts
			JOIN agent_messages m ON m.id = agent_messages_fts.rowid
			JOIN agent_sessions s ON s.id = m.session_id
			WHERE agent_messages_fts MATCH ? AND agent_messages_fts.rowid IN (?)`, MarkStart, MarkEnd, match, messages)
		if err != nil {
			return nil, fmt.Errorf("store: search history snippets: %w", err)
		}
		for _, r := range rows {
			byKey[[2]int64{1, r.MessageID}] = r
		}
	}
	hits := make([]HistoryHit, 0, len(top))
	for _, t := range top {
		if h, ok := byKey[[2]int64{int64(t.Kind), t.ID}]; ok {
			hits = append(hits, h)
		}
	}
	return hits, nil
}

// searchHistoryNewest is SearchHistory for a query too common to rank:
// the matching sessions by rank, then the newest matching messages, limit
// in all.
func (s *Store) searchHistoryNewest(ctx context.Context, userID int64, match, sessionID string, limit int, all bool) ([]HistoryHit, error) {
	var hits []HistoryHit
	err := s.r.SelectContext(ctx, &hits, `
		SELECT s.id AS session_id, s.title AS session_title, 0 AS message_id, 0 AS turn, '' AS role,
		       snippet(agent_sessions_fts, -1, ?, ?, '…', 12) AS snippet, s.updated_at AS created_at
		FROM agent_sessions_fts JOIN agent_sessions s ON s.rowid = agent_sessions_fts.rowid
		WHERE agent_sessions_fts MATCH ? AND s.user_id = ? AND s.kind = 'research' AND (? = '' OR s.id = ?)
		ORDER BY bm25(agent_sessions_fts) LIMIT ?`,
		MarkStart, MarkEnd, match, userID, sessionID, sessionID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: search history sessions: %w", err)
	}
	if len(hits) >= limit {
		return hits, nil
	}
	var messages []HistoryHit
	err = s.r.SelectContext(ctx, &messages, `
		SELECT s.id AS session_id, s.title AS session_title, m.id AS message_id, m.turn, m.role,
		       snippet(agent_messages_fts, 0, ?, ?, '…', 16) AS snippet, m.created_at
		FROM agent_messages_fts
		JOIN agent_messages m ON m.id = agent_messages_fts.rowid
		JOIN agent_sessions s ON s.id = m.session_id
		WHERE agent_messages_fts MATCH ? AND s.user_id = ? AND s.kind = 'research' AND (? = '' OR s.id = ?)
		  AND (? OR (m.agent_name = 'lead' AND m.role IN ('user', 'assistant')))
		ORDER BY agent_messages_fts.rowid DESC LIMIT ?`,
		MarkStart, MarkEnd, match, userID, sessionID, sessionID, all, limit-len(hits))
	if err != nil {
		return nil, fmt.Errorf("store: search history messages: %w", err)
	}
	return append(hits, messages...), nil
}

// historyPrefixTerms bounds how many terms the last word of a history
// query expands to when it is longer than the prefix indexes (4
// characters): FTS5 would otherwise merge the doclist of every term with
// that prefix ("abell" → abell, abell1689, abell2218, …) on each query.
const historyPrefixTerms = 16

// historyMatch is FTSQuery for history search, within the indexes'
// means: every word must match; the last matches as a prefix only from 3
// characters on (one- and two-letter prefixes match most of the index),
// through the prefix index up to 4 characters, and as one of its first
// historyPrefixTerms completions in the indexes' vocabularies beyond.
func (s *Store) historyMatch(ctx context.Context, q string) (string, error) {
	words := strings.FieldsFunc(q, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	if len(words) > 16 {
		words = words[:16]
	}
	if len(words) == 0 {
		return "", nil
	}
	terms := make([]string, len(words))
	for i, w := range words {
		terms[i] = `"` + w + `"`
	}
	last := strings.ToLower(words[len(words)-1])
	switch n := utf8.RuneCountInString(last); {
	case n < 3:
	case n <= 4:
		terms[len(terms)-1] += "*"
	default:
		var completions []string
		err := s.r.SelectContext(ctx, &completions, `SELECT term FROM (
			SELECT term FROM (SELECT term FROM agent_messages_vocab WHERE term >= ? AND term < ? ORDER BY term LIMIT ?)
			UNION
			SELECT term FROM (SELECT term FROM agent_sessions_vocab WHERE term >= ? AND term < ? ORDER BY term LIMIT ?)
		) ORDER BY term LIMIT ?`, last, last+"\U0010FFFF", historyPrefixTerms, last, last+"\U0010FFFF", historyPrefixTerms,
			historyPrefixTerms)
		if err != nil {
			return "", fmt.Errorf("store: expand %q: %w", last, err)
		}
		if len(completions) == 0 {
			terms[len(terms)-1] += "*" // in neither index: an empty, cheap prefix
		} else {
			for i, c := range completions {
				completions[i] = `"` + strings.ReplaceAll(c, `"`, `""`) + `"`
			}
			terms[len(terms)-1] = "(" + strings.Join(completions, " OR ") + ")"
		}
	}
	return strings.Join(terms, " AND "), nil // FTS5 rejects an implicit AND before "("
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
