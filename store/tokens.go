package store

import (
	"context"
	"fmt"
	"time"
)

// APIToken is a personal API token. Only the SHA-256 of the secret is kept.
type APIToken struct {
	ID         int64      `db:"id"`
	UserID     int64      `db:"user_id"`
	Name       string     `db:"name"`
	TokenHash  []byte     `db:"token_hash"`
	Hint       string     `db:"hint"`
	CreatedAt  time.Time  `db:"created_at"`
	LastUsedAt *time.Time `db:"last_used_at"`
	RevokedAt  *time.Time `db:"revoked_at"`
}

const tokenColumns = `id, user_id, name, token_hash, hint, created_at, last_used_at, revoked_at`

// CreateAPIToken stores a new token for userID.
func (s *Store) CreateAPIToken(ctx context.Context, userID int64, name string, hash []byte, hint string) (APIToken, error) {
	var t APIToken
	err := s.w.GetContext(ctx, &t, `INSERT INTO api_tokens (user_id, name, token_hash, hint, created_at)
		VALUES (?, ?, ?, ?, ?) RETURNING `+tokenColumns, userID, name, hash, hint, s.Now())
	if err != nil {
		return APIToken{}, fmt.Errorf("store: create api token: %w", err)
	}
	return t, nil
}

// ListAPITokens returns the user's tokens that are not revoked, newest first.
func (s *Store) ListAPITokens(ctx context.Context, userID int64) ([]APIToken, error) {
	var ts []APIToken
	err := s.r.SelectContext(ctx, &ts, `SELECT `+tokenColumns+` FROM api_tokens
		WHERE user_id = ? AND revoked_at IS NULL ORDER BY created_at DESC, id DESC`, userID)
	if err != nil {
		return nil, fmt.Errorf("store: list api tokens: %w", err)
	}
	return ts, nil
}

// RevokeAPIToken revokes the user's token id. It returns ErrNotFound when the
// token does not exist, belongs to someone else or is already revoked.
func (s *Store) RevokeAPIToken(ctx context.Context, userID, id int64) error {
	res, err := s.w.ExecContext(ctx, `UPDATE api_tokens SET revoked_at = ?
		WHERE id = ? AND user_id = ? AND revoked_at IS NULL`, s.Now(), id, userID)
	if err != nil {
		return fmt.Errorf("store: revoke api token %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("store: revoke api token %d: %w", id, ErrNotFound)
	}
	return nil
}

// UserByTokenHash returns the owner of the live (not revoked) token with the
// given hash, or ErrNotFound. It records the use at most once a minute, so a
// busy script does not turn every read into a write.
func (s *Store) UserByTokenHash(ctx context.Context, hash []byte) (User, error) {
	var row struct {
		TokenID  int64      `db:"token_id"`
		LastUsed *time.Time `db:"last_used_at"`
		User
	}
	err := s.r.GetContext(ctx, &row, `SELECT t.id AS token_id, t.last_used_at, `+prefixed("u", userColumns)+`
		FROM api_tokens t JOIN users u ON u.id = t.user_id
		WHERE t.token_hash = ? AND t.revoked_at IS NULL`, hash)
	if err != nil {
		return User{}, notFound(err, "api token")
	}
	now := s.Now()
	if row.LastUsed == nil || now.Sub(*row.LastUsed) > time.Minute {
		if _, err := s.w.ExecContext(ctx, `UPDATE api_tokens SET last_used_at = ? WHERE id = ?`, now, row.TokenID); err != nil {
			return User{}, fmt.Errorf("store: touch api token: %w", err)
		}
	}
	return row.User, nil
}
