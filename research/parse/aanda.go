package parse

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"golang.org/x/net/html"

	"github.com/astroresearch/astroresearch/research/fetch"
)

// AandAHTMLEngine reads the full-text HTML page of an Astronomy &
// Astrophysics paper (DOIs 10.1051/0004-6361…). The DOI resolves at
// AANDA_URL/{DOI}, which redirects to one of the article's pages,
// /articles/aa/{abs|full_html|full|ref|pdf}/{year}/{issue}/{id}/{id}.html;
// the full text is the same path under full_html, the reference list (read
// from there when the full-text page has none) under ref. A page without the
// full text, a refusal (A&A answers some automated requests with HTTP 403)
// or any other failure leaves the paper to the PDF engines. Safe for
// concurrent use.
type AandAHTMLEngine struct {
	Web    Getter
	URL    string // A&A, e.g. https://www.aanda.org
	Limits Limits
}

// Name implements Engine.
func (e *AandAHTMLEngine) Name() string { return "aanda-html" }

// AandADOI reports whether doi is an A&A paper's (10.1051/0004-6361/… since
// 2009, 10.1051/0004-6361:… before).
func AandADOI(doi string) bool {
	d := strings.ToLower(strings.TrimSpace(doi))
	return strings.HasPrefix(d, "10.1051/0004-6361/") || strings.HasPrefix(d, "10.1051/0004-6361:")
}

// aandaPageRe is an A&A article page's path: kind, then year/issue/id/file.
var aandaPageRe = regexp.MustCompile(`^/articles/aa/(abs|full_html|full|ref|pdf)/([0-9]{4}/[0-9A-Za-z_-]{1,16}/aa[0-9A-Za-z_-]{1,32})/(aa[0-9A-Za-z_-]{1,32})\.(?:html|pdf)$`)

// aandaPage is an article page found by resolving a DOI.
type aandaPage struct {
	origin string // scheme://host of the page A&A sent
	kind   string // abs, full_html, full, ref or pdf
	dir    string // 2018/08/aa33051-18
	file   string // aa33051-18
}

// url is the same article's page of another kind.
func (p aandaPage) url(kind string) string {
	return p.origin + "/articles/aa/" + kind + "/" + p.dir + "/" + p.file + ".html"
}

func parseAandAPage(u *url.URL) (aandaPage, bool) {
	if u == nil {
		return aandaPage{}, false
	}
	m := aandaPageRe.FindStringSubmatch(u.EscapedPath())
	if m == nil {
		return aandaPage{}, false
	}
	return aandaPage{origin: u.Scheme + "://" + u.Host, kind: m[1], dir: m[2], file: m[3]}, true
}

// Parse implements Engine.
func (e *AandAHTMLEngine) Parse(ctx context.Context, in Input, progress Progress) (Document, error) {
	if e.URL == "" || e.Web == nil || !AandADOI(in.DOI) {
		return Document{}, fmt.Errorf("no A&A DOI: %w", ErrNotApplicable)
	}
	base, err := url.Parse(strings.TrimRight(e.URL, "/"))
	if err != nil || base.Host == "" {
		return Document{}, fmt.Errorf("AANDA_URL %q is not a URL", e.URL)
	}
	path, ok := doiPath(in.DOI)
	if !ok {
		return Document{}, fmt.Errorf("%q is not a DOI: %w", in.DOI, ErrNotApplicable)
	}
	lim := e.Limits.withDefaults()
	progress.report("resolving the A&A article page")
	res, err := e.get(ctx, base.String()+"/"+path, lim)
	if err != nil {
		return Document{}, err
	}
	page, ok := parseAandAPage(res.URL)
	if !ok {
		return Document{}, fmt.Errorf("the DOI led to %s, not an A&A article page", res.URL.Redacted())
	}
	page.origin = base.Scheme + "://" + base.Host // the next pages come from AANDA_URL's site, wherever the DOI led
	body, source := res.Body, res.URL.String()
	if !page.fullText() {
		source = page.url("full_html")
		progress.report("fetching the A&A full-text page")
		if res, err = e.get(ctx, source, lim); err != nil {
			return Document{}, err
		}
		if p, ok := parseAandAPage(res.URL); !ok || !p.fullText() {
			return Document{}, fmt.Errorf("A&A sent %s instead of the full text: %w", res.URL.Redacted(), ErrNoFullText)
		}
		body = res.Body
	}
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return Document{}, fmt.Errorf("html: %w", err)
	}
	var refDoc *html.Node
	if aandaReferenceList(doc) == nil && hasNumberedSection(doc) {
		// The list from the article's reference page (only for a page with
		// an article on it); without it the text is still worth having,
		// its citations plain.
		progress.report("fetching the A&A reference list")
		r, err := e.get(ctx, page.url("ref"), lim)
		if ctx.Err() != nil {
			return Document{}, ctx.Err()
		}
		if err == nil {
			refDoc, _ = html.Parse(bytes.NewReader(r.Body))
		}
	}
	md, err := aandaMarkdown(doc, refDoc)
	if err != nil {
		return Document{}, err
	}
	return Document{Markdown: md, Engine: e.Name(), Source: source}, nil
}

// fullText reports whether the page is an article's full text.
func (p aandaPage) fullText() bool { return p.kind == "full_html" || p.kind == "full" }

// doiPath is a DOI as URL path segments, each escaped; false for a DOI
// with an empty, "." or ".." segment.
func doiPath(doi string) (string, bool) {
	segs := strings.Split(strings.TrimSpace(doi), "/")
	for i, s := range segs {
		if s == "" || s == "." || s == ".." {
			return "", false
		}
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/"), true
}

// get fetches an HTML page within the limits.
func (e *AandAHTMLEngine) get(ctx context.Context, u string, lim Limits) (*fetch.Response, error) {
	res, err := e.Web.Get(ctx, u, fetch.WithMaxBytes(lim.MaxFileBytes), fetch.WithTimeout(lim.Timeout))
	if err != nil {
		return nil, err
	}
	if res.Status != http.StatusOK {
		return nil, fmt.Errorf("A&A answered HTTP %d", res.Status)
	}
	if err := fetch.ExpectType(res, "text/html", "application/xhtml+xml"); err != nil {
		return nil, err
	}
	return res, nil
}

// AandAHTMLToMarkdown converts an A&A full-text page; refPage, which may be
// nil, is the article's reference-list page, read when the full-text page
// has no list of its own.
func AandAHTMLToMarkdown(page, refPage []byte) (string, error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return "", fmt.Errorf("html: %w", err)
	}
	var refDoc *html.Node
	if refPage != nil {
		if refDoc, err = html.Parse(bytes.NewReader(refPage)); err != nil {
			return "", fmt.Errorf("html: %w", err)
		}
	}
	return aandaMarkdown(doc, refDoc)
}
