package record

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/migrations"
	"github.com/astroresearch/astroresearch/research/literature"
	"github.com/astroresearch/astroresearch/research/rag"
	"github.com/astroresearch/astroresearch/store"
)

// session is a stored research session: one question, a literature
// search, a library search, a paper downloaded and read, a failed call and
// an answer citing a passage and an arXiv id.
type session struct {
	st       *store.Store
	user     int64
	id       string
	paper    int64 // library paper read and cited
	other    int64 // library paper cited by arXiv id
	searched time.Time
}

func newSession(t *testing.T) session {
	t.Helper()
	ctx := context.Background()
	clock := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "astro.db"), store.Options{Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Migrate(ctx, migrations.FS); err != nil {
		t.Fatal(err)
	}
	u, err := st.CreateUser(ctx, "ana", "x", store.RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	year := 2024
	ax1, bib2, ax2 := "2401.01234", "2019ApJ...875L...1E", "1906.11238"
	p1, _, err := st.UpsertPaper(ctx, store.Paper{Title: "Cold gas in ultra-faint dwarf galaxies at $z\\sim6$", Authors: []string{"Fernández, Maria J.", "Nowak, Tomasz"},
		Year: &year, ArxivID: &ax1, Journal: "The Astrophysical Journal"})
	if err != nil {
		t.Fatal(err)
	}
	y2 := 2019
	p2, _, err := st.UpsertPaper(ctx, store.Paper{Title: "First M87 Event Horizon Telescope Results. I. The Shadow of the Supermassive Black Hole",
		Authors: []string{"Event Horizon Telescope Collaboration"}, Year: &y2, Bibcode: &bib2, ArxivID: &ax2, Journal: "The Astrophysical Journal Letters"})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := st.CreateAgentSession(ctx, u.ID, "Gas in dwarfs & the EHT")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.BeginAgentTurn(ctx, sess.ID, "qwen-max", ""); err != nil {
		t.Fatal(err)
	}
	question := "How much cold gas do ultra-faint dwarfs hold at z~6?"
	if err := st.AppendAgentMessages(ctx, []*store.AgentMessage{{SessionID: sess.ID, Turn: 1, AgentName: agent.LeadAgent, Role: "user", Content: question}}); err != nil {
		t.Fatal(err)
	}
	found := []literature.Paper{{Title: "Cold gas in ultra-faint dwarf galaxies", ArxivID: ax1}, {Title: "Old dwarf paper", Bibcode: "2010ApJ...700....1A"}}
	ans := rag.Answer{Passages: []rag.Hit{{Passage: rag.Passage{ID: 31, PaperID: p1.ID, SectionPath: "4 Results > 4.2 Gas masses",
		Text: "The stack yields a mean cold gas mass of 10^8 solar masses. Further text."}, Title: p1.Title}}}
	link := fmt.Sprintf("/library/%d/read?passage=31#passage-31", p1.ID)
	events := []struct {
		kind agent.Kind
		data any
	}{
		{agent.KindThought, agent.TextData{Text: "Search first."}},
		{agent.KindToolCall, agent.ToolCallData{ID: "c1", Name: "search_papers", Arguments: `{"query":"ultra-faint dwarf cold gas","rows":5}`, Step: 1}},
		{agent.KindToolResult, agent.ToolResultData{ToolCallID: "c1", Name: "search_papers", Output: "2 papers",
			Metadata: map[string]any{"papers": found, "notes": []string{"ADS: no ADS_API_TOKEN is set, so only arXiv was searched"}}, Step: 1}},
		{agent.KindToolCall, agent.ToolCallData{ID: "c2", Name: "download_paper", Arguments: `{"id":"2401.01234"}`, Step: 2}},
		{agent.KindToolResult, agent.ToolResultData{ToolCallID: "c2", Name: "download_paper", Output: "ok", Metadata: map[string]any{"paper_id": p1.ID}, Step: 2}},
		{agent.KindToolCall, agent.ToolCallData{ID: "c3", Name: "rag_search", Arguments: `{"query":"cold gas mass"}`, Step: 2}},
		{agent.KindToolResult, agent.ToolResultData{ToolCallID: "c3", Name: "rag_search", Output: "...", Metadata: map[string]any{"answer": ans}, Step: 2}},
		{agent.KindToolCall, agent.ToolCallData{ID: "c4", Name: "get_paper_content", Arguments: `{"id":"#1"}`, Step: 3}},
		{agent.KindToolResult, agent.ToolResultData{ToolCallID: "c4", Name: "get_paper_content", Output: "...", Metadata: map[string]any{"paper_id": p1.ID}, Step: 3}},
		{agent.KindToolCall, agent.ToolCallData{ID: "c5", Name: "parse_paper", Arguments: `{"id":"9999.99999"}`, Step: 3}},
		{agent.KindToolResult, agent.ToolResultData{ToolCallID: "c5", Name: "parse_paper", Output: "No such paper: 9999.99999\nmore", IsError: true, Status: "error", Step: 3}},
		{agent.KindUsage, agent.UsageData{Model: "qwen-max", PromptTokens: 1200, CompletionTokens: 300, Step: 3}},
		{agent.KindDone, agent.DoneData{Reason: "answer", Steps: 3, Answer: "Stacking gives about 10^8 solar masses of cold gas ([passage](" + link +
			")). For comparison, see arXiv:1906.11238 & 50% of {braces}_x."}},
	}
	for i, e := range events {
		data, _ := json.Marshal(e.data)
		if err := st.AppendAgentEvent(ctx, &store.AgentEvent{SessionID: sess.ID, Seq: int64(i + 1), Turn: 1, Agent: agent.LeadAgent, Kind: string(e.kind), Data: string(data)}); err != nil {
			t.Fatal(err)
		}
	}
	return session{st: st, user: u.ID, id: sess.ID, paper: p1.ID, other: p2.ID, searched: clock}
}

func build(t *testing.T, s session) (Record, []store.AgentEvent) {
	t.Helper()
	rec, events, err := Build(context.Background(), s.st, nil, s.user, s.id, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	return rec, events
}

func TestBuildFromEvents(t *testing.T) {
	s := newSession(t)
	rec, events := build(t, s)
	if len(events) != 13 || len(rec.Turns) != 1 {
		t.Fatalf("%d events, %d turns", len(events), len(rec.Turns))
	}
	turn := rec.Turns[0]
	if turn.Question == "" || turn.Models[0] != "qwen-max" || turn.Settings.Steps != 3 || turn.Settings.PromptTokens != 1200 ||
		!turn.Settings.Thinking || turn.Settings.Coordinator {
		t.Fatalf("turn = %+v", turn)
	}
	if len(turn.Searches) != 2 || turn.Searches[0].Source != "arXiv" || turn.Searches[0].Results != 2 || turn.Searches[0].Query != "ultra-faint dwarf cold gas" ||
		turn.Searches[1].Source != "library" || turn.Searches[1].Results != 1 {
		t.Fatalf("searches = %+v", turn.Searches)
	}
	if len(turn.Papers) != 2 || turn.Papers[0].Action != "downloaded" || turn.Papers[1].Action != "read" || turn.Papers[0].ArxivID != "2401.01234" {
		t.Fatalf("papers = %+v", turn.Papers)
	}
	if len(turn.Errors) != 1 || turn.Errors[0].Tool != "parse_paper" || turn.Errors[0].Message != "No such paper: 9999.99999" {
		t.Fatalf("errors = %+v", turn.Errors)
	}
	if len(turn.Citations) != 2 {
		t.Fatalf("citations = %+v", turn.Citations)
	}
	pc, ic := turn.Citations[0], turn.Citations[1]
	if pc.PaperID != s.paper || pc.Section != "4 Results > 4.2 Gas masses" || pc.Quote != "The stack yields a mean cold gas mass of 10^8 solar masses." ||
		!strings.HasPrefix(pc.Sentence, "Stacking gives about 10^8 solar masses") || pc.Key != "Fernandez2024cold" {
		t.Fatalf("passage citation = %+v", pc)
	}
	if ic.PaperID != s.other || ic.Identifier != "1906.11238" || ic.Key == "" {
		t.Fatalf("identifier citation = %+v", ic)
	}
	if len(rec.Works) != 2 || !rec.Works[0].Read || !rec.Works[0].Cited || rec.Works[1].Read || !rec.Works[1].Cited {
		t.Fatalf("works = %+v", rec.Works)
	}
	for _, w := range rec.Works {
		if !strings.Contains(rec.BibTeX(), "{"+w.Key+",") {
			t.Errorf("work key %s is not in the BibTeX:\n%s", w.Key, rec.BibTeX())
		}
	}
	md := rec.Markdown()
	for _, want := range []string{"# Research record: Gas in dwarfs & the EHT", "> How much cold gas", "Model: qwen-max", "Thinking: on; coordinator mode: off",
		`arXiv: "ultra-faint dwarf cold gas"`, "downloaded: Cold gas in ultra-faint", "section “4 Results > 4.2 Gas masses”",
		"parse_paper (error", "`Fernandez2024cold`"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	if _, _, err := Build(context.Background(), s.st, nil, s.user+1, s.id, time.Now()); err == nil {
		t.Fatal("another user's session was recorded")
	}
}

func TestTeXCompilesWithAASTeX(t *testing.T) {
	s := newSession(t)
	rec, _ := build(t, s)
	doc := rec.TeX()
	// Structure, checked everywhere.
	for _, want := range []string{`\documentclass{aastex631}`, `\begin{document}`, `\appendix`, `\citet{Fernandez2024cold}`,
		`\bibliography{record}`, `\end{document}`, `Gas in dwarfs \& the EHT`, `50\% of \{braces\}\_x`} {
		if !strings.Contains(doc, want) {
			t.Errorf("TeX lacks %s", want)
		}
	}
	if strings.Count(doc, `\begin{itemize}`) != strings.Count(doc, `\end{itemize}`) {
		t.Fatal("unbalanced itemize")
	}
	pdflatex, err := exec.LookPath("pdflatex")
	if err != nil {
		t.Skip("pdflatex is not installed (Debian: texlive-latex-base texlive-publishers); structure checked only")
	}
	if out, err := exec.Command("kpsewhich", "aastex631.cls").Output(); err != nil || len(bytes.TrimSpace(out)) == 0 {
		t.Skip("the AASTeX class is not installed (Debian: texlive-publishers); structure checked only")
	}
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("record.tex", doc)
	write(BibFile+".bib", rec.BibTeX())
	run := func(name string, args ...string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s failed: %v\n%s", name, err, out)
		}
		return string(out)
	}
	run(pdflatex, "-interaction=nonstopmode", "-halt-on-error", "record.tex")
	run("bibtex", "record")
	run(pdflatex, "-interaction=nonstopmode", "-halt-on-error", "record.tex")
	log := run(pdflatex, "-interaction=nonstopmode", "-halt-on-error", "record.tex")
	if strings.Contains(log, "undefined") {
		t.Fatalf("undefined citations or references:\n%s", log)
	}
	if _, err := os.Stat(filepath.Join(dir, "record.pdf")); err != nil {
		t.Fatal(err)
	}
}

func TestZipHoldsRecordBibAndEvents(t *testing.T) {
	s := newSession(t)
	rec, events := build(t, s)
	var buf bytes.Buffer
	if err := WriteZip(&buf, rec, events); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range zr.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		files[f.Name] = string(b)
	}
	for _, name := range []string{"record.md", "record.tex", "record.bib", "record.json", "events.jsonl"} {
		if files[name] == "" {
			t.Errorf("zip lacks %s", name)
		}
	}
	if n := strings.Count(files["events.jsonl"], "\n"); n != 13 {
		t.Fatalf("events.jsonl has %d lines", n)
	}
	if !strings.Contains(files["record.bib"], "@article{Fernandez2024cold,") {
		t.Fatalf("record.bib:\n%s", files["record.bib"])
	}
}

// fakeSearcher answers every rerun with the same papers.
type fakeSearcher struct {
	papers []literature.Paper
	asked  []literature.Query
}

func (f *fakeSearcher) Search(_ context.Context, q literature.Query) (literature.Result, error) {
	f.asked = append(f.asked, q)
	return literature.Result{Papers: f.papers}, nil
}

func TestNewSince(t *testing.T) {
	s := newSession(t)
	rec, _ := build(t, s)
	fake := &fakeSearcher{papers: []literature.Paper{
		{Title: "Brand new", ArxivID: "2611.00001", Date: "2026-11-20"},
		{Title: "Seen in the session", ArxivID: "2401.01234", Date: "2026-11-21"},
		{Title: "Older but unseen", ArxivID: "2301.00001", Date: "2023-01-05"},
		{Title: "Same month, ADS dates by month", Bibcode: "2026ApJ...999....1Z", Date: "2026-11-00"},
		{Title: "Already in the library", ArxivID: "1906.11238", Date: "2026-11-03"},
	}}
	reruns, err := NewSince(context.Background(), rec, fake, s.st)
	if err != nil {
		t.Fatal(err)
	}
	if len(fake.asked) != 1 || fake.asked[0].Sort != literature.ByDate || fake.asked[0].Text != "ultra-faint dwarf cold gas" {
		t.Fatalf("asked = %+v (the library search must not be rerun)", fake.asked)
	}
	if len(reruns) != 1 || reruns[0].RanAt != "2026-11-02" {
		t.Fatalf("reruns = %+v", reruns)
	}
	var titles []string
	for _, p := range reruns[0].New {
		titles = append(titles, p.Title)
		if p.Title == "Already in the library" && p.LibraryID != s.other {
			t.Errorf("library id = %d, want %d", p.LibraryID, s.other)
		}
	}
	if strings.Join(titles, "|") != "Brand new|Same month, ADS dates by month|Already in the library" {
		t.Fatalf("new = %q", titles)
	}
}

func TestLateEventGoesToItsTurn(t *testing.T) {
	s := newSession(t)
	ctx := context.Background()
	add := func(seq int64, turn int, kind agent.Kind, data any) {
		b, _ := json.Marshal(data)
		if err := s.st.AppendAgentEvent(ctx, &store.AgentEvent{SessionID: s.id, Seq: seq, Turn: turn, Agent: agent.LeadAgent, Kind: string(kind), Data: string(b)}); err != nil {
			t.Fatal(err)
		}
	}
	add(14, 2, agent.KindUsage, agent.UsageData{Model: "qwen-plus"})
	add(15, 1, agent.KindToolResult, agent.ToolResultData{ToolCallID: "bg", Name: "bg_task_check", Output: "task failed", IsError: true})
	add(16, 2, agent.KindDone, agent.DoneData{Reason: "answer", Answer: "Second."})
	rec, _ := build(t, s)
	if len(rec.Turns) != 2 || rec.Turns[0].N != 1 || rec.Turns[1].N != 2 {
		t.Fatalf("turns = %+v", rec.Turns)
	}
	if len(rec.Turns[0].Errors) != 2 || rec.Turns[0].Errors[1].Tool != "bg_task_check" || rec.Turns[1].Answer != "Second." ||
		rec.Turns[1].Models[0] != "qwen-plus" {
		t.Fatalf("turn 1 errors %+v, turn 2 %+v", rec.Turns[0].Errors, rec.Turns[1])
	}
}
