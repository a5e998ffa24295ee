package llm

import (
	"context"
	"errors"
	"io"
)

// Stream runs a streaming chat completion. Text and reasoning fragments are
// passed to onDelta (which may be nil) as they arrive, on the calling
// goroutine; tool calls are assembled by index and returned whole. The
// request asks for stream_options.include_usage, so Usage is filled when
// the provider honours it.
//
// Errors are *Error values classified per docs/features.md R3, except that the
// caller's own cancellation returns an error matching context.Canceled.
// Rate limits and overloads are retried (R4) only while nothing has been
// delivered to onDelta in the failing attempt; after 3 consecutive
// overloads the client moves to the next fallback model (R5). A stream
// that ends before [DONE] without a finish_reason, or is cut, is an error,
// never a silently truncated answer. On error the returned Response holds
// whatever the last attempt assembled (possibly partial; never complete).
func (c *Client) Stream(ctx context.Context, req Request, onDelta func(Delta)) (Response, error) {
	return c.chat(ctx, "stream", req, func(ctx context.Context, model string) (Response, bool, error) {
		return c.streamOnce(ctx, req, model, onDelta)
	})
}

// Complete runs a non-streaming chat completion (used for summaries),
// with the same classification, retries and fallback as Stream.
func (c *Client) Complete(ctx context.Context, req Request) (Response, error) {
	return c.chat(ctx, "complete", req, func(ctx context.Context, model string) (Response, bool, error) {
		resp, err := c.completeOnce(ctx, req, model)
		return resp, false, err
	})
}

// chatAttempt runs one attempt against model; delivered reports whether
// deltas reached the caller.
type chatAttempt func(ctx context.Context, model string) (resp Response, delivered bool, err error)

// chat wraps attempts with model selection, fallback accounting and retries.
func (c *Client) chat(ctx context.Context, op string, req Request, once chatAttempt) (Response, error) {
	var resp Response
	attempts := 0
	err := c.retry(ctx, op, func(ctx context.Context) (bool, error) {
		attempts++
		model, err := c.modelFor(ctx, req)
		if err != nil {
			return false, err
		}
		r, delivered, err := once(ctx, model)
		resp = r
		resp.Retries = attempts - 1
		c.reportOutcome(ctx, model, err)
		return delivered, err
	})
	return resp, err
}

// modelFor picks the request's own model, else the active one, resolving
// it from the endpoint when none is configured.
func (c *Client) modelFor(ctx context.Context, req Request) (string, error) {
	if req.Model != "" {
		return req.Model, nil
	}
	if m := c.ActiveModel(); m != "" {
		return m, nil
	}
	return c.ResolveModel(ctx)
}

// streamOnce is one streaming attempt.
func (c *Client) streamOnce(ctx context.Context, req Request, model string, onDelta func(Delta)) (Response, bool, error) {
	x := &exchange{thinking: thinkingFlag(c.cfg.BaseURL, model, req.Thinking, true)}
	a := newAssembler(onDelta)
	stream, err := c.api.CreateChatCompletionStream(withExchange(ctx, x), chatRequest(req, model, true))
	if err != nil {
		return a.response(model), false, c.callError(ctx, err, x)
	}
	defer stream.Close()
	for {
		raw, err := stream.RecvRaw()
		if errors.Is(err, io.EOF) {
			break
		}
		switch {
		case err == nil:
			err = a.addRaw(raw)
		case errors.Is(err, io.ErrUnexpectedEOF):
			err = &Error{Class: ModelError, Message: "stream cut before [DONE]", Err: err}
		}
		if err != nil {
			return a.response(model), a.delivered, c.callError(ctx, err, x)
		}
	}
	if !x.sawDone() && a.finish == "" {
		// A clean EOF without [DONE] and without a finish_reason is a
		// truncated answer. (A finish_reason without [DONE] is accepted:
		// some llama.cpp builds omit [DONE], and the answer is complete.)
		err := &Error{Class: ModelError, Message: "stream ended before [DONE] without a finish_reason"}
		return a.response(model), a.delivered, c.callError(ctx, err, x)
	}
	return a.response(model), a.delivered, nil
}

// completeOnce is one non-streaming attempt.
func (c *Client) completeOnce(ctx context.Context, req Request, model string) (Response, error) {
	x := &exchange{thinking: thinkingFlag(c.cfg.BaseURL, model, req.Thinking, false)}
	out, err := c.api.CreateChatCompletion(withExchange(ctx, x), chatRequest(req, model, false))
	if err != nil {
		return Response{Model: model}, c.callError(ctx, err, x)
	}
	if len(out.Choices) == 0 {
		return Response{Model: model}, &Error{Class: ModelError, Message: "completion has no choices"}
	}
	choice := out.Choices[0]
	resp := Response{
		Message: Message{
			Role:      RoleAssistant,
			Content:   choice.Message.Content,
			Thought:   choice.Message.ReasoningContent,
			ToolCalls: fromOpenAIToolCalls(choice.Message.ToolCalls),
		},
		Usage:        fromOpenAIUsage(out.Usage),
		Model:        out.Model,
		FinishReason: string(choice.FinishReason),
	}
	if resp.Model == "" {
		resp.Model = model
	}
	return resp, nil
}
