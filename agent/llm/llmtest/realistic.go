package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// Overflow says what a server with a context window does with a prompt
// that does not fit.
type Overflow int

const (
	// Refuse answers HTTP 400 with code context_length_exceeded, as OpenAI
	// and vLLM do; no scripted turn is consumed.
	Refuse Overflow = iota
	// Truncate silently drops the beginning of the conversation until the
	// rest fits, as Ollama does with a prompt longer than num_ctx; the
	// reported prompt_tokens then describe only what was kept.
	Truncate
)

// Window describes a real server's limits for Realistic.
type Window struct {
	// Tokens is the context window (prompt plus completion); 0 means
	// unlimited.
	Tokens int
	// Overflow is what happens to a prompt over the window.
	Overflow Overflow
}

// Realistic makes the server report usage like a real one and, when
// w.Tokens is set, enforce a context window: prompt_tokens is computed from
// each request (see PromptTokens), completion_tokens from the scripted
// output (four characters a token), and usage is sent whenever the client
// asks for it (a turn's own WithUsage still wins). Requests whose prompt
// does not fit are refused or truncated as w.Overflow says, and an output
// longer than the request's max_tokens is cut there with finish_reason
// "length".
func (s *Server) Realistic(w Window) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.realistic, s.window = true, w
}

// Overflows returns how many chat requests the server refused or truncated
// because their prompt did not fit the window.
func (s *Server) Overflows() (refused, truncated int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused, s.truncated
}

// messageOverhead is the per-message token cost of the chat template.
const messageOverhead = 4

// PromptTokens is the prompt size of a chat request as a realistic server
// counts it: four characters a token over every message's text, name, tool
// call id, tool call names and arguments, plus a few tokens of template per
// message, plus the tool definitions as sent.
func PromptTokens(r RecordedRequest) int {
	n := messagesTokens(r.Messages)
	var body struct {
		Tools json.RawMessage `json:"tools"`
	}
	if json.Unmarshal(r.Body, &body) == nil && len(body.Tools) > 0 && string(body.Tools) != "null" {
		n += len(body.Tools) / 4
	}
	return n
}

func messagesTokens(msgs []Message) int {
	n := 0
	for _, m := range msgs {
		n += messageTokens(m)
	}
	return n
}

func messageTokens(m Message) int {
	b := len(m.Content) + len(m.Name) + len(m.ToolCallID) + len(m.ReasoningContent)
	for _, c := range m.ToolCalls {
		b += len(c.ID) + len(c.Name) + len(c.Arguments)
	}
	return b/4 + messageOverhead
}

// completionTokens is the size of a turn's output: four characters a token.
func (t Turn) completionTokens() int {
	n := 0
	for _, ev := range t.events {
		switch ev.kind {
		case evText, evThinking, evToolCall:
			n += len(ev.text) + len(ev.call.name) + len(ev.call.id)
		}
	}
	return max(1, n/4)
}

// admit applies the window to a chat request before a turn is chosen. It
// returns the request as the model sees it (truncated when the window
// drops its beginning), its prompt size, and refused = true when the
// server answered 400 itself.
func (s *Server) admit(w http.ResponseWriter, rec RecordedRequest) (RecordedRequest, int, bool) {
	s.mu.Lock()
	realistic, win := s.realistic, s.window
	s.mu.Unlock()
	prompt := PromptTokens(rec)
	if !realistic || win.Tokens <= 0 || prompt+requestedCompletion(rec) <= win.Tokens {
		return rec, prompt, false
	}
	if win.Overflow == Refuse {
		s.mu.Lock()
		s.refused++
		s.mu.Unlock()
		msg := fmt.Sprintf("This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. "+
			"Please reduce the length of the messages.", win.Tokens, prompt+requestedCompletion(rec))
		writeHTTPError(w, &httpError{status: http.StatusBadRequest, body: string(errorJSON(APIError{
			Message: msg, Type: "invalid_request_error", Code: "context_length_exceeded"}))})
		return rec, prompt, true
	}
	s.mu.Lock()
	s.truncated++
	s.mu.Unlock()
	fixed := prompt - messagesTokens(rec.Messages) // the tool definitions stay (Ollama keeps them in the template)
	room := win.Tokens - fixed
	kept := len(rec.Messages)
	used := 0
	for kept > 0 && used+messageTokens(rec.Messages[kept-1]) <= room {
		used += messageTokens(rec.Messages[kept-1])
		kept--
	}
	rec.Messages = append([]Message(nil), rec.Messages[kept:]...)
	rec.Truncated = true
	return rec, min(fixed+used, win.Tokens), false
}

// requestedCompletion is the max_tokens a request reserves (0 when unset).
func requestedCompletion(rec RecordedRequest) int {
	for _, k := range []string{"max_completion_tokens", "max_tokens"} {
		if raw, ok := rec.Extra[k]; ok {
			var n int
			if json.Unmarshal(raw, &n) == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}

// CutCall is a tool call whose output hit the length limit half-way
// through its arguments: the arguments are cut in the middle (no longer
// valid JSON) and finish_reason is "length", as a real server reports it.
func CutCall(c Call) Turn {
	r := []rune(c.Args)
	c.Args = string(r[:len(r)/2])
	return ToolCalls(c).WithFinish("length")
}

// cutTo keeps the first tokens of the turn's output (four characters a
// token) and marks it finish_reason "length", as a server does when the
// output reaches max_tokens. Frames that are not output are kept.
func (t Turn) cutTo(tokens int) Turn {
	budget := tokens * 4
	out := t
	out.events = nil
	for _, ev := range t.events {
		switch ev.kind {
		case evText, evThinking, evToolCall:
			if budget <= 0 {
				continue
			}
			if r := []rune(ev.text); len(ev.text) > budget {
				ev.text = string(r[:min(len(r), budget)])
			}
			budget -= len(ev.text)
		}
		out.events = append(out.events, ev)
	}
	out.finish = "length"
	return out
}
