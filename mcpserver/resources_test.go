package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/astroresearch/astroresearch/store"
)

// TestResourceTemplates: both templates are listed.
func TestResourceTemplates(t *testing.T) {
	f := newFixture(t)
	res, err := f.connect(f.vera).ListResourceTemplates(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tpl := range res.ResourceTemplates {
		got[tpl.URITemplate] = tpl.MIMEType
	}
	if len(got) != 2 || got["astro://papers/{id}"] != "text/markdown" || got["astro://papers/{id}/notes"] != "text/markdown" {
		t.Fatalf("templates %v", got)
	}
}

// TestReadResources: a parsed paper is its Markdown, an unparsed one its
// metadata and abstract, notes are the caller's only; anything else is not
// found. Reads are audited.
func TestReadResources(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	vera, otto := f.connect(f.vera), f.connect(f.otto)
	read := func(cs *mcp.ClientSession, uri string) (string, error) {
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			return "", err
		}
		if len(res.Contents) != 1 || res.Contents[0].URI != uri || res.Contents[0].MIMEType != "text/markdown" {
			t.Fatalf("%s: contents %+v", uri, res.Contents)
		}
		return res.Contents[0].Text, nil
	}
	paper := fmt.Sprintf("astro://papers/%d", f.parsed.ID)
	tests := []struct {
		cs          *mcp.ClientSession
		uri         string
		want, avoid string
	}{
		{vera, paper, "## 2 Results\n\nWe infer a mass of 6.5e9 solar masses.", ""},
		{vera, fmt.Sprintf("astro://papers/%d", f.bare.ID), "## Abstract\n\nDust lanes are seen.", ""},
		{vera, fmt.Sprintf("astro://papers/%d", f.bare.ID), "is not parsed yet", ""},
		{vera, fmt.Sprintf("astro://papers/%d", f.bare.ID), "Fabian, A. et al.", ""},
		{vera, paper + "/notes", "> 42 microarcseconds", "Otto"},
		{otto, paper + "/notes", "Otto's private thought", "42 microarcseconds"},
		{otto, fmt.Sprintf("astro://papers/%d/notes", f.bare.ID), "No notes yet.", ""},
	}
	for _, tt := range tests {
		got, err := read(tt.cs, tt.uri)
		if err != nil || !strings.Contains(got, tt.want) || (tt.avoid != "" && strings.Contains(got, tt.avoid)) {
			t.Errorf("%s: %v\n%s", tt.uri, err, got)
		}
	}
	for _, uri := range []string{
		"astro://papers/999999", "astro://papers/0", "astro://papers/-1", "astro://papers/abc",
		"astro://papers/../../etc/passwd", "astro://papers/1/../2", "astro://papers/%31", "astro://papers/1%2Fnotes",
		"astro://papers/99999999999999999999", "astro://papers/01", "astro://papers/1/notes/extra",
		"file:///etc/passwd", "astro://papers/" + strings.Repeat("9", 5000), "",
	} {
		if got, err := read(vera, uri); err == nil {
			t.Errorf("%q was read: %q", uri, got)
		}
	}
	sess, _ := f.st.MCPSession(ctx, f.vera.ID)
	rows, _ := f.st.AuditForSession(ctx, sess.ID)
	if len(rows) < 6 || rows[0].Tool != "read_resource" || rows[0].OutputPreview != paper || rows[0].Status != "ok" ||
		rows[len(rows)-1].Status != "error" {
		t.Fatalf("audit %+v", rows)
	}
}

// TestListLibrary: the library is a paginated resource list, newest first,
// every paper exactly once; a forged cursor is refused.
func TestListLibrary(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for i := range 2*libraryPageSize + 3 {
		id := fmt.Sprintf("2301.%05d", i)
		if _, _, err := f.st.UpsertPaper(ctx, store.Paper{Title: fmt.Sprintf("Paper %d", i), ArxivID: &id}); err != nil {
			t.Fatal(err)
		}
	}
	cs := f.connect(f.vera)
	seen := map[string]bool{}
	pages, cursor := 0, ""
	for {
		res, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, r := range res.Resources {
			if seen[r.URI] || !strings.HasPrefix(r.URI, "astro://papers/") || r.Title == "" || r.MIMEType != "text/markdown" {
				t.Fatalf("resource %+v (seen %v)", r, seen[r.URI])
			}
			seen[r.URI] = true
		}
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	if total := 2*libraryPageSize + 5; len(seen) != total || pages != 3 {
		t.Fatalf("%d resources in %d pages, want %d in 3", len(seen), pages, total)
	}
	first, err := cs.ListResources(ctx, nil)
	if err != nil || first.Resources[0].Title != fmt.Sprintf("Paper %d", 2*libraryPageSize+2) {
		t.Fatalf("not newest first: %+v %v", first.Resources[0], err)
	}
	if !strings.Contains(first.Resources[0].Description, "not parsed") {
		t.Fatalf("description %q", first.Resources[0].Description)
	}
	for _, c := range []string{"garbage", encodeCursor(-5), "cGFwZXJzOjk5OTk5OTk5OTk5OQ", "eDox"} {
		if _, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: c}); err == nil {
			t.Errorf("cursor %q accepted", c)
		}
	}
	sess, _ := f.st.MCPSession(ctx, f.vera.ID)
	rows, _ := f.st.AuditForSession(ctx, sess.ID)
	if len(rows) != 8 || rows[0].Tool != "list_resources" || rows[0].OutputPreview != "library page" ||
		!strings.HasPrefix(rows[1].OutputPreview, "library page after cursor ") || rows[7].Status != "error" {
		t.Fatalf("audit %+v", rows)
	}
}
