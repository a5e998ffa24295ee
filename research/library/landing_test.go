package library

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/time/rate"

	"github.com/astroresearch/astroresearch/research/fetch"
	"github.com/astroresearch/astroresearch/store"
)

// iopLanding is shaped like an IOPscience article page's head (Highwire
// tags with an absolute PDF URL); %s is the publisher's origin.
const iopLanding = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Cold Gas in Ultra-faint Dwarf Galaxies - IOPscience</title>
<meta name="citation_title" content="Cold Gas in Ultra-faint Dwarf Galaxies">
<meta name="citation_author" content="Fernández, Maria J.">
<meta name="citation_journal_title" content="The Astrophysical Journal">
<meta name="citation_doi" content="10.3847/1538-4357/ad1234">
<meta name="citation_pdf_url" content="%s/article/10.3847/1538-4357/ad1234/pdf">
<link rel="canonical" href="%s/article/10.3847/1538-4357/ad1234">
</head>
<body><main><h1>Cold Gas in Ultra-faint Dwarf Galaxies</h1><a href="/article/10.3847/1538-4357/ad1234/pdf">Download Article PDF</a></main></body>
</html>`

// aandaLanding is shaped like an A&A (EDP Sciences) article page: the PDF
// link is relative here, resolved against the page's URL.
const aandaLanding = `<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml"><head>
<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
<meta name="citation_journal_title" content="Astronomy &amp; Astrophysics" />
<meta name="citation_title" content="Gaia Data Release 2" />
<meta name="citation_pdf_url" content="../../../../pdf/2018/08/aa33051-18.pdf" />
<link rel="alternate" type="application/pdf" href="/elsewhere.pdf" />
</head><body><p>Astronomy &amp; Astrophysics</p></body></html>`

func TestLandingPDF(t *testing.T) {
	base, _ := url.Parse("https://www.aanda.org/articles/aa/full_html/2018/08/aa33051-18/aa33051-18.html")
	for _, c := range []struct{ name, page, want string }{
		{"IOP", fmt.Sprintf(iopLanding, "https://iopscience.iop.org", "https://iopscience.iop.org"), "https://iopscience.iop.org/article/10.3847/1538-4357/ad1234/pdf"},
		{"A&A relative", aandaLanding, "https://www.aanda.org/articles/aa/pdf/2018/08/aa33051-18.pdf"},
		{"link alternate", `<html><head><link rel="Alternate stylesheet" type="application/PDF" href="//cdn.example/p.pdf#page=2"></head></html>`, "https://cdn.example/p.pdf"},
		{"meta beats link", `<head><link rel="alternate" type="application/pdf" href="/a.pdf"><meta name="CITATION_PDF_URL" content="/b.pdf"></head>`, "https://www.aanda.org/b.pdf"},
		{"javascript refused", `<meta name="citation_pdf_url" content="javascript:alert(1)">`, ""},
		{"file refused", `<meta name="citation_pdf_url" content="file:///etc/passwd">`, ""},
		{"none", `<html><head><title>Log in</title></head><body>Subscribe to read</body></html>`, ""},
		{"empty content", `<meta name="citation_pdf_url" content="  ">`, ""},
		{"not HTML", "%PDF-1.7 garbage \x00\x01", ""},
	} {
		if got := landingPDF([]byte(c.page), base); got != c.want {
			t.Errorf("%s: landingPDF = %q, want %q", c.name, got, c.want)
		}
	}
}

func FuzzLandingPDF(f *testing.F) {
	f.Add(aandaLanding)
	f.Add(`<meta name="citation_pdf_url" content="http://[::1]:80/x">`)
	f.Add(`<link rel=alternate type=application/pdf href="\\evil">`)
	base, _ := url.Parse("https://pub.example/a/b")
	f.Fuzz(func(t *testing.T, page string) {
		got := landingPDF([]byte(page), base)
		if got == "" {
			return
		}
		u, err := url.Parse(got)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Fragment != "" {
			t.Fatalf("landingPDF gave %q", got)
		}
	})
}

func TestDownloadFollowsPublisherLandingPages(t *testing.T) {
	_, st, _ := newLib(t, false)
	ctx := context.Background()
	var pub *httptest.Server
	pub = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/article/10.3847/1538-4357/ad1234": // IOP: landing page, then the PDF
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, iopLanding, pub.URL, pub.URL)
		case "/article/10.3847/1538-4357/ad1234/pdf":
			w.Header().Set("Content-Type", "application/pdf")
			io.WriteString(w, fakePDF)
		case "/articles/aa/full_html/2018/08/aa33051-18/aa33051-18.html": // A&A, relative link
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, aandaLanding)
		case "/articles/aa/pdf/2018/08/aa33051-18.pdf":
			w.Header().Set("Content-Type", "application/pdf")
			io.WriteString(w, fakePDF+"% A&A\n")
		case "/paywalled": // announces a PDF that is a login page
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<html><head><meta name="citation_pdf_url" content="%s/paywalled/pdf"></head></html>`, pub.URL)
		case "/paywalled/pdf":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!DOCTYPE html><html><body><form action="/login">Sign in to access this article</form></body></html>`)
		case "/no-link":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><head><title>Purchase this article</title></head><body>$39.95</body></html>`)
		case "/to-loopback": // announces a PDF on a private address
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><head><meta name="citation_pdf_url" content="http://127.0.0.1:9/secret.pdf"></head></html>`)
		case "/loop": // announces itself
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<html><head><meta name="citation_pdf_url" content="%s/loop"></head></html>`, pub.URL)
		default:
			http.NotFound(w, r)
		}
	}))
	defer pub.Close()
	// doi.org: redirects each DOI to its publisher page.
	landing := map[string]string{
		"/10.3847/1538-4357/ad1234":    "/article/10.3847/1538-4357/ad1234",
		"/10.1051/0004-6361/201833051": "/articles/aa/full_html/2018/08/aa33051-18/aa33051-18.html",
		"/10.1000/paywalled":           "/paywalled",
		"/10.1000/no-link":             "/no-link",
		"/10.1000/to-loopback":         "/to-loopback",
		"/10.1000/loop":                "/loop",
	}
	doi := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if to, ok := landing[r.URL.Path]; ok {
			http.Redirect(w, r, pub.URL+to, http.StatusFound)
			return
		}
		http.NotFound(w, r)
	}))
	defer doi.Close()
	web := fetch.New(fetch.Options{Allow: []string{pub.URL, doi.URL}, DefaultRate: rate.Inf, PerHost: map[string]rate.Limit{}})
	dir := t.TempDir()
	d := NewDownloader(st, web, nil, DownloadOptions{DataDir: dir, DOIURL: doi.URL})
	add := func(d string) int64 {
		p, _, err := st.UpsertPaper(ctx, store.Paper{Title: "P " + d, DOI: &d})
		if err != nil {
			t.Fatal(err)
		}
		return p.ID
	}
	for _, c := range []struct{ doi, wantSource, wantErr string }{
		{"10.3847/1538-4357/ad1234", pub.URL + "/article/10.3847/1538-4357/ad1234/pdf", ""},
		{"10.1051/0004-6361/201833051", pub.URL + "/articles/aa/pdf/2018/08/aa33051-18.pdf", ""},
		{"10.1000/paywalled", "", "the answer is not a PDF"},
		{"10.1000/no-link", "", "an HTML page without a PDF link"},
		{"10.1000/to-loopback", "", "address not allowed"},
		{"10.1000/loop", "", "an HTML page without a PDF link"},
	} {
		id := add(c.doi)
		f, err := d.Download(ctx, id, nil)
		got, _ := st.PaperByID(ctx, id)
		if c.wantErr == "" {
			if err != nil || f.SourceURL != c.wantSource || got.DownloadStatus != "downloaded" {
				t.Errorf("%s: %+v %v (status %q)", c.doi, f, err, got.DownloadStatus)
				continue
			}
			if b, _ := os.ReadFile(filepath.Join(dir, f.Path)); !strings.HasPrefix(string(b), "%PDF-") {
				t.Errorf("%s: stored file is not the PDF", c.doi)
			}
			continue
		}
		if !errors.Is(err, ErrNoPDF) || !strings.Contains(err.Error(), c.wantErr) || got.DownloadStatus != "failed" ||
			!strings.Contains(got.DownloadError, c.wantErr) {
			t.Errorf("%s: err %v, status %q %q; want failure with %q", c.doi, err, got.DownloadStatus, got.DownloadError, c.wantErr)
		}
	}
	// Nothing half-written: only the two PDFs are on disk.
	entries, _ := os.ReadDir(filepath.Join(dir, "library", "pdf"))
	if len(entries) != 2 {
		t.Fatalf("%d entries on disk, want 2", len(entries))
	}
}
