package agent

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
	"github.com/astroresearch/astroresearch/agent/memory"
	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/agent/tools/skills"
	"github.com/astroresearch/astroresearch/migrations"
	"github.com/astroresearch/astroresearch/store"
)

// harness is a runtime over a real SQLite file and the llmtest fake model.
type harness struct {
	t       testing.TB
	rt      *Runtime
	st      *store.Store
	fake    *llmtest.Server
	client  *llm.Client
	events  *EventLog
	hooks   *Hooks
	metrics *Metrics
	dir     string
	userID  int64
	extra   []tools.Tool
	mem     *memory.Service
}

type harnessOption func(*harnessConfig)

type harnessConfig struct {
	cfg   Config
	extra []tools.Tool
	auto  bool
	full  bool // every tool family, as main.go builds it
}

// withProductionTools gives the runtime the registry main.go builds (every
// tool family; research services that fail if called).
func withProductionTools() harnessOption { return func(h *harnessConfig) { h.full = true } }

func withTools(ts ...tools.Tool) harnessOption {
	return func(h *harnessConfig) { h.extra = append(h.extra, ts...) }
}

func withConfig(f func(*Config)) harnessOption { return func(h *harnessConfig) { f(&h.cfg) } }

func newHarness(t testing.TB, opts ...harnessOption) *harness {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, filepath.Join(dir, "astro.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Migrate(ctx, migrations.FS); err != nil {
		t.Fatal(err)
	}
	u, err := st.CreateUser(ctx, "vera", "x", store.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	hc := harnessConfig{cfg: Config{DataDir: dir, ToolTimeout: 5 * time.Second}}
	for _, o := range opts {
		o(&hc)
	}
	fake := llmtest.New(t)
	client := llm.New(llm.Config{BaseURL: fake.URL(), Model: "test-model",
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }})
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	events := NewEventLog(st, NewBroker())
	hooks := NewHooks(log)
	metrics := NewMetrics()
	hooks.RegisterBuiltins(st, metrics, log)
	skillsLib, err := skills.NewLibrary(filepath.Join(dir, "skills"), log)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := skillsLib.Install(); err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, st: st, fake: fake, client: client, events: events, hooks: hooks, metrics: metrics,
		dir: dir, userID: u.ID, extra: hc.extra}
	mem := memory.New(st, dir)
	h.mem = mem
	base := func() *tools.Registry { return StandardRegistry(ToolDeps{Store: st, Skills: skillsLib, Memory: mem}) }
	if hc.full {
		base = productionRegistry(t, st, dir, mem, skillsLib)
	}
	h.rt = New(hc.cfg, Deps{Store: st, Model: client, Events: events, Hooks: hooks, Skills: skillsLib, Memory: mem,
		Perms: NewPermissions(st, hc.auto), Log: log,
		Registry: func() *tools.Registry {
			r := base()
			for _, x := range h.extra {
				mustAdd(r, x)
			}
			return r
		}})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := h.rt.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return h
}

// session creates a session for the harness user.
func (h *harness) session() string {
	h.t.Helper()
	s, err := h.st.CreateAgentSession(context.Background(), h.userID, "")
	if err != nil {
		h.t.Fatal(err)
	}
	return s.ID
}

// runTurn starts a turn and waits for it to finish.
func (h *harness) runTurn(session, question string) int {
	h.t.Helper()
	turn, err := h.rt.StartTurn(context.Background(), h.userID, session, TurnRequest{Question: question})
	if err != nil {
		h.t.Fatal(err)
	}
	h.wait(session)
	return turn
}

func (h *harness) wait(session string) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := h.rt.Wait(ctx, session); err != nil {
		h.t.Fatalf("turn did not finish: %v", err)
	}
}

// events returns all persisted events of a session.
func (h *harness) allEvents(session string) []Event {
	h.t.Helper()
	evs, err := h.events.After(context.Background(), session, 0, 100000)
	if err != nil {
		h.t.Fatal(err)
	}
	return evs
}

// kinds lists event kinds, collapsing runs of streamed text (how text is
// split into events depends on timing).
func kinds(evs []Event) string {
	var ks []string
	for _, e := range evs {
		k := string(e.Kind)
		if len(ks) > 0 && ks[len(ks)-1] == k && (e.Kind == KindTextDelta || e.Kind == KindThought) {
			continue
		}
		ks = append(ks, k)
	}
	return strings.Join(ks, " ")
}

// streamedText joins the text of all events of kind.
func streamedText(t testing.TB, evs []Event, kind Kind) string {
	var b strings.Builder
	for _, e := range eventsOf(evs, kind) {
		b.WriteString(decode[TextData](t, e).Text)
	}
	return b.String()
}

// waitEvent blocks until an event of kind appears in the session's log.
func (h *harness) waitEvent(session string, kind Kind) Event {
	h.t.Helper()
	sub := h.events.Broker().Subscribe(session)
	defer h.events.Broker().Unsubscribe(sub)
	for _, e := range h.allEvents(session) {
		if e.Kind == kind {
			return e
		}
	}
	timeout := time.After(20 * time.Second)
	for {
		select {
		case e, ok := <-sub.C:
			if !ok {
				h.t.Fatalf("subscription closed while waiting for %s", kind)
			}
			if e.Kind == kind {
				return e
			}
		case <-timeout:
			h.t.Fatalf("no %s event; events: %s", kind, kinds(h.allEvents(session)))
		}
	}
}

// history loads the lead conversation as the model would get it next turn.
func (h *harness) history(session string) []llm.Message {
	h.t.Helper()
	rows, err := h.st.AgentMessages(context.Background(), session, LeadAgent)
	if err != nil {
		h.t.Fatal(err)
	}
	var out []llm.Message
	for _, r := range rows {
		m, err := MessageFromRow(r)
		if err != nil {
			h.t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// assertValidHistory checks the persisted conversation can be sent again
// as it is: every call has exactly one result, no repair needed.
func (h *harness) assertValidHistory(session string) {
	h.t.Helper()
	msgs := h.history(session)
	if _, n := RepairHistory(msgs); n != 0 {
		b, _ := json.MarshalIndent(msgs, "", " ")
		h.t.Fatalf("persisted conversation needs %d repairs:\n%s", n, b)
	}
}

func decode[T any](t testing.TB, e Event) T {
	t.Helper()
	var v T
	if err := e.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func eventsOf(evs []Event, kind Kind) []Event {
	var out []Event
	for _, e := range evs {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}
