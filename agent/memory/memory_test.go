package memory

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/migrations"
	"github.com/astroresearch/astroresearch/store"
)

func newService(t *testing.T) (*Service, *store.Store, int64, string) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, filepath.Join(dir, "a.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Migrate(ctx, migrations.FS); err != nil {
		t.Fatal(err)
	}
	u, _ := st.CreateFirstUser(ctx, "vera", "h")
	return New(st, dir), st, u.ID, dir
}

func TestGate(t *testing.T) {
	cases := map[string]string{
		"short":     "likes M87",
		"vague":     "The user likes astronomy.",
		"transient": "The user is currently downloading the Planck maps for their cluster work.",
		"today":     "Today the user wants answers about NGC 1275 and the Perseus cluster core.",
		"code":      "def f(x):\n    return x\nimport numpy\nfor i in range(3):",
		"fence":     "Use this snippet ```print(1)``` for the photometry pipeline",
		"long":      strings.Repeat("word ", 300),
	}
	for name, content := range cases {
		var r *RefusedError
		if err := Gate(content); !errors.As(err, &r) || r.Reason == "" {
			t.Errorf("%s: %v, want a refusal with a reason", name, err)
		}
	}
	for _, ok := range []string{
		"The user works on X-ray cavities in galaxy clusters with Chandra and prefers cgs units.",
		"Answers should cite bibcodes and give uncertainties on every measured value.",
	} {
		if err := Gate(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
}

func TestSaveDedupeEditDelete(t *testing.T) {
	s, _, uid, dir := newService(t)
	ctx := context.Background()
	m, err := s.Save(ctx, uid, KindUser, "The user studies X-ray cavities in galaxy clusters with Chandra.", "agent")
	if err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile(filepath.Join(dir, m.File))
	if err != nil || !strings.Contains(string(body), "kind: user") || !strings.Contains(string(body), "X-ray cavities") {
		t.Fatalf("file %q %v", body, err)
	}
	var r *RefusedError
	_, err = s.Save(ctx, uid, KindUser, "The user studies X-ray cavities in galaxy clusters using Chandra.", "agent")
	if !errors.As(err, &r) || !strings.Contains(r.Reason, "repeats memory #") {
		t.Fatalf("near-duplicate: %v", err)
	}
	if _, err := s.Save(ctx, uid, "opinion", "Something long enough to pass the length rule here.", "agent"); !errors.As(err, &r) {
		t.Fatalf("bad kind: %v", err)
	}
	s.Save(ctx, uid, KindFeedback, "Answers should cite bibcodes and give uncertainties on measured values.", "agent")
	section, _ := s.PromptSection(ctx, uid)
	if !strings.Contains(section, "(feedback) Answers should cite") || !strings.Contains(section, "(user) The user studies") {
		t.Fatalf("prompt section %q", section)
	}
	if _, err := s.Update(ctx, uid, m.ID, KindProject, "The user's project measures cavity power in the Perseus cluster core."); err != nil {
		t.Fatal(err)
	}
	if body, _ := os.ReadFile(filepath.Join(dir, m.File)); !strings.Contains(string(body), "kind: project") {
		t.Fatalf("file not updated: %s", body)
	}
	if err := s.Delete(ctx, uid, m.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, m.File)); !os.IsNotExist(err) {
		t.Fatal("file not removed")
	}
	if err := s.Delete(ctx, uid, m.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
}
