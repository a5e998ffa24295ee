package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRepair(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","additionalProperties":false,"required":["names"],"properties":{
		"names":{"type":"array","items":{"type":"string"}},
		"rows":{"type":"integer","minimum":1,"maximum":50},
		"ratio":{"type":"number"},
		"exact":{"type":"boolean"},
		"id":{"type":"string"},
		"filter":{"type":"object","additionalProperties":false,"properties":{"year":{"type":"integer"}}}}}`)
	s, err := CompileSchema(schema)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, args, want string
		fixes            int
	}{
		{"already fine", `{"names":["a"],"rows":3}`, `{"names":["a"],"rows":3}`, 0},
		{"scalar for array", `{"names":"download_paper"}`, `{"names":["download_paper"]}`, 1},
		{"JSON-encoded list", `{"names":"[\"a\",\"b\"]"}`, `{"names":["a","b"]}`, 1},
		{"number and boolean as strings", `{"names":["a"],"rows":"10","ratio":" 0.5","exact":"True"}`, `{"exact":true,"names":["a"],"ratio":0.5,"rows":10}`, 3},
		{"number for text keeps its digits", `{"names":["a"],"id":2305.01230}`, `{"id":"2305.01230","names":["a"]}`, 1},
		{"JSON-encoded object", `{"names":["a"],"filter":"{\"year\":\"2020\"}"}`, `{"filter":{"year":2020},"names":["a"]}`, 2},
		{"unknown properties dropped", `{"names":["a"],"verbose":true,"filter":{"year":1,"x":2}}`, `{"filter":{"year":1},"names":["a"]}`, 2},
		{"whole arguments double-encoded", `"{\"names\":[\"a\"]}"`, `{"names":["a"]}`, 1},
		{"items repaired too", `{"names":[1,"b"]}`, `{"names":["1","b"]}`, 1},
		{"not a number stays", `{"names":["a"],"rows":"many"}`, `{"names":["a"],"rows":"many"}`, 0},
		{"invalid JSON untouched", `{"names":`, `{"names":`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, fixes := s.Repair(json.RawMessage(tt.args))
			if string(got) != tt.want || len(fixes) != tt.fixes {
				t.Fatalf("Repair(%s) = %s %q, want %s with %d fixes", tt.args, got, fixes, tt.want, tt.fixes)
			}
			if tt.fixes > 0 && s.Validate(got) != nil && tt.name != "not a number stays" {
				t.Fatalf("repaired arguments still invalid: %v", s.Validate(got))
			}
		})
	}
	if shape := s.Shape(); !strings.Contains(shape, `"names": [string, ...] (required)`) || !strings.Contains(shape, `"rows": integer`) {
		t.Fatalf("shape %s", shape)
	}
}

func FuzzRepair(f *testing.F) {
	s, err := CompileSchema(json.RawMessage(`{"type":"object","properties":{"a":{"type":"array","items":{"type":"integer"}},"b":{"type":"boolean"},"o":{"type":"object","properties":{"n":{"type":"number"}}}}}`))
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{`{"a":"1"}`, `{"a":"[1,2]","b":"false"}`, `{"o":"{\"n\":\"2\"}"}`, `"{}"`, `[]`, `{"a":null}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, args string) {
		out, fixes := s.Repair(json.RawMessage(args))
		if len(fixes) == 0 && string(out) != args {
			t.Fatalf("changed without a fix line: %q → %q", args, out)
		}
		if len(fixes) > 0 && !json.Valid(out) {
			t.Fatalf("repair produced invalid JSON: %q", out)
		}
		again, more := s.Repair(out)
		if len(fixes) > 0 && len(more) > 0 && string(again) == string(out) {
			t.Fatalf("a repair line without a change: %q", more)
		}
	})
}
