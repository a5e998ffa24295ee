package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func sampleCompiled(t *testing.T) *Schema {
	t.Helper()
	raw, err := SchemaOf(reflect.TypeFor[sampleArgs]())
	if err != nil {
		t.Fatal(err)
	}
	s, err := CompileSchema(raw)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// validBase is the smallest valid sampleArgs object; cases add one field.
const validBase = `"query":"q","exact":true,"NoTag":""`

func TestValidateProblems(t *testing.T) {
	s := sampleCompiled(t)
	tests := []struct {
		name string
		args string
		want []string // Problem.String() of every problem, in order; nil = valid
	}{
		{"minimal valid", `{` + validBase + `}`, nil},
		{"everything valid", `{` + validBase + `,"limit":50,"score":1.5,"count":255,"tags":["a","b"],` +
			`"todos":[{"content":"c","status":"completed"}],"extra":{"x":1},"opt":"o","raw":[1,{}],` +
			`"any":null,"when":"2024-01-01T00:00:00Z","grid":[1,2],"blob":"AA==","level":2,"page":3}`, nil},
		{"null optional is absent", `{` + validBase + `,"limit":null,"opt":null,"todos":null}`, nil},
		{"null required", `{"query":null,"exact":true,"NoTag":""}`, []string{"query: must be a string, got null"}},
		{"missing required", `{"query":"q"}`, []string{"exact: is required", "NoTag: is required"}},
		{"unknown field", `{` + validBase + `,"qeury":"x"}`,
			[]string{"qeury: unknown field; allowed fields: NoTag, any, blob, count, exact, extra, grid, level, limit, opt, page, query, raw, score, tags, todos, when"}},
		{"wrong type string", `{"query":5,"exact":true,"NoTag":""}`, []string{"query: must be a string, got integer 5"}},
		{"wrong type boolean", `{"query":"q","exact":"yes","NoTag":""}`, []string{`exact: must be a boolean, got string "yes"`}},
		{"fraction for integer", `{` + validBase + `,"limit":2.5}`, []string{"limit: must be an integer, got number 2.5"}},
		{"1.0 is not an integer", `{` + validBase + `,"limit":1.0}`, []string{"limit: must be an integer, got number 1.0"}},
		{"integer accepted for number", `{` + validBase + `,"score":1}`, nil},
		{"object expected", `[]`, []string{"arguments: must be an object, got array"}},
		{"array expected", `{` + validBase + `,"tags":"a"}`, []string{`tags: must be an array, got string "a"`}},
		{"below minimum", `{` + validBase + `,"limit":0}`, []string{"limit: must be >= 1, got 0"}},
		{"above maximum", `{` + validBase + `,"limit":51}`, []string{"limit: must be <= 50, got 51"}},
		{"number above maximum", `{` + validBase + `,"score":1.51}`, []string{"score: must be <= 1.5, got 1.51"}},
		{"uint below zero", `{` + validBase + `,"count":-1}`, []string{"count: must be >= 0, got -1"}},
		{"maxLength counts runes", `{"query":"` + strings.Repeat("é", 500) + `","exact":true,"NoTag":""}`, nil},
		{"over maxLength", `{"query":"` + strings.Repeat("é", 501) + `","exact":true,"NoTag":""}`,
			[]string{"query: must be at most 500 characters, got 501"}},
		{"under minLength", `{"query":"","exact":true,"NoTag":""}`, []string{"query: must be at least 1 character, got 0"}},
		{"enum", `{` + validBase + `,"todos":[{"content":"a","status":"pending"},{"content":"b","status":"pending"},{"content":"c","status":"done"}]}`,
			[]string{`todos[2].status: must be one of pending, in_progress, completed (got "done")`}},
		{"integer enum", `{` + validBase + `,"level":4}`, []string{"level: must be one of 1, 2, 3 (got 4)"}},
		{"enum on items", `{` + validBase + `,"tags":["a","z"]}`, []string{`tags[1]: must be one of a, b (got "z")`}},
		{"too many items", `{` + validBase + `,"tags":["a","a","a","a"]}`, []string{"tags: must have at most 3 items, got 4"}},
		{"too few items", `{` + validBase + `,"grid":[1]}`, []string{"grid: must have at least 2 items, got 1"}},
		{"item types", `{` + validBase + `,"grid":[1,"2"]}`, []string{`grid[1]: must be an integer, got string "2"`}},
		{"nested unknown and missing", `{` + validBase + `,"todos":[{"content":"c","x":1}]}`,
			[]string{"todos[0].status: is required", "todos[0].x: unknown field; allowed fields: content, status"}},
		{"map values", `{` + validBase + `,"extra":{"ok":1,"odd key":"v"}}`, []string{`extra["odd key"]: must be an integer, got string "v"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Validate(json.RawMessage(tt.args))
			if tt.want == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("err = %v, want *ValidationError", err)
			}
			var got []string
			for _, p := range ve.Problems {
				got = append(got, p.String())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("problems:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestValidateCombinedMessage(t *testing.T) {
	s := sampleCompiled(t)
	err := s.Validate(json.RawMessage(`{"query":"","limit":99,"todos":[{"content":"c","status":"done"}],"zzz":1}`))
	want := `invalid arguments (6 problems):
- exact: is required
- NoTag: is required
- limit: must be <= 50, got 99
- query: must be at least 1 character, got 0
- todos[0].status: must be one of pending, in_progress, completed (got "done")
- zzz: unknown field; allowed fields: NoTag, any, blob, count, exact, extra, grid, level, limit, opt, page, query, raw, score, tags, todos, when`
	if err == nil || err.Error() != want {
		t.Errorf("message:\n%v\nwant:\n%s", err, want)
	}
}

func TestValidationErrorSingleAndCapped(t *testing.T) {
	one := &ValidationError{Problems: []Problem{{Path: "q", Message: "is required"}}}
	if got := one.Error(); got != "invalid arguments: q: is required" {
		t.Errorf("single: %q", got)
	}
	var many ValidationError
	for i := range 25 {
		many.Problems = append(many.Problems, Problem{Path: fmt.Sprintf("a[%d]", i), Message: "bad"})
	}
	msg := many.Error()
	if !strings.HasPrefix(msg, "invalid arguments (25 problems):") || !strings.HasSuffix(msg, "- ... and 5 more") {
		t.Errorf("capped message:\n%s", msg)
	}
	if strings.Count(msg, "\n- a[") != maxShownProblems {
		t.Errorf("shown %d problems, want %d", strings.Count(msg, "\n- a["), maxShownProblems)
	}
}

func TestValidateNotJSON(t *testing.T) {
	s := sampleCompiled(t)
	tests := []string{`{"query":`, `{} {}`, `nope`, `{"a":1,}`}
	for _, args := range tests {
		t.Run(args, func(t *testing.T) {
			err := s.Validate(json.RawMessage(args))
			if err == nil || !strings.HasPrefix(err.Error(), "arguments are not valid JSON: ") {
				t.Errorf("err = %v", err)
			}
			var ve *ValidationError
			if errors.As(err, &ve) {
				t.Error("invalid JSON reported as a ValidationError")
			}
		})
	}
}

func TestValidateEmptyMeansObject(t *testing.T) {
	tests := []struct {
		name, schema, args string
		ok                 bool
	}{
		{"empty, nothing required", `{"type":"object","properties":{}}`, ``, true},
		{"blank, nothing required", `{"type":"object"}`, " \n\t", true},
		{"empty, something required", `{"type":"object","required":["q"]}`, ``, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(json.RawMessage(tt.schema), json.RawMessage(tt.args))
			if (err == nil) != tt.ok {
				t.Errorf("err = %v, want ok=%v", err, tt.ok)
			}
		})
	}
}

func TestValidateHandWrittenSchema(t *testing.T) {
	schema := json.RawMessage(`{
		"type": "object",
		"title": "ignored",
		"properties": {
			"mode": {"type": ["string", "null"], "enum": ["fast", "slow", null]},
			"n": {"type": "number", "minimum": -1.5},
			"list": {"type": "array", "minItems": 1, "items": {"type": "string", "maxLength": 2}}
		},
		"required": ["mode"]
	}`)
	tests := []struct {
		name, args string
		want       string // "" = valid
	}{
		{"nullable enum takes null", `{"mode":null}`, ""},
		{"open object takes extras", `{"mode":"fast","other":[1]}`, ""},
		{"nullable type message", `{"mode":3}`, "mode: must be a string or null, got integer 3"},
		{"minimum with fraction", `{"mode":"fast","n":-2}`, "n: must be >= -1.5, got -2"},
		{"minItems", `{"mode":"slow","list":[]}`, "list: must have at least 1 item, got 0"},
		{"item maxLength", `{"mode":"slow","list":["abc"]}`, "list[0]: must be at most 2 characters, got 3"},
		{"out of range number", `{"mode":"slow","n":1e400}`, "n: number 1e400 is out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(schema, json.RawMessage(tt.args))
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestValidateClosedEmptyObject(t *testing.T) {
	raw, err := SchemaOf(reflect.TypeFor[struct{}]())
	if err != nil {
		t.Fatal(err)
	}
	err = Validate(raw, json.RawMessage(`{"x":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26]}`))
	if err == nil || err.Error() != "invalid arguments: x: unknown field; this object takes no fields" {
		t.Errorf("err = %v", err)
	}
	long := `{"type":"object","properties":{"e":{"enum":["a"]}}}`
	err = Validate(json.RawMessage(long), json.RawMessage(`{"e":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26]}`))
	want := `e: must be one of a (got [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23…)`
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("long value not truncated: %v", err)
	}
}

func TestCompileSchemaErrors(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`{`, "not valid JSON"},
		{`[]`, "a schema must be an object"},
		{`{"type":5}`, "schema.type: must be a string or a list of strings"},
		{`{"type":"text"}`, `unknown type "text"`},
		{`{"type":[]}`, "must not be empty"},
		{`{"properties":[]}`, "schema.properties: must be an object"},
		{`{"properties":{"a":{"type":"strin"}}}`, `schema.properties.a.type: unknown type "strin"`},
		{`{"required":"a"}`, "required: must be a list of strings"},
		{`{"required":[1]}`, "required: must be a list of strings"},
		{`{"additionalProperties":"no"}`, "additionalProperties: a schema must be an object"},
		{`{"items":true}`, "items: a schema must be an object"},
		{`{"enum":[]}`, "enum: must be a non-empty list"},
		{`{"minimum":"0"}`, "minimum: must be a number"},
		{`{"maxLength":1.5}`, "maxLength: must be a non-negative integer"},
		{`{"minItems":-1}`, "minItems: must be a non-negative integer"},
	}
	for _, tt := range tests {
		t.Run(tt.schema, func(t *testing.T) {
			_, err := CompileSchema(json.RawMessage(tt.schema))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
			if err2 := Validate(json.RawMessage(tt.schema), json.RawMessage(`{}`)); err2 == nil {
				t.Error("Validate accepted a malformed schema")
			}
		})
	}
}
