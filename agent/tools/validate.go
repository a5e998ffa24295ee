package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Schema is a compiled JSON Schema of the subset SchemaOf emits: type (a
// name or a list of names among string, integer, number, boolean, object,
// array, null), properties, required, additionalProperties (a boolean or a
// schema; absent means allowed), items, enum, minimum, maximum, minLength,
// maxLength, minItems and maxItems. description, default, title and other
// keywords are accepted and ignored. Hand-written schemas of that subset
// compile too. A Schema is immutable and safe for concurrent use.
type Schema struct {
	types      []string // nil: any type
	properties map[string]*Schema
	propNames  []string // sorted, for messages
	required   []string
	closed     bool    // additionalProperties false
	additional *Schema // additionalProperties as a schema
	items      *Schema
	enum       []any
	minimum    *float64
	maximum    *float64
	minLength  int // -1 when absent, like the other counts
	maxLength  int
	minItems   int
	maxItems   int
}

// Validate checks raw tool arguments against a JSON Schema. It compiles the
// schema on every call; callers that validate often keep a compiled Schema.
// See Schema.Validate for the error contract; a malformed schema is a plain
// error.
func Validate(schema, args json.RawMessage) error {
	s, err := CompileSchema(schema)
	if err != nil {
		return err
	}
	return s.Validate(args)
}

// CompileSchema parses a JSON Schema of the supported subset. It returns an
// error naming the keyword when the schema is not valid JSON, not an object,
// or uses a supported keyword with a value of the wrong shape.
func CompileSchema(raw json.RawMessage) (*Schema, error) {
	v, err := decodeJSONValue(raw)
	if err != nil {
		return nil, fmt.Errorf("tools: schema is not valid JSON: %w", err)
	}
	s, err := compileNode(v, "")
	if err != nil {
		return nil, fmt.Errorf("tools: invalid schema: %w", err)
	}
	return s, nil
}

// Validate checks raw tool arguments. Empty or blank arguments mean {}.
// Arguments that are not one JSON value give an error whose text starts with
// "arguments are not valid JSON: " (wrapping the decoder's error); otherwise
// every mismatch is collected into a *ValidationError. A null sent for a
// property that is not required and whose schema does not allow null is
// treated as absent: models often send null for omitted options, and
// encoding/json leaves the field at its zero value.
func (s *Schema) Validate(args json.RawMessage) error {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 {
		trimmed = []byte("{}")
	}
	v, err := decodeJSONValue(trimmed)
	if err != nil {
		return fmt.Errorf("arguments are not valid JSON: %w", err)
	}
	var probs []Problem
	s.check(v, "", &probs)
	if len(probs) > 0 {
		return &ValidationError{Problems: probs}
	}
	return nil
}

// compileNode compiles one schema object; at names it for errors.
func compileNode(v any, at string) (*Schema, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: a schema must be an object", where(at))
	}
	s := &Schema{minLength: -1, maxLength: -1, minItems: -1, maxItems: -1}
	steps := []func(map[string]any, string) error{
		s.compileType, s.compileObject, s.compileItems, s.compileEnum, s.compileBounds,
	}
	for _, step := range steps {
		if err := step(m, at); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func where(at string) string {
	if at == "" {
		return "schema"
	}
	return at
}

func (s *Schema) compileType(m map[string]any, at string) error {
	switch t := m["type"].(type) {
	case nil:
		if _, present := m["type"]; present {
			return fmt.Errorf("%s.type: must be a string or a list of strings", where(at))
		}
	case string:
		s.types = []string{t}
	case []any:
		for _, e := range t {
			name, ok := e.(string)
			if !ok {
				return fmt.Errorf("%s.type: must be a string or a list of strings", where(at))
			}
			s.types = append(s.types, name)
		}
		if len(s.types) == 0 {
			return fmt.Errorf("%s.type: must not be empty", where(at))
		}
	default:
		return fmt.Errorf("%s.type: must be a string or a list of strings", where(at))
	}
	for _, name := range s.types {
		if !slices.Contains([]string{"string", "integer", "number", "boolean", "object", "array", "null"}, name) {
			return fmt.Errorf("%s.type: unknown type %q", where(at), name)
		}
	}
	return nil
}

func (s *Schema) compileObject(m map[string]any, at string) error {
	if p, ok := m["properties"]; ok {
		pm, ok := p.(map[string]any)
		if !ok {
			return fmt.Errorf("%s.properties: must be an object", where(at))
		}
		s.properties = make(map[string]*Schema, len(pm))
		for name, sub := range pm {
			c, err := compileNode(sub, joinPath(where(at)+".properties", name))
			if err != nil {
				return err
			}
			s.properties[name] = c
			s.propNames = append(s.propNames, name)
		}
		slices.Sort(s.propNames)
	}
	if r, ok := m["required"]; ok {
		list, ok := r.([]any)
		if !ok {
			return fmt.Errorf("%s.required: must be a list of strings", where(at))
		}
		for _, e := range list {
			name, ok := e.(string)
			if !ok {
				return fmt.Errorf("%s.required: must be a list of strings", where(at))
			}
			s.required = append(s.required, name)
		}
	}
	switch a := m["additionalProperties"].(type) {
	case nil:
	case bool:
		s.closed = !a
	default:
		c, err := compileNode(a, where(at)+".additionalProperties")
		if err != nil {
			return err
		}
		s.additional = c
	}
	return nil
}

func (s *Schema) compileItems(m map[string]any, at string) error {
	if it, ok := m["items"]; ok {
		c, err := compileNode(it, where(at)+".items")
		if err != nil {
			return err
		}
		s.items = c
	}
	return nil
}

func (s *Schema) compileEnum(m map[string]any, at string) error {
	if e, ok := m["enum"]; ok {
		list, ok := e.([]any)
		if !ok || len(list) == 0 {
			return fmt.Errorf("%s.enum: must be a non-empty list", where(at))
		}
		s.enum = list
	}
	return nil
}

func (s *Schema) compileBounds(m map[string]any, at string) error {
	bounds := []struct {
		key string
		dst **float64
	}{{"minimum", &s.minimum}, {"maximum", &s.maximum}}
	for _, b := range bounds {
		if v, ok := m[b.key]; ok {
			f, ok := numberValue(v)
			if !ok {
				return fmt.Errorf("%s.%s: must be a number", where(at), b.key)
			}
			*b.dst = &f
		}
	}
	counts := []struct {
		key string
		dst *int
	}{{"minLength", &s.minLength}, {"maxLength", &s.maxLength}, {"minItems", &s.minItems}, {"maxItems", &s.maxItems}}
	for _, c := range counts {
		if v, ok := m[c.key]; ok {
			f, ok := numberValue(v)
			if !ok || f < 0 || f > math.MaxInt32 || f != math.Trunc(f) {
				return fmt.Errorf("%s.%s: must be a non-negative integer", where(at), c.key)
			}
			*c.dst = int(f)
		}
	}
	return nil
}

// numberValue reads a decoded JSON number.
func numberValue(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case float64:
		return n, true
	}
	return 0, false
}

// joinPath appends an object key to a JSON path: a.b, or a["odd key"] for
// keys that are not identifiers.
func joinPath(path, key string) string {
	if !isIdentifier(key) {
		return path + "[" + fmt.Sprintf("%q", key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := r == '_' || r == '$' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// indexPath appends an array index to a JSON path.
func indexPath(path string, i int) string {
	return path + "[" + fmt.Sprint(i) + "]"
}

// quoteList renders enum values for a message: strings bare, others as JSON.
func quoteList(vals []any) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = valueText(v)
	}
	return strings.Join(parts, ", ")
}

// schemaHolder is implemented by tools that keep their compiled schema
// (tools built by New).
type schemaHolder interface{ compiledSchema() *Schema }

// SchemaFor returns t's compiled parameter schema: the one a typed tool
// compiled at construction, or CompileSchema(t.Parameters()) for other
// tools. The executor validates calls with it (R13).
func SchemaFor(t Tool) (*Schema, error) {
	if h, ok := t.(schemaHolder); ok {
		return h.compiledSchema(), nil
	}
	s, err := CompileSchema(t.Parameters())
	if err != nil {
		return nil, fmt.Errorf("tools: %s: %w", t.Name(), err)
	}
	return s, nil
}
