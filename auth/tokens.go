package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/astroresearch/astroresearch/store"
)

// tokenPrefix marks AstroResearch API tokens so they are recognisable in
// logs and by secret scanners.
const tokenPrefix = "astro_"

// CreateToken makes a new personal API token for userID and returns the
// secret, which is shown once and never stored (only its SHA-256 is).
func (a *Accounts) CreateToken(ctx context.Context, userID int64, name string) (string, store.APIToken, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", store.APIToken{}, &ValidationError{Field: "name", Message: "is required"}
	}
	if utf8.RuneCountInString(name) > MaxTokenName {
		return "", store.APIToken{}, &ValidationError{Field: "name", Message: fmt.Sprintf("must be at most %d characters", MaxTokenName)}
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", store.APIToken{}, fmt.Errorf("auth: token: %w", err)
	}
	secret := tokenPrefix + base64.RawURLEncoding.EncodeToString(raw)
	t, err := a.st.CreateAPIToken(ctx, userID, name, hashToken(secret), secret[:len(tokenPrefix)+4])
	if err != nil {
		return "", store.APIToken{}, err
	}
	return secret, t, nil
}

// ListTokens returns the user's live tokens.
func (a *Accounts) ListTokens(ctx context.Context, userID int64) ([]store.APIToken, error) {
	return a.st.ListAPITokens(ctx, userID)
}

// RevokeToken revokes one of the user's tokens; store.ErrNotFound when the
// token is not theirs or already revoked.
func (a *Accounts) RevokeToken(ctx context.Context, userID, tokenID int64) error {
	return a.st.RevokeAPIToken(ctx, userID, tokenID)
}

// UserByToken authenticates an API token secret. It returns ErrBadToken
// for unknown or revoked tokens and ErrDisabled when the owner is disabled.
func (a *Accounts) UserByToken(ctx context.Context, secret string) (store.User, error) {
	if !strings.HasPrefix(secret, tokenPrefix) || len(secret) > 200 {
		return store.User{}, ErrBadToken
	}
	u, err := a.st.UserByTokenHash(ctx, hashToken(secret))
	if errors.Is(err, store.ErrNotFound) {
		return store.User{}, ErrBadToken
	}
	if err != nil {
		return store.User{}, err
	}
	if u.Disabled {
		return store.User{}, ErrDisabled
	}
	return u, nil
}

func hashToken(secret string) []byte {
	sum := sha256.Sum256([]byte(secret))
	return sum[:]
}
