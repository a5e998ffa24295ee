package handlers

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/views"
)

// The research timeline is built by one state machine, timeline.apply,
// that turns each persisted event into changes (ops) of the page. The
// session page applies the ops to a list of items and renders it
// (history); the HTML event stream renders each op as a fragment of the
// same components (live). A reload therefore shows exactly what the live
// view showed.

// opKind is what a timeline op does.
type opKind int

const (
	opAdd         opKind = iota + 1 // append item at the end of the timeline
	opReplace                       // replace the item with the same DOM id
	opText                          // append text to the element target of item owner
	opProgress                      // append a progress line to tool card owner
	opResult                        // set the result of tool card owner
	opQuestion                      // fill in the question of turn
	opRunning                       // a turn started (on) or ended
	opModelNote                     // show (on) or hide the model note
	opGroupStatus                   // set the status of sub-agent group owner
	opMetrics                       // the session's metrics changed (a turn ended)
	opModelState                    // a model call ended: the active model may have changed (live only)
	opTitle                         // the session's title changed (live only: a page load reads the stored one)
)

// timelineOp is one change to the timeline.
type timelineOp struct {
	kind   opKind
	item   views.TimelineItem   // opAdd, opReplace
	parent string               // opAdd: DOM id of the container it goes into ("" = the timeline)
	status views.SubagentStatus // opGroupStatus
	owner  string               // DOM id of the item changed (opText, opProgress, opResult)
	target string               // DOM id of the element text is appended to (opText)
	text   string               // opText, opProgress, opQuestion
	turn   int                  // opQuestion
	result *views.ToolResult    // opResult
	on     bool                 // opRunning, opModelNote
	// metrics is the session's metrics (opMetrics).
	metrics views.MetricsPanel
}

// modelErrorClasses are the error classes after which the page explains
// how to configure the model endpoint: the endpoint is unreachable, slow,
// or refused the request (bad key, unknown model).
var modelErrorClasses = map[string]bool{"model_error": true, "timeout": true}

// timeline is the state needed to turn the next event into ops: the
// current turn, its open text block, its tool cards, the cards waiting for
// the user. It is fed every event of a session in seq order (a stream
// that resumes replays the earlier ones first). Not safe for concurrent use.
type timeline struct {
	base      string // /research/{id} under the base path: form targets
	basePath  string // BASE_PATH, for links in answers
	now       func() time.Time
	questions *questionSource
	// links finds the citations of an answer (nil: none are linked).
	links func(ctx context.Context, answer string) map[string]string

	turn            int
	calls           int    // model calls completed in this turn (usage events of the lead)
	text, textAgent string // the open text block and whose it is
	thought         string // the open thought block
	lastText        string // the lead's last text block in this turn
	lastTextCall    int    // the model call that block belongs to
	cards           map[string]string
	usedCards       map[string]bool
	waiting         []waitingCard // open ask/permission cards
	pendingQuestion int           // turn whose question is not known yet

	groups     map[string]string // sub-agent name → DOM id of its group's items
	bgSeen     map[string]bool   // background task cards already shown (any turn)
	workerList string            // DOM id of this turn's worker list ("" = none yet)
	workerRows map[string]bool   // worker rows already shown

	// The metrics of the current turn and of the whole session, and when
	// the current turn started.
	turnStats, sessionStats runStats
	turnStart               time.Time
	turns                   int
	// eventAt is when the event being applied was recorded: a question
	// card closed at or after its deadline expired rather than closed.
	eventAt time.Time
}

// waitingCard is an open ask/permission card and the agent it waits for.
type waitingCard struct {
	item  views.TimelineItem
	agent string
}

func newTimeline(base string, now func() time.Time, q *questionSource) *timeline {
	return &timeline{base: base, now: now, questions: q, cards: map[string]string{}, usedCards: map[string]bool{},
		groups: map[string]string{}, bgSeen: map[string]bool{}, workerRows: map[string]bool{}}
}

// questionSource knows the question of each turn: the first user message
// of the turn. A turn's question is persisted just after its session event,
// so a live stream may have to look again (load).
type questionSource struct {
	known map[int]string
	load  func(ctx context.Context) (map[int]string, error) // nil: known is all there is
}

func (q *questionSource) get(ctx context.Context, turn int) (string, bool) {
	if s, ok := q.known[turn]; ok {
		return s, true
	}
	if q.load == nil {
		return "", false
	}
	m, err := q.load(ctx)
	if err != nil {
		return "", false
	}
	q.known = m
	s, ok := m[turn]
	return s, ok
}

// apply returns the ops of event e. Events that cannot be decoded change
// nothing.
func (t *timeline) apply(ctx context.Context, e agent.Event) []timelineOp {
	if e.Kind == agent.KindTitle {
		// Outside the turn machinery: a proposed title may arrive after
		// the next turn has begun.
		var d agent.TitleData
		if err := e.Decode(&d); err != nil || d.Title == "" {
			return nil
		}
		return []timelineOp{{kind: opTitle, text: d.Title}}
	}
	var ops []timelineOp
	t.eventAt = e.At
	if e.Turn != t.turn {
		ops = t.closeWaiting(ops, "")
		t.startTurn(e.Turn)
	}
	if t.pendingQuestion != 0 {
		if q, ok := t.questions.get(ctx, t.pendingQuestion); ok {
			ops = append(ops, timelineOp{kind: opQuestion, turn: t.pendingQuestion, text: q})
			t.pendingQuestion = 0
		}
	}
	if e.Kind != agent.KindTextDelta || e.Agent != t.textAgent {
		t.text = ""
	}
	if e.Kind != agent.KindThought {
		t.thought = ""
	}
	if e.Kind != agent.KindToolProgress && e.Kind != agent.KindBackgroundTask && e.Kind != agent.KindWorker &&
		e.Kind != agent.KindSubagent {
		// Any other event of the same agent means it moved on: nobody is
		// waiting for its earlier question or permission card any more.
		// (Sub-agents and workers run side by side; each waits for itself.)
		ops = t.closeWaiting(ops, e.Agent)
	}
	t.turnStats.count(e)
	t.sessionStats.count(e)
	more, err := t.event(ctx, e)
	if err != nil {
		return ops
	}
	if parent, ok := t.groups[e.Agent]; ok {
		// A sub-agent's own items go into its group.
		for i := range more {
			if more[i].kind == opAdd && more[i].parent == "" {
				more[i].parent = parent
			}
		}
	}
	return append(ops, more...)
}

func (t *timeline) startTurn(turn int) {
	t.turn, t.calls = turn, 0
	t.text, t.textAgent, t.thought, t.lastText, t.lastTextCall = "", "", "", "", 0
	t.cards = map[string]string{}
	t.pendingQuestion = 0
	t.workerList, t.workerRows = "", map[string]bool{}
	t.turnStats, t.turnStart = runStats{}, time.Time{}
}

// sessionMetrics is the session's metrics over the events applied so far.
func (t *timeline) sessionMetrics() views.MetricsPanel {
	return views.MetricsPanel{Turns: t.turns, RunMetrics: t.sessionStats.snapshot()}
}

// closeWaiting closes the open cards of agentName ("" = every agent).
func (t *timeline) closeWaiting(ops []timelineOp, agentName string) []timelineOp {
	keep := t.waiting[:0]
	for _, w := range t.waiting {
		if agentName != "" && w.agent != agentName && !(w.agent == "" && agentName == agent.LeadAgent) {
			keep = append(keep, w)
			continue
		}
		switch c := w.item.(type) {
		case *views.AskCard:
			closed := *c
			closed.State = views.CardClosed
			if !c.ExpiresAt.IsZero() && !t.eventAt.IsZero() && !t.eventAt.Before(c.ExpiresAt) {
				closed.State = views.CardExpired
			}
			ops = append(ops, timelineOp{kind: opReplace, item: &closed})
		case *views.PermissionCard:
			closed := *c
			closed.State = views.CardClosed
			ops = append(ops, timelineOp{kind: opReplace, item: &closed})
		}
	}
	t.waiting = keep
	return ops
}

func isLead(e agent.Event) bool { return e.Agent == agent.LeadAgent || e.Agent == "" }

// event returns the ops of one event by kind.
func (t *timeline) event(ctx context.Context, e agent.Event) ([]timelineOp, error) {
	add := func(it views.TimelineItem) []timelineOp { return []timelineOp{{kind: opAdd, item: it}} }
	switch e.Kind {
	case agent.KindSession:
		if !isLead(e) {
			return nil, nil
		}
		var d agent.SessionData
		_ = e.Decode(&d) // an undecodable payload still starts the turn
		q, ok := t.questions.get(ctx, e.Turn)
		if !ok {
			t.pendingQuestion = e.Turn
		}
		t.turns++
		t.turnStart = e.At
		ops := []timelineOp{
			{kind: opAdd, item: &views.TurnHeader{Turn: e.Turn, Question: q}},
			{kind: opRunning, on: true},
			{kind: opModelNote, on: false},
		}
		if d.Title != "" {
			ops = append(ops, timelineOp{kind: opTitle, text: d.Title})
		}
		return ops, nil
	case agent.KindTextDelta:
		var d agent.TextData
		if err := e.Decode(&d); err != nil {
			return nil, err
		}
		if t.text != "" {
			return []timelineOp{{kind: opText, owner: t.text, target: t.text, text: d.Text}}, nil
		}
		id := fmt.Sprintf("text-%d", e.Seq)
		t.text, t.textAgent = id, e.Agent
		if isLead(e) {
			t.lastText, t.lastTextCall = id, t.calls+1
		}
		return add(&views.TextBlock{ID: id, Text: d.Text}), nil
	case agent.KindThought:
		var d agent.TextData
		if err := e.Decode(&d); err != nil {
			return nil, err
		}
		if t.thought != "" {
			b := views.ThoughtBlock{ID: t.thought}
			return []timelineOp{{kind: opText, owner: t.thought, target: b.TextID(), text: d.Text}}, nil
		}
		t.thought = fmt.Sprintf("thought-%d", e.Seq)
		return add(&views.ThoughtBlock{ID: t.thought, Text: d.Text}), nil
	case agent.KindToolCall:
		var d agent.ToolCallData
		if err := e.Decode(&d); err != nil {
			return nil, err
		}
		id := t.cardID(d.ID, e.Seq)
		t.cards[d.ID] = id
		return add(&views.ToolCard{ID: id, Name: d.Name, Arguments: prettyJSON(d.Arguments)}), nil
	case agent.KindToolProgress:
		var d agent.ToolProgressData
		if err := e.Decode(&d); err != nil {
			return nil, err
		}
		if card, ok := t.cards[d.ID]; ok {
			return []timelineOp{{kind: opProgress, owner: card, text: d.Progress}}, nil
		}
		return nil, nil
	case agent.KindToolResult:
		var d agent.ToolResultData
		if err := e.Decode(&d); err != nil {
			return nil, err
		}
		r := &views.ToolResult{Output: d.Output, IsError: d.IsError, Elapsed: time.Duration(d.ElapsedMS) * time.Millisecond,
			Tasks: tasksFrom(d), Link: t.teammateLink(d)}
		if r.Link.Href == "" {
			r.Link = t.objectLink(d)
		}
		if card, ok := t.cards[d.ToolCallID]; ok {
			return []timelineOp{{kind: opResult, owner: card, result: r}}, nil
		}
		// A result without its call (an interrupted call recorded after a
		// restart): a card of its own.
		id := t.cardID(d.ToolCallID, e.Seq)
		t.cards[d.ToolCallID] = id
		return add(&views.ToolCard{ID: id, Name: d.Name, Result: r}), nil
	case agent.KindAskUser:
		var d agent.AskUserData
		if err := e.Decode(&d); err != nil {
			return nil, err
		}
		expires, _ := time.Parse(time.RFC3339, d.ExpiresAt)
		c := &views.AskCard{ID: askDOMID(d.QuestionID), Action: t.base + "/answers", QuestionID: d.QuestionID,
			Question: d.Question, Options: d.Options, ExpiresAt: expires}
		if !expires.IsZero() && t.now().After(expires) {
			c.State = views.CardExpired
		}
		t.waiting = append(t.waiting, waitingCard{c, e.Agent})
		return add(c), nil
	case agent.KindPermissionRequest:
		var d agent.PermissionRequestData
		if err := e.Decode(&d); err != nil {
			return nil, err
		}
		c := &views.PermissionCard{ID: permissionDOMID(d.RequestID), Action: t.base + "/permissions", RequestID: d.RequestID,
			Tool: d.Tool, Arguments: prettyJSON(d.Arguments), Reason: d.Reason}
		if !isLead(e) {
			c.Agent = e.Agent // a sub-agent asks: say which
		}
		t.waiting = append(t.waiting, waitingCard{c, e.Agent})
		return add(c), nil
	case agent.KindCompaction:
		var d agent.CompactionData
		if err := e.Decode(&d); err != nil {
			return nil, err
		}
		return add(&views.CompactionLine{ID: fmt.Sprintf("compaction-%d", e.Seq), Before: d.Before, After: d.After, Method: d.Method}), nil
	case agent.KindUsage:
		var d agent.UsageData
		if err := e.Decode(&d); err != nil {
			return nil, err
		}
		ops := add(&views.UsageLine{ID: fmt.Sprintf("usage-%d", e.Seq), Step: d.Step, Model: d.Model,
			Prompt: d.PromptTokens, Completion: d.CompletionTokens, Retries: d.Retries})
		if isLead(e) {
			t.calls++
			ops = append(ops, timelineOp{kind: opModelState})
		}
		return ops, nil
	case agent.KindError:
		var d agent.ErrorData
		if err := e.Decode(&d); err != nil {
			return nil, err
		}
		ops := add(&views.ErrorLine{ID: fmt.Sprintf("error-%d", e.Seq), Message: d.Message, Class: d.Class})
		if isLead(e) && modelErrorClasses[d.Class] {
			ops = append(ops, timelineOp{kind: opModelNote, on: true})
		}
		return ops, nil
	case agent.KindWarning:
		var d agent.WarningData
		if err := e.Decode(&d); err != nil {
			return nil, err
		}
		return add(&views.WarningLine{ID: fmt.Sprintf("warning-%d", e.Seq), Code: d.Code, Message: d.Message}), nil
	case agent.KindBackgroundTask, agent.KindSubagent, agent.KindWorker:
		return t.orchestration(e)
	case agent.KindDone:
		var d agent.DoneData
		if err := e.Decode(&d); err != nil {
			return nil, err
		}
		return t.done(ctx, e, d), nil
	}
	return nil, nil
}

// done renders the final answer as Markdown in place of its streamed text
// (or after it, when the answer was not streamed in the last model call),
// then the done line.
func (t *timeline) done(ctx context.Context, e agent.Event, d agent.DoneData) []timelineOp {
	var ops []timelineOp
	if isLead(e) && strings.TrimSpace(d.Answer) != "" {
		a := &views.AnswerBlock{ID: fmt.Sprintf("answer-%d", e.Seq), Markdown: d.Answer, BasePath: t.basePath}
		if t.links != nil {
			a.Links = t.links(ctx, d.Answer)
		}
		if t.lastText != "" && t.lastTextCall == t.calls {
			a.ID = t.lastText
			ops = append(ops, timelineOp{kind: opReplace, item: a})
		} else {
			ops = append(ops, timelineOp{kind: opAdd, item: a})
		}
	}
	ops = append(ops, timelineOp{kind: opAdd, item: &views.DoneLine{ID: fmt.Sprintf("done-%d", e.Seq), Reason: d.Reason, Steps: d.Steps}})
	if isLead(e) {
		t.turnStats.addDuration(t.turnStart, e.At)
		t.sessionStats.addDuration(t.turnStart, e.At)
		ops = append(ops,
			timelineOp{kind: opAdd, item: &views.TurnMetrics{Turn: e.Turn, RunMetrics: t.turnStats.snapshot()}},
			timelineOp{kind: opMetrics, metrics: t.sessionMetrics()},
			timelineOp{kind: opRunning, on: false})
	}
	return ops
}

// cardID is the DOM id of a tool call's card: tool-<call id>, made safe
// for ids and selectors, and unique in the session (providers reuse ids
// such as "call_0" across turns).
func (t *timeline) cardID(callID string, seq int64) string {
	id := "tool-" + domSafe(callID)
	if t.usedCards[id] {
		id = fmt.Sprintf("%s-%d", id, seq)
	}
	t.usedCards[id] = true
	return id
}

func askDOMID(questionID string) string       { return "ask-" + domSafe(questionID) }
func permissionDOMID(requestID string) string { return "perm-" + domSafe(requestID) }

// domSafe returns s when it is a short run of letters, digits, '_' and
// '-' (usable in an id and a CSS selector unescaped), else a hash of it.
func domSafe(s string) string {
	ok := s != "" && len(s) <= 64
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	return "h" + hex.EncodeToString(sum[:8])
}

// prettyJSON indents JSON arguments for reading (keys keep their order);
// anything else is shown as it came, and empty arguments not at all.
func prettyJSON(s string) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(s), "", "  "); err != nil {
		return s
	}
	if t := strings.TrimSpace(buf.String()); t == "{}" || t == "null" {
		return ""
	}
	return buf.String()
}

// timelineHistory is the timeline built from the log for a page load: the
// ops applied to a list of items (some nested in sub-agent groups and
// worker lists).
type timelineHistory struct {
	items []views.TimelineItem
	index map[string]views.TimelineItem       // every item by DOM id, nested ones too
	set   map[string]func(views.TimelineItem) // replaces the item with that DOM id in place
	adder map[string]func(views.TimelineItem) // appends to the container with that DOM id
	note  bool                                // the model note is shown
}

func (h *timelineHistory) apply(ops []timelineOp) {
	if h.index == nil {
		h.index, h.set, h.adder = map[string]views.TimelineItem{}, map[string]func(views.TimelineItem){}, map[string]func(views.TimelineItem){}
	}
	for _, o := range ops {
		h.applyOne(o)
	}
}

// add appends item to the top level or to the container parent.
func (h *timelineHistory) add(item views.TimelineItem, parent string) {
	id := item.DOMID()
	if parent == "" {
		i := len(h.items)
		h.items = append(h.items, item)
		h.set[id] = func(it views.TimelineItem) { h.items[i] = it }
	} else if add, ok := h.adder[parent]; ok {
		add(item)
	} else {
		return
	}
	h.index[id] = item
	switch c := item.(type) {
	case *views.SubagentGroup:
		h.adder[c.ItemsID()] = func(it views.TimelineItem) {
			j := len(c.Items)
			c.Items = append(c.Items, it)
			h.set[it.DOMID()] = func(n views.TimelineItem) { c.Items[j] = n; h.index[n.DOMID()] = n }
		}
	case *views.WorkerList:
		for j, r := range c.Rows {
			h.index[r.ID] = r
			h.set[r.ID] = h.rowSetter(c, j)
		}
		h.adder[c.RowsID()] = func(it views.TimelineItem) {
			if r, ok := it.(*views.WorkerRow); ok {
				c.Rows = append(c.Rows, r)
				h.set[r.ID] = h.rowSetter(c, len(c.Rows)-1)
			}
		}
	}
}

func (h *timelineHistory) rowSetter(list *views.WorkerList, j int) func(views.TimelineItem) {
	return func(it views.TimelineItem) {
		if r, ok := it.(*views.WorkerRow); ok {
			list.Rows[j] = r
			h.index[r.ID] = r
		}
	}
}

func (h *timelineHistory) applyOne(o timelineOp) {
	switch o.kind {
	case opAdd:
		h.add(o.item, o.parent)
	case opReplace:
		if set, ok := h.set[o.item.DOMID()]; ok {
			set(o.item)
			h.index[o.item.DOMID()] = o.item
		}
	case opText:
		switch it := h.item(o.owner).(type) {
		case *views.TextBlock:
			it.Text += o.text
		case *views.ThoughtBlock:
			it.Text += o.text
		}
	case opProgress:
		if c, ok := h.item(o.owner).(*views.ToolCard); ok {
			c.Progress = append(c.Progress, o.text)
		}
	case opResult:
		if c, ok := h.item(o.owner).(*views.ToolCard); ok {
			c.Result = o.result
		}
	case opGroupStatus:
		if g, ok := h.item(o.owner).(*views.SubagentGroup); ok {
			g.Status = o.status
		}
	case opQuestion:
		if th, ok := h.item(fmt.Sprintf("turn-%d", o.turn)).(*views.TurnHeader); ok {
			th.Question = o.text
		}
	case opModelNote:
		h.note = o.on
	case opRunning, opMetrics, opModelState, opTitle:
		// The page asks the runtime whether a turn runs, and the timeline
		// for the session's metrics once every event is applied.
	}
}

func (h *timelineHistory) item(id string) views.TimelineItem {
	return h.index[id]
}

// tasksFrom reads the task list a todo_write result carries in its
// metadata (T15: shown as a checklist in the timeline).
func tasksFrom(d agent.ToolResultData) []views.TaskItem {
	if d.Name != "todo_write" || d.IsError {
		return nil
	}
	raw, err := json.Marshal(d.Metadata["tasks"])
	if err != nil {
		return nil
	}
	var tasks []struct {
		ID        string   `json:"id"`
		Subject   string   `json:"subject"`
		Status    string   `json:"status"`
		BlockedBy []string `json:"blocked_by"`
	}
	if json.Unmarshal(raw, &tasks) != nil {
		return nil
	}
	out := make([]views.TaskItem, len(tasks))
	for i, t := range tasks {
		out[i] = views.TaskItem{ID: t.ID, Subject: t.Subject, Status: t.Status, BlockedBy: t.BlockedBy}
	}
	return out
}
