package tools

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
)

type noArgs struct{}

func noop(context.Context, *Context, noArgs) (Result, error) { return Result{Output: "ok"}, nil }

// testRegistry has resident tools b_read (read-only) and a_write, and
// deferred tools z_parse and c_download.
func testRegistry(t *testing.T) *Registry {
	t.Helper()
	r := NewRegistry()
	for _, tool := range []Tool{
		New("b_read", "Reads. More text.", noop, WithReadOnly()),
		New("a_write", "Writes.", noop),
		New("z_parse", "Parses a paper into Markdown. Slow.", noop, WithDeferred()),
		New("c_download", "Downloads a paper.", noop, WithDeferred(), WithSummary("Fetches PDFs.")),
	} {
		if err := r.Add(tool); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func defNames(r *Registry) []string {
	var names []string
	for _, d := range r.Definitions() {
		names = append(names, d.Name)
	}
	return names
}

func catalogNames(r *Registry) []string {
	var names []string
	for _, e := range r.Catalog() {
		names = append(names, e.Name)
	}
	return names
}

func TestRegistryAdd(t *testing.T) {
	tests := []struct {
		name string
		tool Tool
		want error
	}{
		{"ok", New("fine_name2", "d", noop), nil},
		{"duplicate", New("a_write", "d", noop), ErrDuplicateTool},
		{"uppercase", New("Bad", "d", noop), ErrInvalidToolName},
		{"leading digit", New("1tool", "d", noop), ErrInvalidToolName},
		{"leading underscore", New("_tool", "d", noop), ErrInvalidToolName},
		{"dash", New("read-file", "d", noop), ErrInvalidToolName},
		{"empty", New("", "d", noop), ErrInvalidToolName},
		{"nil", nil, ErrInvalidToolName},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := testRegistry(t).Add(tt.tool)
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestRegistryReplaceGetNames(t *testing.T) {
	r := testRegistry(t)
	if err := r.Replace(New("a_write", "Writes better.", noop)); err != nil {
		t.Fatal(err)
	}
	if err := r.Replace(New("new_tool", "New.", noop)); err != nil {
		t.Fatal(err)
	}
	if err := r.Replace(New("Bad", "d", noop)); !errors.Is(err, ErrInvalidToolName) {
		t.Errorf("Replace with a bad name: %v", err)
	}
	got, ok := r.Get("a_write")
	if !ok || got.Description() != "Writes better." {
		t.Errorf("Get after Replace = %v, %v", got, ok)
	}
	if _, ok := r.Get("z_parse"); !ok {
		t.Error("Get does not find a deferred tool")
	}
	if _, ok := r.Get("missing"); ok {
		t.Error("Get found a missing tool")
	}
	want := []string{"a_write", "b_read", "c_download", "new_tool", "z_parse"}
	if got := r.Names(); !slices.Equal(got, want) {
		t.Errorf("Names = %v, want %v", got, want)
	}
}

func TestRegistryResidentDeferredSplit(t *testing.T) {
	r := testRegistry(t)
	if got, want := defNames(r), []string{"a_write", "b_read"}; !slices.Equal(got, want) {
		t.Errorf("Definitions = %v, want %v", got, want)
	}
	d := r.Definitions()[1]
	if d.Description != "Reads. More text." || string(d.Parameters) != string(New("x", "", noop).Parameters()) {
		t.Errorf("definition = %+v", d)
	}
	wantCatalog := []CatalogEntry{{"c_download", "Fetches PDFs."}, {"z_parse", "Parses a paper into Markdown."}}
	if got := r.Catalog(); !slices.Equal(got, wantCatalog) {
		t.Errorf("Catalog = %v, want %v", got, wantCatalog)
	}
	if got, want := r.CatalogText(), "- c_download: Fetches PDFs.\n- z_parse: Parses a paper into Markdown.\n"; got != want {
		t.Errorf("CatalogText = %q, want %q", got, want)
	}
	for name, want := range map[string]bool{"a_write": true, "z_parse": false, "missing": false} {
		if got := r.Offered(name); got != want {
			t.Errorf("Offered(%s) = %v", name, got)
		}
	}
}

func TestRegistryLoad(t *testing.T) {
	r := testRegistry(t)
	if err := r.Load("z_parse"); err != nil {
		t.Fatal(err)
	}
	if err := r.Load("z_parse"); err != nil {
		t.Errorf("Load is not idempotent: %v", err)
	}
	if err := r.Load("nope"); !errors.Is(err, ErrUnknownTool) {
		t.Errorf("Load unknown: %v", err)
	}
	if err := r.Load("a_write"); !errors.Is(err, ErrNotDeferred) {
		t.Errorf("Load resident: %v", err)
	}
	if got, want := defNames(r), []string{"a_write", "b_read", "z_parse"}; !slices.Equal(got, want) {
		t.Errorf("Definitions after load = %v, want %v", got, want)
	}
	if got, want := catalogNames(r), []string{"c_download"}; !slices.Equal(got, want) {
		t.Errorf("Catalog after load = %v, want %v", got, want)
	}
	if !r.Offered("z_parse") {
		t.Error("loaded tool not offered")
	}
	if err := r.Replace(New("z_parse", "Parses v2.", noop, WithDeferred())); err != nil {
		t.Fatal(err)
	}
	if !r.Offered("z_parse") {
		t.Error("Replace dropped the loaded state")
	}
}

func TestRegistryEmpty(t *testing.T) {
	r := NewRegistry()
	if d := r.Definitions(); d == nil || len(d) != 0 {
		t.Errorf("Definitions of empty registry = %#v", d)
	}
	if c := r.Catalog(); c == nil || len(c) != 0 {
		t.Errorf("Catalog of empty registry = %#v", c)
	}
	if r.CatalogText() != "" || len(r.Names()) != 0 {
		t.Error("empty registry is not empty")
	}
}

func TestRegistryCloneAndFilter(t *testing.T) {
	r := testRegistry(t)
	if err := r.Load("z_parse"); err != nil {
		t.Fatal(err)
	}
	clone := r.Clone()
	if !slices.Equal(clone.Names(), r.Names()) {
		t.Errorf("clone names = %v", clone.Names())
	}
	if clone.Offered("z_parse") {
		t.Error("clone inherited the loaded state")
	}
	if err := clone.Load("c_download"); err != nil {
		t.Fatal(err)
	}
	if r.Offered("c_download") {
		t.Error("loading in the clone changed the original")
	}
	if err := clone.Add(New("only_clone", "d", noop)); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Get("only_clone"); ok {
		t.Error("adding to the clone changed the original")
	}

	ro := r.Filtered(func(t Tool) bool { return Caps(t).ReadOnly })
	if got, want := ro.Names(), []string{"b_read"}; !slices.Equal(got, want) {
		t.Errorf("read-only filter = %v, want %v", got, want)
	}
	deferred := r.Filtered(func(t Tool) bool { return Caps(t).Deferred })
	if got, want := catalogNames(deferred), []string{"c_download", "z_parse"}; !slices.Equal(got, want) {
		t.Errorf("filtered catalog = %v, want %v (fresh loaded state)", got, want)
	}
}

// TestRegistryConcurrent is meaningful under -race: readers, loaders,
// writers and cloners share one registry.
func TestRegistryConcurrent(t *testing.T) {
	r := testRegistry(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 50 {
				_ = r.Definitions()
				_ = r.CatalogText()
				_, _ = r.Get("z_parse")
				_ = r.Offered("c_download")
				_ = r.Load("z_parse")
				_ = r.Replace(New(fmt.Sprintf("tool_%d_%d", i, j%5), "d", noop, WithDeferred()))
				c := r.Clone()
				_ = c.Load("c_download")
				_ = r.Filtered(func(t Tool) bool { return Caps(t).ReadOnly }).Names()
			}
		})
	}
	wg.Wait()
	if got := len(r.Names()); got != 4+8*5 {
		t.Errorf("%d tools after concurrent replaces, want %d", got, 4+8*5)
	}
	if !r.Offered("z_parse") || r.Offered("c_download") {
		t.Error("loaded state wrong after concurrent use")
	}
}
