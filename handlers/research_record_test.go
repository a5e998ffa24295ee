package handlers

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/research/literature"
	"github.com/astroresearch/astroresearch/store"
)

// pastSession stores a finished session of the admin as the runtime would
// have: a question, a literature search that ran in December 2023 (so the
// fixture's January 2024 paper appeared since), a failed download and an
// answer naming an arXiv id; with read, it also read library paper read
// (a library id). It returns the session id.
func pastSession(t *testing.T, a *testApp, c *client, read int64) string {
	t.Helper()
	ctx := context.Background()
	res := c.postJSON("/api/sessions", `{"title":"Dwarf gas"}`)
	expectStatus(t, "create session", res, http.StatusCreated)
	var created struct {
		ID string `json:"id"`
	}
	res.json(t, &created)
	if _, err := a.store.BeginAgentTurn(ctx, created.ID, "test-model", ""); err != nil {
		t.Fatal(err)
	}
	if err := a.store.AppendAgentMessages(ctx, []*store.AgentMessage{{SessionID: created.ID, Turn: 1, AgentName: agent.LeadAgent,
		Role: "user", Content: "Is there cold gas in ultra-faint dwarfs?"}}); err != nil {
		t.Fatal(err)
	}
	back := a.clock.Now()
	a.clock.Advance(-365 * 24 * time.Hour * 3) // 2023-12
	defer a.clock.Advance(back.Sub(a.clock.Now()))
	papers := []literature.Paper{{Title: "Old dwarf paper", ArxivID: "astro-ph/0601001"}}
	for i, e := range []struct {
		kind agent.Kind
		data any
	}{
		{agent.KindToolCall, agent.ToolCallData{ID: "c1", Name: "search_papers", Arguments: `{"query":"dwarf cold gas"}`, Step: 1}},
		{agent.KindToolResult, agent.ToolResultData{ToolCallID: "c1", Name: "search_papers", Output: "1 paper", Metadata: map[string]any{"papers": papers}, Step: 1}},
		{agent.KindToolCall, agent.ToolCallData{ID: "c2", Name: "download_paper", Arguments: `{"id":"x"}`, Step: 2}},
		{agent.KindToolResult, agent.ToolResultData{ToolCallID: "c2", Name: "download_paper", Output: "No PDF could be found", IsError: true, Status: "error", Step: 2}},
		{agent.KindUsage, agent.UsageData{Model: "test-model", PromptTokens: 10, CompletionTokens: 5, Step: 2}},
		{agent.KindToolCall, agent.ToolCallData{ID: "c3", Name: "get_paper_content", Arguments: `{"id":"#1"}`, Step: 2}},
		{agent.KindToolResult, agent.ToolResultData{ToolCallID: "c3", Name: "get_paper_content", Output: "...", Metadata: map[string]any{"paper_id": read}, Step: 2}},
		{agent.KindDone, agent.DoneData{Reason: "answer", Steps: 2, Answer: "Little is known; see astro-ph/0601001."}},
	} {
		data, _ := json.Marshal(e.data)
		if err := a.store.AppendAgentEvent(ctx, &store.AgentEvent{SessionID: created.ID, Seq: int64(i + 1), Turn: 1, Agent: agent.LeadAgent,
			Kind: string(e.kind), Data: string(data)}); err != nil {
			t.Fatal(err)
		}
	}
	return created.ID
}

func TestSessionRecordFormats(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	imp := c.postJSON("/api/papers/import", `{"ref":"2401.01234"}`)
	expectStatus(t, "import", imp, http.StatusCreated)
	var imported struct {
		Paper struct {
			ID int64 `json:"id"`
		} `json:"paper"`
	}
	imp.json(t, &imported)
	id := pastSession(t, a, c, imported.Paper.ID)
	base := "/api/sessions/" + id + "/record"

	res := c.get(base + "?format=json")
	expectStatus(t, "json", res, http.StatusOK)
	var rec struct {
		Turns []struct {
			Question string   `json:"question"`
			Models   []string `json:"models"`
			Searches []struct {
				Query   string `json:"query"`
				Results int    `json:"results"`
			} `json:"searches"`
			Errors []struct {
				Tool string `json:"tool"`
			} `json:"tool_errors"`
			Answer    string `json:"answer"`
			Citations []struct {
				Identifier string `json:"identifier"`
			} `json:"citations"`
		} `json:"turns"`
	}
	res.json(t, &rec)
	if len(rec.Turns) != 1 || rec.Turns[0].Question == "" || rec.Turns[0].Models[0] != "test-model" || rec.Turns[0].Searches[0].Results != 1 ||
		rec.Turns[0].Errors[0].Tool != "download_paper" || rec.Turns[0].Citations[0].Identifier != "astro-ph/0601001" {
		t.Fatalf("record = %s", res.body)
	}
	res = c.get(base + "?format=md")
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/markdown") || !strings.Contains(res.body, "# Research record: Dwarf gas") {
		t.Fatalf("md: %s\n%s", res.Header.Get("Content-Type"), res.body)
	}
	res = c.get(base + "?format=tex")
	if !strings.Contains(res.body, `\documentclass{aastex631}`) || !strings.Contains(res.Header.Get("Content-Disposition"), ".tex") {
		t.Fatalf("tex:\n%s", res.body)
	}
	res = c.get(base + "?format=zip")
	expectStatus(t, "zip", res, http.StatusOK)
	zr, err := zip.NewReader(bytes.NewReader([]byte(res.body)), int64(len(res.body)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	if strings.Join(names, ",") != "record.md,record.tex,record.bib,record.json,events.jsonl" {
		t.Fatalf("zip holds %v", names)
	}
	// record.bib is the library's own export of the works, keys and all.
	rc, err := zr.File[2].Open()
	if err != nil {
		t.Fatal(err)
	}
	bib, _ := io.ReadAll(rc)
	rc.Close()
	export := c.get(fmt.Sprintf("/api/papers/bibtex?ids=%d", imported.Paper.ID))
	if string(bib) != export.body || !strings.Contains(string(bib), "Fernandez2024cold") {
		t.Fatalf("record.bib:\n%s\nlibrary export:\n%s", bib, export.body)
	}
	if tex := c.get(base + "?format=tex"); !strings.Contains(tex.body, `\citet{Fernandez2024cold}`) {
		t.Fatalf("the TeX does not cite the export's key:\n%s", tex.body)
	}
	expectAPIError(t, "bad format", c.get(base+"?format=pdf"), http.StatusBadRequest, "invalid_format")
	other := a.member("mia", "correct horse battery")
	expectStatus(t, "another user's record", other.get(base), http.StatusNotFound)
	for _, path := range []string{"/research/" + id + "/record", "/research/" + id + "/record/new", "/api/sessions/" + id + "/new"} {
		expectStatus(t, "another user's "+path, other.get(path), http.StatusNotFound)
	}
	expectStatus(t, "another user's add", other.postForm("/research/"+id+"/record/add", url.Values{"ref": {"2401.01234"}}), http.StatusNotFound)

	page := c.get("/research/" + id + "/record")
	expectStatus(t, "page", page, http.StatusOK)
	for _, want := range []string{`data-testid="record"`, "Research record: Dwarf gas", "format=zip", "/research/" + id + "/record/new"} {
		if !strings.Contains(page.body, want) {
			t.Errorf("record page lacks %s", want)
		}
	}
	if session := c.get("/research/" + id); !strings.Contains(session.body, `data-testid="record-link"`) {
		t.Error("the session page does not link to its record")
	}
}

func TestSessionWhatIsNewSince(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	id := pastSession(t, a, c, 0)
	res := c.get("/api/sessions/" + id + "/new")
	expectStatus(t, "new", res, http.StatusOK)
	var out struct {
		Searches []struct {
			Query string `json:"query"`
			RanAt string `json:"ran_at"`
			New   []struct {
				ArxivID string `json:"arxiv_id"`
			} `json:"new"`
		} `json:"searches"`
	}
	res.json(t, &out)
	// The fixture's 2401.01234 (January 2024) is new; astro-ph/0601001 was found then.
	if len(out.Searches) != 1 || out.Searches[0].Query != "dwarf cold gas" || len(out.Searches[0].New) != 1 || out.Searches[0].New[0].ArxivID != "2401.01234" {
		t.Fatalf("new since = %s", res.body)
	}
	page := c.get("/research/" + id + "/record/new")
	expectStatus(t, "new page", page, http.StatusOK)
	if !strings.Contains(page.body, `data-testid="new-add"`) || !strings.Contains(page.body, `value="2401.01234"`) {
		t.Fatalf("new page:\n%s", page.body)
	}
	res = c.postForm("/research/"+id+"/record/add", url.Values{"ref": {"2401.01234"}})
	expectStatus(t, "add", res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/research/"+id+"/record/new" {
		t.Fatalf("redirect to %q", loc)
	}
	if _, err := a.store.PaperByIdentifier(context.Background(), store.PaperIDs{ArxivID: "2401.01234"}); err != nil {
		t.Fatalf("paper not added: %v", err)
	}
	page = c.get("/research/" + id + "/record/new")
	if strings.Contains(page.body, `data-testid="new-add"`) || !strings.Contains(page.body, "In your library") {
		t.Fatalf("after adding, the page still offers to add:\n%s", page.body)
	}
}
