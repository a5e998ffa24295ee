package library

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/arxiv"
	"github.com/astroresearch/astroresearch/research/fetch"
	"github.com/astroresearch/astroresearch/store"
)

// Streamer downloads a URL into a writer (the guarded fetch client).
type Streamer interface {
	Stream(ctx context.Context, req *http.Request, w io.Writer, progress func(read, total int64), opts ...fetch.Option) (*fetch.Response, error)
}

// Gateway builds ADS link-gateway URLs.
type Gateway interface {
	LinkGateway(bibcode string, source ads.ESource) (string, error)
}

// DownloadOptions configure the downloader.
type DownloadOptions struct {
	DataDir     string        // PDFs go to DataDir/library/pdf/<sha256>.pdf
	ArxivPDFURL string        // ARXIV_PDF_URL
	DOIURL      string        // the DOI resolver; default https://doi.org
	MaxBytes    int64         // default 200 MiB
	Timeout     time.Duration // per source; default 5 min
}

// Downloader fetches a paper's PDF through several channels in order
// (docs/features.md T9): the arXiv PDF, then ADS's link gateway (e-print, then
// publisher PDF), then publisher open access through the DOI. A channel
// that answers with the publisher's article page (IOP, A&A, AAS, ...)
// is followed to the PDF that page announces. Content must really be a
// PDF; it is stored once by SHA-256. Everything goes through the guarded
// fetch client.
type Downloader struct {
	st      *store.Store
	web     Streamer
	gateway Gateway
	opt     DownloadOptions
}

// NewDownloader returns a downloader.
func NewDownloader(st *store.Store, web Streamer, gw Gateway, opt DownloadOptions) *Downloader {
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = 200 << 20
	}
	if opt.Timeout <= 0 {
		opt.Timeout = 5 * time.Minute
	}
	if opt.DOIURL == "" {
		opt.DOIURL = "https://doi.org"
	}
	return &Downloader{st: st, web: web, gateway: gw, opt: opt}
}

// ErrNoPDF means no channel produced a PDF.
var ErrNoPDF = errors.New("no source gave a PDF")

// Progress reports bytes read of the current source.
type Progress func(source string, read, total int64)

// Download fetches the paper's PDF unless it has one, records the file and
// the paper's status ("failed: reasons" when every source fails), and
// returns the file.
func (d *Downloader) Download(ctx context.Context, paperID int64, progress Progress) (store.PaperFile, error) {
	p, err := d.st.PaperByID(ctx, paperID)
	if err != nil {
		return store.PaperFile{}, err
	}
	if files, err := d.st.PaperFiles(ctx, paperID); err == nil {
		for _, f := range files {
			if f.Kind == "pdf" {
				if _, err := os.Stat(filepath.Join(d.opt.DataDir, f.Path)); err == nil {
					return f, nil
				}
			}
		}
	}
	if err := d.st.SetDownloadStatus(ctx, paperID, "downloading", ""); err != nil {
		return store.PaperFile{}, err
	}
	var reasons []string
	for _, src := range d.sources(p) {
		f, err := d.try(ctx, paperID, src, progress)
		if err == nil {
			return f, nil
		}
		if ctx.Err() != nil {
			_ = d.st.SetDownloadStatus(context.WithoutCancel(ctx), paperID, "failed", "cancelled")
			return store.PaperFile{}, ctx.Err()
		}
		reasons = append(reasons, fmt.Sprintf("%s: %v", src.name, err))
	}
	if len(reasons) == 0 {
		reasons = append(reasons, "the paper has no arXiv id, bibcode or DOI to download from")
	}
	msg := strings.Join(reasons, "; ")
	_ = d.st.SetDownloadStatus(context.WithoutCancel(ctx), paperID, "failed", msg)
	return store.PaperFile{}, fmt.Errorf("%w: %s", ErrNoPDF, msg)
}

type source struct{ name, url string }

// sources lists the channels to try, in order.
func (d *Downloader) sources(p store.Paper) []source {
	var out []source
	if p.ArxivID != nil {
		id := arxiv.ID{Base: *p.ArxivID}
		if p.ArxivVersion != nil {
			id.Version = *p.ArxivVersion
		}
		out = append(out, source{"arXiv", arxiv.PDFURL(d.opt.ArxivPDFURL, id)})
	}
	if p.Bibcode != nil && d.gateway != nil {
		for _, es := range []ads.ESource{ads.EprintPDF, ads.PubPDF} {
			if u, err := d.gateway.LinkGateway(*p.Bibcode, es); err == nil {
				out = append(out, source{"ADS " + string(es), u})
			}
		}
	}
	if p.DOI != nil {
		out = append(out, source{"publisher (DOI)", strings.TrimSuffix(d.opt.DOIURL, "/") + "/" + *p.DOI})
	}
	return out
}

// try downloads one source; when it answers with an article landing page
// (HTML) instead of a PDF, the PDF link the page announces is followed
// once (see landingPDF): that is how publisher open access is reached
// from doi.org and ADS's publisher links.
func (d *Downloader) try(ctx context.Context, paperID int64, src source, progress Progress) (store.PaperFile, error) {
	f, landing, err := d.fetch(ctx, paperID, src, progress)
	if !errors.Is(err, errNotPDF) || landing == nil {
		return f, err
	}
	link := landingPDF(landing.page, landing.url)
	if link == "" || link == src.url || link == landing.url.String() {
		return store.PaperFile{}, fmt.Errorf("%w (an HTML page without a PDF link; perhaps a paywall or login page)", errNotPDF)
	}
	f, _, err = d.fetch(ctx, paperID, source{name: src.name, url: link}, progress)
	if err != nil {
		return store.PaperFile{}, fmt.Errorf("the landing page's PDF link %s: %w", link, err)
	}
	return f, nil
}

// errNotPDF means an answer was not a PDF.
var errNotPDF = errors.New("the answer is not a PDF")

// landingPage is an HTML answer kept to look for a PDF link.
type landingPage struct {
	page []byte
	url  *url.URL // the final URL, after redirects
}

// fetch downloads one URL into a temporary file, checks it is a PDF and
// moves it into place named by its hash. An HTML answer comes back as a
// landingPage with errNotPDF.
func (d *Downloader) fetch(ctx context.Context, paperID int64, src source, progress Progress) (store.PaperFile, *landingPage, error) {
	dir := filepath.Join(d.opt.DataDir, "library", "pdf")
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return store.PaperFile{}, nil, err
	}
	tmp, err := os.CreateTemp(dir, ".download-*")
	if err != nil {
		return store.PaperFile{}, nil, err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, src.url, nil)
	if err != nil {
		tmp.Close()
		return store.PaperFile{}, nil, err
	}
	req.Header.Set("Accept", "application/pdf, text/html;q=0.5")
	h := sha256.New()
	head := &headBuffer{max: maxLanding}
	res, err := d.web.Stream(ctx, req, io.MultiWriter(tmp, h, head), func(read, total int64) {
		if progress != nil {
			progress(src.name, read, total)
		}
	}, fetch.WithMaxBytes(d.opt.MaxBytes), fetch.WithTimeout(d.opt.Timeout))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		return store.PaperFile{}, nil, err
	case res.Status != http.StatusOK:
		return store.PaperFile{}, nil, fmt.Errorf("HTTP %d", res.Status)
	case !bytes.HasPrefix(bytes.TrimLeft(head.Bytes(), "\r\n\t "), []byte("%PDF-")):
		if looksHTML(res.ContentType(), head.Bytes()) {
			return store.PaperFile{}, &landingPage{page: head.Bytes(), url: res.URL}, errNotPDF
		}
		return store.PaperFile{}, nil, fmt.Errorf("%w (%s; perhaps a paywall or login page)", errNotPDF, res.ContentType())
	}
	sum := hex.EncodeToString(h.Sum(nil))
	rel := filepath.Join("library", "pdf", sum+".pdf")
	if err := os.Rename(tmp.Name(), filepath.Join(d.opt.DataDir, rel)); err != nil {
		return store.PaperFile{}, nil, err
	}
	f, err := d.st.AddPaperFile(ctx, store.PaperFile{PaperID: paperID, Kind: "pdf", SHA256: sum, Path: rel, Bytes: res.Size, SourceURL: src.url})
	return f, nil, err
}

// headBuffer keeps the first bytes written to it.
type headBuffer struct {
	bytes.Buffer
	max int
}

func (b *headBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
