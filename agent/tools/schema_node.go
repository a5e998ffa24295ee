package tools

import (
	"bytes"
	"encoding/json"
)

// node is a schema under construction. Zero values mean "keyword absent";
// typ "" means "no type constraint".
type node struct {
	typ      string
	desc     string
	enum     []any
	def      any
	hasDef   bool
	minimum  *float64
	maximum  *float64
	minLen   *int
	maxLen   *int
	minItems *int
	maxItems *int
	items    *node
	// isStruct marks an object derived from a struct: it always carries
	// properties, required and additionalProperties false.
	isStruct   bool
	props      []property
	required   []string
	additional *node // map values
}

// property is one struct field, kept in field order.
type property struct {
	name   string
	schema *node
}

// encode renders n as compact JSON with a fixed key order and without HTML
// escaping, so the same node always gives the same bytes.
func (n *node) encode() (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(n.ordered()); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimSpace(buf.Bytes())), nil
}

// ordered lists n's keywords in their fixed output order.
func (n *node) ordered() orderedObject {
	var o orderedObject
	if n.typ != "" {
		o = append(o, keyValue{"type", n.typ})
	}
	if n.desc != "" {
		o = append(o, keyValue{"description", n.desc})
	}
	if len(n.enum) > 0 {
		o = append(o, keyValue{"enum", n.enum})
	}
	if n.hasDef {
		o = append(o, keyValue{"default", n.def})
	}
	o = appendIf(o, "minimum", n.minimum)
	o = appendIf(o, "maximum", n.maximum)
	o = appendIf(o, "minLength", n.minLen)
	o = appendIf(o, "maxLength", n.maxLen)
	o = appendIf(o, "minItems", n.minItems)
	o = appendIf(o, "maxItems", n.maxItems)
	if n.items != nil {
		o = append(o, keyValue{"items", n.items.ordered()})
	}
	if n.isStruct {
		props := orderedObject{}
		for _, p := range n.props {
			props = append(props, keyValue{p.name, p.schema.ordered()})
		}
		required := n.required
		if required == nil {
			required = []string{}
		}
		o = append(o, keyValue{"properties", props}, keyValue{"required", required},
			keyValue{"additionalProperties", false})
	}
	if n.additional != nil {
		o = append(o, keyValue{"additionalProperties", n.additional.ordered()})
	}
	return o
}

func appendIf[T any](o orderedObject, key string, v *T) orderedObject {
	if v == nil {
		return o
	}
	return append(o, keyValue{key, *v})
}

// keyValue is one member of an orderedObject.
type keyValue struct {
	key   string
	value any
}

// orderedObject is a JSON object whose members keep their order.
type orderedObject []keyValue

// MarshalJSON writes the members in order.
func (o orderedObject) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	buf.WriteByte('{')
	for i, kv := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := enc.Encode(kv.key); err != nil {
			return nil, err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		buf.WriteByte(':')
		if err := enc.Encode(kv.value); err != nil {
			return nil, err
		}
		buf.Truncate(buf.Len() - 1)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
