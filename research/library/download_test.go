package library

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/time/rate"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/fetch"
	"github.com/astroresearch/astroresearch/store"
)

const fakePDF = "%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"

type gatewayTo string

func (g gatewayTo) LinkGateway(bibcode string, s ads.ESource) (string, error) {
	return string(g) + "/link_gateway/" + bibcode + "/" + string(s), nil
}

func TestDownloadChannelsAndChecks(t *testing.T) {
	l, st, _ := newLib(t, false)
	_ = l
	ctx := context.Background()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, "/pdf/2401.00001"): // arXiv answers with a paywall-like page
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html><body>Please log in</body></html>")
		case strings.HasSuffix(r.URL.Path, "/EPRINT_PDF"):
			http.Error(w, "not found", http.StatusNotFound)
		case strings.HasSuffix(r.URL.Path, "/PUB_PDF"), strings.HasPrefix(r.URL.Path, "/pdf/2401.00002"):
			w.Header().Set("Content-Type", "application/pdf")
			w.Write([]byte(fakePDF))
		case strings.HasPrefix(r.URL.Path, "/pdf/2401.00003"):
			w.Header().Set("Content-Type", "application/pdf")
			fmt.Fprint(w, "%PDF-1.4\n"+strings.Repeat("x", 5000))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	web := fetch.New(fetch.Options{Allow: []string{srv.URL}, DefaultRate: rate.Inf, PerHost: map[string]rate.Limit{}})
	dir := t.TempDir()
	d := NewDownloader(st, web, gatewayTo(srv.URL), DownloadOptions{DataDir: dir, ArxivPDFURL: srv.URL + "/pdf", MaxBytes: 4096})
	add := func(arxivID, bibcode string) int64 {
		p := store.Paper{Title: "P " + arxivID, ArxivID: &arxivID}
		if bibcode != "" {
			p.Bibcode = &bibcode
		}
		out, _, err := st.UpsertPaper(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		return out.ID
	}
	// arXiv gives HTML, the e-print gateway 404, the publisher PDF works.
	p1 := add("2401.00001", "2024ApJ...900....1A")
	var progressed bool
	f, err := d.Download(ctx, p1, func(source string, read, total int64) { progressed = true })
	if err != nil || f.Kind != "pdf" || !strings.HasSuffix(f.SourceURL, "/PUB_PDF") || !progressed {
		t.Fatalf("download: %+v %v", f, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, f.Path)); string(b) != fakePDF {
		t.Fatal("stored file differs")
	}
	got, _ := st.PaperByID(ctx, p1)
	if got.DownloadStatus != "downloaded" {
		t.Fatalf("status %q", got.DownloadStatus)
	}
	// The same content for another paper is stored once.
	p2 := add("2401.00002", "")
	f2, err := d.Download(ctx, p2, nil)
	if err != nil || f2.Path != f.Path {
		t.Fatalf("dedupe: %+v %v", f2, err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "library", "pdf"))
	if len(entries) != 1 {
		t.Fatalf("%d files on disk, want 1 (stored once by hash)", len(entries))
	}
	// Too large: refused, nothing half-written left behind, status failed.
	p3 := add("2401.00003", "")
	if _, err := d.Download(ctx, p3, nil); !errors.Is(err, ErrNoPDF) || !strings.Contains(err.Error(), "more than 4096 bytes") {
		t.Fatalf("too large: %v", err)
	}
	got, _ = st.PaperByID(ctx, p3)
	if got.DownloadStatus != "failed" || got.DownloadError == "" {
		t.Fatalf("status %q %q", got.DownloadStatus, got.DownloadError)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "library", "pdf")); len(entries) != 1 {
		t.Fatalf("temporary files left: %d entries", len(entries))
	}
	// Already downloaded: no new request needed.
	if f3, err := d.Download(ctx, p1, nil); err != nil || f3.ID != f.ID {
		t.Fatalf("second download: %+v %v", f3, err)
	}
}

// A "PDF" of 2 GiB sent without Content-Length is cut off at the cap; the
// partial file is removed and the paper marked failed.
func TestDownloadStopsAtTheCap(t *testing.T) {
	_, st, _ := newLib(t, false)
	ctx := context.Background()
	var sent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		chunk := append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte("x"), 64<<10)...)
		for sent.Load() < 2<<30 {
			n, err := w.Write(chunk)
			sent.Add(int64(n))
			if err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	web := fetch.New(fetch.Options{Allow: []string{srv.URL}, DefaultRate: rate.Inf, PerHost: map[string]rate.Limit{}})
	dir := t.TempDir()
	d := NewDownloader(st, web, nil, DownloadOptions{DataDir: dir, ArxivPDFURL: srv.URL + "/pdf", MaxBytes: 1 << 20})
	id := "2401.00009"
	p, _, err := st.UpsertPaper(ctx, store.Paper{Title: "Huge", ArxivID: &id})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Download(ctx, p.ID, nil); !errors.Is(err, ErrNoPDF) || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("2 GiB download: %v", err)
	}
	if got := sent.Load(); got > 64<<20 {
		t.Fatalf("the server sent %d bytes: the download did not stop at the cap", got)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "library", "pdf")); len(entries) != 0 {
		t.Fatalf("%d files left behind", len(entries))
	}
	if got, _ := st.PaperByID(ctx, p.ID); got.DownloadStatus != "failed" {
		t.Fatalf("status %q", got.DownloadStatus)
	}
	if files, _ := st.PaperFiles(ctx, p.ID); len(files) != 0 {
		t.Fatalf("file recorded: %+v", files)
	}
}
