package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	sqlite3 "github.com/mattn/go-sqlite3"
)

// Role is a user's role.
type Role string

// The two roles of docs/features.md S1.
const (
	RoleAdmin  Role = "admin"
	RoleMember Role = "member"
)

// User is one account. PasswordHash is an encoded argon2id hash.
type User struct {
	ID           int64     `db:"id"`
	Username     string    `db:"username"`
	PasswordHash string    `db:"password_hash"`
	Role         Role      `db:"role"`
	Disabled     bool      `db:"disabled"`
	SessionEpoch int64     `db:"session_epoch"`
	CreatedAt    time.Time `db:"created_at"`
	UpdatedAt    time.Time `db:"updated_at"`
}

// IsAdmin reports whether the user has the admin role.
func (u User) IsAdmin() bool { return u.Role == RoleAdmin }

const userColumns = `id, username, password_hash, role, disabled, session_epoch, created_at, updated_at`

// CountUsers returns the number of accounts (disabled ones included).
func (s *Store) CountUsers(ctx context.Context) (int, error) {
	var n int
	if err := s.r.GetContext(ctx, &n, `SELECT COUNT(*) FROM users`); err != nil {
		return 0, fmt.Errorf("store: count users: %w", err)
	}
	return n, nil
}

// CreateUser inserts a user. It returns ErrConflict when the username is
// taken (case-insensitively).
func (s *Store) CreateUser(ctx context.Context, username, passwordHash string, role Role) (User, error) {
	var u User
	err := s.Tx(ctx, func(tx *sqlx.Tx) error {
		return createUser(ctx, tx, &u, username, passwordHash, role, s.Now())
	})
	return u, err
}

// CreateFirstUser inserts an admin only if no user exists yet, atomically:
// two concurrent first-run setups cannot both succeed. It returns ErrConflict
// when an account already exists.
func (s *Store) CreateFirstUser(ctx context.Context, username, passwordHash string) (User, error) {
	var u User
	err := s.Tx(ctx, func(tx *sqlx.Tx) error {
		var n int
		if err := tx.GetContext(ctx, &n, `SELECT COUNT(*) FROM users`); err != nil {
			return fmt.Errorf("store: count users: %w", err)
		}
		if n > 0 {
			return fmt.Errorf("store: first user: %w", ErrConflict)
		}
		return createUser(ctx, tx, &u, username, passwordHash, RoleAdmin, s.Now())
	})
	return u, err
}

func createUser(ctx context.Context, tx *sqlx.Tx, u *User, username, hash string, role Role, now time.Time) error {
	err := tx.GetContext(ctx, u, `INSERT INTO users (username, password_hash, role, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?) RETURNING `+userColumns, username, hash, role, now, now)
	if isUniqueViolation(err) {
		return fmt.Errorf("store: create user %q: %w", username, ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("store: create user %q: %w", username, err)
	}
	return nil
}

// UserByID returns the user with the given id, or ErrNotFound. It is
// answered from memory after the first read (every request of a signed-in
// user calls it); updates through this Store refresh the cached copy.
func (s *Store) UserByID(ctx context.Context, id int64) (User, error) {
	if u, ok := s.users.get(id); ok {
		return u, nil
	}
	var u User
	err := s.r.GetContext(ctx, &u, `SELECT `+userColumns+` FROM users WHERE id = ?`, id)
	if err != nil {
		return User{}, notFound(err, fmt.Sprintf("user %d", id))
	}
	s.users.put(id, u)
	return u, nil
}

// UserByName returns the user with the given username (case-insensitive),
// or ErrNotFound.
func (s *Store) UserByName(ctx context.Context, username string) (User, error) {
	var u User
	err := s.r.GetContext(ctx, &u, `SELECT `+userColumns+` FROM users WHERE username = ?`, username)
	if err != nil {
		return User{}, notFound(err, fmt.Sprintf("user %q", username))
	}
	return u, nil
}

// ListUsers returns every user ordered by username.
func (s *Store) ListUsers(ctx context.Context) ([]User, error) {
	var us []User
	if err := s.r.SelectContext(ctx, &us, `SELECT `+userColumns+` FROM users ORDER BY username`); err != nil {
		return nil, fmt.Errorf("store: list users: %w", err)
	}
	return us, nil
}

// SetPassword replaces a user's password hash and bumps the session epoch,
// which invalidates every existing session of that user. It returns the
// updated user, or ErrNotFound.
func (s *Store) SetPassword(ctx context.Context, id int64, passwordHash string) (User, error) {
	return s.updateUser(ctx, id, `password_hash = ?, session_epoch = session_epoch + 1`, passwordHash)
}

// SetDisabled disables or re-enables a user. Disabling bumps the session
// epoch, ending every session of that user. It returns ErrNotFound for an
// unknown id.
func (s *Store) SetDisabled(ctx context.Context, id int64, disabled bool) (User, error) {
	if disabled {
		return s.updateUser(ctx, id, `disabled = 1, session_epoch = session_epoch + 1`)
	}
	return s.updateUser(ctx, id, `disabled = 0`)
}

// CountActiveAdmins returns the number of admins that are not disabled.
func (s *Store) CountActiveAdmins(ctx context.Context) (int, error) {
	var n int
	err := s.r.GetContext(ctx, &n, `SELECT COUNT(*) FROM users WHERE role = 'admin' AND disabled = 0`)
	if err != nil {
		return 0, fmt.Errorf("store: count admins: %w", err)
	}
	return n, nil
}

func (s *Store) updateUser(ctx context.Context, id int64, set string, args ...any) (User, error) {
	var u User
	err := s.Tx(ctx, func(tx *sqlx.Tx) error {
		args := append(args, s.Now(), id)
		return tx.GetContext(ctx, &u, `UPDATE users SET `+set+`, updated_at = ? WHERE id = ? RETURNING `+userColumns, args...)
	})
	if err != nil {
		s.users.drop(id)
		return User{}, notFound(err, fmt.Sprintf("update user %d", id))
	}
	s.users.put(id, u)
	return u, nil
}

func isUniqueViolation(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintUnique
}
