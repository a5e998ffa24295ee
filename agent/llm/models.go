package llm

import (
	"context"
	"fmt"
	"slices"

	openai "github.com/sashabaranov/go-openai"
)

// ResolveModel returns the active model. When none is configured it asks
// the endpoint (GET /models), makes the first listed model the primary and
// returns it; an endpoint that lists nothing is a ModelError. Safe for
// concurrent use: if two callers resolve at once, the first one wins.
func (c *Client) ResolveModel(ctx context.Context) (string, error) {
	if m := c.ActiveModel(); m != "" {
		return m, nil
	}
	x := &exchange{}
	list, err := c.api.ListModels(withExchange(ctx, x))
	if err != nil {
		return "", c.callError(ctx, err, x)
	}
	if len(list.Models) == 0 || list.Models[0].ID == "" {
		return "", &Error{Class: ModelError, Message: fmt.Sprintf("no model configured and %s lists none", c.cfg.BaseURL)}
	}
	return c.models.resolve(list.Models[0].ID), nil
}

// Embed returns one embedding per input, in input order, from the
// embeddings endpoint. An empty model means the client's active model
// (configure a client with the embedding model for this). Rate limits and
// overloads are retried like chat calls; there is no model fallback.
func (c *Client) Embed(ctx context.Context, model string, inputs []string) ([][]float32, error) {
	if len(inputs) == 0 {
		return nil, nil
	}
	if model == "" {
		var err error
		if model, err = c.ResolveModel(ctx); err != nil {
			return nil, err
		}
	}
	var out [][]float32
	err := c.retry(ctx, "embed", func(ctx context.Context) (bool, error) {
		var err error
		out, err = c.embedOnce(ctx, model, inputs)
		return false, err
	})
	return out, err
}

func (c *Client) embedOnce(ctx context.Context, model string, inputs []string) ([][]float32, error) {
	x := &exchange{}
	resp, err := c.api.CreateEmbeddings(withExchange(ctx, x),
		openai.EmbeddingRequestStrings{Input: inputs, Model: openai.EmbeddingModel(model)})
	if err != nil {
		return nil, c.callError(ctx, err, x)
	}
	if len(resp.Data) != len(inputs) {
		return nil, &Error{Class: ModelError,
			Message: fmt.Sprintf("embeddings: got %d vectors for %d inputs", len(resp.Data), len(inputs))}
	}
	data := slices.Clone(resp.Data)
	slices.SortFunc(data, func(a, b openai.Embedding) int { return a.Index - b.Index })
	out := make([][]float32, len(data))
	for i, d := range data {
		if d.Index != i {
			return nil, &Error{Class: ModelError, Message: fmt.Sprintf("embeddings: unexpected index %d", d.Index)}
		}
		out[i] = d.Embedding
	}
	return out, nil
}
