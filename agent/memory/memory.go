// Package memory is the agent's long-term memory (docs/features.md C11): short facts
// worth keeping across sessions, in four kinds, each checked by a quality
// gate and de-duplicated, stored as files under the data directory and
// indexed in the database per user.
package memory

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/astroresearch/astroresearch/store"
)

// Kinds of memory.
const (
	KindUser      = "user"      // who the user is: field, instruments, preferences
	KindFeedback  = "feedback"  // how the user wants the agent to work
	KindProject   = "project"   // ongoing work: targets, proposals, papers in progress
	KindReference = "reference" // durable facts and pointers worth reusing
)

// Kinds lists the kinds in order.
var Kinds = []string{KindUser, KindFeedback, KindProject, KindReference}

// Limits of the quality gate.
const (
	MinChars         = 20
	MaxChars         = 1000
	DuplicateJaccard = 0.7
	PromptCount      = 5 // memories shown in the system prompt
)

// RefusedError says why a memory was not saved, in words the model (or a
// user) can act on.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string { return "memory not saved: " + e.Reason }

// Service saves, lists, edits and deletes memories. Safe for concurrent
// use (the store serialises writes).
type Service struct {
	st      *store.Store
	dataDir string
}

// New returns the memory service storing files under dataDir/memories.
func New(st *store.Store, dataDir string) *Service { return &Service{st: st, dataDir: dataDir} }

// Save checks content through the quality gate and de-duplication, then
// writes its file and index row. source is "agent", "extraction",
// "compaction" or "user".
func (s *Service) Save(ctx context.Context, userID int64, kind, content, source string) (store.Memory, error) {
	content = strings.TrimSpace(content)
	if err := checkKind(kind); err != nil {
		return store.Memory{}, err
	}
	if err := Gate(content); err != nil {
		return store.Memory{}, err
	}
	existing, err := s.st.Memories(ctx, userID, 0)
	if err != nil {
		return store.Memory{}, err
	}
	words := wordSet(content)
	for _, m := range existing {
		if j := jaccard(words, wordSet(m.Content)); j >= DuplicateJaccard {
			return store.Memory{}, &RefusedError{Reason: fmt.Sprintf(
				"it repeats memory #%d (%.0f%% the same words): %q — keep that one, or ask the user to edit it", m.ID, j*100, clip(m.Content, 120))}
		}
	}
	rel, err := s.writeFile(userID, kind, content)
	if err != nil {
		return store.Memory{}, err
	}
	m, err := s.st.CreateMemory(ctx, store.Memory{UserID: userID, Kind: kind, Content: content, File: rel, Source: source})
	if err != nil {
		os.Remove(filepath.Join(s.dataDir, rel))
		return store.Memory{}, err
	}
	return m, nil
}

// Update replaces a memory's kind and content (the settings page); the
// gate applies, de-duplication does not (the user decides).
func (s *Service) Update(ctx context.Context, userID, id int64, kind, content string) (store.Memory, error) {
	content = strings.TrimSpace(content)
	if err := checkKind(kind); err != nil {
		return store.Memory{}, err
	}
	if err := Gate(content); err != nil {
		return store.Memory{}, err
	}
	m, err := s.st.UpdateMemory(ctx, userID, id, kind, content)
	if err != nil {
		return store.Memory{}, err
	}
	if err := os.WriteFile(filepath.Join(s.dataDir, m.File), []byte(fileBody(kind, content)), 0o640); err != nil {
		return store.Memory{}, fmt.Errorf("memory: rewrite file: %w", err)
	}
	return m, nil
}

// Delete removes a memory and its file.
func (s *Service) Delete(ctx context.Context, userID, id int64) error {
	m, err := s.st.DeleteMemory(ctx, userID, id)
	if err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(s.dataDir, m.File)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("memory: remove file: %w", err)
	}
	return nil
}

// List returns the user's memories, newest first (limit ≤ 0: all).
func (s *Service) List(ctx context.Context, userID int64, limit int) ([]store.Memory, error) {
	return s.st.Memories(ctx, userID, limit)
}

// PromptSection renders the user's PromptCount most recent memories for
// the system prompt ("" when there are none).
func (s *Service) PromptSection(ctx context.Context, userID int64) (string, error) {
	list, err := s.st.Memories(ctx, userID, PromptCount)
	if err != nil || len(list) == 0 {
		return "", err
	}
	var b strings.Builder
	for _, m := range list {
		fmt.Fprintf(&b, "- (%s) %s\n", m.Kind, strings.ReplaceAll(m.Content, "\n", " "))
	}
	return b.String(), nil
}

func checkKind(kind string) error {
	for _, k := range Kinds {
		if k == kind {
			return nil
		}
	}
	return &RefusedError{Reason: "kind must be one of " + strings.Join(Kinds, ", ")}
}

var (
	transientRE = regexp.MustCompile(`(?i)\b(today|tonight|right now|at the moment|this (session|turn|conversation)|currently (running|downloading|reading)|just now|in a minute)\b`)
	vagueRE     = regexp.MustCompile(`(?i)^(the )?(user|they|he|she) (likes?|wants?|needs?|asked( about)?|is interested in) (things|stuff|it|this|that|something|science|astronomy|papers)\.?$`)
	codeLineRE  = regexp.MustCompile(`[{};]\s*$|^\s*(func|def|class|import|return|for|if|while|#include|SELECT|var|let|const)\b|^\s*[$>] `)
)

// Gate is the quality gate: it refuses memories that are too short or too
// long, vague, about the moment rather than lasting, or code dumps.
func Gate(content string) error {
	n := utf8.RuneCountInString(content)
	switch {
	case n < MinChars:
		return &RefusedError{Reason: fmt.Sprintf("it is too short (%d characters; at least %d): say what is worth remembering and why", n, MinChars)}
	case n > MaxChars:
		return &RefusedError{Reason: fmt.Sprintf("it is too long (%d characters; at most %d): keep one fact per memory", n, MaxChars)}
	case vagueRE.MatchString(strings.TrimSpace(content)) || len(wordSet(content)) < 4:
		return &RefusedError{Reason: "it is too vague: name the specific object, instrument, method, preference or decision"}
	case transientRE.MatchString(content):
		return &RefusedError{Reason: "it describes the present moment, not something lasting: save only facts that will still hold in later sessions"}
	case strings.Contains(content, "```") || codeLines(content) >= 3:
		return &RefusedError{Reason: "it looks like code: save what the code is for and where it lives (a workspace file), not the code"}
	}
	return nil
}

func codeLines(s string) int {
	n := 0
	for _, line := range strings.Split(s, "\n") {
		if codeLineRE.MatchString(line) {
			n++
		}
	}
	return n
}

// wordSet is the set of lower-cased words (letters and digits) of s.
func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }) {
		out[w] = true
	}
	return out
}

// jaccard is |a ∩ b| / |a ∪ b|.
func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
