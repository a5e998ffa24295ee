package tools

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// FuzzValidate checks that neither CompileSchema nor Validate panics on
// arbitrary input, and that Validate only ever returns its two documented
// error kinds.
func FuzzValidate(f *testing.F) {
	sample, err := SchemaOf(reflect.TypeFor[sampleArgs]())
	if err != nil {
		f.Fatal(err)
	}
	seeds := []struct{ schema, args string }{
		{string(sample), `{"query":"q","exact":true,"NoTag":""}`},
		{string(sample), `{"todos":[{"status":"x"},{}],"extra":{"a":"b"},"grid":[1,2,3]}`},
		{string(sample), ``},
		{string(sample), `[1,2`},
		{`{"type":["string","null"],"enum":["a",null]}`, `null`},
		{`{"type":"object","additionalProperties":{"type":"array","items":{}}}`, `{"a":[[[[]]]]}`},
		{`{"type":"number","minimum":1e308,"maximum":-1e308}`, `1e999`},
		{`{"type":"integer","enum":[1,2.0,"3"]}`, `2`},
		{`{}`, `{"a":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`},
	}
	for _, s := range seeds {
		f.Add([]byte(s.schema), []byte(s.args))
	}
	compiled, err := CompileSchema(sample)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, schema, args []byte) {
		checkErr := func(err error) {
			var ve *ValidationError
			if err == nil || errors.As(err, &ve) {
				if ve != nil && len(ve.Problems) == 0 {
					t.Fatal("ValidationError without problems")
				}
				return
			}
			if !strings.HasPrefix(err.Error(), "arguments are not valid JSON: ") {
				t.Fatalf("unexpected error kind: %v", err)
			}
		}
		checkErr(compiled.Validate(json.RawMessage(args)))
		if s, err := CompileSchema(json.RawMessage(schema)); err == nil {
			checkErr(s.Validate(json.RawMessage(args)))
			_ = s.Validate(json.RawMessage(schema))
		}
	})
}
