package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

type greetArgs struct {
	Name  string `json:"name" desc:"Who to greet." maxLength:"20"`
	Times int    `json:"times,omitempty" min:"1" max:"3"`
	Small int8   `json:"small,omitempty"`
	Path  string `json:"path,omitempty"`
}

func greet(_ context.Context, tc *Context, a greetArgs) (Result, error) {
	if a.Name == "fail" {
		return Result{}, errors.New("boom")
	}
	times := max(a.Times, 1)
	out := strings.Repeat("hello "+a.Name+" ", times)
	if tc != nil {
		out += "from " + tc.AgentName
	}
	return Result{Output: strings.TrimSpace(out)}, nil
}

func TestTypedToolExecute(t *testing.T) {
	tool := New("greet", "Greets someone. Politely.", greet)
	tc := &Context{AgentName: "lead"}
	tests := []struct {
		name    string
		args    string
		out     string // exact output, or substring when isError
		isError bool
		goErr   string
	}{
		{"decodes and runs", `{"name":"Ann","times":2}`, "hello Ann hello Ann from lead", false, ""},
		{"null optional", `{"name":"Ann","times":null}`, "hello Ann from lead", false, ""},
		{"schema problems are an error result", `{"times":9,"x":1}`,
			"invalid arguments (3 problems):\n- name: is required\n- times: must be <= 3, got 9\n- x: unknown field; allowed fields: name, path, small, times", true, ""},
		{"invalid JSON is an error result", `{"name":`, "arguments are not valid JSON: ", true, ""},
		{"empty arguments are {}", ``, "name: is required", true, ""},
		{"decode error beyond the schema", `{"name":"a","small":300}`, "invalid arguments: json: cannot unmarshal", true, ""},
		{"exec error is a Go error", `{"name":"fail"}`, "", false, "greet: boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tool.Execute(context.Background(), tc, json.RawMessage(tt.args))
			if tt.goErr != "" {
				if err == nil || err.Error() != tt.goErr {
					t.Fatalf("err = %v, want %q", err, tt.goErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected Go error: %v", err)
			}
			if res.IsError != tt.isError {
				t.Fatalf("IsError = %v, output %q", res.IsError, res.Output)
			}
			if tt.isError && !strings.Contains(res.Output, tt.out) || !tt.isError && res.Output != tt.out {
				t.Errorf("output = %q, want %q", res.Output, tt.out)
			}
		})
	}
}

func TestTypedToolMetadata(t *testing.T) {
	tool := New("greet", "Greets someone.", greet)
	if tool.Name() != "greet" || tool.Description() != "Greets someone." {
		t.Errorf("name/description: %q %q", tool.Name(), tool.Description())
	}
	want := `{"type":"object","properties":{"name":{"type":"string","description":"Who to greet.","maxLength":20},` +
		`"times":{"type":"integer","minimum":1,"maximum":3},"small":{"type":"integer"},"path":{"type":"string"}},` +
		`"required":["name"],"additionalProperties":false}`
	if string(tool.Parameters()) != want {
		t.Errorf("parameters:\n got %s\nwant %s", tool.Parameters(), want)
	}
}

func TestTypedToolPointerArgs(t *testing.T) {
	tool := New("greet_ptr", "Greets.", func(ctx context.Context, tc *Context, a *greetArgs) (Result, error) {
		return greet(ctx, tc, *a)
	})
	res, err := tool.Execute(context.Background(), nil, json.RawMessage(`{"name":"Bo"}`))
	if err != nil || res.Output != "hello Bo" {
		t.Errorf("got %+v, %v", res, err)
	}
}

func TestTypedToolOptions(t *testing.T) {
	readOnlyPath := func(a greetArgs) bool { return a.Path == "" }
	perm := func(_ context.Context, tc *Context, a greetArgs) PermissionDecision {
		if a.Path == "/etc" {
			return DecisionDeny
		}
		if tc != nil && tc.Silent {
			return DecisionAsk
		}
		return DecisionNone
	}
	tool := New("writer", "Writes things. Carefully.", greet,
		WithInterrupt(Block), WithConcurrencySafe(readOnlyPath), WithReadOnly(), WithDeferred(),
		WithSiblingAbort(), WithSummary("Writes."), WithPermission(perm))
	c := Caps(tool)
	if c.Interrupt != Block || !c.ReadOnly || !c.Deferred || !c.SiblingAbort || c.Summary != "Writes." {
		t.Errorf("caps = %+v", c)
	}
	safety := []struct {
		args string
		want bool
	}{
		{`{"name":"a"}`, true},
		{`{"name":"a","path":"/x"}`, false},
		{`{"name":5}`, false}, // invalid arguments are never safe
		{`not json`, false},
	}
	for _, s := range safety {
		if got := c.ConcurrencySafe(json.RawMessage(s.args)); got != s.want {
			t.Errorf("ConcurrencySafe(%s) = %v, want %v", s.args, got, s.want)
		}
	}
	if c.Permission == nil {
		t.Fatal("Permission is nil with WithPermission")
	}
	perms := []struct {
		args string
		tc   *Context
		want PermissionDecision
	}{
		{`{"name":"a","path":"/etc"}`, nil, DecisionDeny},
		{`{"name":"a"}`, &Context{Silent: true}, DecisionAsk},
		{`{"name":"a"}`, nil, DecisionNone},
		{`{"path":"/etc"}`, nil, DecisionNone}, // invalid: no opinion
	}
	for _, p := range perms {
		if got := c.Permission(context.Background(), p.tc, json.RawMessage(p.args)); got != p.want {
			t.Errorf("Permission(%s) = %v, want %v", p.args, got, p.want)
		}
	}
	res, err := tool.Execute(context.Background(), nil, json.RawMessage(`{"name":"x"}`))
	if err != nil || res.Output != "hello x" {
		t.Errorf("permission wrapper Execute: %+v, %v", res, err)
	}
}

func TestTypedToolAlwaysSafe(t *testing.T) {
	tool := New("reader", "Reads.", greet, WithConcurrencySafe(func(greetArgs) bool { return false }), AlwaysConcurrencySafe())
	if !Caps(tool).ConcurrencySafe(json.RawMessage(`garbage`)) {
		t.Error("AlwaysConcurrencySafe did not win as the later option")
	}
}

func TestTypedToolDefaults(t *testing.T) {
	tool := New("plain", "Does a plain thing. Then more.", greet)
	c := Caps(tool)
	if c.Interrupt != Cancel || c.ReadOnly || c.Deferred || c.SiblingAbort || c.Permission != nil {
		t.Errorf("defaults = %+v", c)
	}
	if c.ConcurrencySafe(json.RawMessage(`{"name":"a"}`)) {
		t.Error("concurrency-safe by default")
	}
	if c.Summary != "Does a plain thing." {
		t.Errorf("summary = %q", c.Summary)
	}
	if _, ok := tool.(PermissionChecker); ok {
		t.Error("tool without WithPermission implements PermissionChecker")
	}
}

func TestNewPanics(t *testing.T) {
	type other struct{}
	tests := []struct {
		name  string
		build func()
		want  string
	}{
		{"non-struct args", func() {
			New("bad", "d", func(context.Context, *Context, string) (Result, error) { return Result{}, nil })
		}, "must be a struct"},
		{"bad schema", func() {
			New("bad", "d", func(context.Context, *Context, struct{ C chan int }) (Result, error) { return Result{}, nil })
		}, "unsupported type"},
		{"concurrency option of another type", func() {
			New("bad", "d", greet, WithConcurrencySafe(func(other) bool { return true }))
		}, "WithConcurrencySafe takes func(tools.greetArgs) bool"},
		{"permission option of another type", func() {
			New("bad", "d", greet, WithPermission(func(context.Context, *Context, other) PermissionDecision { return DecisionNone }))
		}, "WithPermission takes a func with tools.greetArgs arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(fmt.Sprint(r), tt.want) {
					t.Errorf("panic = %v, want %q", r, tt.want)
				}
			}()
			tt.build()
		})
	}
}

func TestSchemaFor(t *testing.T) {
	typedTool := New("greet", "Greets.", greet)
	s, err := SchemaFor(typedTool)
	if err != nil || s != typedTool.(*typed[greetArgs]).schema {
		t.Errorf("SchemaFor(typed) = %p, %v; want the cached schema", s, err)
	}
	s, err = SchemaFor(bareTool{"bare", "Bare."})
	if err != nil || s.Validate(json.RawMessage(`[]`)) == nil {
		t.Errorf("SchemaFor(bare) = %v, %v", s, err)
	}
	if _, err := SchemaFor(badSchemaTool{bareTool{"bad", "Bad."}}); err == nil || !strings.Contains(err.Error(), "tools: bad: ") {
		t.Errorf("SchemaFor(bad schema) err = %v", err)
	}
}

type badSchemaTool struct{ bareTool }

func (badSchemaTool) Parameters() json.RawMessage { return json.RawMessage(`{"type":1}`) }
