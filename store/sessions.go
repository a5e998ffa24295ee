package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// SessionStore keeps scs cookie sessions in the http_sessions table. It
// implements scs.CtxStore and scs.IterableCtxStore.
//
// It exists instead of scs's sqlite3store because that store runs every
// lookup on the one writer connection; here live sessions are answered from
// a write-through memory cache (falling back to the read pool), so page loads
// never queue behind writes, and expiry is judged by the store's injectable
// clock.
type SessionStore struct {
	s     *Store
	cache cache[string, sessionEntry]
}

type sessionEntry struct {
	data   []byte
	expiry time.Time
}

// Sessions returns the scs store backed by this database.
func (s *Store) Sessions() *SessionStore { return s.sessions }

// julian converts t to a Julian day number, the unit of the expiry column.
func julian(t time.Time) float64 {
	return float64(t.UnixNano())/float64(24*time.Hour) + 2440587.5
}

// fromJulian is the inverse of julian.
func fromJulian(j float64) time.Time {
	return time.Unix(0, int64((j-2440587.5)*float64(24*time.Hour))).UTC()
}

// FindCtx returns the data of a live session. Unknown or expired tokens
// report found == false with a nil error.
func (ss *SessionStore) FindCtx(ctx context.Context, token string) ([]byte, bool, error) {
	now := ss.s.Now()
	if e, ok := ss.cache.get(token); ok {
		if e.expiry.After(now) {
			return e.data, true, nil
		}
		ss.cache.drop(token)
		return nil, false, nil
	}
	var row struct {
		Data   []byte  `db:"data"`
		Expiry float64 `db:"expiry"`
	}
	err := ss.s.r.GetContext(ctx, &row, `SELECT data, expiry FROM http_sessions WHERE token = ? AND expiry > ?`,
		token, julian(now))
	if errors.Is(notFound(err, ""), ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("store: find session: %w", err)
	}
	ss.cache.put(token, sessionEntry{data: row.Data, expiry: fromJulian(row.Expiry)})
	return row.Data, true, nil
}

// CommitCtx inserts or replaces a session.
func (ss *SessionStore) CommitCtx(ctx context.Context, token string, b []byte, expiry time.Time) error {
	_, err := ss.s.w.ExecContext(ctx, `INSERT INTO http_sessions (token, data, expiry) VALUES (?, ?, ?)
		ON CONFLICT (token) DO UPDATE SET data = excluded.data, expiry = excluded.expiry`, token, b, julian(expiry))
	if err != nil {
		ss.cache.drop(token)
		return fmt.Errorf("store: commit session: %w", err)
	}
	ss.cache.put(token, sessionEntry{data: b, expiry: expiry})
	return nil
}

// DeleteCtx removes a session; an unknown token is not an error.
func (ss *SessionStore) DeleteCtx(ctx context.Context, token string) error {
	ss.cache.drop(token)
	if _, err := ss.s.w.ExecContext(ctx, `DELETE FROM http_sessions WHERE token = ?`, token); err != nil {
		return fmt.Errorf("store: delete session: %w", err)
	}
	return nil
}

// AllCtx returns every live session keyed by token.
func (ss *SessionStore) AllCtx(ctx context.Context) (map[string][]byte, error) {
	rows, err := ss.s.r.QueryxContext(ctx, `SELECT token, data FROM http_sessions WHERE expiry > ?`, julian(ss.s.Now()))
	if err != nil {
		return nil, fmt.Errorf("store: list sessions: %w", err)
	}
	defer rows.Close()
	out := map[string][]byte{}
	for rows.Next() {
		var token string
		var data []byte
		if err := rows.Scan(&token, &data); err != nil {
			return nil, fmt.Errorf("store: scan session: %w", err)
		}
		out[token] = data
	}
	return out, rows.Err()
}

// DeleteExpired removes expired sessions and returns how many it removed.
func (ss *SessionStore) DeleteExpired(ctx context.Context) (int64, error) {
	now := ss.s.Now()
	ss.cache.dropIf(func(_ string, e sessionEntry) bool { return !e.expiry.After(now) })
	res, err := ss.s.w.ExecContext(ctx, `DELETE FROM http_sessions WHERE expiry <= ?`, julian(now))
	if err != nil {
		return 0, fmt.Errorf("store: delete expired sessions: %w", err)
	}
	return res.RowsAffected()
}

// RunCleanup deletes expired sessions every interval until ctx is done.
func (ss *SessionStore) RunCleanup(ctx context.Context, interval time.Duration, log *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if n, err := ss.DeleteExpired(ctx); err != nil && ctx.Err() == nil {
				log.Error("session cleanup failed", "err", err)
			} else if n > 0 {
				log.Debug("expired sessions removed", "count", n)
			}
		}
	}
}

// The context-free variants satisfy scs.Store; scs calls the Ctx ones.

// Find implements scs.Store.
func (ss *SessionStore) Find(token string) ([]byte, bool, error) {
	return ss.FindCtx(context.Background(), token)
}

// Commit implements scs.Store.
func (ss *SessionStore) Commit(token string, b []byte, expiry time.Time) error {
	return ss.CommitCtx(context.Background(), token, b, expiry)
}

// Delete implements scs.Store.
func (ss *SessionStore) Delete(token string) error {
	return ss.DeleteCtx(context.Background(), token)
}
