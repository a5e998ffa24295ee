package tools

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/astroresearch/astroresearch/agent/llm"
)

// Registry errors, matched with errors.Is.
var (
	// ErrDuplicateTool: Add of a name already registered.
	ErrDuplicateTool = errors.New("tool already registered")
	// ErrInvalidToolName: a name that is not lower_snake_case, or a nil tool.
	ErrInvalidToolName = errors.New("tool name must match ^[a-z][a-z0-9_]*$")
	// ErrUnknownTool: no tool has that name.
	ErrUnknownTool = errors.New("unknown tool")
	// ErrNotDeferred: Load of a resident tool.
	ErrNotDeferred = errors.New("tool is not deferred")
)

// Registry is the set of tools one agent may call (R12). Resident tools are
// offered in every prompt; deferred tools appear in the catalog until the
// model loads them with load_tool, and the loaded state belongs to this
// registry only (see Clone). Safe for concurrent use.
type Registry struct {
	mu     sync.RWMutex
	tools  map[string]Tool
	loaded map[string]bool // deferred tools loaded in this registry
}

// CatalogEntry is a deferred, not yet loaded tool as the model sees it.
type CatalogEntry struct {
	Name    string
	Summary string
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{tools: map[string]Tool{}, loaded: map[string]bool{}}
}

// Add registers t. It fails with ErrInvalidToolName for a nil tool or a
// name that is not lower_snake_case, and with ErrDuplicateTool when the
// name is taken.
func (r *Registry) Add(t Tool) error {
	if err := checkTool(t); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.tools[t.Name()]; ok {
		return fmt.Errorf("tools: add %q: %w", t.Name(), ErrDuplicateTool)
	}
	r.tools[t.Name()] = t
	return nil
}

// Replace registers t, replacing any tool of the same name (a loaded
// deferred tool stays loaded). It fails only with ErrInvalidToolName.
func (r *Registry) Replace(t Tool) error {
	if err := checkTool(t); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tools[t.Name()] = t
	return nil
}

func checkTool(t Tool) error {
	if t == nil {
		return fmt.Errorf("tools: nil tool: %w", ErrInvalidToolName)
	}
	if !validToolName(t.Name()) {
		return fmt.Errorf("tools: add %q: %w", t.Name(), ErrInvalidToolName)
	}
	return nil
}

// validToolName reports whether name matches ^[a-z][a-z0-9_]*$.
func validToolName(name string) bool {
	for i, c := range name {
		ok := (c >= 'a' && c <= 'z') || (i > 0 && ((c >= '0' && c <= '9') || c == '_'))
		if !ok {
			return false
		}
	}
	return name != ""
}

// Get returns the named tool, resident or deferred, loaded or not.
func (r *Registry) Get(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.tools[name]
	return t, ok
}

// Offered reports whether the named tool is currently offered to the
// model: registered and either resident or loaded. The executor can refuse
// calls to a deferred tool that was never loaded.
func (r *Registry) Offered(name string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.tools[name]
	return ok && r.offered(t)
}

// offered is Offered for a held lock.
func (r *Registry) offered(t Tool) bool {
	return !Caps(t).Deferred || r.loaded[t.Name()]
}

// Names returns every registered name, sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Sorted(maps.Keys(r.tools))
}

// Definitions returns the definitions offered to the model — resident
// tools plus the deferred tools loaded in this registry — sorted by name so
// that prompts stay byte-stable and cache well.
func (r *Registry) Definitions() []llm.ToolDef {
	r.mu.RLock()
	defer r.mu.RUnlock()
	defs := []llm.ToolDef{}
	for _, name := range slices.Sorted(maps.Keys(r.tools)) {
		t := r.tools[name]
		if r.offered(t) {
			defs = append(defs, llm.ToolDef{Name: name, Description: t.Description(), Parameters: t.Parameters()})
		}
	}
	return defs
}

// Catalog returns the deferred tools not yet loaded, sorted by name.
func (r *Registry) Catalog() []CatalogEntry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	entries := []CatalogEntry{}
	for _, name := range slices.Sorted(maps.Keys(r.tools)) {
		t := r.tools[name]
		if !r.offered(t) {
			entries = append(entries, CatalogEntry{Name: name, Summary: Caps(t).Summary})
		}
	}
	return entries
}

// CatalogText renders Catalog for the system prompt, one "- name: summary"
// line per tool; "" when the catalog is empty.
func (r *Registry) CatalogText() string {
	var b strings.Builder
	for _, e := range r.Catalog() {
		b.WriteString("- " + e.Name + ": " + e.Summary + "\n")
	}
	return b.String()
}

// Load marks a deferred tool loaded, so Definitions offers it from now on.
// It is idempotent; it fails with ErrUnknownTool or ErrNotDeferred.
func (r *Registry) Load(name string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.tools[name]
	if !ok {
		return fmt.Errorf("tools: load %q: %w", name, ErrUnknownTool)
	}
	if !Caps(t).Deferred {
		return fmt.Errorf("tools: load %q: %w", name, ErrNotDeferred)
	}
	r.loaded[name] = true
	return nil
}

// Clone returns a registry with the same tools and nothing loaded: each
// agent run gets its own view of a shared tool set. Tools are shared, not
// copied.
func (r *Registry) Clone() *Registry {
	return r.Filtered(func(Tool) bool { return true })
}

// Filtered returns a registry with the tools for which keep reports true
// and nothing loaded, e.g. a read-only registry for sub-agents. keep is
// called with the registry's read lock held and must not call back into
// it.
func (r *Registry) Filtered(keep func(Tool) bool) *Registry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := NewRegistry()
	for name, t := range r.tools {
		if keep(t) {
			out.tools[name] = t
		}
	}
	return out
}
