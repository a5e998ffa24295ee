package tools

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Problem is one mismatch between arguments and their schema.
type Problem struct {
	// Path names the value in JSON path form: "query", "todos[2].status";
	// "" is the arguments object itself.
	Path string
	// Message says what is wrong, e.g. "is required",
	// "must be one of pending, in_progress, completed".
	Message string
}

// String renders the problem as "path: message" ("arguments: message" for
// the root).
func (p Problem) String() string {
	path := p.Path
	if path == "" {
		path = "arguments"
	}
	return path + ": " + p.Message
}

// ValidationError lists every problem found in one set of arguments, in a
// deterministic order (missing required fields of an object first, then its
// members by name). Its text is meant for the model.
type ValidationError struct {
	Problems []Problem
}

// maxShownProblems caps the message so one wildly wrong call cannot flood
// the conversation; Problems always holds them all.
const maxShownProblems = 20

// Error renders the problems, one per line when there are several.
func (e *ValidationError) Error() string {
	if len(e.Problems) == 1 {
		return "invalid arguments: " + e.Problems[0].String()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "invalid arguments (%d problems):", len(e.Problems))
	for i, p := range e.Problems {
		if i == maxShownProblems {
			fmt.Fprintf(&b, "\n- ... and %d more", len(e.Problems)-i)
			break
		}
		b.WriteString("\n- " + p.String())
	}
	return b.String()
}

// check appends to probs every way v fails s; path names v.
func (s *Schema) check(v any, path string, probs *[]Problem) {
	add := func(p, format string, a ...any) {
		*probs = append(*probs, Problem{Path: p, Message: fmt.Sprintf(format, a...)})
	}
	if !s.typeMatches(v) {
		add(path, "must be %s, got %s", typeList(s.types), describe(v))
		return
	}
	if len(s.enum) > 0 && !slices.ContainsFunc(s.enum, func(e any) bool { return jsonEqual(e, v) }) {
		add(path, "must be one of %s (got %s)", quoteList(s.enum), valueJSON(v))
		return
	}
	switch x := v.(type) {
	case json.Number:
		s.checkNumber(x, path, add)
	case string:
		n := utf8.RuneCountInString(x)
		if s.maxLength >= 0 && n > s.maxLength {
			add(path, "must be at most %s, got %d", plural(s.maxLength, "character"), n)
		}
		if s.minLength >= 0 && n < s.minLength {
			add(path, "must be at least %s, got %d", plural(s.minLength, "character"), n)
		}
	case []any:
		s.checkArray(x, path, probs, add)
	case map[string]any:
		s.checkObject(x, path, probs, add)
	}
}

func (s *Schema) checkNumber(x json.Number, path string, add func(string, string, ...any)) {
	if s.minimum == nil && s.maximum == nil {
		return
	}
	f, ok := numberValue(x)
	if !ok {
		add(path, "number %s is out of range", x)
		return
	}
	if s.minimum != nil && f < *s.minimum {
		add(path, "must be >= %s, got %s", formatNumber(*s.minimum), x)
	}
	if s.maximum != nil && f > *s.maximum {
		add(path, "must be <= %s, got %s", formatNumber(*s.maximum), x)
	}
}

func (s *Schema) checkArray(x []any, path string, probs *[]Problem, add func(string, string, ...any)) {
	if s.minItems >= 0 && len(x) < s.minItems {
		add(path, "must have at least %s, got %d", plural(s.minItems, "item"), len(x))
	}
	if s.maxItems >= 0 && len(x) > s.maxItems {
		add(path, "must have at most %s, got %d", plural(s.maxItems, "item"), len(x))
	}
	if s.items == nil {
		return
	}
	for i, e := range x {
		s.items.check(e, indexPath(path, i), probs)
	}
}

func (s *Schema) checkObject(x map[string]any, path string, probs *[]Problem, add func(string, string, ...any)) {
	for _, name := range s.required {
		if _, ok := x[name]; !ok {
			add(joinPath(path, name), "is required")
		}
	}
	for _, key := range slices.Sorted(maps.Keys(x)) {
		val := x[key]
		sub, known := s.properties[key]
		switch {
		case known:
			if val == nil && !sub.typeMatches(nil) && !slices.Contains(s.required, key) {
				continue // null for an optional field means "absent"
			}
			sub.check(val, joinPath(path, key), probs)
		case s.additional != nil:
			s.additional.check(val, joinPath(path, key), probs)
		case s.closed:
			if len(s.propNames) == 0 {
				add(joinPath(path, key), "unknown field; this object takes no fields")
			} else {
				add(joinPath(path, key), "unknown field; allowed fields: %s", strings.Join(s.propNames, ", "))
			}
		}
	}
}

// typeMatches reports whether v has one of the allowed types. An integer
// is a number literal without fraction or exponent (1.0 is not an integer:
// encoding/json would refuse to decode it into an int field).
func (s *Schema) typeMatches(v any) bool {
	if s.types == nil {
		return true
	}
	actual := jsonType(v)
	for _, t := range s.types {
		if t == actual || (t == "number" && actual == "integer") {
			return true
		}
	}
	return false
}

// jsonType names the JSON type of a decoded value ("integer" for integral
// number literals).
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			return "number"
		}
		return "integer"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

// typeList renders allowed types: "a string", "an integer or null".
func typeList(types []string) string {
	parts := make([]string, len(types))
	for i, t := range types {
		switch t {
		case "null":
			parts[i] = "null"
		case "integer", "object", "array":
			parts[i] = "an " + t
		default:
			parts[i] = "a " + t
		}
	}
	return strings.Join(parts, " or ")
}

// describe names a value's type for a type mismatch, with the value itself
// when it is short enough to help.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool, json.Number:
		return fmt.Sprintf("%s %v", jsonType(v), x)
	case string:
		if utf8.RuneCountInString(x) <= 40 {
			return "string " + strconv.Quote(x)
		}
		return "string"
	}
	return jsonType(v)
}

// jsonEqual compares decoded JSON values, numbers by value.
func jsonEqual(a, b any) bool {
	fa, okA := numberValue(a)
	fb, okB := numberValue(b)
	if okA || okB {
		return okA && okB && fa == fb
	}
	return reflect.DeepEqual(a, b)
}

// valueText renders a value for a list: strings bare, others as JSON.
func valueText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return valueJSON(v)
}

// valueJSON renders a value as (truncated) JSON.
func valueJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	const limit = 60
	if s := string(b); utf8.RuneCountInString(s) > limit {
		return string([]rune(s)[:limit]) + "…"
	}
	return string(b)
}

func formatNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
