package skills

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/tools"
)

func TestParse(t *testing.T) {
	s, err := Parse("---\nname: demo\ndescription: \"A demo: skill\"\nkeywords: [Alpha, \"beta gamma\"]\nglobs:\n  - \"*.bib\"\n  - notes/*.md\n---\n\nDo things.\n")
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "demo" || s.Description != "A demo: skill" || strings.Join(s.Keywords, "|") != "alpha|beta gamma" ||
		strings.Join(s.Globs, "|") != "*.bib|notes/*.md" || s.Body != "Do things." {
		t.Fatalf("%+v", s)
	}
	nested, err := Parse("---\nname: n\ndescription: d\nconditions:\n  keywords: [x]\n  globs: [\"*.fits\"]\n---\nbody")
	if err != nil || len(nested.Keywords) != 1 || len(nested.Globs) != 1 {
		t.Fatalf("nested conditions: %+v %v", nested, err)
	}
	for name, doc := range map[string]string{
		"no front matter": "name: x\n",
		"unclosed":        "---\nname: x\n",
		"bad name":        "---\nname: Bad Name\ndescription: d\n---\nbody",
		"no description":  "---\nname: x\n---\nbody",
		"no body":         "---\nname: x\ndescription: d\n---\n",
		"bad line":        "---\nname x\n---\nbody",
		"open list":       "---\nname: x\ndescription: d\nkeywords: [a\n---\nbody",
	} {
		if _, err := Parse(doc); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("---\nname: demo\ndescription: d\nkeywords: [a, b]\n---\nbody")
	f.Add("---\nconditions:\n  - x\n---\n")
	f.Fuzz(func(t *testing.T, doc string) {
		s, err := Parse(doc)
		if err == nil && (!nameRE.MatchString(s.Name) || s.Body == "") {
			t.Fatalf("accepted an invalid skill: %+v", s)
		}
	})
}

func newLib(t *testing.T) *Library {
	t.Helper()
	l, err := NewLibrary(filepath.Join(t.TempDir(), "skills"), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestInstallListAndHotReload(t *testing.T) {
	l := newLib(t)
	ctx := context.Background()
	if n, err := l.Install(); err != nil || n != 2 {
		t.Fatalf("Install = %d, %v", n, err)
	}
	// A user's edit survives a second install.
	edited := filepath.Join(l.Dir(), "literature-review", "SKILL.md")
	os.WriteFile(edited, []byte("---\nname: literature-review\ndescription: mine\n---\nMy steps."), 0o640)
	if n, _ := l.Install(); n != 0 {
		t.Fatalf("second Install wrote %d files", n)
	}
	list, err := l.List(ctx)
	if err != nil || len(list) != 2 || list[0].Name != "compare-measurements" || list[1].Description != "mine" {
		t.Fatalf("List = %+v, %v", list, err)
	}
	// Changes on disk are picked up without a restart.
	os.WriteFile(filepath.Join(l.Dir(), "fits-header.md"), []byte("---\nname: fits-header\ndescription: Read FITS headers.\n---\nUse astropy."), 0o640)
	os.WriteFile(filepath.Join(l.Dir(), "broken.md"), []byte("no front matter"), 0o640)
	later := time.Now().Add(2 * time.Second)
	os.WriteFile(edited, []byte("---\nname: literature-review\ndescription: mine, v2\n---\nMy steps."), 0o640)
	os.Chtimes(edited, later, later)
	list, _ = l.List(ctx)
	if len(list) != 3 || list[2].Description != "mine, v2" {
		t.Fatalf("after edits: %+v", list)
	}
	os.RemoveAll(filepath.Join(l.Dir(), "compare-measurements"))
	if list, _ = l.List(ctx); len(list) != 2 {
		t.Fatalf("after delete: %+v", list)
	}
}

func TestActiveConditions(t *testing.T) {
	l := newLib(t)
	l.Install()
	os.WriteFile(filepath.Join(l.Dir(), "always.md"), []byte("---\nname: always\ndescription: d\n---\nbody"), 0o640)
	os.WriteFile(filepath.Join(l.Dir(), "bib.md"), []byte("---\nname: bib\ndescription: d\nglobs: [\"*.bib\"]\n---\nbody"), 0o640)
	ctx := context.Background()
	names := func(list []Skill) string {
		var n []string
		for _, s := range list {
			n = append(n, s.Name)
		}
		return strings.Join(n, ",")
	}
	got, _ := l.Active(ctx, "How far is M87?", nil)
	if names(got) != "always" {
		t.Fatalf("plain question: %s", names(got))
	}
	got, _ = l.Active(ctx, "What is known about the Perseus cluster?", []string{"refs/paper.bib"})
	if names(got) != "always,bib,literature-review" {
		t.Fatalf("keyword + glob: %s", names(got))
	}
}

func TestLoadSkillTool(t *testing.T) {
	l := newLib(t)
	l.Install()
	tool := LoadSkill(l)
	run := func(args string) tools.Result {
		t.Helper()
		if err := tools.Validate(tool.Parameters(), json.RawMessage(args)); err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		res, err := tool.Execute(context.Background(), &tools.Context{}, json.RawMessage(args))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := run(`{"name":"compare-measurements"}`)
	if res.IsError || !strings.Contains(res.Output, "weighted mean") {
		t.Fatalf("inline: %+v", res)
	}
	if res := run(`{"name":"nope"}`); !res.IsError || !strings.Contains(res.Output, "compare-measurements, literature-review") {
		t.Fatalf("unknown: %+v", res)
	}
	if res := run(`{"name":"literature-review","mode":"fork","task":"x"}`); !res.IsError || !strings.Contains(res.Output, "not available here") {
		t.Fatalf("fork without a sub-agent runner: %+v", res)
	}
	var gotTask, gotGuide string
	tc := &tools.Context{Subagent: func(ctx context.Context, task, guide string) (string, error) {
		gotTask, gotGuide = task, guide
		return "Conclusion: three reviews found", nil
	}}
	res, err := tool.Execute(context.Background(), tc, json.RawMessage(`{"name":"literature-review","mode":"fork","task":"review M87 jets"}`))
	if err != nil || res.IsError || !strings.Contains(res.Output, "three reviews") {
		t.Fatalf("fork: %+v %v", res, err)
	}
	if gotTask != "review M87 jets" || !strings.Contains(gotGuide, "literature-review") {
		t.Fatalf("the sub-agent got task %q, guide %q", gotTask, gotGuide)
	}
	res, err = tool.Execute(context.Background(), tc, json.RawMessage(`{"name":"literature-review","mode":"fork"}`))
	if err != nil || !res.IsError || !strings.Contains(res.Output, "needs a task") {
		t.Fatalf("fork without a task: %+v %v", res, err)
	}
}
