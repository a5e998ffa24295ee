// Package llm is AstroResearch's client for OpenAI-compatible chat
// completion endpoints (OpenAI, DashScope/Qwen, DeepSeek, vLLM, Ollama,
// llama.cpp server), built on go-openai. It streams, assembles tool calls,
// surfaces reasoning as thinking, classifies errors (docs/features.md R3), retries rate
// limits and overloads (R4) and falls back to other models (R5).
package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Role is a message author.
type Role string

// The four roles of the chat format.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// ToolCall is one function call requested by the model. Arguments is the
// raw JSON text the model produced (it may be invalid JSON; the executor
// decides).
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Message is one entry of a conversation.
type Message struct {
	Role Role `json:"role"`
	// Content is the text; for RoleTool, the tool's output.
	Content string `json:"content"`
	// Thought is reasoning the model streamed separately (reasoning_content).
	// It is never sent back to the model.
	Thought string `json:"thought,omitempty"`
	// ToolCalls are the calls of an assistant message, in order.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID links a RoleTool message to its call.
	ToolCallID string `json:"tool_call_id,omitempty"`
	// Name is the tool name of a RoleTool message.
	Name string `json:"name,omitempty"`
}

// ToolDef describes a tool to the model. Parameters is a JSON Schema object.
type ToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Usage is the token accounting of one completion.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Request is one chat completion request.
type Request struct {
	Messages []Message
	// Tools offered to the model; none means the model must answer in text.
	Tools []ToolDef
	// Thinking asks for reasoning output; sent as enable_thinking only to
	// providers that take it (DashScope/Qwen).
	Thinking bool
	// MaxTokens caps the completion; 0 leaves the provider default.
	MaxTokens int
	// Model overrides the client's active model for this request.
	Model string
}

// Response is a completed (fully assembled) answer.
type Response struct {
	// Message is the assistant message: text, thought and tool calls, with
	// every tool call id non-empty (missing ids get a generated UUID).
	Message      Message
	Usage        Usage
	Model        string // the model that answered
	FinishReason string
	// Retries is how many failed attempts (rate limits, overloads) were
	// retried before this response; 0 when the first attempt answered.
	Retries int
}

// DeltaKind says what a streamed fragment is.
type DeltaKind int

// Kinds of streamed fragments.
const (
	DeltaText DeltaKind = iota + 1
	DeltaThinking
)

// Delta is a streamed fragment of an answer, delivered while it arrives.
type Delta struct {
	Kind DeltaKind
	Text string
}

// ErrorClass is the docs/features.md R3 classification of a failed call.
type ErrorClass int

// Error classes, docs/features.md R3.
const (
	ModelError ErrorClass = iota // everything else
	RateLimited
	Overloaded
	PromptTooLong
	TokenExhausted
	Timeout
)

func (c ErrorClass) String() string {
	switch c {
	case RateLimited:
		return "rate_limited"
	case Overloaded:
		return "overloaded"
	case PromptTooLong:
		return "prompt_too_long"
	case TokenExhausted:
		return "token_exhausted"
	case Timeout:
		return "timeout"
	}
	return "model_error"
}

// Error is a classified LLM failure.
type Error struct {
	Class      ErrorClass
	Status     int           // HTTP status, 0 when the error arrived inside a 200 stream or on the wire
	RetryAfter time.Duration // from a Retry-After header, 0 when absent
	Quota      bool          // a quota or spend limit: never retried
	Message    string
	Err        error // the underlying error, if any
}

func (e *Error) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("llm: %s (HTTP %d): %s", e.Class, e.Status, e.Message)
	}
	return fmt.Sprintf("llm: %s: %s", e.Class, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// ClassOf returns the class of err (ModelError when err is not an *Error).
func ClassOf(err error) ErrorClass {
	var e *Error
	if errors.As(err, &e) {
		return e.Class
	}
	return ModelError
}
