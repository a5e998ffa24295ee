package tools

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// LoadToolName is the name of the load_tool meta-tool.
const LoadToolName = "load_tool"

// loadToolArgs are load_tool's arguments.
type loadToolArgs struct {
	Names []string `json:"names" desc:"Names of tools from the tool catalog to load." min:"1" minLength:"1"`
}

// LoadTool returns the load_tool meta-tool (T26): it loads deferred tools
// listed in the catalog into the calling agent's registry (tc.Registry), so
// their definitions are offered from the next model request on. It is
// resident, read-only and concurrency-safe. Names are checked first: if
// any is not a registered tool, nothing is loaded and the error result
// names them and lists the catalog. Names of resident or already loaded
// tools are accepted and reported as already available. A Context without
// a Registry is a Go error (a runtime wiring fault).
func LoadTool() Tool {
	return New(LoadToolName,
		"Load deferred tools from the tool catalog so that they can be called. "+
			"The system prompt lists the catalog (name and one-line summary); "+
			"after loading, each tool's full definition is offered and you call it like any other tool.",
		loadTools, WithReadOnly(), AlwaysConcurrencySafe())
}

func loadTools(_ context.Context, tc *Context, args loadToolArgs) (Result, error) {
	if tc == nil || tc.Registry == nil {
		return Result{}, errors.New("no registry in the tool context")
	}
	reg := tc.Registry
	var names, unknown []string
	for _, n := range args.Names {
		if slices.Contains(names, n) {
			continue
		}
		names = append(names, n)
		if _, ok := reg.Get(n); !ok {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		return unknownToolsResult(reg, unknown), nil
	}
	var b strings.Builder
	var loaded []string
	for _, n := range names {
		t, _ := reg.Get(n)
		if reg.Offered(n) {
			fmt.Fprintf(&b, "\n\n## %s (already available)\n%s", n, t.Description())
			continue
		}
		if err := reg.Load(n); err != nil {
			return Result{}, err
		}
		loaded = append(loaded, n)
		fmt.Fprintf(&b, "\n\n## %s\n%s", n, t.Description())
	}
	head := fmt.Sprintf("Loaded %s. %s now be called with the parameters in %s definition.",
		plural(len(loaded), "tool"), pick(len(names) == 1, "It can", "They can"), pick(len(names) == 1, "its", "their"))
	if len(loaded) == 0 {
		head = "Nothing new to load: the tools below can already be called."
	}
	return Result{
		Output:   head + b.String(),
		Metadata: map[string]any{"loaded": loaded},
	}, nil
}

func unknownToolsResult(reg *Registry, unknown []string) Result {
	var avail []string
	for _, e := range reg.Catalog() {
		avail = append(avail, e.Name)
	}
	catalog := "the catalog is empty"
	if len(avail) > 0 {
		catalog = "the catalog has: " + strings.Join(avail, ", ")
	}
	return Errorf("Unknown tool name(s): %s. Nothing was loaded; %s.", strings.Join(unknown, ", "), catalog)
}

func pick(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}
