package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/internal/jobs"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// downloadDeadline bounds one background PDF download (all its sources).
const downloadDeadline = 10 * time.Minute

// downloadProgress is a running download's progress as its job stores
// it: the source being read, bytes read and the announced total (-1
// unknown).
type downloadProgress struct {
	Source string `json:"source"`
	Read   int64  `json:"read"`
	Total  int64  `json:"total"`
}

// StopDownloads cancels the background PDF downloads and parses (their
// jobs end cancelled, their papers marked failed) and waits for them to
// end or for ctx.
func (s *Server) StopDownloads(ctx context.Context) error { return s.paperJobs.Stop(ctx) }

// openJob returns the paper's open job of kind (ok false when none).
func (s *Server) openJob(ctx context.Context, paperID int64, kind string) (store.BackgroundTask, bool, error) {
	job, err := s.st.OpenPaperJob(ctx, paperID, kind)
	if errors.Is(err, store.ErrNotFound) {
		return store.BackgroundTask{}, false, nil
	}
	if err != nil {
		return store.BackgroundTask{}, false, err
	}
	return job, true, nil
}

// downloadView is the status block of a paper page, with its stored PDFs.
func (s *Server) downloadView(c echo.Context, p store.Paper) (views.DownloadStatus, error) {
	ctx := c.Request().Context()
	job, running, err := s.openJob(ctx, p.ID, store.JobDownload)
	if err != nil {
		return views.DownloadStatus{}, err
	}
	prog := downloadProgress{Total: -1}
	if job.Progress != "" {
		_ = json.Unmarshal([]byte(job.Progress), &prog) // a malformed progress shows as none
	}
	d := views.DownloadStatus{BasePath: s.cfg.BasePath, PaperID: p.ID, Status: p.DownloadStatus, Error: p.DownloadError,
		Running: running, Stale: p.DownloadStatus == "downloading" && !running,
		CanStart: s.downloads != nil && !running, JobID: job.ID,
		Source: prog.Source, Read: prog.Read, Total: prog.Total}
	files, err := s.st.PaperFiles(ctx, p.ID)
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
	_, err = s.paperJobs.StartPaper(c.Request().Context(), currentUser(c).ID, p.ID, store.JobDownload, p.Title, downloadDeadline,
		func(ctx context.Context, report func(any)) error {
			progress := func(source string, read, total int64) {
				report(downloadProgress{Source: source, Read: read, Total: total})
			}
			_, err := s.downloads.Download(ctx, p.ID, progress)
			return err
		})
	if errors.Is(err, jobs.ErrRunning) {
		s.flash(c, "The PDF is already being downloaded.")
		return s.redirect(c, back)
	}
	if err != nil {
		return err
	}
	// No flash: the status block says the download runs, and stops saying
	// it when the download ends.
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
