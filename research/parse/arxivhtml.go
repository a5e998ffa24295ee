package parse

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"

	"golang.org/x/net/html"

	"github.com/astroresearch/astroresearch/research/fetch"
)

// Getter fetches a URL (the guarded fetch client).
type Getter interface {
	Get(ctx context.Context, rawURL string, opts ...fetch.Option) (*fetch.Response, error)
}

// ArxivHTMLEngine reads a paper's LaTeXML rendering: arxiv.org/html first
// (ARXIV_HTML_URL), ar5iv (AR5IV_URL) when arXiv has none. Safe for
// concurrent use.
type ArxivHTMLEngine struct {
	Web      Getter
	HTMLURL  string // e.g. https://arxiv.org/html
	Ar5ivURL string // e.g. https://ar5iv.labs.arxiv.org/html
	Limits   Limits
}

// Name implements Engine.
func (e *ArxivHTMLEngine) Name() string { return "arxiv-html" }

// Parse implements Engine.
func (e *ArxivHTMLEngine) Parse(ctx context.Context, in Input, progress Progress) (Document, error) {
	if in.ArxivID == "" || e.Web == nil {
		return Document{}, fmt.Errorf("no arXiv id: %w", ErrNotApplicable)
	}
	lim := e.Limits.withDefaults()
	id := in.ArxivID
	if in.ArxivVersion > 0 {
		id = fmt.Sprintf("%sv%d", in.ArxivID, in.ArxivVersion)
	}
	var reasons []string
	for _, src := range []struct{ name, url string }{
		{"arXiv HTML", strings.TrimRight(e.HTMLURL, "/") + "/" + id},
		{"ar5iv", strings.TrimRight(e.Ar5ivURL, "/") + "/" + in.ArxivID},
	} {
		if strings.HasPrefix(src.url, "/") {
			continue // not configured
		}
		progress.report("fetching " + src.name)
		md, err := e.fetch(ctx, src.url, lim)
		if err == nil {
			return Document{Markdown: md, Engine: e.Name(), Source: src.url}, nil
		}
		if ctx.Err() != nil {
			return Document{}, ctx.Err()
		}
		reasons = append(reasons, fmt.Sprintf("%s: %v", src.name, err))
	}
	return Document{}, fmt.Errorf("%s", strings.Join(reasons, "; "))
}

func (e *ArxivHTMLEngine) fetch(ctx context.Context, url string, lim Limits) (string, error) {
	res, err := e.Web.Get(ctx, url, fetch.WithMaxBytes(lim.MaxFileBytes), fetch.WithTimeout(lim.Timeout))
	if err != nil {
		return "", err
	}
	if res.Status != http.StatusOK {
		return "", fmt.Errorf("HTTP %d", res.Status)
	}
	if err := fetch.ExpectType(res, "text/html", "application/xhtml+xml"); err != nil {
		return "", err
	}
	md, err := HTMLToMarkdown(res.Body)
	if err == nil && len(md) < minHTMLText {
		// ar5iv serves a shell page when its conversion failed: the PDF
		// engine will do better.
		return "", fmt.Errorf("the page has almost no text (%d bytes): %w", len(md), ErrEmpty)
	}
	return md, err
}

// minHTMLText is the least Markdown an HTML rendering must give to count.
const minHTMLText = 500

// HTMLToMarkdown converts a LaTeXML (arXiv HTML / ar5iv) page.
func HTMLToMarkdown(page []byte) (string, error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return "", fmt.Errorf("html: %w", err)
	}
	return latexmlMarkdown(doc)
}
