package handlers

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// downloadDeadline bounds one background PDF download (all its sources).
const downloadDeadline = 10 * time.Minute

// downloadJobs is the set of papers whose PDF this process is downloading,
// with each download's progress. Safe for concurrent use; the zero value
// is ready.
type downloadJobs struct {
	mu      sync.Mutex
	running map[int64]*jobProgress
	wg      sync.WaitGroup
	// ctx is the parent of every download: detached from the requests that
	// start them, cancelled by StopDownloads at shutdown.
	ctx    context.Context
	cancel context.CancelFunc
}

// jobProgress is how far a running job is: the source being read, bytes
// read and the announced total (-1 unknown). Guarded by downloadJobs.mu.
type jobProgress struct {
	source      string
	read, total int64
}

// start marks id as running and reports whether it was not already.
func (j *downloadJobs) start(id int64) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.running[id] != nil {
		return false
	}
	if j.running == nil {
		j.running = map[int64]*jobProgress{}
	}
	j.running[id] = &jobProgress{total: -1}
	j.wg.Add(1)
	return true
}

func (j *downloadJobs) done(id int64) {
	j.mu.Lock()
	delete(j.running, id)
	j.mu.Unlock()
	j.wg.Done()
}

// active reports whether id's download runs in this process.
func (j *downloadJobs) active(id int64) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.running[id] != nil
}

// report records a running job's progress.
func (j *downloadJobs) report(id int64, source string, read, total int64) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if p := j.running[id]; p != nil {
		p.source, p.read, p.total = source, read, total
	}
}

// progress returns a running job's progress (ok false when it is not
// running).
func (j *downloadJobs) progress(id int64) (jobProgress, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if p := j.running[id]; p != nil {
		return *p, true
	}
	return jobProgress{}, false
}

// StopDownloads cancels the background PDF downloads (their papers are
// marked failed, "cancelled") and waits for them to end or for ctx.
func (s *Server) StopDownloads(ctx context.Context) error {
	s.pdfJobs.cancel()
	s.parseJobs.cancel()
	done := make(chan struct{})
	go func() { s.pdfJobs.wg.Wait(); s.parseJobs.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// downloadView is the status block of a paper page, with its stored PDFs.
func (s *Server) downloadView(c echo.Context, p store.Paper) (views.DownloadStatus, error) {
	prog, running := s.pdfJobs.progress(p.ID)
	d := views.DownloadStatus{BasePath: s.cfg.BasePath, PaperID: p.ID, Status: p.DownloadStatus, Error: p.DownloadError,
		Running: running, Stale: p.DownloadStatus == "downloading" && !running,
		CanStart: s.downloads != nil && !running,
		Source:   prog.source, Read: prog.read, Total: prog.total}
	files, err := s.st.PaperFiles(c.Request().Context(), p.ID)
	if err != nil {
		return d, err
	}
	for _, f := range files {
		if f.Kind == "pdf" {
			d.Files = append(d.Files, views.PaperFileRow{Kind: f.Kind, Bytes: f.Bytes, Source: f.SourceURL, Added: f.CreatedAt})
		}
	}
	return d, nil
}

// libraryDownload is POST /library/{id}/download: the download runs in the
// background, detached from the request, and the page shows its progress.
func (s *Server) libraryDownload(c echo.Context) error {
	p, err := s.paperByParam(c)
	if err != nil {
		return err
	}
	if s.downloads == nil {
		return apiError(http.StatusServiceUnavailable, "downloads_unavailable", "PDF downloads are not available on this server.")
	}
	back := "/library/" + strconv.FormatInt(p.ID, 10)
	if !s.pdfJobs.start(p.ID) {
		s.flash(c, "The PDF is already being downloaded.")
		return s.redirect(c, back)
	}
	ctx, cancel := context.WithTimeout(s.pdfJobs.ctx, downloadDeadline)
	go func() {
		defer s.pdfJobs.done(p.ID)
		defer cancel()
		progress := func(source string, read, total int64) { s.pdfJobs.report(p.ID, source, read, total) }
		if _, err := s.downloads.Download(ctx, p.ID, progress); err != nil {
			s.log.Warn("pdf download failed", "paper", p.ID, "err", err)
		}
	}()
	s.flash(c, "Downloading the PDF…")
	return s.redirect(c, back)
}

// libraryStatus is GET /library/{id}/status: the status block alone (the
// fragment htmx polls while a download runs).
func (s *Server) libraryStatus(c echo.Context) error {
	p, err := s.paperByParam(c)
	if err != nil {
		return err
	}
	d, err := s.downloadView(c, p)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, views.DownloadStatusView(d))
}

// libraryPDF is GET /library/{id}/pdf: the paper's newest stored PDF,
// shown inline. Only files under DATA_DIR/library/pdf are served.
func (s *Server) libraryPDF(c echo.Context) error {
	p, err := s.paperByParam(c)
	if err != nil {
		return err
	}
	files, err := s.st.PaperFiles(c.Request().Context(), p.ID)
	if err != nil {
		return err
	}
	root, err := filepath.Abs(filepath.Join(s.dataDir, "library", "pdf"))
	if err != nil {
		return err
	}
	for _, f := range files {
		if f.Kind != "pdf" {
			continue
		}
		full, err := filepath.Abs(filepath.Join(s.dataDir, f.Path))
		if err != nil || !strings.HasPrefix(full, root+string(filepath.Separator)) {
			continue
		}
		fh, err := os.Open(full)
		if err != nil {
			continue
		}
		defer fh.Close()
		st, err := fh.Stat()
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		h := c.Response().Header()
		h.Set(echo.HeaderContentType, "application/pdf")
		h.Set(echo.HeaderContentDisposition, `inline; filename="paper-`+strconv.FormatInt(p.ID, 10)+`.pdf"`)
		http.ServeContent(c.Response(), c.Request(), "", st.ModTime(), fh)
		return nil
	}
	return apiError(http.StatusNotFound, "not_found", "This paper has no stored PDF yet.")
}
