package tools_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/astroresearch/astroresearch/agent/tools"
)

// ExampleNew shows a typed tool: the argument struct is the schema, bad
// arguments come back as one error result listing every problem.
func ExampleNew() {
	type todoArgs struct {
		Title  string `json:"title" desc:"What to do." maxLength:"80"`
		Status string `json:"status,omitempty" enum:"pending,in_progress,completed" default:"pending"`
	}
	add := tools.New("add_todo", "Adds a todo item. Use it to plan.",
		func(_ context.Context, _ *tools.Context, a todoArgs) (tools.Result, error) {
			return tools.Result{Output: "added " + a.Title}, nil
		},
		tools.WithReadOnly(),
		tools.WithConcurrencySafe(func(a todoArgs) bool { return a.Status != "completed" }))

	fmt.Println(string(add.Parameters()))
	res, _ := add.Execute(context.Background(), &tools.Context{}, json.RawMessage(`{"title":"read paper"}`))
	fmt.Println(res.Output)
	res, _ = add.Execute(context.Background(), &tools.Context{}, json.RawMessage(`{"status":"done","due":"today"}`))
	fmt.Println(res.IsError)
	fmt.Println(res.Output)
	// Output:
	// {"type":"object","properties":{"title":{"type":"string","description":"What to do.","maxLength":80},"status":{"type":"string","enum":["pending","in_progress","completed"],"default":"pending"}},"required":["title"],"additionalProperties":false}
	// added read paper
	// true
	// invalid arguments (3 problems):
	// - title: is required
	// - due: unknown field; allowed fields: status, title
	// - status: must be one of pending, in_progress, completed (got "done")
}
