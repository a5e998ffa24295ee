package record

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/research/literature"
	"github.com/astroresearch/astroresearch/research/rag"
	"github.com/astroresearch/astroresearch/store"
)

// eventPage is how many events are read per query.
const eventPage = 2000

// Build reads session id of userID and its events and makes the record;
// it also returns the events (the raw log of the zip). bib exports BibTeX
// for the works (nil: generated locally), exactly as the library's export
// does. It returns an error wrapping store.ErrNotFound for a session that
// is not the user's.
func Build(ctx context.Context, st *store.Store, bib library.Exporter, userID int64, id string, now time.Time) (Record, []store.AgentEvent, error) {
	sess, err := st.AgentSession(ctx, userID, id)
	if err != nil {
		return Record{}, nil, err
	}
	events, err := allEvents(ctx, st, id)
	if err != nil {
		return Record{}, nil, err
	}
	msgs, err := st.AgentMessages(ctx, id, agent.LeadAgent)
	if err != nil {
		return Record{}, nil, err
	}
	questions := map[int]string{}
	for _, m := range msgs {
		if _, seen := questions[m.Turn]; !seen && m.Role == "user" {
			questions[m.Turn] = m.Content
		}
	}
	b := builder{calls: map[string]call{}, questions: questions}
	for _, e := range events {
		b.apply(e)
	}
	rec := Record{SessionID: sess.ID, Title: sess.Title, Created: sess.CreatedAt, Generated: now.UTC(), Turns: b.turns}
	if err := rec.resolve(ctx, st, bib); err != nil {
		return Record{}, nil, err
	}
	return rec, events, nil
}

// allEvents reads a session's whole event log in order.
func allEvents(ctx context.Context, st *store.Store, id string) ([]store.AgentEvent, error) {
	var out []store.AgentEvent
	after := int64(0)
	for {
		page, err := st.AgentEventsAfter(ctx, id, after, eventPage)
		if err != nil {
			return nil, err
		}
		out = append(out, page...)
		if len(page) < eventPage {
			return out, nil
		}
		after = page[len(page)-1].Seq
	}
}

// call is a tool call waiting for its result.
type call struct {
	name, args, agent string
	at                time.Time
}

// builder turns events into turns, in order.
type builder struct {
	turns     []Turn
	calls     map[string]call
	questions map[int]string
}

// turn returns the record of turn n, opening it on its first event. An
// event of an earlier turn that arrives late (a background task's report)
// goes to that turn.
func (b *builder) turn(n int, at time.Time) *Turn {
	for i := len(b.turns) - 1; i >= 0; i-- {
		if b.turns[i].N == n {
			return &b.turns[i]
		}
	}
	b.turns = append(b.turns, Turn{N: n, Question: b.questions[n], Started: at, Models: []string{},
		Searches: []Search{}, Papers: []PaperUse{}, Citations: []Citation{}, Errors: []ToolError{}, rag: map[int64]passage{}})
	slices.SortStableFunc(b.turns, func(x, y Turn) int { return x.N - y.N })
	for i := range b.turns {
		if b.turns[i].N == n {
			return &b.turns[i]
		}
	}
	return nil // not reached: turn n was just added
}

func (b *builder) apply(e store.AgentEvent) {
	if e.Turn <= 0 {
		return
	}
	t := b.turn(e.Turn, e.CreatedAt)
	if e.Agent != agent.LeadAgent && e.Agent != "" && !slices.Contains(t.Agents, e.Agent) {
		t.Agents = append(t.Agents, e.Agent)
	}
	data := []byte(e.Data)
	switch agent.Kind(e.Kind) {
	case agent.KindToolCall:
		var d agent.ToolCallData
		if json.Unmarshal(data, &d) == nil {
			b.calls[d.ID] = call{name: d.Name, args: d.Arguments, agent: e.Agent, at: e.CreatedAt}
		}
	case agent.KindToolResult:
		var d agent.ToolResultData
		if json.Unmarshal(data, &d) == nil {
			c := b.calls[d.ToolCallID]
			if c.name == "" {
				c = call{name: d.Name, agent: e.Agent, at: e.CreatedAt}
			}
			toolResult(t, c, d, e.CreatedAt)
		}
	case agent.KindThought:
		t.Settings.Thinking = true
	case agent.KindWorker:
		t.Settings.Coordinator = true
	case agent.KindUsage:
		var d agent.UsageData
		if json.Unmarshal(data, &d) == nil {
			if d.Model != "" && !slices.Contains(t.Models, d.Model) {
				t.Models = append(t.Models, d.Model)
			}
			t.Settings.ModelCalls++
			t.Settings.PromptTokens += d.PromptTokens
			t.Settings.CompletionTokens += d.CompletionTokens
		}
	case agent.KindError:
		var d agent.ErrorData
		if json.Unmarshal(data, &d) == nil {
			t.Errors = append(t.Errors, ToolError{Tool: "(model)", Status: d.Class, Message: d.Message, At: e.CreatedAt, Agent: e.Agent})
		}
	case agent.KindDone:
		var d agent.DoneData
		if e.Agent == agent.LeadAgent && json.Unmarshal(data, &d) == nil {
			t.Answer, t.Settings.EndReason, t.Settings.Steps, t.Ended = d.Answer, d.Reason, d.Steps, e.CreatedAt
		}
	}
}

// toolResult records what one tool call did.
func toolResult(t *Turn, c call, d agent.ToolResultData, at time.Time) {
	if d.IsError {
		t.Errors = append(t.Errors, ToolError{Tool: c.name, Status: d.Status, Message: clip(firstLine(d.Output), 300), At: at, Agent: c.agent})
		return
	}
	switch c.name {
	case "search_papers":
		var args struct {
			Query string `json:"query"`
			Rows  int    `json:"rows"`
			Sort  string `json:"sort"`
		}
		_ = json.Unmarshal([]byte(c.args), &args)
		var papers []literature.Paper
		var notes []string
		decodeMeta(d.Metadata, "papers", &papers)
		decodeMeta(d.Metadata, "notes", &notes)
		s := Search{Tool: c.name, Source: literatureSource(notes), Query: args.Query, Sort: args.Sort, Rows: args.Rows,
			At: c.at, Results: len(papers), Notes: notes, Agent: c.agent}
		for _, p := range papers {
			s.Found = append(s.Found, Found{Title: p.Title, ArxivID: p.ArxivID, Bibcode: p.Bibcode, DOI: p.DOI})
		}
		t.Searches = append(t.Searches, s)
	case "rag_search":
		var args struct {
			Query string `json:"query"`
		}
		_ = json.Unmarshal([]byte(c.args), &args)
		var ans rag.Answer
		decodeMeta(d.Metadata, "answer", &ans)
		for _, h := range ans.Passages {
			t.rag[h.ID] = passage{paperID: h.PaperID, title: h.Title, section: h.SectionPath, text: h.Text}
		}
		t.Searches = append(t.Searches, Search{Tool: c.name, Source: "library", Query: args.Query, At: c.at,
			Results: len(ans.Passages), Agent: c.agent})
	case "download_paper":
		t.usePaper("downloaded", metaID(d.Metadata, "paper_id"), at)
	case "parse_paper":
		t.usePaper("parsed", metaID(d.Metadata, "paper_id"), at)
	case "get_paper_content":
		t.usePaper("read", metaID(d.Metadata, "paper_id"), at)
	case "get_paper_metadata":
		var p store.Paper
		decodeMeta(d.Metadata, "paper", &p)
		if p.ID != 0 {
			t.usePaper("looked up", p.ID, at)
		}
	}
}

// usePaper notes a paper action once per paper and action.
func (t *Turn) usePaper(action string, id int64, at time.Time) {
	if id == 0 {
		return
	}
	for _, p := range t.Papers {
		if p.PaperID == id && p.Action == action {
			return
		}
	}
	t.Papers = append(t.Papers, PaperUse{Action: action, PaperID: id, At: at})
}

// literatureSource says which sources a search_papers call reached, from
// its notes ("ADS: ...", "arXiv: ..." mark a source that failed).
func literatureSource(notes []string) string {
	ads, ax := true, true
	for _, n := range notes {
		ads = ads && !strings.HasPrefix(n, "ADS:")
		ax = ax && !strings.HasPrefix(n, "arXiv:")
	}
	switch {
	case ads && ax:
		return "ADS and arXiv"
	case ads:
		return "ADS"
	case ax:
		return "arXiv"
	}
	return "none"
}

// decodeMeta decodes metadata field key into v (left unchanged when absent
// or of another shape).
func decodeMeta(md map[string]any, key string, v any) {
	raw, ok := md[key]
	if !ok {
		return
	}
	b, err := json.Marshal(raw)
	if err == nil {
		_ = json.Unmarshal(b, v)
	}
}

// metaID reads a numeric id from metadata.
func metaID(md map[string]any, key string) int64 {
	var id int64
	decodeMeta(md, key, &id)
	return id
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// errNoPaper is a paper id the library no longer has.
var errNoPaper = errors.New("paper no longer in the library")

// paperOf loads a library paper, noting a missing one.
func paperOf(ctx context.Context, st *store.Store, id int64) (store.Paper, error) {
	p, err := st.PaperByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return store.Paper{}, fmt.Errorf("record: paper %d: %w", id, errNoPaper)
	}
	return p, err
}
