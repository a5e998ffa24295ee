// Package skills loads SKILL.md files — reusable research procedures —
// from the skills directory (docs/features.md T17) and offers them to the agent: their
// list goes into the system prompt, and load_skill returns a body on demand.
//
// A skill is a directory holding SKILL.md (or a top-level NAME.md file):
//
//	---
//	name: literature-review
//	description: Survey what is known about an astronomical object.
//	keywords: [review, what is known, literature]
//	globs: ["*.bib"]
//	---
//	Markdown instructions...
//
// keywords and globs are conditions: a skill that has them is listed only
// when the question contains one of the keywords or a workspace file matches
// one of the globs. Skills without conditions are always listed.
package skills

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Skill is one parsed SKILL.md.
type Skill struct {
	Name        string
	Description string
	Keywords    []string
	Globs       []string
	Body        string
	Path        string // file it came from, relative to the skills dir
}

// Conditional reports whether the skill is listed only when its
// conditions hold.
func (s Skill) Conditional() bool { return len(s.Keywords) > 0 || len(s.Globs) > 0 }

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

// maxSkillBytes bounds one SKILL.md.
const maxSkillBytes = 256 << 10

// Parse reads a SKILL.md document. The front matter is a small YAML subset:
// `key: value` lines, with lists written `[a, "b c"]` or as `- item` lines.
func Parse(doc string) (Skill, error) {
	if len(doc) > maxSkillBytes {
		return Skill{}, fmt.Errorf("skill file is larger than %d KB", maxSkillBytes>>10)
	}
	doc = strings.TrimPrefix(strings.ReplaceAll(doc, "\r\n", "\n"), "\ufeff")
	if !strings.HasPrefix(doc, "---\n") {
		return Skill{}, errors.New("missing front matter (the file must start with a --- line)")
	}
	head, body, ok := strings.Cut(doc[4:], "\n---")
	if !ok {
		return Skill{}, errors.New("front matter is not closed with a --- line")
	}
	body = strings.TrimPrefix(body, "\n")
	if i := strings.IndexByte(body, '\n'); i >= 0 && strings.TrimSpace(body[:i]) == "" {
		body = body[i+1:]
	}
	fields, err := parseFrontMatter(head)
	if err != nil {
		return Skill{}, err
	}
	s := Skill{Body: strings.TrimSpace(body)}
	for key, vals := range fields {
		switch key {
		case "name":
			s.Name = first(vals)
		case "description":
			s.Description = first(vals)
		case "keywords", "conditions.keywords":
			s.Keywords = vals
		case "globs", "files", "conditions.globs":
			s.Globs = vals
		}
	}
	switch {
	case !nameRE.MatchString(s.Name):
		return Skill{}, fmt.Errorf("name %q must be lower-case letters, digits and dashes", s.Name)
	case s.Description == "":
		return Skill{}, errors.New("description is required")
	case s.Body == "":
		return Skill{}, errors.New("the skill has no instructions after the front matter")
	}
	for i, k := range s.Keywords {
		s.Keywords[i] = strings.ToLower(k)
	}
	return s, nil
}

func first(vals []string) string {
	if len(vals) == 0 {
		return ""
	}
	return vals[0]
}

// parseFrontMatter reads `key: value`, `key: [a, b]` and `key:` followed by
// `- item` lines. A nested `conditions:` block's keys are prefixed with
// "conditions.".
func parseFrontMatter(head string) (map[string][]string, error) {
	out := map[string][]string{}
	var listKey, parent string
	for n, raw := range strings.Split(head, "\n") {
		line := strings.TrimRight(raw, " \t")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		indented := line != trimmed && (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t"))
		if strings.HasPrefix(trimmed, "- ") && listKey != "" {
			out[listKey] = append(out[listKey], unquote(strings.TrimSpace(trimmed[2:])))
			continue
		}
		key, val, ok := strings.Cut(trimmed, ":")
		if !ok {
			return nil, fmt.Errorf("front matter line %d: expected key: value", n+1)
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if !indented {
			parent = ""
		}
		if parent != "" {
			key = parent + "." + key
		}
		switch {
		case val == "" && !indented:
			parent, listKey = key, key
		case val == "":
			listKey = key
		case strings.HasPrefix(val, "["):
			if !strings.HasSuffix(val, "]") {
				return nil, fmt.Errorf("front matter line %d: list is not closed with ]", n+1)
			}
			out[key] = splitList(val[1 : len(val)-1])
			listKey = ""
		default:
			out[key] = []string{unquote(val)}
			listKey = ""
		}
	}
	return out, nil
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if p := unquote(strings.TrimSpace(part)); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		return s[1 : len(s)-1]
	}
	return s
}
