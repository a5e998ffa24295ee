package llm

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"
)

// wireChunk is one streamed chat.completion.chunk. It is decoded here
// rather than by go-openai so that an "error" object inside the stream (in
// any shape) and Ollama's "reasoning" field are not silently dropped.
type wireChunk struct {
	Model   string          `json:"model"`
	Choices []wireChoice    `json:"choices"`
	Usage   *Usage          `json:"usage"`
	Error   json.RawMessage `json:"error"`
}

type wireChoice struct {
	Index        int       `json:"index"`
	Delta        wireDelta `json:"delta"`
	FinishReason string    `json:"finish_reason"`
}

type wireDelta struct {
	Content          string          `json:"content"`
	ReasoningContent string          `json:"reasoning_content"`
	Reasoning        string          `json:"reasoning"` // Ollama's name for it
	ToolCalls        []wireToolDelta `json:"tool_calls"`
}

type wireToolDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// assembler builds a Response from stream chunks, passing text and
// thinking on to onDelta as they arrive.
type assembler struct {
	onDelta   func(Delta)
	delivered bool // onDelta has been called

	text, thought strings.Builder
	calls         map[int]*ToolCall // by stream index
	lastIndex     int               // index of the most recent tool-call fragment
	usage         Usage
	model         string
	finish        string
}

func newAssembler(onDelta func(Delta)) *assembler {
	return &assembler{onDelta: onDelta, calls: map[int]*ToolCall{}, lastIndex: -1}
}

// addRaw decodes one data line and folds it in. Invalid JSON and error
// objects are returned as errors.
func (a *assembler) addRaw(raw []byte) error {
	var c wireChunk
	if err := json.Unmarshal(raw, &c); err != nil {
		return &Error{Class: ModelError, Message: fmt.Sprintf("invalid JSON in stream chunk: %v", err), Err: err}
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		return decodeStreamError(c.Error)
	}
	if c.Model != "" {
		a.model = c.Model
	}
	if c.Usage != nil {
		a.usage = *c.Usage
	}
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue // we never ask for n > 1
		}
		a.addDelta(ch.Delta)
		if ch.FinishReason != "" {
			a.finish = ch.FinishReason
		}
	}
	return nil
}

// decodeStreamError reads an in-stream error given as an object or a string.
func decodeStreamError(raw json.RawMessage) error {
	var obj struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    any    `json:"code"`
	}
	if err := json.Unmarshal(raw, &obj); err == nil {
		return &streamError{Message: obj.Message, Type: obj.Type, Code: obj.Code}
	}
	var msg string
	if err := json.Unmarshal(raw, &msg); err == nil {
		return &streamError{Message: msg}
	}
	return &streamError{Message: string(raw)}
}

func (a *assembler) addDelta(d wireDelta) {
	if t := d.ReasoningContent + d.Reasoning; t != "" {
		a.thought.WriteString(t)
		a.deliver(Delta{Kind: DeltaThinking, Text: t})
	}
	if d.Content != "" {
		a.text.WriteString(d.Content)
		a.deliver(Delta{Kind: DeltaText, Text: d.Content})
	}
	for _, td := range d.ToolCalls {
		a.addToolDelta(td)
	}
}

func (a *assembler) deliver(d Delta) {
	a.delivered = true
	if a.onDelta != nil {
		a.onDelta(d)
	}
}

// addToolDelta merges one fragment into the call with the same index: the
// id and name are taken from the first fragment that has them (some
// servers repeat them), arguments are concatenated. A fragment without an
// index continues the latest call unless it brings a new id.
func (a *assembler) addToolDelta(td wireToolDelta) {
	idx := a.indexOf(td)
	call, ok := a.calls[idx]
	if !ok {
		call = &ToolCall{}
		a.calls[idx] = call
	}
	if call.ID == "" {
		call.ID = td.ID
	}
	if call.Name == "" {
		call.Name = td.Function.Name
	}
	call.Arguments += td.Function.Arguments
	a.lastIndex = idx
}

func (a *assembler) indexOf(td wireToolDelta) int {
	if td.Index != nil {
		return *td.Index
	}
	last, ok := a.calls[a.lastIndex]
	if ok && (td.ID == "" || td.ID == last.ID) {
		return a.lastIndex
	}
	next := 0
	for i := range a.calls {
		next = max(next, i+1)
	}
	return next
}

// response returns what has been assembled: tool calls in index order,
// each with an id (a generated UUID when the stream gave none).
func (a *assembler) response(requested string) Response {
	msg := Message{Role: RoleAssistant, Content: a.text.String(), Thought: a.thought.String()}
	indices := make([]int, 0, len(a.calls))
	for i := range a.calls {
		indices = append(indices, i)
	}
	slices.Sort(indices)
	for _, i := range indices {
		call := *a.calls[i]
		if call.ID == "" {
			call.ID = uuid.NewString()
			a.calls[i].ID = call.ID // stable if response is called again
		}
		msg.ToolCalls = append(msg.ToolCalls, call)
	}
	model := a.model
	if model == "" {
		model = requested
	}
	return Response{Message: msg, Usage: a.usage, Model: model, FinishReason: a.finish}
}
