package auth

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/migrations"
	"github.com/astroresearch/astroresearch/store"
)

var fastArgon = Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1}

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newAccounts(t *testing.T, c *clock) *Accounts {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "a.db"), store.Options{Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Migrate(ctx, migrations.FS); err != nil {
		t.Fatal(err)
	}
	return NewAccounts(st, Options{Argon2: fastArgon, Now: c.now,
		LoginIPBurst: 10, LoginIPEvery: time.Second, LoginUserBurst: 3, LoginUserEvery: time.Minute})
}

func TestPasswordHashRoundTrip(t *testing.T) {
	h, err := HashPassword("correct horse", fastArgon)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Fatalf("hash format %q", h)
	}
	if ok, err := VerifyPassword("correct horse", h); !ok || err != nil {
		t.Fatalf("right password rejected: %v", err)
	}
	if ok, _ := VerifyPassword("wrong horse", h); ok {
		t.Fatal("wrong password accepted")
	}
	h2, _ := HashPassword("correct horse", fastArgon)
	if h2 == h {
		t.Fatal("salt not random")
	}
	for _, bad := range []string{"", "$argon2id$v=19$m=1$x$y", "$bcrypt$...", "$argon2id$v=18$m=64,t=1,p=1$AAAA$AAAA"} {
		if ok, err := VerifyPassword("x", bad); ok || err == nil {
			t.Errorf("malformed hash %q: ok=%v err=%v", bad, ok, err)
		}
	}
}

func FuzzVerifyPassword(f *testing.F) {
	h, _ := HashPassword("pw", fastArgon)
	f.Add("pw", h)
	f.Add("x", "$argon2id$v=19$m=64,t=1,p=1$$")
	f.Fuzz(func(t *testing.T, pw, encoded string) {
		if strings.Contains(encoded, "m=") && !strings.HasPrefix(encoded, "$argon2id$v=19$m=64,") {
			return // arbitrary cost parameters would make the fuzzer allocate gigabytes
		}
		_, _ = VerifyPassword(pw, encoded) // must not panic
	})
}

func TestLimiter(t *testing.T) {
	l := NewLimiter(10*time.Second, 2)
	t0 := time.Unix(1000, 0)
	for i := 0; i < 2; i++ {
		if ok, _ := l.Take("k", t0); !ok {
			t.Fatalf("take %d refused within burst", i)
		}
	}
	ok, wait := l.Take("k", t0)
	if ok || wait != 10*time.Second {
		t.Fatalf("third take = %v, wait %v; want refused, 10s", ok, wait)
	}
	if ok, _ := l.Check("other", t0); !ok {
		t.Fatal("keys are not independent")
	}
	if ok, _ := l.Take("k", t0.Add(10*time.Second)); !ok {
		t.Fatal("bucket did not refill")
	}
	l.Reset("k")
	if ok, _ := l.Check("k", t0.Add(10*time.Second)); !ok {
		t.Fatal("Reset did not refill")
	}
}

func TestSetupAndLogin(t *testing.T) {
	c := &clock{time.Unix(1_800_000_000, 0)}
	a := newAccounts(t, c)
	ctx := context.Background()
	if need, _ := a.NeedsSetup(ctx); !need {
		t.Fatal("fresh database does not need setup")
	}
	var ve *ValidationError
	if _, err := a.Setup(ctx, "", "longenough"); !errors.As(err, &ve) || ve.Field != "username" {
		t.Fatalf("empty username: %v", err)
	}
	if _, err := a.Setup(ctx, "vera", "short"); !errors.As(err, &ve) || ve.Field != "password" {
		t.Fatalf("short password: %v", err)
	}
	if _, err := a.Setup(ctx, strings.Repeat("a", 65), "longenough"); !errors.As(err, &ve) {
		t.Fatalf("over-long username: %v", err)
	}
	if _, err := a.Setup(ctx, "vera rubin", "longenough"); !errors.As(err, &ve) {
		t.Fatalf("username with a space: %v", err)
	}
	u, err := a.Setup(ctx, "vera", "galaxy-rotation")
	if err != nil || !u.IsAdmin() {
		t.Fatalf("Setup = %+v, %v", u, err)
	}
	if _, err := a.Setup(ctx, "mallory", "longenough"); !errors.Is(err, ErrSetupDone) {
		t.Fatalf("second setup: %v", err)
	}
	if created, err := a.EnsureAdmin(ctx, "root", "longenough"); created || err != nil {
		t.Fatalf("EnsureAdmin after setup = %v, %v", created, err)
	}
	if _, err := a.Login(ctx, "ip1", "VERA", "galaxy-rotation"); err != nil {
		t.Fatalf("login: %v", err)
	}
	if _, err := a.Login(ctx, "ip1", "vera", "wrong"); !errors.Is(err, ErrBadCredentials) {
		t.Fatalf("wrong password: %v", err)
	}
	if _, err := a.Login(ctx, "ip1", "nobody", "whatever"); !errors.Is(err, ErrBadCredentials) {
		t.Fatalf("unknown user: %v", err)
	}
}

func TestLoginRateLimits(t *testing.T) {
	c := &clock{time.Unix(1_800_000_000, 0)}
	a := newAccounts(t, c)
	ctx := context.Background()
	if _, err := a.Setup(ctx, "vera", "galaxy-rotation"); err != nil {
		t.Fatal(err)
	}
	// Per account: 3 failures, then refused even with the right password
	// and from another IP.
	for i := 0; i < 3; i++ {
		if _, err := a.Login(ctx, "ip-"+string(rune('a'+i)), "vera", "bad"); !errors.Is(err, ErrBadCredentials) {
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
	var rl *RateLimitedError
	if _, err := a.Login(ctx, "ip-z", "vera", "galaxy-rotation"); !errors.As(err, &rl) || rl.Wait <= 0 {
		t.Fatalf("4th attempt = %v, want rate limited", err)
	}
	c.t = c.t.Add(time.Minute)
	if _, err := a.Login(ctx, "ip-z", "vera", "galaxy-rotation"); err != nil {
		t.Fatalf("after the wait: %v", err)
	}
	// Per IP: 10 attempts at once, whatever the usernames.
	for i := 0; i < 10; i++ {
		a.Login(ctx, "ip-flood", "user"+string(rune('a'+i)), "bad")
	}
	if _, err := a.Login(ctx, "ip-flood", "vera", "galaxy-rotation"); !errors.As(err, &rl) {
		t.Fatalf("11th attempt from one IP = %v, want rate limited", err)
	}
}

func TestDisableAndPasswordChange(t *testing.T) {
	c := &clock{time.Unix(1_800_000_000, 0)}
	a := newAccounts(t, c)
	ctx := context.Background()
	admin, _ := a.Setup(ctx, "vera", "galaxy-rotation")
	m, err := a.CreateUser(ctx, "edwin", "expanding-universe", store.RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.CreateUser(ctx, "Edwin", "expanding-universe", store.RoleMember); !errors.Is(err, ErrNameTaken) {
		t.Fatalf("duplicate: %v", err)
	}
	if _, err := a.CreateUser(ctx, "x", "expanding-universe", "owner"); err == nil {
		t.Fatal("unknown role accepted")
	}
	if _, err := a.SetDisabled(ctx, admin, admin.ID, true); !errors.Is(err, ErrSelf) {
		t.Fatalf("self-disable: %v", err)
	}
	if _, err := a.SetDisabled(ctx, admin, m.ID, true); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Login(ctx, "ip", "edwin", "expanding-universe"); !errors.Is(err, ErrDisabled) {
		t.Fatalf("disabled login: %v", err)
	}
	m2, err := a.CreateUser(ctx, "henrietta", "cepheid-variables", store.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.SetDisabled(ctx, m2, admin.ID, true); err != nil {
		t.Fatalf("disabling one of two admins: %v", err)
	}
	if _, err := a.SetDisabled(ctx, admin, m2.ID, true); !errors.Is(err, ErrLastAdmin) {
		t.Fatalf("disabling the last admin: %v", err)
	}
	var ve *ValidationError
	if _, err := a.ChangePassword(ctx, m2.ID, "wrong", "new-password-1"); !errors.As(err, &ve) {
		t.Fatalf("wrong current password: %v", err)
	}
	u, err := a.ChangePassword(ctx, m2.ID, "cepheid-variables", "new-password-1")
	if err != nil || u.SessionEpoch != m2.SessionEpoch+1 {
		t.Fatalf("ChangePassword = %+v, %v", u, err)
	}
	if _, err := a.Login(ctx, "ip2", "henrietta", "new-password-1"); err != nil {
		t.Fatalf("login with new password: %v", err)
	}
}

func TestTokens(t *testing.T) {
	c := &clock{time.Unix(1_800_000_000, 0)}
	a := newAccounts(t, c)
	ctx := context.Background()
	u, _ := a.Setup(ctx, "vera", "galaxy-rotation")
	if _, _, err := a.CreateToken(ctx, u.ID, "  "); err == nil {
		t.Fatal("empty token name accepted")
	}
	secret, tok, err := a.CreateToken(ctx, u.ID, "jupyter")
	if err != nil || !strings.HasPrefix(secret, "astro_") || !strings.HasPrefix(secret, tok.Hint) {
		t.Fatalf("CreateToken = %q %+v %v", secret, tok, err)
	}
	if got, err := a.UserByToken(ctx, secret); err != nil || got.ID != u.ID {
		t.Fatalf("UserByToken = %+v, %v", got, err)
	}
	if _, err := a.UserByToken(ctx, secret+"x"); !errors.Is(err, ErrBadToken) {
		t.Fatalf("wrong secret: %v", err)
	}
	if err := a.RevokeToken(ctx, u.ID, tok.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.UserByToken(ctx, secret); !errors.Is(err, ErrBadToken) {
		t.Fatalf("revoked token: %v", err)
	}
}
