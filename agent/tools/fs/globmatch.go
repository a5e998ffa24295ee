package fs

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// maxGlobAlternatives bounds brace expansion ("*.{md,tex}").
const maxGlobAlternatives = 64

// globPattern is a compiled glob: one or more brace alternatives, each a
// list of path segments where "**" matches any number of segments
// (including none) and other segments follow path.Match.
type globPattern struct {
	alts     [][]string
	baseOnly bool // no "/" in the pattern: match the base name only
}

// compileGlob checks and compiles a glob. With baseOnly, a pattern without
// "/" is matched against base names only (grep's "*.md" filter).
func compileGlob(pattern string, baseOnly bool) (*globPattern, error) {
	if pattern == "" {
		return nil, errors.New("empty glob pattern")
	}
	if strings.ContainsAny(pattern, "\x00\\") {
		return nil, errors.New("glob patterns use forward slashes and may not contain NUL or backslashes")
	}
	if strings.HasPrefix(pattern, "/") || strings.HasPrefix(pattern, "~") {
		return nil, errors.New("glob patterns are relative; use path to choose the directory")
	}
	alts, err := expandBraces(pattern)
	if err != nil {
		return nil, err
	}
	g := &globPattern{baseOnly: baseOnly && !strings.Contains(pattern, "/")}
	for _, a := range alts {
		var segs []string
		for s := range strings.SplitSeq(a, "/") {
			switch s {
			case "", ".":
				continue
			case "..":
				return nil, errors.New("'..' is not allowed in a glob pattern")
			}
			if _, err := path.Match(s, ""); err != nil {
				return nil, fmt.Errorf("bad glob pattern %q: %w", pattern, err)
			}
			if strings.Contains(s, "**") && s != "**" {
				s = strings.ReplaceAll(s, "**", "*")
			}
			segs = append(segs, s)
		}
		g.alts = append(g.alts, segs)
	}
	return g, nil
}

// expandBraces expands "{a,b}" groups (not nested) into alternatives.
func expandBraces(p string) ([]string, error) {
	open := strings.IndexByte(p, '{')
	if open < 0 {
		if strings.IndexByte(p, '}') >= 0 {
			return nil, fmt.Errorf("bad glob pattern %q: unmatched }", p)
		}
		return []string{p}, nil
	}
	closing := strings.IndexByte(p[open:], '}')
	if closing < 0 {
		return nil, fmt.Errorf("bad glob pattern %q: unmatched {", p)
	}
	closing += open
	inner := p[open+1 : closing]
	if strings.IndexByte(inner, '{') >= 0 {
		return nil, fmt.Errorf("bad glob pattern %q: nested braces are not supported", p)
	}
	rest, err := expandBraces(p[closing+1:])
	if err != nil {
		return nil, err
	}
	var out []string
	for choice := range strings.SplitSeq(inner, ",") {
		for _, r := range rest {
			out = append(out, p[:open]+choice+r)
			if len(out) > maxGlobAlternatives {
				return nil, fmt.Errorf("glob pattern %q expands to more than %d alternatives", p, maxGlobAlternatives)
			}
		}
	}
	return out, nil
}

// match reports whether rel (a slash path relative to the walk's start)
// matches.
func (g *globPattern) match(rel string) bool {
	if g.baseOnly {
		rel = path.Base(rel)
	}
	names := strings.Split(rel, "/")
	for _, segs := range g.alts {
		if matchSegments(segs, names) {
			return true
		}
	}
	return false
}

// maxDepth is the deepest match possible (in segments), or -1 when a "**"
// makes it unbounded; the walk need not go deeper.
func (g *globPattern) maxDepth() int {
	if g.baseOnly {
		return -1
	}
	deepest := 0
	for _, segs := range g.alts {
		for _, s := range segs {
			if s == "**" {
				return -1
			}
		}
		deepest = max(deepest, len(segs))
	}
	return deepest
}

// matchSegments matches names against pattern segments by dynamic
// programming over (segment, name) positions, so many "**" stay linear
// per position instead of backtracking exponentially.
func matchSegments(segs, names []string) bool {
	// ok[j] reports whether segs[i:] matches names[j:], for the current i
	// going backwards.
	ok := make([]bool, len(names)+1)
	ok[len(names)] = true
	for i := len(segs) - 1; i >= 0; i-- {
		next := make([]bool, len(names)+1)
		if segs[i] == "**" {
			// "**" matches names[j:k] for any k ≥ j.
			acc := false
			for j := len(names); j >= 0; j-- {
				acc = acc || ok[j]
				next[j] = acc
			}
		} else {
			for j := len(names) - 1; j >= 0; j-- {
				if ok[j+1] {
					m, _ := path.Match(segs[i], names[j])
					next[j] = m
				}
			}
		}
		ok = next
	}
	return ok[0]
}
