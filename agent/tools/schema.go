package tools

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// SchemaOf derives the JSON Schema of a Go type, normally a tool's argument
// struct. The mapping (R11; the generator and Validate share this subset):
//
//   - struct → {"type":"object","properties":{...},"required":[...],
//     "additionalProperties":false}; properties keep field order. The property
//     name is the `json` tag name (the Go field name when the tag has none);
//     `json:"-"` fields, unexported fields and the fields of unexported
//     non-embedded types are skipped; embedded structs without a json name have
//     their fields promoted, like encoding/json does.
//   - Required rule: a field is required unless its json tag has omitempty or
//     omitzero, or its type is a pointer. (A null sent for an optional field
//     is accepted as "absent", see Schema.Validate.)
//   - string → string; bool → boolean; every int → integer; every uint →
//     integer with minimum 0; float32/float64 → number; slice and array →
//     array with items ([]byte → string, as encoding/json base64-encodes it;
//     a [N]T array gets minItems = maxItems = N); map with string keys →
//     object with additionalProperties = the value's schema; pointer → the
//     pointee's schema; any, json.RawMessage and other json.Unmarshaler types
//     → {} (no constraint); encoding.TextUnmarshaler types → string.
//   - Field tags: desc:"..." (description), enum:"a,b,c" (string, integer or
//     number fields; on a slice it constrains the items), min:"0" max:"10"
//     (minimum/maximum on integer and number fields, minItems/maxItems on
//     slices), minLength/maxLength (strings; on a slice of strings they
//     constrain the items), default:"..." (documentation only; the value is
//     checked against the field's own schema). JSON Schema keywords spelled
//     as tags (minimum:"0", maximum, minItems, maxItems, pattern, format,
//     required, description) are not read and are an error.
//
// Recursive types, channels, functions, complex numbers, non-empty
// interfaces, maps with non-string keys, the ",string" json option and tags
// that do not fit the field's type are errors. The encoded bytes are
// deterministic: the same type always yields identical bytes, and HTML
// characters are not escaped.
func SchemaOf(t reflect.Type) (json.RawMessage, error) {
	if t == nil {
		return nil, errors.New("tools: schema of nil type")
	}
	b := schemaBuilder{visiting: map[reflect.Type]bool{}}
	n, err := b.typeNode(t)
	if err != nil {
		return nil, fmt.Errorf("tools: schema of %s: %w", t, err)
	}
	raw, err := n.encode()
	if err != nil {
		return nil, fmt.Errorf("tools: schema of %s: %w", t, err)
	}
	return raw, nil
}

// schemaBuilder walks one type; visiting holds the structs on the current
// path so that recursive types are reported instead of looping.
type schemaBuilder struct {
	visiting map[reflect.Type]bool
}

// implements reports whether t or *t implements iface (decoding uses *t).
func implements(t, iface reflect.Type) bool {
	return t.Implements(iface) || (t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(iface))
}

func (b *schemaBuilder) typeNode(t reflect.Type) (*node, error) {
	if t == reflect.TypeFor[json.RawMessage]() {
		return &node{}, nil
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		if implements(t, reflect.TypeFor[encoding.TextUnmarshaler]()) {
			return &node{typ: "string"}, nil
		}
		if implements(t, reflect.TypeFor[json.Unmarshaler]()) {
			return &node{}, nil
		}
	}
	switch t.Kind() {
	case reflect.String:
		return &node{typ: "string"}, nil
	case reflect.Bool:
		return &node{typ: "boolean"}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return &node{typ: "integer"}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		zero := 0.0
		return &node{typ: "integer", minimum: &zero}, nil
	case reflect.Float32, reflect.Float64:
		return &node{typ: "number"}, nil
	case reflect.Slice, reflect.Array:
		return b.arrayNode(t)
	case reflect.Map:
		return b.mapNode(t)
	case reflect.Struct:
		return b.structNode(t)
	case reflect.Pointer:
		return b.typeNode(t.Elem())
	case reflect.Interface:
		if t.NumMethod() != 0 {
			return nil, fmt.Errorf("non-empty interface %s cannot be decoded from JSON", t)
		}
		return &node{}, nil
	}
	return nil, fmt.Errorf("unsupported type %s", t)
}

func (b *schemaBuilder) arrayNode(t reflect.Type) (*node, error) {
	if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
		return &node{typ: "string"}, nil
	}
	items, err := b.typeNode(t.Elem())
	if err != nil {
		return nil, err
	}
	n := &node{typ: "array", items: items}
	if t.Kind() == reflect.Array {
		l := t.Len()
		n.minItems, n.maxItems = &l, &l
	}
	return n, nil
}

func (b *schemaBuilder) mapNode(t reflect.Type) (*node, error) {
	if t.Key().Kind() != reflect.String {
		return nil, fmt.Errorf("map key type %s: only string keys are supported", t.Key())
	}
	vals, err := b.typeNode(t.Elem())
	if err != nil {
		return nil, err
	}
	return &node{typ: "object", additional: vals}, nil
}

func (b *schemaBuilder) structNode(t reflect.Type) (*node, error) {
	if b.visiting[t] {
		return nil, fmt.Errorf("recursive type %s is not supported", t)
	}
	b.visiting[t] = true
	defer delete(b.visiting, t)
	n := &node{typ: "object", isStruct: true}
	if err := b.addFields(n, t, map[string]bool{}); err != nil {
		return nil, err
	}
	return n, nil
}

// addFields appends the properties of struct t to n, promoting the fields
// of embedded structs that have no json name.
func (b *schemaBuilder) addFields(n *node, t reflect.Type, seen map[string]bool) error {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts := parseJSONTag(tag)
		if f.Anonymous && name == "" {
			if f.Type.Kind() == reflect.Struct {
				if err := b.addFields(n, f.Type, seen); err != nil {
					return err
				}
				continue
			}
			if f.Type.Kind() == reflect.Pointer {
				return fmt.Errorf("field %s: embedded pointers are not supported", f.Name)
			}
		}
		if !f.IsExported() {
			continue
		}
		if hasJSONOption(opts, "string") {
			return fmt.Errorf("field %s: the json \",string\" option is not supported", f.Name)
		}
		if name == "" {
			name = f.Name
		}
		if seen[name] {
			return fmt.Errorf("field %s: duplicate property name %q", f.Name, name)
		}
		seen[name] = true
		fn, err := b.typeNode(f.Type)
		if err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
		if err := applyTags(fn, f.Tag); err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
		n.props = append(n.props, property{name: name, schema: fn})
		if !hasJSONOption(opts, "omitempty") && !hasJSONOption(opts, "omitzero") && f.Type.Kind() != reflect.Pointer {
			n.required = append(n.required, name)
		}
	}
	return nil
}

// parseJSONTag splits a json struct tag into its name and options.
func parseJSONTag(tag string) (name, opts string) {
	name, opts, _ = strings.Cut(tag, ",")
	return name, opts
}

func hasJSONOption(opts, want string) bool {
	for o := range strings.SplitSeq(opts, ",") {
		if o == want {
			return true
		}
	}
	return false
}
