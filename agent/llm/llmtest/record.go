package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// RecordedRequest is one request the server received, with its JSON body
// decoded. Chat fields are empty for other endpoints.
type RecordedRequest struct {
	// Seq is the 0-based arrival order among all requests to the server.
	Seq    int
	Method string
	Path   string
	Header http.Header
	Body   []byte

	Model    string
	Messages []Message
	// Tools are the names of the offered tools, in request order.
	Tools        []string
	Stream       bool
	IncludeUsage bool // stream_options.include_usage
	// Truncated is set when a Realistic window with Truncate dropped the
	// beginning of Messages (Messages then holds what the model saw).
	Truncated bool
	// Extra holds every other top-level body field (max_tokens,
	// enable_thinking, input, ...), undecoded.
	Extra map[string]json.RawMessage
}

// Message is one decoded request message. Array content is flattened to
// the concatenation of its text parts.
type Message struct {
	Role             string
	Content          string
	ReasoningContent string
	Name             string
	ToolCallID       string
	ToolCalls        []ToolCall
}

// ToolCall is one tool call of a decoded assistant message.
type ToolCall struct {
	ID        string
	Type      string
	Name      string
	Arguments string
}

// Has reports whether the body carried the top-level field name outside the
// decoded ones (model, messages, tools, stream, stream_options).
func (r RecordedRequest) Has(name string) bool {
	_, ok := r.Extra[name]
	return ok
}

// LastMessage returns the final message of the request (zero if none).
func (r RecordedRequest) LastMessage() Message {
	if len(r.Messages) == 0 {
		return Message{}
	}
	return r.Messages[len(r.Messages)-1]
}

// wireRequest is the decoded shape of a request body.
type wireRequest struct {
	Model    string        `json:"model"`
	Messages []wireMessage `json:"messages"`
	Tools    []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	Stream        bool `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

type wireMessage struct {
	Role             string          `json:"role"`
	Content          json.RawMessage `json:"content"`
	ReasoningContent string          `json:"reasoning_content"`
	Name             string          `json:"name"`
	ToolCallID       string          `json:"tool_call_id"`
	ToolCalls        []toolCallFull  `json:"tool_calls"`
}

// decodeBody fills the body-derived fields of rec from body.
func decodeBody(rec *RecordedRequest, body []byte) error {
	rec.Body = body
	if len(body) == 0 {
		return nil
	}
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return fmt.Errorf("decode body: %w", err)
	}
	if err := json.Unmarshal(body, &rec.Extra); err != nil {
		return fmt.Errorf("decode body fields: %w", err)
	}
	for _, f := range []string{"model", "messages", "tools", "stream", "stream_options"} {
		delete(rec.Extra, f)
	}
	rec.Model, rec.Stream = w.Model, w.Stream
	rec.IncludeUsage = w.StreamOptions != nil && w.StreamOptions.IncludeUsage
	for _, t := range w.Tools {
		rec.Tools = append(rec.Tools, t.Function.Name)
	}
	for _, m := range w.Messages {
		msg, err := m.decode()
		if err != nil {
			return err
		}
		rec.Messages = append(rec.Messages, msg)
	}
	return nil
}

func (m wireMessage) decode() (Message, error) {
	out := Message{Role: m.Role, ReasoningContent: m.ReasoningContent, Name: m.Name, ToolCallID: m.ToolCallID}
	content, err := flattenContent(m.Content)
	if err != nil {
		return Message{}, fmt.Errorf("decode %s message content: %w", m.Role, err)
	}
	out.Content = content
	for _, c := range m.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, ToolCall{ID: c.ID, Type: c.Type, Name: c.Function.Name, Arguments: c.Function.Arguments})
	}
	return out, nil
}

// flattenContent accepts a string, null, or an array of {type, text} parts.
func flattenContent(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", err
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String(), nil
}
