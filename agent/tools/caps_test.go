package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// bareTool implements only Tool, so Caps must supply every default.
type bareTool struct{ name, desc string }

func (b bareTool) Name() string                { return b.name }
func (b bareTool) Description() string         { return b.desc }
func (b bareTool) Parameters() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (b bareTool) Execute(context.Context, *Context, json.RawMessage) (Result, error) {
	return Result{Output: b.name}, nil
}

// summaryTool has its own (possibly empty) summary.
type summaryTool struct {
	bareTool
	summary string
}

func (s summaryTool) ClassifierSummary() string { return s.summary }

func TestCapsDefaults(t *testing.T) {
	c := Caps(bareTool{"bare", "Bare tool. Nothing else."})
	if c.Interrupt != Cancel || c.SiblingAbort || c.ReadOnly || c.Deferred || c.Permission != nil {
		t.Errorf("defaults = %+v", c)
	}
	if c.ConcurrencySafe == nil || c.ConcurrencySafe(json.RawMessage(`{}`)) {
		t.Error("ConcurrencySafe must be non-nil and false by default")
	}
	if c.Summary != "Bare tool." {
		t.Errorf("summary = %q", c.Summary)
	}
}

func TestCapsSummarizer(t *testing.T) {
	long := strings.Repeat("x", 150)
	tests := []struct {
		name, own, want string
	}{
		{"own summary wins", "Own words.", "Own words."},
		{"empty falls back", "  ", "Described."},
		{"own summary is cut", long, strings.Repeat("x", 99) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Caps(summaryTool{bareTool{"s", "Described. More."}, tt.own}).Summary
			if got != tt.want {
				t.Errorf("summary = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDefaultSummary(t *testing.T) {
	exactly99 := strings.Repeat("a", 99)
	tests := []struct {
		name, desc, want string
	}{
		{"first sentence keeps its period", "Reads a file. Then other things.", "Reads a file."},
		{"newline ends the sentence", "Reads a file\nwith options. More.", "Reads a file"},
		{"newline before period", "Line one\nLine two. Three.", "Line one"},
		{"no sentence end", "Reads a file", "Reads a file"},
		{"trailing period only", "Reads a file.", "Reads a file."},
		{"version numbers are not sentence ends", "Uses v1.2 of the API. More.", "Uses v1.2 of the API."},
		{"surrounding space", "  \n Padded. Rest.", "Padded."},
		{"empty", "", ""},
		{"100 runes with the period are kept", exactly99 + ". Next.", exactly99 + "."},
		{"101 runes with the period are cut", exactly99 + "a. Next.", exactly99 + "…"},
		{"101 runes is cut to 100 with ellipsis", strings.Repeat("b", 101), strings.Repeat("b", 99) + "…"},
		{"rune-safe cut", strings.Repeat("é", 120), strings.Repeat("é", 99) + "…"},
		{"space before the cut is trimmed", strings.Repeat("c", 98) + "  dddd", strings.Repeat("c", 98) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DefaultSummary(tt.desc)
			if got != tt.want {
				t.Errorf("DefaultSummary = %q, want %q", got, tt.want)
			}
			if n := utf8.RuneCountInString(got); n > MaxSummaryRunes {
				t.Errorf("summary has %d runes", n)
			}
			if !utf8.ValidString(got) {
				t.Error("summary is not valid UTF-8")
			}
		})
	}
}

func TestContextReport(t *testing.T) {
	var got []string
	tc := &Context{Progress: func(s string) { got = append(got, s) }}
	tc.Report("one")
	(&Context{}).Report("dropped")
	(*Context)(nil).Report("dropped")
	if len(got) != 1 || got[0] != "one" {
		t.Errorf("reports = %v", got)
	}
}
