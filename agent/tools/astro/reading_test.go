package astro

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/migrations"
	"github.com/astroresearch/astroresearch/research/parse"
	"github.com/astroresearch/astroresearch/store"
)

type fakeParser struct{ st *store.Store }

func (f fakeParser) Parse(ctx context.Context, id int64, progress parse.Progress) (store.PaperContent, error) {
	progress("fetching arXiv HTML")
	md := "# Title\n\n## 1 Introduction\n\n" + strings.Repeat("Dust is everywhere. ", 100) + "\n\n## 2 Method\n\nWe fit the attenuation law.\n"
	if err := f.st.SavePaperContent(ctx, store.PaperContent{PaperID: id, Markdown: md, Engine: "arxiv-html"}); err != nil {
		return store.PaperContent{}, err
	}
	return f.st.PaperContent(ctx, id)
}

// TestReadingTools: parse_paper parses and lists sections; get_paper_content
// gives a section, a window with a continuation hint, and clear errors;
// save_note stores a highlight with its context for this user.
func TestReadingTools(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "a.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Migrate(ctx, migrations.FS); err != nil {
		t.Fatal(err)
	}
	u, err := st.CreateFirstUser(ctx, "vera", "h")
	if err != nil {
		t.Fatal(err)
	}
	arx := "2401.01234"
	p, _, _ := st.UpsertPaper(ctx, store.Paper{Title: "Dust", ArxivID: &arx})
	var reports []string
	tc := &tools.Context{UserID: u.ID, Progress: func(s string) { reports = append(reports, s) }}
	run := func(tool tools.Tool, args any) tools.Result {
		raw, _ := json.Marshal(args)
		res, err := tool.Execute(ctx, tc, raw)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	content := GetPaperContent(st)
	if res := run(content, ContentArgs{ID: arx}); !res.IsError || !strings.Contains(res.Output, "parse_paper") {
		t.Fatalf("unparsed: %+v", res)
	}
	res := run(ParsePaper(nil, st, fakeParser{st}), ParseArgs{ID: "arXiv:" + arx})
	if res.IsError || !strings.Contains(res.Output, "arxiv-html engine") || !strings.Contains(res.Output, "1 Introduction") || len(reports) != 1 {
		t.Fatalf("parse: %+v %q", res, reports)
	}
	if res := run(content, ContentArgs{ID: "#" + itoa(p.ID), Section: "method"}); res.IsError || res.Output != "## 2 Method\n\nWe fit the attenuation law.\n" {
		t.Fatalf("section: %q", res.Output)
	}
	res = run(content, ContentArgs{ID: arx, Limit: 500})
	if !strings.HasPrefix(res.Output, "# Title") || !strings.Contains(res.Output, "Continue with offset=500") {
		t.Fatalf("window: %q", res.Output)
	}
	if res := run(content, ContentArgs{ID: arx, Section: "results"}); !strings.Contains(res.Output, "No section \"results\". Sections: Title; 1 Introduction; 2 Method") {
		t.Fatalf("missing section: %q", res.Output)
	}
	if res := run(SaveNote(st, st), NoteArgs{ID: arx, Quote: "We fit the attenuation law."}); res.IsError {
		t.Fatalf("save_note: %+v", res)
	}
	notes, _ := st.PaperNotes(ctx, u.ID, p.ID)
	if len(notes) != 1 || notes[0].Kind != "highlight" || !strings.HasSuffix(notes[0].Prefix, "## 2 Method\n\n") {
		t.Fatalf("notes %+v", notes)
	}
	c := tools.Caps(ParsePaper(nil, st, fakeParser{st}))
	if !c.Deferred || !c.SiblingAbort || !tools.Caps(content).ReadOnly {
		t.Fatalf("capabilities %+v", c)
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

// TestPaperContentBounds: get_paper_content's offset and limit bounds are
// in its schema, so the runtime refuses a window outside them before the
// tool runs (for the agent and for MCP clients alike).
func TestPaperContentBounds(t *testing.T) {
	schema, err := tools.SchemaFor(GetPaperContent(nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args string
		ok   bool
	}{
		{`{"id":"#1"}`, true},
		{`{"id":"#1","limit":500,"offset":0}`, true},
		{`{"id":"#1","limit":40000,"offset":123456}`, true},
		{`{"id":"#1","limit":499}`, false},
		{`{"id":"#1","limit":40001}`, false},
		{`{"id":"#1","offset":-1}`, false},
	} {
		if err := schema.Validate(json.RawMessage(tt.args)); (err == nil) != tt.ok {
			t.Errorf("%s: err = %v, want ok = %v", tt.args, err, tt.ok)
		}
	}
}
