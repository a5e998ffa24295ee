package llm

import (
	"encoding/json"

	"github.com/google/uuid"
	openai "github.com/sashabaranov/go-openai"
)

// emptySchema stands in for a tool without parameters; some providers
// reject a null schema.
const emptySchema = `{"type":"object","properties":{}}`

// chatRequest converts req to go-openai's request for model.
func chatRequest(req Request, model string, stream bool) openai.ChatCompletionRequest {
	out := openai.ChatCompletionRequest{
		Model:    model,
		Messages: make([]openai.ChatCompletionMessage, 0, len(req.Messages)),
		Stream:   stream,
	}
	for _, m := range req.Messages {
		out.Messages = append(out.Messages, chatMessage(m))
	}
	for _, t := range req.Tools {
		out.Tools = append(out.Tools, chatTool(t))
	}
	if stream {
		out.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	}
	if req.MaxTokens > 0 {
		if usesMaxCompletionTokens(model) {
			out.MaxCompletionTokens = req.MaxTokens
		} else {
			// max_tokens is what OpenAI-compatible servers (Ollama, vLLM,
			// DashScope, DeepSeek, llama.cpp) understand.
			//lint:ignore SA1019 max_tokens is deprecated by OpenAI only; the servers above need it.
			out.MaxTokens = req.MaxTokens
		}
	}
	return out
}

// chatMessage converts m. Thought is deliberately dropped: reasoning is
// never sent back to the model (DeepSeek even rejects it).
func chatMessage(m Message) openai.ChatCompletionMessage {
	out := openai.ChatCompletionMessage{
		Role:       string(m.Role),
		Content:    m.Content,
		ToolCallID: m.ToolCallID,
		Name:       m.Name,
	}
	for _, c := range m.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, openai.ToolCall{
			ID:       c.ID,
			Type:     openai.ToolTypeFunction,
			Function: openai.FunctionCall{Name: c.Name, Arguments: c.Arguments},
		})
	}
	return out
}

func chatTool(t ToolDef) openai.Tool {
	params := t.Parameters
	if len(params) == 0 || string(params) == "null" {
		params = json.RawMessage(emptySchema)
	}
	return openai.Tool{
		Type: openai.ToolTypeFunction,
		Function: &openai.FunctionDefinition{
			Name:        t.Name,
			Description: t.Description,
			Parameters:  params,
		},
	}
}

// fromOpenAIToolCalls converts the tool calls of a non-streaming answer,
// giving every call without an id a fresh UUID.
func fromOpenAIToolCalls(calls []openai.ToolCall) []ToolCall {
	if len(calls) == 0 {
		return nil
	}
	out := make([]ToolCall, len(calls))
	for i, c := range calls {
		out[i] = ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments}
		if out[i].ID == "" {
			out[i].ID = uuid.NewString()
		}
	}
	return out
}

func fromOpenAIUsage(u openai.Usage) Usage {
	return Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
}
