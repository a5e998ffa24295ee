package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

// TriageSettings is what a user's daily arXiv triage follows (L10).
type TriageSettings struct {
	UserID     int64
	Categories []string
	Keywords   []string
	Objects    []TriageObject
	Authors    []string
	// FeedToken is the personal token of the user's Atom feed URL ("" until
	// one is made).
	FeedToken string
	UpdatedAt time.Time
}

// TriageObject is an astronomical object a user follows, with the names
// Sesame knows it by so that any alias in a paper counts.
type TriageObject struct {
	// Name is as the user typed it.
	Name string `json:"name"`
	// Canonical is Sesame's canonical name ("" when unresolved).
	Canonical string `json:"canonical,omitempty"`
	// Aliases are Sesame's other names.
	Aliases []string `json:"aliases,omitempty"`
	// Resolved reports whether Sesame knew the name; unresolved objects are
	// matched by Name alone.
	Resolved bool `json:"resolved"`
}

// triageSettingsRow is the table's row; the lists are JSON.
type triageSettingsRow struct {
	UserID     int64          `db:"user_id"`
	Categories string         `db:"categories"`
	Keywords   string         `db:"keywords"`
	Objects    string         `db:"objects"`
	Authors    string         `db:"authors"`
	FeedToken  sql.NullString `db:"feed_token"`
	UpdatedAt  time.Time      `db:"updated_at"`
}

const triageSettingsColumns = `user_id, categories, keywords, objects, authors, feed_token, updated_at`

func (r triageSettingsRow) settings() (TriageSettings, error) {
	s := TriageSettings{UserID: r.UserID, FeedToken: r.FeedToken.String, UpdatedAt: r.UpdatedAt}
	for _, f := range []struct {
		text string
		dst  any
	}{{r.Categories, &s.Categories}, {r.Keywords, &s.Keywords}, {r.Objects, &s.Objects}, {r.Authors, &s.Authors}} {
		if err := json.Unmarshal([]byte(f.text), f.dst); err != nil {
			return TriageSettings{}, fmt.Errorf("store: triage settings of user %d: %w", r.UserID, err)
		}
	}
	return s, nil
}

// jsonList encodes v (a slice) as JSON, "[]" for nil.
func jsonList(v any) string {
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" {
		return "[]"
	}
	return string(b)
}

// TriageSettings returns the user's triage settings, or ErrNotFound when
// the user has never saved any.
func (s *Store) TriageSettings(ctx context.Context, userID int64) (TriageSettings, error) {
	var r triageSettingsRow
	err := s.r.GetContext(ctx, &r, `SELECT `+triageSettingsColumns+` FROM triage_settings WHERE user_id = ?`, userID)
	if err != nil {
		return TriageSettings{}, notFound(err, fmt.Sprintf("triage settings of user %d", userID))
	}
	return r.settings()
}

// SaveTriageSettings stores the user's categories, keywords, objects and
// authors, keeping the feed token.
func (s *Store) SaveTriageSettings(ctx context.Context, t TriageSettings) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO triage_settings (user_id, categories, keywords, objects, authors, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET categories = excluded.categories, keywords = excluded.keywords,
			objects = excluded.objects, authors = excluded.authors, updated_at = excluded.updated_at`,
		t.UserID, jsonList(t.Categories), jsonList(t.Keywords), jsonList(t.Objects), jsonList(t.Authors), s.Now())
	if err != nil {
		return fmt.Errorf("store: save triage settings of user %d: %w", t.UserID, err)
	}
	return nil
}

// SetTriageFeedToken sets the user's feed token (replacing any earlier
// one, whose URL then stops working), creating empty settings if needed.
func (s *Store) SetTriageFeedToken(ctx context.Context, userID int64, token string) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO triage_settings (user_id, feed_token, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET feed_token = excluded.feed_token`, userID, token, s.Now())
	if err != nil {
		return fmt.Errorf("store: set triage feed token of user %d: %w", userID, err)
	}
	return nil
}

// TriageUserByFeedToken returns the id of the user whose feed token is
// token, or ErrNotFound.
func (s *Store) TriageUserByFeedToken(ctx context.Context, token string) (int64, error) {
	if token == "" {
		return 0, fmt.Errorf("store: triage feed token: %w", ErrNotFound)
	}
	var id int64
	err := s.r.GetContext(ctx, &id, `SELECT t.user_id FROM triage_settings t JOIN users u ON u.id = t.user_id
		WHERE t.feed_token = ? AND u.disabled = 0`, token)
	if err != nil {
		return 0, notFound(err, "triage feed token")
	}
	return id, nil
}

// AllTriageSettings returns the settings of every user who follows at
// least one category (the scheduler's work list).
func (s *Store) AllTriageSettings(ctx context.Context) ([]TriageSettings, error) {
	var rows []triageSettingsRow
	err := s.r.SelectContext(ctx, &rows, `SELECT `+triageSettingsColumns+` FROM triage_settings
		WHERE categories <> '[]' ORDER BY user_id`)
	if err != nil {
		return nil, fmt.Errorf("store: all triage settings: %w", err)
	}
	out := make([]TriageSettings, 0, len(rows))
	for _, r := range rows {
		t, err := r.settings()
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}
