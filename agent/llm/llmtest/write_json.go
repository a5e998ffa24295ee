package llmtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
)

// completion is the wire shape of a non-streaming chat.completion.
type completion struct {
	ID      string             `json:"id"`
	Object  string             `json:"object"`
	Created int64              `json:"created"`
	Model   string             `json:"model"`
	Choices []completionChoice `json:"choices"`
	Usage   *Usage             `json:"usage,omitempty"`
}

type completionChoice struct {
	Index        int               `json:"index"`
	Message      completionMessage `json:"message"`
	FinishReason string            `json:"finish_reason"`
}

type completionMessage struct {
	Role             string         `json:"role"`
	Content          string         `json:"content"`
	ReasoningContent string         `json:"reasoning_content,omitempty"`
	ToolCalls        []toolCallFull `json:"tool_calls,omitempty"`
}

type toolCallFull struct {
	ID       string        `json:"id,omitempty"`
	Type     string        `json:"type"`
	Function functionDelta `json:"function"`
}

// writeJSON plays t as one non-streaming completion. Early endings map to
// what a non-streaming client can see: Cut drops the connection, EOF sends an
// empty 200 body, StreamError becomes HTTP 500 with that error, and Raw
// data replaces the whole body.
func writeJSON(ctx context.Context, w http.ResponseWriter, rec RecordedRequest, t Turn) {
	msg := completionMessage{Role: "assistant"}
	var text, thought strings.Builder
	calls := map[int]*toolCallFull{}
	for _, ev := range t.events {
		switch ev.kind {
		case evText:
			text.WriteString(ev.text)
		case evThinking:
			thought.WriteString(ev.text)
		case evToolCall:
			addCallFragment(calls, ev)
		case evRaw:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, ev.text)
			return
		case evStreamError:
			writeHTTPError(w, &httpError{status: http.StatusInternalServerError, body: string(errorJSON(ev.apiErr))})
			return
		case evCut:
			panic(http.ErrAbortHandler)
		case evEOF:
			w.WriteHeader(http.StatusOK)
			return
		}
	}
	if ctx.Err() != nil {
		return
	}
	msg.Content, msg.ReasoningContent, msg.ToolCalls = text.String(), thought.String(), sortedCalls(calls)
	body := completion{
		ID: fmt.Sprintf("chatcmpl-llmtest-%d", rec.Seq), Object: "chat.completion", Created: 1700000000,
		Model:   orString(t.model, rec.Model),
		Choices: []completionChoice{{Message: msg, FinishReason: t.finishReason()}},
		Usage:   t.usage,
	}
	w.Header().Set("Content-Type", "application/json")
	if err := json.NewEncoder(w).Encode(body); err != nil {
		panic(fmt.Sprintf("llmtest: encode completion: %v", err))
	}
}

func addCallFragment(calls map[int]*toolCallFull, ev event) {
	c, ok := calls[ev.call.index]
	if !ok {
		c = &toolCallFull{Type: "function"}
		calls[ev.call.index] = c
	}
	if ev.call.first {
		c.ID, c.Function.Name = ev.call.id, ev.call.name
	}
	c.Function.Arguments += ev.text
}

func sortedCalls(calls map[int]*toolCallFull) []toolCallFull {
	idx := make([]int, 0, len(calls))
	for i := range calls {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	out := make([]toolCallFull, 0, len(idx))
	for _, i := range idx {
		out = append(out, *calls[i])
	}
	return out
}
