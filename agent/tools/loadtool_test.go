package tools

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestLoadToolCapabilities(t *testing.T) {
	lt := LoadTool()
	c := Caps(lt)
	if lt.Name() != "load_tool" || c.Deferred || !c.ReadOnly || !c.ConcurrencySafe(json.RawMessage(`{}`)) {
		t.Errorf("load_tool caps = %+v", c)
	}
	r := testRegistry(t)
	if err := r.Add(lt); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(defNames(r), "load_tool") {
		t.Error("load_tool is not resident")
	}
	want := `{"type":"object","properties":{"names":{"type":"array","description":"Names of tools from the tool catalog to load.",` +
		`"minItems":1,"items":{"type":"string","minLength":1}}},"required":["names"],"additionalProperties":false}`
	if string(lt.Parameters()) != want {
		t.Errorf("parameters:\n got %s\nwant %s", lt.Parameters(), want)
	}
}

func TestLoadTool(t *testing.T) {
	tests := []struct {
		name      string
		args      string
		isError   bool
		contains  []string
		loaded    []string // Metadata["loaded"]
		offered   []string // Definitions afterwards
		catalogue []string // Catalog afterwards
	}{
		{
			name:     "one tool",
			args:     `{"names":["z_parse"]}`,
			contains: []string{"Loaded 1 tool. It can now be called", "## z_parse\nParses a paper into Markdown. Slow."},
			loaded:   []string{"z_parse"}, offered: []string{"a_write", "b_read", "z_parse"}, catalogue: []string{"c_download"},
		},
		{
			name:     "two tools, duplicates ignored",
			args:     `{"names":["c_download","z_parse","c_download"]}`,
			contains: []string{"Loaded 2 tools. They can now be called", "## c_download\nDownloads a paper.", "## z_parse\n"},
			loaded:   []string{"c_download", "z_parse"}, offered: []string{"a_write", "b_read", "c_download", "z_parse"}, catalogue: nil,
		},
		{
			name:     "resident tool is already available",
			args:     `{"names":["a_write"]}`,
			contains: []string{"Nothing new to load", "## a_write (already available)"},
			loaded:   nil, offered: []string{"a_write", "b_read"}, catalogue: []string{"c_download", "z_parse"},
		},
		{
			name:     "unknown names load nothing",
			args:     `{"names":["z_parse","nope","zilch"]}`,
			isError:  true,
			contains: []string{"Unknown tool name(s): nope, zilch.", "Nothing was loaded", "the catalog has: c_download, z_parse"},
			offered:  []string{"a_write", "b_read"}, catalogue: []string{"c_download", "z_parse"},
		},
		{
			name:     "empty list fails validation",
			args:     `{"names":[]}`,
			isError:  true,
			contains: []string{"names: must have at least 1 item, got 0"},
			offered:  []string{"a_write", "b_read"}, catalogue: []string{"c_download", "z_parse"},
		},
		{
			name:     "missing names fails validation",
			args:     ``,
			isError:  true,
			contains: []string{"names: is required"},
			offered:  []string{"a_write", "b_read"}, catalogue: []string{"c_download", "z_parse"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := testRegistry(t)
			res, err := LoadTool().Execute(context.Background(), &Context{Registry: r}, json.RawMessage(tt.args))
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError != tt.isError {
				t.Fatalf("IsError = %v: %s", res.IsError, res.Output)
			}
			for _, want := range tt.contains {
				if !strings.Contains(res.Output, want) {
					t.Errorf("output lacks %q:\n%s", want, res.Output)
				}
			}
			if !tt.isError {
				loaded, _ := res.Metadata["loaded"].([]string)
				if !slices.Equal(loaded, tt.loaded) {
					t.Errorf("metadata loaded = %v, want %v", loaded, tt.loaded)
				}
			}
			if got := defNames(r); !slices.Equal(got, tt.offered) {
				t.Errorf("definitions = %v, want %v", got, tt.offered)
			}
			if got := catalogNames(r); !slices.Equal(got, tt.catalogue) {
				t.Errorf("catalog = %v, want %v", got, tt.catalogue)
			}
		})
	}
}

func TestLoadToolEmptyCatalog(t *testing.T) {
	r := NewRegistry()
	res, err := LoadTool().Execute(context.Background(), &Context{Registry: r}, json.RawMessage(`{"names":["x"]}`))
	if err != nil || !res.IsError || !strings.Contains(res.Output, "the catalog is empty") {
		t.Errorf("got %+v, %v", res, err)
	}
}

func TestLoadToolWithoutRegistry(t *testing.T) {
	for _, tc := range []*Context{nil, {}} {
		_, err := LoadTool().Execute(context.Background(), tc, json.RawMessage(`{"names":["x"]}`))
		if err == nil || !strings.Contains(err.Error(), "load_tool: no registry") {
			t.Errorf("err = %v", err)
		}
	}
}

func TestLoadToolConcurrent(t *testing.T) {
	r := testRegistry(t)
	lt := LoadTool()
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Go(func() {
			name := []string{"z_parse", "c_download"}[i%2]
			res, err := lt.Execute(context.Background(), &Context{Registry: r}, json.RawMessage(`{"names":["`+name+`"]}`))
			if err != nil || res.IsError {
				t.Errorf("concurrent load: %+v, %v", res, err)
			}
		})
	}
	wg.Wait()
	if len(r.Catalog()) != 0 {
		t.Errorf("catalog after loading everything = %v", r.Catalog())
	}
}
