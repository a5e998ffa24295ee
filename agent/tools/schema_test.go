package tools

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

type sampleTodo struct {
	Content string `json:"content" desc:"What to do." maxLength:"200"`
	Status  string `json:"status" enum:"pending,in_progress,completed"`
}

type samplePaging struct {
	Page int `json:"page,omitempty" min:"1"`
}

// sampleArgs exercises every mapping rule of SchemaOf.
type sampleArgs struct {
	Query string          `json:"query" desc:"Search text <b> & more." minLength:"1" maxLength:"500"`
	Limit int             `json:"limit,omitempty" desc:"Max results." min:"1" max:"50" default:"10"`
	Score float64         `json:"score,omitempty" min:"0" max:"1.5"`
	Exact bool            `json:"exact"`
	Count uint8           `json:"count,omitempty"`
	Tags  []string        `json:"tags,omitempty" enum:"a,b" max:"3"`
	Todos []sampleTodo    `json:"todos,omitempty"`
	Extra map[string]int  `json:"extra,omitempty"`
	Opt   *string         `json:"opt"`
	Raw   json.RawMessage `json:"raw,omitempty"`
	Any   any             `json:"any,omitempty"`
	When  time.Time       `json:"when,omitzero"`
	Grid  [2]int          `json:"grid,omitempty"`
	Blob  []byte          `json:"blob,omitempty"`
	Level int8            `json:"level,omitempty" enum:"1,2,3"`
	Skip  string          `json:"-"`
	NoTag string
	//lint:ignore U1000 the test checks that unexported fields stay out of the schema.
	hidden string
	samplePaging
}

const sampleSchema = `{"type":"object","properties":{` +
	`"query":{"type":"string","description":"Search text <b> & more.","minLength":1,"maxLength":500},` +
	`"limit":{"type":"integer","description":"Max results.","default":10,"minimum":1,"maximum":50},` +
	`"score":{"type":"number","minimum":0,"maximum":1.5},` +
	`"exact":{"type":"boolean"},` +
	`"count":{"type":"integer","minimum":0},` +
	`"tags":{"type":"array","maxItems":3,"items":{"type":"string","enum":["a","b"]}},` +
	`"todos":{"type":"array","items":{"type":"object","properties":{` +
	`"content":{"type":"string","description":"What to do.","maxLength":200},` +
	`"status":{"type":"string","enum":["pending","in_progress","completed"]}},` +
	`"required":["content","status"],"additionalProperties":false}},` +
	`"extra":{"type":"object","additionalProperties":{"type":"integer"}},` +
	`"opt":{"type":"string"},` +
	`"raw":{},` +
	`"any":{},` +
	`"when":{"type":"string"},` +
	`"grid":{"type":"array","minItems":2,"maxItems":2,"items":{"type":"integer"}},` +
	`"blob":{"type":"string"},` +
	`"level":{"type":"integer","enum":[1,2,3]},` +
	`"NoTag":{"type":"string"},` +
	`"page":{"type":"integer","minimum":1}},` +
	`"required":["query","exact","NoTag"],"additionalProperties":false}`

func TestSchemaOfRepresentativeStruct(t *testing.T) {
	got, err := SchemaOf(reflect.TypeFor[sampleArgs]())
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != sampleSchema {
		t.Errorf("schema mismatch\n got: %s\nwant: %s", got, sampleSchema)
	}
	if !json.Valid(got) {
		t.Error("schema is not valid JSON")
	}
	again, err := SchemaOf(reflect.TypeFor[*sampleArgs]())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, again) {
		t.Error("SchemaOf is not deterministic (or pointer differs from struct)")
	}
}

func TestSchemaOfShapes(t *testing.T) {
	type empty struct{}
	type named struct {
		Inner samplePaging `json:"inner"`
	}
	tests := []struct {
		name string
		typ  reflect.Type
		want string
	}{
		{"empty struct", reflect.TypeFor[empty](), `{"type":"object","properties":{},"required":[],"additionalProperties":false}`},
		{"embedded with json name is nested", reflect.TypeFor[named](),
			`{"type":"object","properties":{"inner":{"type":"object","properties":{"page":{"type":"integer","minimum":1}},"required":[],"additionalProperties":false}},"required":["inner"],"additionalProperties":false}`},
		{"string", reflect.TypeFor[string](), `{"type":"string"}`},
		{"dash comma names a field -", reflect.TypeFor[struct {
			//lint:ignore SA5008 the case is what encoding/json does with this tag.
			D string `json:"-,omitempty"`
		}](), `{"type":"object","properties":{"-":{"type":"string"}},"required":[],"additionalProperties":false}`},
		{"slice of maps", reflect.TypeFor[[]map[string]bool](), `{"type":"array","items":{"type":"object","additionalProperties":{"type":"boolean"}}}`},
		{"pointer to float", reflect.TypeFor[*float32](), `{"type":"number"}`},
		{"number enum and bounds", reflect.TypeFor[struct {
			F float32 `json:"f" enum:"0.5, 1.25" min:"-0.5" default:"1.25"`
		}](), `{"type":"object","properties":{"f":{"type":"number","enum":[0.5,1.25],"default":1.25,"minimum":-0.5}},"required":["f"],"additionalProperties":false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SchemaOf(tt.typ)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

type recursive struct {
	Children []recursive `json:"children"`
}

func TestSchemaOfErrors(t *testing.T) {
	tests := []struct {
		name string
		typ  reflect.Type
		want string
	}{
		{"channel", reflect.TypeFor[struct {
			C chan int `json:"c"`
		}](), "unsupported type chan int"},
		{"func", reflect.TypeFor[struct{ F func() }](), "unsupported type"},
		{"complex", reflect.TypeFor[struct{ C complex128 }](), "unsupported type"},
		{"non-empty interface", reflect.TypeFor[struct{ E error }](), "non-empty interface"},
		{"int map key", reflect.TypeFor[struct{ M map[int]string }](), "only string keys"},
		{"recursive", reflect.TypeFor[recursive](), "recursive type"},
		{"string option", reflect.TypeFor[struct {
			N int `json:"n,string"`
		}](), `",string" option`},
		{"duplicate name", reflect.TypeFor[struct {
			A string `json:"X"`
			X string
		}](), `duplicate property name "X"`},
		{"enum on bool", reflect.TypeFor[struct {
			B bool `json:"b" enum:"true"`
		}](), "enum tag applies to string, integer and number fields"},
		{"enum not integer", reflect.TypeFor[struct {
			N int `json:"n" enum:"1,x"`
		}](), `enum value "x" is not an integer`},
		{"empty enum value", reflect.TypeFor[struct {
			S string `json:"s" enum:"a,,b"`
		}](), "empty value"},
		{"min on string", reflect.TypeFor[struct {
			S string `json:"s" min:"1"`
		}](), "use minLength/maxLength"},
		{"fractional integer bound", reflect.TypeFor[struct {
			N int `json:"n" max:"1.5"`
		}](), "whole numbers"},
		{"infinite bound", reflect.TypeFor[struct {
			F float64 `json:"f" max:"Inf"`
		}](), "finite"},
		{"negative item count", reflect.TypeFor[struct {
			L []int `json:"l" min:"-1"`
		}](), "non-negative integer"},
		{"maxLength on int", reflect.TypeFor[struct {
			N int `json:"n" maxLength:"3"`
		}](), "maxLength tag applies to string fields"},
		{"min above max", reflect.TypeFor[struct {
			N int `json:"n" min:"5" max:"1"`
		}](), "min 5 is greater than max 1"},
		{"default outside enum", reflect.TypeFor[struct {
			S string `json:"s" enum:"a,b" default:"c"`
		}](), `default tag "c": must be one of a, b`},
		{"default above max", reflect.TypeFor[struct {
			N int `json:"n,omitempty" max:"5" default:"9"`
		}](), "must be <= 5"},
		{"default not JSON", reflect.TypeFor[struct {
			N int `json:"n,omitempty" default:"ten"`
		}](), "not a JSON value"},
		{"number enum", reflect.TypeFor[struct {
			F float64 `json:"f" enum:"0.5,x"`
		}](), `enum value "x": "x" is not a number`},
		{"enum on untyped", reflect.TypeFor[struct {
			A any `json:"a" enum:"1"`
		}](), "not untyped fields"},
		{"minLength above maxLength", reflect.TypeFor[struct {
			S []string `json:"s" minLength:"3" maxLength:"2"`
		}](), "minLength 3 is greater than maxLength 2"},
		{"minItems above maxItems", reflect.TypeFor[struct {
			S []string `json:"s" min:"3" max:"2"`
		}](), "min 3 is greater than max 2"},
		{"bad map value", reflect.TypeFor[struct {
			M map[string]func() `json:"m"`
		}](), "field M: unsupported type func()"},
		{"embedded pointer", reflect.TypeFor[struct{ *samplePaging }](), "embedded pointers"},
		{"JSON Schema spelling of min", reflect.TypeFor[struct {
			N int `json:"n" minimum:"500"`
		}](), "minimum tag is not read"},
		{"JSON Schema spelling of max", reflect.TypeFor[struct {
			N int `json:"n" maximum:"40000"`
		}](), "maximum tag is not read"},
		{"pattern", reflect.TypeFor[struct {
			S string `json:"s" pattern:"^a"`
		}](), "pattern tag is not read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := SchemaOf(tt.typ)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestSchemaOfNil(t *testing.T) {
	if _, err := SchemaOf(nil); err == nil {
		t.Error("SchemaOf(nil) succeeded")
	}
}

func TestGeneratedSchemaCompiles(t *testing.T) {
	raw, err := SchemaOf(reflect.TypeFor[sampleArgs]())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CompileSchema(raw); err != nil {
		t.Fatalf("generated schema does not compile: %v", err)
	}
}
