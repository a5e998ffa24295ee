package ads

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/astroresearch/astroresearch/research/fetch"
)

// ExportBatch is the most bibcodes sent in one export request; longer lists
// are split and the results joined in order.
const ExportBatch = 2000

// exportRequest and exportResponse are the /export/bibtex bodies.
type exportRequest struct {
	Bibcode []string `json:"bibcode"`
}

type exportResponse struct {
	Msg    string  `json:"msg"`
	Export *string `json:"export"`
}

// ExportBibTeX returns ADS's BibTeX for bibcodes, in ADS's order within each
// batch of ExportBatch, entries separated by a blank line. Surrounding
// space is trimmed and duplicates are dropped; an empty list returns "" and
// no request. Each batch's answer is cached here for a day (the fetch cache
// only serves GETs) since exports count against a small daily quota. It
// fails with ErrNoToken, ErrMalformedID naming the first malformed bibcode
// (before any request), ErrNotFound when ADS knows none of a batch's
// bibcodes (unknown ones among known ones are silently left out by ADS),
// and the errors of Search.
func (c *Client) ExportBibTeX(ctx context.Context, bibcodes []string) (string, error) {
	if c.token == "" {
		return "", fmt.Errorf("ads: export: %w", ErrNoToken)
	}
	list, err := cleanBibcodes(bibcodes)
	if err != nil {
		return "", fmt.Errorf("ads: export: %w", err)
	}
	var parts []string
	for len(list) > 0 {
		n := min(len(list), ExportBatch)
		out, err := c.exportBatch(ctx, list[:n])
		if err != nil {
			return "", fmt.Errorf("ads: export of %d bibcodes starting %s: %w", n, list[0], err)
		}
		if out = strings.TrimSpace(out); out != "" {
			parts = append(parts, out)
		}
		list = list[n:]
	}
	if len(parts) == 0 {
		return "", nil
	}
	return strings.Join(parts, "\n\n") + "\n", nil
}

// cleanBibcodes trims, de-duplicates and validates.
func cleanBibcodes(in []string) ([]string, error) {
	seen := make(map[string]bool, len(in))
	out := make([]string, 0, len(in))
	for _, b := range in {
		b = strings.TrimSpace(b)
		if !ValidBibcode(b) {
			return nil, fmt.Errorf("%q is not a bibcode: %w", shorten(b), ErrMalformedID)
		}
		if !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	return out, nil
}

// exportBatch exports one batch, through the cache.
func (c *Client) exportBatch(ctx context.Context, batch []string) (string, error) {
	key := c.token + "\n" + strings.Join(batch, "\n")
	if s, ok := c.exports.get(key, c.now()); ok {
		return s, nil
	}
	var er exportResponse
	err := c.call(ctx, "/export/bibtex", "", exportRequest{Bibcode: batch}, &er,
		fetch.WithMaxBytes(exportMaxBytes), fetch.WithTimeout(exportTimeout))
	if err != nil {
		return "", err
	}
	if er.Export == nil {
		return "", fmt.Errorf("%w: no \"export\" field", ErrMalformedResponse)
	}
	c.exports.put(key, *er.Export, c.now().Add(exportCacheTTL))
	return *er.Export, nil
}

// exportCacheMax bounds the export cache; when full it is emptied, which is
// crude but keeps memory bounded without bookkeeping.
const exportCacheMax = 512

// exportCache maps a batch key to its BibTeX until an expiry time. Safe for
// concurrent use.
type exportCache struct {
	mu sync.Mutex
	m  map[string]exportEntry
}

type exportEntry struct {
	bibtex  string
	expires time.Time
}

func newExportCache() *exportCache { return &exportCache{m: map[string]exportEntry{}} }

func (ec *exportCache) get(key string, now time.Time) (string, bool) {
	ec.mu.Lock()
	defer ec.mu.Unlock()
	e, ok := ec.m[key]
	if !ok || !now.Before(e.expires) {
		delete(ec.m, key)
		return "", false
	}
	return e.bibtex, true
}

func (ec *exportCache) put(key, bibtex string, expires time.Time) {
	ec.mu.Lock()
	defer ec.mu.Unlock()
	if len(ec.m) >= exportCacheMax {
		clear(ec.m)
	}
	ec.m[key] = exportEntry{bibtex: bibtex, expires: expires}
}
