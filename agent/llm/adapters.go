package llm

import "context"

// ModelEmbedder embeds with one fixed model of a client: Embed(ctx,
// inputs). It satisfies research/rag.Embedder.
type ModelEmbedder struct {
	Client *Client
	Model  string
}

// Embed returns one vector per input, in input order.
func (e ModelEmbedder) Embed(ctx context.Context, inputs []string) ([][]float32, error) {
	return e.Client.Embed(ctx, e.Model, inputs)
}

// TextGenerator runs one non-streaming completion from a system prompt and
// a user message with the client's active model. It satisfies
// research/rag.Generator.
type TextGenerator struct{ Client *Client }

// Generate returns the text of the model's answer.
func (g TextGenerator) Generate(ctx context.Context, system, user string) (string, error) {
	resp, err := g.Client.Complete(ctx, Request{Messages: []Message{
		{Role: RoleSystem, Content: system}, {Role: RoleUser, Content: user}}})
	if err != nil {
		return "", err
	}
	return resp.Message.Content, nil
}
