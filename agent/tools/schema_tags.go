package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// applyTags adds the keywords of a field's desc, enum, min, max, minLength,
// maxLength and default tags to its schema n. A tag that does not fit the
// field's type is an error, so a typo'd schema fails at construction rather
// than silently accepting anything.
func applyTags(n *node, tag reflect.StructTag) error {
	// JSON Schema keywords spelled as tags are not read: one on a field is
	// an error, so a bound written minimum:"0" instead of min:"0" cannot
	// silently go unenforced.
	for _, key := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems",
		"pattern", "format", "required", "description"} {
		if _, ok := tag.Lookup(key); ok {
			return fmt.Errorf("%s tag is not read (the tags are desc, enum, min, max, minLength, maxLength and default)", key)
		}
	}
	if d, ok := tag.Lookup("desc"); ok {
		n.desc = strings.TrimSpace(d)
	}
	if v, ok := tag.Lookup("enum"); ok {
		if err := applyEnum(n, v); err != nil {
			return err
		}
	}
	for _, key := range []string{"min", "max"} {
		if v, ok := tag.Lookup(key); ok {
			if err := applyBound(n, key, v); err != nil {
				return err
			}
		}
	}
	for _, key := range []string{"minLength", "maxLength"} {
		if v, ok := tag.Lookup(key); ok {
			if err := applyLength(n, key, v); err != nil {
				return err
			}
		}
	}
	if err := checkRanges(n); err != nil {
		return err
	}
	if v, ok := tag.Lookup("default"); ok {
		return applyDefault(n, v)
	}
	return nil
}

// itemsTarget is the node that enum and length tags constrain: the field
// itself, or its items for an array.
func itemsTarget(n *node) *node {
	if n.typ == "array" && n.items != nil {
		return n.items
	}
	return n
}

func applyEnum(n *node, tag string) error {
	t := itemsTarget(n)
	var vals []any
	for raw := range strings.SplitSeq(tag, ",") {
		s := strings.TrimSpace(raw)
		if s == "" {
			return fmt.Errorf("enum tag %q has an empty value", tag)
		}
		switch t.typ {
		case "string":
			vals = append(vals, s)
		case "integer":
			i, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return fmt.Errorf("enum value %q is not an integer", s)
			}
			vals = append(vals, i)
		case "number":
			f, err := parseFinite(s)
			if err != nil {
				return fmt.Errorf("enum value %q: %w", s, err)
			}
			vals = append(vals, f)
		default:
			return fmt.Errorf("enum tag applies to string, integer and number fields, not %s", typeName(t.typ))
		}
	}
	t.enum = vals
	return nil
}

func applyBound(n *node, key, tag string) error {
	switch n.typ {
	case "integer", "number":
		var f float64
		if n.typ == "integer" {
			i, err := strconv.ParseInt(strings.TrimSpace(tag), 10, 64)
			if err != nil {
				return fmt.Errorf("%s tag %q: integer bounds must be whole numbers", key, tag)
			}
			f = float64(i)
		} else {
			var err error
			if f, err = parseFinite(strings.TrimSpace(tag)); err != nil {
				return fmt.Errorf("%s tag: %w", key, err)
			}
		}
		if key == "min" {
			n.minimum = &f
		} else {
			n.maximum = &f
		}
	case "array":
		c, err := parseCount(key, tag)
		if err != nil {
			return err
		}
		if key == "min" {
			n.minItems = &c
		} else {
			n.maxItems = &c
		}
	default:
		return fmt.Errorf("%s tag applies to integer, number and array fields, not %s (use minLength/maxLength for strings)",
			key, typeName(n.typ))
	}
	return nil
}

func applyLength(n *node, key, tag string) error {
	t := itemsTarget(n)
	if t.typ != "string" {
		return fmt.Errorf("%s tag applies to string fields (or slices of strings), not %s", key, typeName(n.typ))
	}
	c, err := parseCount(key, tag)
	if err != nil {
		return err
	}
	if key == "minLength" {
		t.minLen = &c
	} else {
		t.maxLen = &c
	}
	return nil
}

// applyDefault records the default and checks it against the field's own
// schema, so the documentation cannot contradict the constraints.
func applyDefault(n *node, tag string) error {
	var v any
	if n.typ == "string" {
		v = tag
	} else {
		var err error
		if v, err = decodeJSONValue([]byte(tag)); err != nil {
			return fmt.Errorf("default tag %q is not a JSON value: %w", tag, err)
		}
	}
	raw, err := n.encode()
	if err != nil {
		return err
	}
	s, err := CompileSchema(raw)
	if err != nil {
		return err
	}
	var probs []Problem
	s.check(v, "", &probs)
	if len(probs) > 0 {
		return fmt.Errorf("default tag %q: %s", tag, probs[0].Message)
	}
	n.def, n.hasDef = v, true
	return nil
}

func checkRanges(n *node) error {
	t := itemsTarget(n)
	switch {
	case n.minimum != nil && n.maximum != nil && *n.minimum > *n.maximum:
		return fmt.Errorf("min %v is greater than max %v", *n.minimum, *n.maximum)
	case n.minItems != nil && n.maxItems != nil && *n.minItems > *n.maxItems:
		return fmt.Errorf("min %d is greater than max %d", *n.minItems, *n.maxItems)
	case t.minLen != nil && t.maxLen != nil && *t.minLen > *t.maxLen:
		return fmt.Errorf("minLength %d is greater than maxLength %d", *t.minLen, *t.maxLen)
	}
	return nil
}

func parseCount(key, tag string) (int, error) {
	c, err := strconv.Atoi(strings.TrimSpace(tag))
	if err != nil || c < 0 {
		return 0, fmt.Errorf("%s tag %q must be a non-negative integer", key, tag)
	}
	return c, nil
}

func parseFinite(s string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, errors.New("bounds must be finite")
	}
	return f, nil
}

func typeName(typ string) string {
	if typ == "" {
		return "untyped fields"
	}
	return typ + " fields"
}

// decodeJSONValue decodes exactly one JSON value, keeping numbers as
// json.Number so that integers and big values survive unchanged.
func decodeJSONValue(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}
