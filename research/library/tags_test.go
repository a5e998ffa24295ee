package library

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/astroresearch/astroresearch/store"
)

func TestCleanTags(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		bad  bool
	}{
		{"perseus, AGN  feedback ,,", []string{"perseus", "AGN feedback"}, false},
		{"Perseus, perseus, PERSEUS", []string{"Perseus"}, false},
		{" , ", []string{}, false},
		{"ok, " + strings.Repeat("x", MaxTagLen+1), nil, true},
		{"bad\x00tag", nil, true},
		{"a\u0007b", nil, true},
		{manyTags(MaxTags + 1), nil, true},
		{manyTags(MaxTags), nil, false},
		{"ünïcode, 銀河", []string{"ünïcode", "銀河"}, false},
	} {
		got, err := CleanTags(SplitTags(c.in))
		if c.bad {
			if !errors.Is(err, ErrBadTag) {
				t.Errorf("CleanTags(%q) = %q, %v; want ErrBadTag", c.in, got, err)
			}
			continue
		}
		if c.want == nil && err == nil {
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("CleanTags(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func FuzzCleanTags(f *testing.F) {
	for _, s := range []string{"a, b", "  ", "x\ty", "\xff", strings.Repeat("é", 60)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		tags, err := CleanTags(SplitTags(raw))
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, tag := range tags {
			k := strings.ToLower(tag)
			if tag == "" || strings.TrimSpace(tag) != tag || strings.Contains(tag, ",") || !utf8.ValidString(tag) ||
				utf8.RuneCountInString(tag) > MaxTagLen || seen[k] {
				t.Fatalf("CleanTags(%q) gave %q", raw, tags)
			}
			seen[k] = true
		}
		if len(tags) > MaxTags {
			t.Fatalf("%d tags", len(tags))
		}
	})
}

func TestLibraryTags(t *testing.T) {
	l, st, _ := newLib(t, false)
	ctx := context.Background()
	id := "2401.00001"
	p, _, err := st.UpsertPaper(ctx, store.Paper{Title: "T", ArxivID: &id})
	if err != nil {
		t.Fatal(err)
	}
	if tags, err := l.AddTags(ctx, p.ID, SplitTags("b, a")); err != nil || !slices.Equal(tags, []string{"a", "b"}) {
		t.Fatalf("add: %q %v", tags, err)
	}
	if _, err := l.AddTags(ctx, p.ID, SplitTags(" , ")); !errors.Is(err, ErrBadTag) {
		t.Fatalf("empty add: %v", err)
	}
	if _, err := l.AddTags(ctx, p.ID, SplitTags(manyTags(MaxTags-1))); !errors.Is(err, ErrBadTag) {
		t.Fatalf("over the limit: %v", err)
	}
	if tags, err := l.RemoveTag(ctx, p.ID, "  a "); err != nil || !slices.Equal(tags, []string{"b"}) {
		t.Fatalf("remove: %q %v", tags, err)
	}
	if tags, err := l.SetTags(ctx, p.ID, []string{"c", "C", "d"}); err != nil || !slices.Equal(tags, []string{"c", "d"}) {
		t.Fatalf("set: %q %v", tags, err)
	}
	if _, err := l.AddTags(ctx, 999, []string{"x"}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing paper: %v", err)
	}
}

// manyTags is n distinct tags, comma-separated.
func manyTags(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "tag%d,", i)
	}
	return b.String()
}
