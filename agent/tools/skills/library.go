package skills

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// builtin holds the skills shipped with AstroResearch; Install copies them
// into the skills directory once, so users can edit or delete them.
//
//go:embed builtin
var builtin embed.FS

// Library reads skills from a directory and notices changes on disk without
// a restart: a listing re-reads only the files whose size or modification
// time changed. Safe for concurrent use.
type Library struct {
	dir string
	log *slog.Logger

	mu      sync.Mutex
	entries map[string]cached // by relative path
}

type cached struct {
	size  int64
	mtime time.Time
	skill Skill
	err   error
}

// NewLibrary returns a library over dir (created if missing).
func NewLibrary(dir string, log *slog.Logger) (*Library, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("skills: create %s: %w", dir, err)
	}
	return &Library{dir: dir, log: log, entries: map[string]cached{}}, nil
}

// Dir returns the skills directory.
func (l *Library) Dir() string { return l.dir }

// Install copies the built-in skills into the directory, skipping any that
// exist already (a user's edits are never overwritten). It returns how many
// it wrote.
func (l *Library) Install() (int, error) {
	n := 0
	err := fs.WalkDir(builtin, "builtin", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := strings.TrimPrefix(p, "builtin/")
		dest := filepath.Join(l.dir, filepath.FromSlash(rel))
		if _, err := os.Stat(dest); err == nil {
			return nil
		}
		body, err := builtin.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dest), 0o750); err != nil {
			return err
		}
		if err := os.WriteFile(dest, body, 0o640); err != nil {
			return err
		}
		n++
		return nil
	})
	if err != nil {
		return n, fmt.Errorf("skills: install built-ins: %w", err)
	}
	return n, nil
}

// List returns every valid skill, sorted by name. Files that fail to parse
// are logged and left out; two skills with one name keep the first by path.
func (l *Library) List(ctx context.Context) ([]Skill, error) {
	files, err := l.skillFiles()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	seen := map[string]bool{}
	fresh := make(map[string]cached, len(files))
	var out []Skill
	for _, rel := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c, err := l.load(rel)
		if err != nil {
			continue // vanished between listing and reading
		}
		fresh[rel] = c
		if c.err != nil || seen[c.skill.Name] {
			continue
		}
		seen[c.skill.Name] = true
		out = append(out, c.skill)
	}
	l.entries = fresh
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// load returns the cached parse of rel, re-reading it when it changed.
// Caller holds mu.
func (l *Library) load(rel string) (cached, error) {
	full := filepath.Join(l.dir, filepath.FromSlash(rel))
	info, err := os.Lstat(full)
	if err != nil || !info.Mode().IsRegular() {
		return cached{}, errors.New("not a regular file")
	}
	if c, ok := l.entries[rel]; ok && c.size == info.Size() && c.mtime.Equal(info.ModTime()) {
		return c, nil
	}
	c := cached{size: info.Size(), mtime: info.ModTime()}
	if info.Size() > maxSkillBytes {
		c.err = fmt.Errorf("larger than %d KB", maxSkillBytes>>10)
	} else if body, err := os.ReadFile(full); err != nil {
		c.err = err
	} else {
		c.skill, c.err = Parse(string(body))
		c.skill.Path = rel
	}
	if c.err != nil {
		l.log.Warn("skill file ignored", "file", rel, "err", c.err)
	}
	return c, nil
}

// skillFiles lists NAME/SKILL.md and top-level *.md files (no symlinks
// followed).
func (l *Library) skillFiles() ([]string, error) {
	entries, err := os.ReadDir(l.dir)
	if err != nil {
		return nil, fmt.Errorf("skills: read %s: %w", l.dir, err)
	}
	var out []string
	for _, e := range entries {
		switch {
		case e.Type()&fs.ModeSymlink != 0:
		case e.IsDir():
			if _, err := os.Lstat(filepath.Join(l.dir, e.Name(), "SKILL.md")); err == nil {
				out = append(out, path.Join(e.Name(), "SKILL.md"))
			}
		case strings.HasSuffix(strings.ToLower(e.Name()), ".md") && !strings.EqualFold(e.Name(), "README.md"):
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out, nil
}

// Get returns the skill called name.
func (l *Library) Get(ctx context.Context, name string) (Skill, bool, error) {
	list, err := l.List(ctx)
	if err != nil {
		return Skill{}, false, err
	}
	for _, s := range list {
		if s.Name == name {
			return s, true, nil
		}
	}
	return Skill{}, false, nil
}

// Active returns the skills to offer for a question: unconditional ones,
// plus conditional ones whose keywords occur in the question or whose globs
// match one of files (workspace-relative paths).
func (l *Library) Active(ctx context.Context, question string, files []string) ([]Skill, error) {
	list, err := l.List(ctx)
	if err != nil {
		return nil, err
	}
	q := strings.ToLower(question)
	var out []Skill
	for _, s := range list {
		if !s.Conditional() || matchesKeyword(s, q) || matchesGlob(s, files) {
			out = append(out, s)
		}
	}
	return out, nil
}

func matchesKeyword(s Skill, q string) bool {
	for _, k := range s.Keywords {
		if k != "" && strings.Contains(q, k) {
			return true
		}
	}
	return false
}

func matchesGlob(s Skill, files []string) bool {
	for _, g := range s.Globs {
		for _, f := range files {
			if ok, _ := path.Match(g, path.Base(f)); ok {
				return true
			}
			if ok, _ := path.Match(g, f); ok {
				return true
			}
		}
	}
	return false
}
