package store

import (
	"context"
	"strings"

	"github.com/jmoiron/sqlx"
)

// prefixed qualifies a comma-separated column list with a table alias.
func prefixed(alias, columns string) string {
	parts := strings.Split(columns, ",")
	for i, p := range parts {
		parts[i] = alias + "." + strings.TrimSpace(p)
	}
	return strings.Join(parts, ", ")
}

// selectIn runs query on the reader pool after expanding each slice
// argument into the list of its `IN (?)` (sqlx.In; a []byte stays one
// value). It is the one way this package builds IN lists; an empty slice
// is an error, so callers return early for none.
func (s *Store) selectIn(ctx context.Context, dest any, query string, args ...any) error {
	q, expanded, err := sqlx.In(query, args...)
	if err != nil {
		return err
	}
	return s.r.SelectContext(ctx, dest, q, expanded...)
}
