package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Tolerant arguments (C12): real models, small local ones especially,
// send a string where the schema wants a list, numbers and booleans as
// strings, an object or array as a JSON-encoded string, or extra
// properties. Repair fixes exactly those before validation, so the call
// runs instead of being refused again and again; what it cannot fix is
// left for Validate to refuse.

// Repair returns args with the common mistakes fixed against s and one line
// per fix (e.g. `names: a string where a list is expected, made a
// one-element list`). Arguments that are not JSON, or need no fix, come
// back unchanged with no lines. Values that already fit are never touched.
func (s *Schema) Repair(args json.RawMessage) (json.RawMessage, []string) {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 {
		return args, nil
	}
	v, err := decodeJSONValue(trimmed)
	if err != nil {
		return args, nil
	}
	var fixes []string
	out := s.repair(v, "", &fixes)
	if len(fixes) == 0 {
		return args, nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return args, nil
	}
	return json.RawMessage(bytes.TrimSpace(b.Bytes())), fixes
}

// repair fixes v against s; path names v in fix lines.
func (s *Schema) repair(v any, path string, fixes *[]string) any {
	if s == nil {
		return v
	}
	if !s.typeMatches(v) {
		if fixed, how, ok := s.coerce(v); ok {
			*fixes = append(*fixes, fmt.Sprintf("%s: %s", pathName(path), how))
			v = fixed
		}
	}
	switch x := v.(type) {
	case map[string]any:
		return s.repairObject(x, path, fixes)
	case []any:
		if s.items != nil {
			for i, e := range x {
				x[i] = s.items.repair(e, indexPath(path, i), fixes)
			}
		}
	}
	return v
}

// repairObject drops unknown properties of a closed object and repairs
// the known ones.
func (s *Schema) repairObject(x map[string]any, path string, fixes *[]string) map[string]any {
	if s.properties == nil && !s.closed {
		return x
	}
	keys := make([]string, 0, len(x))
	for k := range x {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		ps, known := s.properties[k]
		switch {
		case known:
			x[k] = ps.repair(x[k], joinPath(path, k), fixes)
		case s.closed:
			delete(x, k)
			*fixes = append(*fixes, fmt.Sprintf("%s: unknown property dropped", pathName(joinPath(path, k))))
		case s.additional != nil:
			x[k] = s.additional.repair(x[k], joinPath(path, k), fixes)
		}
	}
	return x
}

// coerce turns v into one of s's types when a common mistake explains the
// mismatch; it reports what it did.
func (s *Schema) coerce(v any) (any, string, bool) {
	for _, t := range s.types {
		switch t {
		case "array":
			if str, ok := v.(string); ok {
				if arr, ok := decodedAs[[]any](str); ok {
					return arr, "a JSON-encoded list sent as a string, decoded", true
				}
			}
			if v != nil {
				return []any{v}, fmt.Sprintf("a single %s where a list is expected, made a one-element list", jsonType(v)), true
			}
		case "object":
			if str, ok := v.(string); ok {
				if obj, ok := decodedAs[map[string]any](str); ok {
					return obj, "a JSON-encoded object sent as a string, decoded", true
				}
			}
		case "integer", "number":
			if str, ok := v.(string); ok {
				n := json.Number(strings.TrimSpace(str))
				if _, err := n.Float64(); err == nil && isJSONNumber(string(n)) {
					if t == "number" || jsonType(n) == "integer" {
						return n, "a number sent as a string, converted", true
					}
				}
			}
		case "boolean":
			if str, ok := v.(string); ok {
				if b, err := strconv.ParseBool(strings.ToLower(strings.TrimSpace(str))); err == nil {
					return b, "a boolean sent as a string, converted", true
				}
			}
		case "string":
			switch x := v.(type) {
			case json.Number:
				return string(x), "a number where text is expected, used as text", true
			case bool:
				return strconv.FormatBool(x), "a boolean where text is expected, used as text", true
			}
		}
	}
	return nil, "", false
}

// decodedAs decodes a string holding JSON of type T.
func decodedAs[T any](s string) (T, bool) {
	var zero T
	s = strings.TrimSpace(s)
	if s == "" || (s[0] != '[' && s[0] != '{') {
		return zero, false
	}
	v, err := decodeJSONValue([]byte(s))
	if err != nil {
		return zero, false
	}
	t, ok := v.(T)
	return t, ok
}

// isJSONNumber reports whether s is a JSON number literal.
func isJSONNumber(s string) bool {
	var n json.Number
	return json.Unmarshal([]byte(s), &n) == nil && s != ""
}

func pathName(path string) string {
	if path == "" {
		return "arguments"
	}
	return path
}

// Shape describes what s expects in one line, for a refusal the model can
// act on: `{"names": [string, ...] (required), "rows": integer 1–50}`.
func (s *Schema) Shape() string {
	if s == nil {
		return "any value"
	}
	return s.shape(0)
}

func (s *Schema) shape(depth int) string {
	if depth > 3 {
		return "…"
	}
	if len(s.enum) > 0 {
		return "one of " + quoteList(s.enum)
	}
	var parts []string
	for _, t := range s.types {
		switch t {
		case "array":
			item := "any"
			if s.items != nil {
				item = s.items.shape(depth + 1)
			}
			parts = append(parts, "["+item+", ...]")
		case "object":
			parts = append(parts, s.objectShape(depth))
		case "null":
		default:
			parts = append(parts, t)
		}
	}
	if len(parts) == 0 {
		if s.properties != nil {
			return s.objectShape(depth)
		}
		return "any"
	}
	return strings.Join(parts, " or ")
}

func (s *Schema) objectShape(depth int) string {
	if len(s.propNames) == 0 {
		return "{}"
	}
	fields := make([]string, 0, len(s.propNames))
	for _, name := range s.propNames {
		f := strconv.Quote(name) + ": " + s.properties[name].shape(depth+1)
		if slices.Contains(s.required, name) {
			f += " (required)"
		}
		fields = append(fields, f)
	}
	return "{" + strings.Join(fields, ", ") + "}"
}
