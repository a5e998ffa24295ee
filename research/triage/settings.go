package triage

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/astroresearch/astroresearch/research/arxiv"
	"github.com/astroresearch/astroresearch/research/sesame"
	"github.com/astroresearch/astroresearch/store"
)

// Limits of the settings.
const (
	maxCategories = 20
	maxEntries    = 50  // keywords, objects, authors each
	maxEntryLen   = 120 // characters
)

// SettingsInput is what a user submits: the lists as typed.
type SettingsInput struct {
	Categories []string `json:"categories"`
	Keywords   []string `json:"keywords"`
	Objects    []string `json:"objects"`
	Authors    []string `json:"authors"`
}

// CategoryError refuses a category that arXiv does not have.
type CategoryError struct {
	Category   string
	Suggestion string // the category probably meant ("" when none)
}

func (e *CategoryError) Error() string {
	msg := fmt.Sprintf("%q is not an arXiv category", e.Category)
	if e.Suggestion != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", e.Suggestion)
	}
	return msg + "; see https://arxiv.org/category_taxonomy"
}

// InputError is any other unusable setting (too many, too long).
type InputError struct{ Message string }

func (e *InputError) Error() string { return e.Message }

// Settings returns the user's settings (empty ones when none were saved).
func (s *Service) Settings(ctx context.Context, userID int64) (store.TriageSettings, error) {
	set, err := s.st.TriageSettings(ctx, userID)
	if errors.Is(err, store.ErrNotFound) {
		return store.TriageSettings{UserID: userID, Categories: []string{}, Keywords: []string{}, Objects: []store.TriageObject{}, Authors: []string{}}, nil
	}
	return set, err
}

// SaveSettings checks and stores the user's settings: every category must
// be in arXiv's taxonomy (*CategoryError otherwise), lists are trimmed and
// de-duplicated and bounded (*InputError). Objects are resolved with Sesame
// so that their aliases count; an object Sesame does not know, or cannot
// be asked about now, is kept under its name, and notes say so. The user's
// digests are ranked again in the background.
func (s *Service) SaveSettings(ctx context.Context, userID int64, in SettingsInput) (store.TriageSettings, []string, error) {
	cats, err := cleanList("categories", in.Categories, maxCategories)
	if err != nil {
		return store.TriageSettings{}, nil, err
	}
	for _, c := range cats {
		if !arxiv.KnownCategory(c) {
			return store.TriageSettings{}, nil, &CategoryError{Category: c, Suggestion: arxiv.SuggestCategory(c)}
		}
	}
	set := store.TriageSettings{UserID: userID, Categories: cats}
	if set.Keywords, err = cleanList("keywords", in.Keywords, maxEntries); err != nil {
		return store.TriageSettings{}, nil, err
	}
	if set.Authors, err = cleanList("authors", in.Authors, maxEntries); err != nil {
		return store.TriageSettings{}, nil, err
	}
	names, err := cleanList("objects", in.Objects, maxEntries)
	if err != nil {
		return store.TriageSettings{}, nil, err
	}
	prev, err := s.Settings(ctx, userID)
	if err != nil {
		return store.TriageSettings{}, nil, err
	}
	var notes []string
	set.Objects, notes = s.resolveObjects(ctx, names, prev.Objects)
	if err := s.st.SaveTriageSettings(ctx, set); err != nil {
		return store.TriageSettings{}, nil, err
	}
	set.FeedToken = prev.FeedToken
	s.rerank(userID)
	return set, notes, nil
}

// cleanList trims entries, drops empty ones and repeats (case-insensitive)
// and enforces the limits.
func cleanList(field string, in []string, limit int) ([]string, error) {
	out := []string{}
	seen := map[string]bool{}
	for _, v := range in {
		v = strings.Join(strings.Fields(v), " ")
		if v == "" || seen[strings.ToLower(v)] {
			continue
		}
		if utf8.RuneCountInString(v) > maxEntryLen {
			return nil, &InputError{fmt.Sprintf("%s: %q is longer than %d characters", field, clip(v, 40), maxEntryLen)}
		}
		seen[strings.ToLower(v)] = true
		out = append(out, v)
	}
	if len(out) > limit {
		return nil, &InputError{fmt.Sprintf("%s: at most %d entries (got %d)", field, limit, len(out))}
	}
	return out, nil
}

// resolveObjects resolves names with Sesame, reusing earlier resolutions
// of the same names.
func (s *Service) resolveObjects(ctx context.Context, names []string, prev []store.TriageObject) ([]store.TriageObject, []string) {
	known := map[string]store.TriageObject{}
	for _, o := range prev {
		if o.Resolved {
			known[strings.ToLower(o.Name)] = o
		}
	}
	out := []store.TriageObject{}
	var notes []string
	for _, n := range names {
		if o, ok := known[strings.ToLower(n)]; ok {
			o.Name = n
			out = append(out, o)
			continue
		}
		o := store.TriageObject{Name: n}
		if s.opt.Resolver == nil {
			notes = append(notes, fmt.Sprintf("%s: no name resolver is configured, so only this name is matched", n))
			out = append(out, o)
			continue
		}
		obj, err := s.opt.Resolver.Resolve(ctx, n)
		switch {
		case errors.Is(err, sesame.ErrNotFound):
			notes = append(notes, fmt.Sprintf("%s: Sesame does not know this name, so only the name as typed is matched", n))
		case err != nil:
			s.log.Warn("triage: resolve object", "name", n, "err", err)
			notes = append(notes, fmt.Sprintf("%s: Sesame could not be asked now, so only the name as typed is matched; save again later to add its aliases", n))
		default:
			o.Canonical, o.Aliases, o.Resolved = obj.Name, obj.Aliases, true
		}
		out = append(out, o)
	}
	return out, notes
}
