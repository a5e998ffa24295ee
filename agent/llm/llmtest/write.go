package llmtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// chunk and its parts are the wire shape of a chat.completion.chunk.
type chunk struct {
	ID      string        `json:"id"`
	Object  string        `json:"object"`
	Created int64         `json:"created"`
	Model   string        `json:"model"`
	Choices []chunkChoice `json:"choices"`
	Usage   *Usage        `json:"usage,omitempty"`
}

type chunkChoice struct {
	Index        int        `json:"index"`
	Delta        chunkDelta `json:"delta"`
	FinishReason *string    `json:"finish_reason"`
}

type chunkDelta struct {
	Role             string          `json:"role,omitempty"`
	Content          string          `json:"content,omitempty"`
	ReasoningContent string          `json:"reasoning_content,omitempty"`
	ToolCalls        []toolCallDelta `json:"tool_calls,omitempty"`
}

type toolCallDelta struct {
	Index    int           `json:"index"`
	ID       string        `json:"id,omitempty"`
	Type     string        `json:"type,omitempty"`
	Function functionDelta `json:"function"`
}

type functionDelta struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// streamWriter writes one turn as server-sent events.
type streamWriter struct {
	w       http.ResponseWriter
	ctx     context.Context
	id      string
	model   string
	between time.Duration
	frames  int  // frames written so far, for the between-frame delay
	roleSet bool // the assistant role went out with the first delta
	// sent is told each text delta once it is flushed.
	sent func(text string, at time.Time)
}

// writeStream plays t as an SSE stream. It returns early, writing nothing
// more, when the request context ends.
func writeStream(ctx context.Context, w http.ResponseWriter, rec RecordedRequest, t Turn, sent func(string, time.Time)) {
	sw := &streamWriter{w: w, ctx: ctx, id: fmt.Sprintf("chatcmpl-llmtest-%d", rec.Seq),
		model: orString(t.model, rec.Model), between: t.betweenWait, sent: sent}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flush(w)
	for _, ev := range t.events {
		if !sw.event(ev) {
			return
		}
	}
	sw.finishStream(t, rec.IncludeUsage)
}

// event writes one scripted frame and reports whether the stream goes on.
func (sw *streamWriter) event(ev event) bool {
	if !sw.pause() {
		return false
	}
	switch ev.kind {
	case evText:
		sw.delta(chunkDelta{Content: ev.text})
		if sw.sent != nil {
			sw.sent(ev.text, time.Now())
		}
	case evThinking:
		sw.delta(chunkDelta{ReasoningContent: ev.text})
	case evToolCall:
		sw.delta(chunkDelta{ToolCalls: []toolCallDelta{toolCallFrame(ev)}})
	case evRaw:
		sw.data([]byte(ev.text))
	case evStreamError:
		sw.data(errorJSON(ev.apiErr))
		return false
	case evCut:
		// ErrAbortHandler makes net/http drop the connection mid-body
		// without logging, so the client sees an incomplete response.
		panic(http.ErrAbortHandler)
	case evEOF:
		return false
	}
	return true
}

func toolCallFrame(ev event) toolCallDelta {
	d := toolCallDelta{Index: ev.call.index, Function: functionDelta{Arguments: ev.text}}
	if ev.call.first {
		d.ID, d.Type, d.Function.Name = ev.call.id, "function", ev.call.name
	}
	return d
}

// finishStream sends the finish chunk, the usage chunk when due, and [DONE].
func (sw *streamWriter) finishStream(t Turn, includeUsage bool) {
	reason := t.finishReason()
	if !sw.pause() {
		return
	}
	sw.chunk(chunk{Choices: []chunkChoice{{Delta: chunkDelta{}, FinishReason: &reason}}})
	if t.usage != nil && (includeUsage || t.forceUsage) {
		if !sw.pause() {
			return
		}
		sw.chunk(chunk{Choices: []chunkChoice{}, Usage: t.usage})
	}
	if t.noDone || !sw.pause() {
		return
	}
	sw.data([]byte("[DONE]"))
}

func (t Turn) finishReason() string {
	switch {
	case t.finish != "":
		return t.finish
	case t.calls > 0:
		return "tool_calls"
	}
	return "stop"
}

// pause waits the between-frame delay before every frame but the first and
// reports whether the request is still live.
func (sw *streamWriter) pause() bool {
	sw.frames++
	if sw.frames == 1 {
		return sw.ctx.Err() == nil
	}
	return wait(sw.ctx, sw.between)
}

func (sw *streamWriter) delta(d chunkDelta) {
	if !sw.roleSet {
		d.Role, sw.roleSet = "assistant", true
	}
	sw.chunk(chunk{Choices: []chunkChoice{{Delta: d}}})
}

func (sw *streamWriter) chunk(c chunk) {
	c.ID, c.Object, c.Created, c.Model = sw.id, "chat.completion.chunk", 1700000000, sw.model
	b, err := json.Marshal(c)
	if err != nil {
		panic(fmt.Sprintf("llmtest: marshal chunk: %v", err)) // our own types always marshal
	}
	sw.data(b)
}

func (sw *streamWriter) data(b []byte) {
	fmt.Fprintf(sw.w, "data: %s\n\n", b)
	flush(sw.w)
}

func flush(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// wait sleeps for d unless ctx ends first; it reports whether ctx is still live.
func wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// errorJSON renders e in the OpenAI error shape.
func errorJSON(e APIError) []byte {
	var code any
	if e.Code != "" {
		code = e.Code
	}
	b, err := json.Marshal(map[string]any{"error": map[string]any{
		"message": e.Message, "type": e.Type, "code": code,
	}})
	if err != nil {
		panic(fmt.Sprintf("llmtest: marshal error: %v", err))
	}
	return b
}

func writeHTTPError(w http.ResponseWriter, e *httpError) {
	for k, v := range e.header {
		w.Header().Set(k, v)
	}
	if w.Header().Get("Content-Type") == "" {
		ct := "text/plain; charset=utf-8"
		if strings.HasPrefix(e.body, "{") {
			ct = "application/json"
		}
		w.Header().Set("Content-Type", ct)
	}
	w.WriteHeader(e.status)
	fmt.Fprint(w, e.body)
}
