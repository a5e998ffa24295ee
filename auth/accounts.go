// Package auth holds the account rules of docs/features.md S1–S3: password hashing,
// first-run setup, login with rate limits, password changes, user
// administration and personal API tokens. It knows nothing about HTTP.
package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/astroresearch/astroresearch/store"
)

// Errors callers map to user-facing answers.
var (
	// ErrBadCredentials covers both an unknown user and a wrong password,
	// so the answer does not reveal which usernames exist.
	ErrBadCredentials = errors.New("wrong username or password")
	// ErrDisabled is returned when the credentials are right but the
	// account is disabled.
	ErrDisabled = errors.New("this account is disabled")
	// ErrSetupDone is returned by Setup once any account exists.
	ErrSetupDone = errors.New("setup is already complete")
	// ErrLastAdmin protects against locking every admin out.
	ErrLastAdmin = errors.New("the last active admin cannot be disabled")
	// ErrSelf is returned when an admin tries to disable their own account.
	ErrSelf = errors.New("you cannot disable your own account")
	// ErrBadToken is returned for an unknown, revoked or malformed API token.
	ErrBadToken = errors.New("invalid or revoked API token")
	// ErrNameTaken is returned when a username is already in use.
	ErrNameTaken = errors.New("that username is taken")
)

// RateLimitedError is returned when login attempts exceed the limits.
type RateLimitedError struct{ Wait time.Duration }

func (e *RateLimitedError) Error() string {
	return fmt.Sprintf("too many login attempts; try again in %d s", int(e.Wait.Seconds()+0.999))
}

// ValidationError names the field that was rejected and why.
type ValidationError struct{ Field, Message string }

func (e *ValidationError) Error() string { return e.Field + ": " + e.Message }

// Limits bound input sizes and login attempts.
const (
	MaxUsernameLen = 64
	MinPasswordLen = 8
	MaxPasswordLen = 1024
	MaxTokenName   = 100
)

// Accounts implements the account rules on top of the store. It is safe for
// concurrent use.
type Accounts struct {
	st      *store.Store
	argon   Argon2Params
	now     func() time.Time
	perIP   *Limiter
	perUser *Limiter
	// dummyHash is verified against when the username is unknown, so both
	// cases cost the same. Computed on first use: it allocates the full
	// argon2 memory, which an idle server should not hold.
	dummyHash func() (string, error)
}

// Options configure Accounts; zero values take production defaults.
type Options struct {
	Argon2 Argon2Params     // DefaultArgon2 when zero
	Now    func() time.Time // time.Now when nil
	// Per-IP login attempts: LoginIPBurst at once, one more every LoginIPEvery.
	LoginIPBurst int
	LoginIPEvery time.Duration
	// Per-account failed attempts: LoginUserBurst, one more every LoginUserEvery.
	LoginUserBurst int
	LoginUserEvery time.Duration
}

// NewAccounts returns the account service.
func NewAccounts(st *store.Store, opt Options) *Accounts {
	if opt.Argon2 == (Argon2Params{}) {
		opt.Argon2 = DefaultArgon2
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.LoginIPBurst == 0 {
		opt.LoginIPBurst, opt.LoginIPEvery = 20, 6*time.Second
	}
	if opt.LoginUserBurst == 0 {
		opt.LoginUserBurst, opt.LoginUserEvery = 5, time.Minute
	}
	argon := opt.Argon2
	return &Accounts{
		st: st, argon: opt.Argon2, now: opt.Now,
		dummyHash: sync.OnceValues(func() (string, error) { return HashPassword("timing-equaliser", argon) }),
		perIP:     NewLimiter(opt.LoginIPEvery, opt.LoginIPBurst),
		perUser:   NewLimiter(opt.LoginUserEvery, opt.LoginUserBurst),
	}
}

// NeedsSetup reports whether no account exists yet.
func (a *Accounts) NeedsSetup(ctx context.Context) (bool, error) {
	n, err := a.st.CountUsers(ctx)
	return n == 0, err
}

// Setup creates the first admin. It returns ErrSetupDone once any account
// exists, even when two setups race.
func (a *Accounts) Setup(ctx context.Context, username, password string) (store.User, error) {
	hash, err := a.validNewAccount(username, password)
	if err != nil {
		return store.User{}, err
	}
	u, err := a.st.CreateFirstUser(ctx, strings.TrimSpace(username), hash)
	if errors.Is(err, store.ErrConflict) {
		return store.User{}, ErrSetupDone
	}
	return u, err
}

// EnsureAdmin creates the admin from ADMIN_USER/ADMIN_PASSWORD when no
// account exists yet. It reports whether it created one.
func (a *Accounts) EnsureAdmin(ctx context.Context, username, password string) (bool, error) {
	_, err := a.Setup(ctx, username, password)
	if errors.Is(err, ErrSetupDone) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("auth: ADMIN_USER: %w", err)
	}
	return true, nil
}

// Login checks credentials, applying the per-IP and per-account limits.
// It returns *RateLimitedError, ErrBadCredentials or ErrDisabled on refusal.
func (a *Accounts) Login(ctx context.Context, ip, username, password string) (store.User, error) {
	now := a.now()
	username = strings.TrimSpace(username)
	userKey := strings.ToLower(username)
	if ok, wait := a.perIP.Take(ip, now); !ok {
		return store.User{}, &RateLimitedError{Wait: wait}
	}
	if ok, wait := a.perUser.Check(userKey, now); !ok {
		return store.User{}, &RateLimitedError{Wait: wait}
	}
	if username == "" || password == "" || len(username) > MaxUsernameLen || len(password) > MaxPasswordLen {
		a.perUser.Take(userKey, now)
		return store.User{}, ErrBadCredentials
	}
	u, err := a.st.UserByName(ctx, username)
	hash := u.PasswordHash
	if errors.Is(err, store.ErrNotFound) {
		if hash, err = a.dummyHash(); err != nil {
			return store.User{}, err
		}
		err = store.ErrNotFound
	} else if err != nil {
		return store.User{}, err
	}
	ok, verr := VerifyPassword(password, hash)
	if err != nil || verr != nil || !ok {
		a.perUser.Take(userKey, now)
		return store.User{}, ErrBadCredentials
	}
	if u.Disabled {
		return store.User{}, ErrDisabled
	}
	a.perUser.Reset(userKey)
	return u, nil
}

// ChangePassword replaces the user's password after checking the current
// one. Every existing session of the user is revoked (the returned user has
// the new session epoch).
func (a *Accounts) ChangePassword(ctx context.Context, userID int64, current, next string) (store.User, error) {
	u, err := a.st.UserByID(ctx, userID)
	if err != nil {
		return store.User{}, err
	}
	if ok, err := VerifyPassword(current, u.PasswordHash); err != nil || !ok {
		return store.User{}, &ValidationError{Field: "current_password", Message: "the current password is wrong"}
	}
	return a.setPassword(ctx, userID, next)
}

// ResetPassword sets another user's password (admin action) and revokes
// their sessions.
func (a *Accounts) ResetPassword(ctx context.Context, userID int64, next string) (store.User, error) {
	return a.setPassword(ctx, userID, next)
}

func (a *Accounts) setPassword(ctx context.Context, userID int64, next string) (store.User, error) {
	if err := validPassword(next); err != nil {
		return store.User{}, err
	}
	hash, err := HashPassword(next, a.argon)
	if err != nil {
		return store.User{}, err
	}
	return a.st.SetPassword(ctx, userID, hash)
}

// CreateUser adds an account (admin action).
func (a *Accounts) CreateUser(ctx context.Context, username, password string, role store.Role) (store.User, error) {
	if role != store.RoleAdmin && role != store.RoleMember {
		return store.User{}, &ValidationError{Field: "role", Message: "must be admin or member"}
	}
	hash, err := a.validNewAccount(username, password)
	if err != nil {
		return store.User{}, err
	}
	u, err := a.st.CreateUser(ctx, strings.TrimSpace(username), hash, role)
	if errors.Is(err, store.ErrConflict) {
		return store.User{}, ErrNameTaken
	}
	return u, err
}

// SetDisabled disables or enables target on behalf of actor. An admin
// cannot disable themselves or the last active admin.
func (a *Accounts) SetDisabled(ctx context.Context, actor store.User, targetID int64, disabled bool) (store.User, error) {
	if disabled && actor.ID == targetID {
		return store.User{}, ErrSelf
	}
	target, err := a.st.UserByID(ctx, targetID)
	if err != nil {
		return store.User{}, err
	}
	if disabled && target.IsAdmin() && !target.Disabled {
		if n, err := a.st.CountActiveAdmins(ctx); err != nil {
			return store.User{}, err
		} else if n <= 1 {
			return store.User{}, ErrLastAdmin
		}
	}
	return a.st.SetDisabled(ctx, targetID, disabled)
}

// ListUsers returns every account.
func (a *Accounts) ListUsers(ctx context.Context) ([]store.User, error) { return a.st.ListUsers(ctx) }

// UserByID returns one account or store.ErrNotFound.
func (a *Accounts) UserByID(ctx context.Context, id int64) (store.User, error) {
	return a.st.UserByID(ctx, id)
}

func (a *Accounts) validNewAccount(username, password string) (string, error) {
	if err := validUsername(strings.TrimSpace(username)); err != nil {
		return "", err
	}
	if err := validPassword(password); err != nil {
		return "", err
	}
	return HashPassword(password, a.argon)
}

func validUsername(name string) error {
	switch {
	case name == "":
		return &ValidationError{Field: "username", Message: "is required"}
	case utf8.RuneCountInString(name) > MaxUsernameLen:
		return &ValidationError{Field: "username", Message: fmt.Sprintf("must be at most %d characters", MaxUsernameLen)}
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return &ValidationError{Field: "username", Message: "may contain only letters, digits, '.', '_' and '-'"}
		}
	}
	return nil
}

func validPassword(pw string) error {
	n := utf8.RuneCountInString(pw)
	switch {
	case n < MinPasswordLen:
		return &ValidationError{Field: "password", Message: fmt.Sprintf("must be at least %d characters", MinPasswordLen)}
	case len(pw) > MaxPasswordLen:
		return &ValidationError{Field: "password", Message: fmt.Sprintf("must be at most %d bytes", MaxPasswordLen)}
	}
	return nil
}
