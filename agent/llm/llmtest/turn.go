package llmtest

import (
	"net/http"
	"time"
	"unicode/utf8"
)

// Turn is the scripted answer to one chat completion request. Build turns
// with the constructors (Text, Thinking, ToolCalls, HTTPError, ...), join
// them with Then and adjust them with the With* methods. A Turn is a value:
// every method returns a new Turn and leaves its receiver unchanged.
//
// A streamed turn is written as SSE frames in script order; unless the
// script ends early (Cut, EOF, StreamError) the server then sends a
// finish_reason chunk, a usage chunk (see WithUsage) and `data: [DONE]`.
// A non-streaming request gets the same script merged into one JSON
// completion; there, Cut drops the connection, EOF sends an empty 200 body,
// StreamError becomes HTTP 500 with that error, and Raw data replaces the
// whole body.
type Turn struct {
	events      []event
	calls       int // tool calls in events; Then shifts the next turn's indices by this
	usage       *Usage
	forceUsage  bool
	finish      string
	model       string
	noDone      bool
	httpErr     *httpError
	firstDelay  time.Duration
	betweenWait time.Duration
}

// Usage is the token accounting a turn reports.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// APIError is an error in the OpenAI shape {"error":{"message","type","code"}}.
// An empty Code is sent as null.
type APIError struct {
	Message string
	Type    string
	Code    string
}

// Call is one scripted tool call. An empty ID is omitted from the wire (the
// client must repair it). Args is split into ArgChunks fragments at rune
// boundaries (0 means 3); the first fragment travels with the id and name.
type Call struct {
	ID        string
	Name      string
	Args      string
	ArgChunks int
}

type eventKind int

const (
	evText eventKind = iota + 1
	evThinking
	evToolCall
	evRaw
	evStreamError
	evCut
	evEOF
)

// event is one scripted frame of a stream.
type event struct {
	kind   eventKind
	text   string // text, thinking, raw data, or tool-call argument fragment
	call   toolDelta
	apiErr APIError
}

// toolDelta is one tool-call fragment; first marks the fragment carrying id and name.
type toolDelta struct {
	index int
	first bool
	id    string
	name  string
}

type httpError struct {
	status int
	header map[string]string
	body   string
}

// Text streams the given parts as successive content deltas.
func Text(parts ...string) Turn {
	return fromTexts(evText, parts)
}

// Thinking streams the given parts as successive reasoning_content deltas.
func Thinking(parts ...string) Turn {
	return fromTexts(evThinking, parts)
}

func fromTexts(kind eventKind, parts []string) Turn {
	var t Turn
	for _, p := range parts {
		t.events = append(t.events, event{kind: kind, text: p})
	}
	return t
}

// ToolCalls streams the calls one after the other (indices 0, 1, ...), each
// split into its argument fragments.
func ToolCalls(calls ...Call) Turn {
	var t Turn
	for i, c := range calls {
		t.events = append(t.events, callEvents(i, c)...)
	}
	t.calls = len(calls)
	return t
}

// ParallelToolCalls streams the calls interleaved by index: the first
// fragment of every call, then the second of every call, and so on.
func ParallelToolCalls(calls ...Call) Turn {
	var t Turn
	perCall := make([][]event, len(calls))
	longest := 0
	for i, c := range calls {
		perCall[i] = callEvents(i, c)
		longest = max(longest, len(perCall[i]))
	}
	for step := range longest {
		for _, evs := range perCall {
			if step < len(evs) {
				t.events = append(t.events, evs[step])
			}
		}
	}
	t.calls = len(calls)
	return t
}

func callEvents(index int, c Call) []event {
	frags := splitRunes(c.Args, c.ArgChunks)
	evs := make([]event, len(frags))
	for i, f := range frags {
		evs[i] = event{kind: evToolCall, text: f, call: toolDelta{index: index}}
	}
	evs[0].call = toolDelta{index: index, first: true, id: c.ID, name: c.Name}
	return evs
}

// splitRunes cuts s into at most n (default 3) pieces of similar length at
// rune boundaries; it always returns at least one (possibly empty) piece.
func splitRunes(s string, n int) []string {
	if n <= 0 {
		n = 3
	}
	runes := utf8.RuneCountInString(s)
	n = max(1, min(n, runes))
	size := (runes + n - 1) / n
	var out []string
	var cur []rune
	for _, r := range s {
		cur = append(cur, r)
		if len(cur) == size {
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	if len(cur) > 0 || len(out) == 0 {
		out = append(out, string(cur))
	}
	return out
}

// Raw sends `data: <data>` verbatim, e.g. a malformed chunk.
func Raw(data string) Turn {
	return Turn{events: []event{{kind: evRaw, text: data}}}
}

// InvalidJSON sends a chunk whose JSON is cut off in the middle of a delta.
func InvalidJSON() Turn {
	return Raw(`{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"bro`)
}

// StreamError sends an error object inside the 200 stream
// (`data: {"error":{...}}`) and ends the response without [DONE].
func StreamError(e APIError) Turn {
	return Turn{events: []event{{kind: evStreamError, apiErr: e}}}
}

// Cut aborts the connection at this point: no finish chunk, no [DONE], and
// the HTTP response is left incomplete (the client sees an unexpected EOF).
func Cut() Turn {
	return Turn{events: []event{{kind: evCut}}}
}

// EOF ends the response cleanly at this point, without a finish chunk and
// without [DONE] (a truncated answer that looks well-formed on the wire).
func EOF() Turn {
	return Turn{events: []event{{kind: evEOF}}}
}

// HTTPError answers with the status, the headers (e.g. Retry-After) and an
// OpenAI-shaped error body carrying message. The type is "server_error" for
// 5xx statuses and "invalid_request_error" otherwise.
func HTTPError(status int, header map[string]string, message string) Turn {
	typ := "invalid_request_error"
	if status >= http.StatusInternalServerError {
		typ = "server_error"
	}
	return HTTPErrorJSON(status, header, APIError{Message: message, Type: typ})
}

// HTTPErrorJSON answers with the status, the headers and the given error body.
func HTTPErrorJSON(status int, header map[string]string, e APIError) Turn {
	return Turn{httpErr: &httpError{status: status, header: header, body: string(errorJSON(e))}}
}

// HTTPErrorRaw answers with the status, the headers and a body sent verbatim
// (e.g. an HTML page from a proxy).
func HTTPErrorRaw(status int, header map[string]string, body string) Turn {
	return Turn{httpErr: &httpError{status: status, header: header, body: body}}
}

// Then returns t followed by next: next's frames come after t's, its tool
// call indices continue after t's, and its non-zero settings (usage,
// finish, model, delays, HTTP error) override t's.
func (t Turn) Then(next Turn) Turn {
	out := t
	out.events = make([]event, 0, len(t.events)+len(next.events))
	out.events = append(out.events, t.events...)
	for _, ev := range next.events {
		if ev.kind == evToolCall {
			ev.call.index += t.calls
		}
		out.events = append(out.events, ev)
	}
	out.calls += next.calls
	if next.usage != nil {
		out.usage = next.usage
	}
	out.forceUsage = out.forceUsage || next.forceUsage
	out.noDone = out.noDone || next.noDone
	out.finish = orString(next.finish, out.finish)
	out.model = orString(next.model, out.model)
	if next.httpErr != nil {
		out.httpErr = next.httpErr
	}
	if next.firstDelay != 0 || next.betweenWait != 0 {
		out.firstDelay, out.betweenWait = next.firstDelay, next.betweenWait
	}
	return out
}

// WithUsage reports the token counts in a final chunk (with empty choices)
// when the request asked for stream_options.include_usage, and in the
// "usage" field of non-streaming answers.
func (t Turn) WithUsage(prompt, completion int) Turn {
	t.usage = &Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}
	return t
}

// ForceUsage sends the usage chunk even when the request did not ask for it
// (some providers always do).
func (t Turn) ForceUsage() Turn {
	t.forceUsage = true
	return t
}

// WithFinish sets the finish_reason (default "tool_calls" when the turn has
// tool calls, else "stop").
func (t Turn) WithFinish(reason string) Turn {
	t.finish = reason
	return t
}

// WithModel sets the model name reported in chunks (default: the requested model).
func (t Turn) WithModel(name string) Turn {
	t.model = name
	return t
}

// WithoutDone ends an otherwise complete stream (finish and usage chunks
// sent) without `data: [DONE]`.
func (t Turn) WithoutDone() Turn {
	t.noDone = true
	return t
}

// WithDelay waits firstByte before anything (headers included) is written
// and between before every later frame. Waits end early when the request's
// context is cancelled, so a client that gives up never blocks the server.
func (t Turn) WithDelay(firstByte, between time.Duration) Turn {
	t.firstDelay, t.betweenWait = firstByte, between
	return t
}

func orString(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
