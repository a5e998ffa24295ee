package mcpserver

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/astroresearch/astroresearch/store"
)

// FuzzReadResource: whatever the URI, a read either fails or returns the
// one paper (or notes) its canonical URI names — never another resource.
func FuzzReadResource(f *testing.F) {
	for _, s := range []string{"astro://papers/1", "astro://papers/1/notes", "astro://papers/../1", "astro://papers/01",
		"astro://papers/1%2Fnotes", "astro://papers/1?x=2", "astro://papers/1#notes", "astro://papers/١", "astro://papers/+1"} {
		f.Add(s)
	}
	fx := newFixture(f)
	read := fx.svc.readResource(store.User{ID: fx.vera.ID})
	f.Fuzz(func(t *testing.T, uri string) {
		res, err := read(context.Background(), &mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: uri}})
		if err != nil {
			return
		}
		m := resourceRE.FindStringSubmatch(uri)
		if m == nil {
			t.Fatalf("%q was read", uri)
		}
		id, _ := strconv.ParseInt(m[1], 10, 64)
		canonical := fmt.Sprintf("astro://papers/%d%s", id, m[2])
		if uri != canonical || res.Contents[0].URI != uri {
			t.Fatalf("%q read as %q", uri, res.Contents[0].URI)
		}
	})
}

// FuzzCursor: a decoded cursor is a bounded offset that encodes back to the
// same cursor.
func FuzzCursor(f *testing.F) {
	for _, s := range []string{"", encodeCursor(50), "cGFwZXJzOi0x", "garbage", strings.Repeat("A", 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, c string) {
		n, err := decodeCursor(c)
		if err != nil || c == "" {
			return
		}
		if n < 0 || n > maxOffset || encodeCursor(n) != c {
			t.Fatalf("%q decoded to %d", c, n)
		}
	})
}
