package library

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/astroresearch/astroresearch/store"
)

// Tag limits.
const (
	// MaxTagLen is the longest tag, in characters.
	MaxTagLen = 50
	// MaxTags is the most tags one paper may carry.
	MaxTags = 30
)

// ErrBadTag means a tag was refused; its message says why, in words fit
// for the user.
var ErrBadTag = errors.New("bad tag")

// SplitTags splits what the user typed into tags: commas separate them.
func SplitTags(raw string) []string { return strings.Split(raw, ",") }

// CleanTags trims each tag, collapses inner white space, drops empty ones
// and case-insensitive duplicates (the first spelling wins). A tag longer
// than MaxTagLen, one with control characters, or more than MaxTags in all
// is refused with ErrBadTag.
func CleanTags(tags []string) ([]string, error) {
	out := make([]string, 0, len(tags))
	seen := map[string]bool{}
	for _, t := range tags {
		t = strings.Join(strings.Fields(t), " ")
		if t == "" {
			continue
		}
		if strings.IndexFunc(t, unicode.IsControl) >= 0 || !utf8.ValidString(t) {
			return nil, fmt.Errorf("%w: a tag may not contain control characters", ErrBadTag)
		}
		if utf8.RuneCountInString(t) > MaxTagLen {
			return nil, fmt.Errorf("%w: a tag is at most %d characters long", ErrBadTag, MaxTagLen)
		}
		if k := strings.ToLower(t); !seen[k] {
			seen[k] = true
			out = append(out, t)
		}
	}
	if len(out) > MaxTags {
		return nil, fmt.Errorf("%w: a paper carries at most %d tags", ErrBadTag, MaxTags)
	}
	return out, nil
}

// AddTags cleans tags and adds them to the paper, refusing (ErrBadTag)
// when it would then carry more than MaxTags. It returns the paper's tags;
// store.ErrNotFound when there is no such paper.
func (l *Library) AddTags(ctx context.Context, paperID int64, tags []string) ([]string, error) {
	clean, err := CleanTags(tags)
	if err != nil {
		return nil, err
	}
	if len(clean) == 0 {
		return nil, fmt.Errorf("%w: type at least one tag", ErrBadTag)
	}
	out, err := l.st.AddPaperTags(ctx, paperID, clean, MaxTags)
	if errors.Is(err, store.ErrTooManyTags) {
		return nil, fmt.Errorf("%w: a paper carries at most %d tags", ErrBadTag, MaxTags)
	}
	return out, err
}

// RemoveTag removes one tag from the paper and returns its tags.
func (l *Library) RemoveTag(ctx context.Context, paperID int64, tag string) ([]string, error) {
	return l.st.RemovePaperTag(ctx, paperID, strings.Join(strings.Fields(tag), " "))
}

// SetTags replaces the paper's tags with the cleaned tags and returns them.
func (l *Library) SetTags(ctx context.Context, paperID int64, tags []string) ([]string, error) {
	clean, err := CleanTags(tags)
	if err != nil {
		return nil, err
	}
	return l.st.SetPaperTags(ctx, paperID, clean)
}
