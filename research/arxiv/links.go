package arxiv

import (
	"net/url"
	"strings"
)

// Default base URLs, the same as the configuration defaults (docs/features.md §8). The
// link helpers use them when given an empty base.
const (
	DefaultAPIURL   = "https://export.arxiv.org/api/query"
	DefaultAbsURL   = "https://arxiv.org/abs"
	DefaultPDFURL   = "https://arxiv.org/pdf"
	DefaultHTMLURL  = "https://arxiv.org/html"
	DefaultAr5ivURL = "https://ar5iv.labs.arxiv.org/html"
)

// AbsURL returns the abstract page of id under base (DefaultAbsURL when
// empty), e.g. https://arxiv.org/abs/2401.01234v2. See PDFURL for the
// contract on id.
func AbsURL(base string, id ID) string { return join(base, DefaultAbsURL, id.String()) }

// PDFURL returns the PDF of id under pdfBase (ARXIV_PDF_URL; DefaultPDFURL
// when empty), e.g. https://arxiv.org/pdf/2401.01234v2 or
// https://arxiv.org/pdf/astro-ph/0601001. An unversioned id links to the
// latest version. id should come from ParseID or an Entry; a hand-built one
// is path-escaped segment by segment, so it cannot leave the base.
func PDFURL(pdfBase string, id ID) string { return join(pdfBase, DefaultPDFURL, id.String()) }

// HTMLURL returns arXiv's own HTML rendering of id under htmlBase
// (ARXIV_HTML_URL; DefaultHTMLURL when empty), e.g.
// https://arxiv.org/html/2401.01234v2. arXiv has HTML only for papers
// submitted from December 2023 from TeX sources; older papers are on ar5iv.
func HTMLURL(htmlBase string, id ID) string { return join(htmlBase, DefaultHTMLURL, id.String()) }

// Ar5ivURL returns the ar5iv rendering of id under base (AR5IV_URL;
// DefaultAr5ivURL when empty), e.g. https://ar5iv.labs.arxiv.org/html/2401.01234.
// The version is dropped: ar5iv renders one version per paper, the latest at
// its last conversion run.
func Ar5ivURL(base string, id ID) string { return join(base, DefaultAr5ivURL, id.Base) }

// join appends the path-escaped segments of path to base (or def).
func join(base, def, path string) string {
	base = strings.TrimRight(strings.TrimSpace(base), "/")
	if base == "" {
		base = def
	}
	segs := strings.Split(path, "/")
	for i, s := range segs {
		if s == "." || s == ".." {
			s = "_"
		}
		segs[i] = url.PathEscape(s)
	}
	return base + "/" + strings.Join(segs, "/")
}
