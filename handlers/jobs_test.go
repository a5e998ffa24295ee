package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/store"
)

// TestJobsPage: the jobs page lists the user's jobs with their outcome; a
// running one can be stopped there (or from its paper's page), by its
// owner only, and the Stop button returns only to local paths.
func TestJobsPage(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	expectContains(t, "no jobs", c.get("/jobs").body, `data-testid="no-jobs"`)
	expectContains(t, "nav", c.get("/").body, `<a href="/jobs">Jobs</a>`)

	arxiv := "2401.07777"
	p, _, err := a.store.UpsertPaper(context.Background(), store.Paper{Title: "Slow paper", ArxivID: &arxiv})
	if err != nil {
		t.Fatal(err)
	}
	admin, err := a.store.UserByName(context.Background(), adminName)
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	job, err := a.srv.paperJobs.StartPaper(context.Background(), admin.ID, p.ID, store.JobDownload, p.Title, time.Minute,
		func(ctx context.Context, report func(any)) error {
			report(downloadProgress{Source: "arXiv", Read: 2048, Total: 4096})
			close(started)
			<-ctx.Done()
			return ctx.Err()
		})
	if err != nil {
		t.Fatal(err)
	}
	<-started
	paperPage := "/library/" + strconv.FormatInt(p.ID, 10)
	expectContains(t, "paper page while running", c.get(paperPage).body, "downloading…", "from arXiv: 2.0 KiB of 4.0 KiB",
		`action="/jobs/`+job.ID+`/cancel"`, "Stop the download")
	expectContains(t, "jobs page while running", c.get("/jobs").body, `data-status="running"`, "PDF download", "Slow paper",
		`href="`+paperPage+`"`, `data-testid="stop-job"`)

	other := a.member("orion", "correct horse battery")
	expectStatus(t, "another user's job", other.postForm("/jobs/"+job.ID+"/cancel", nil), http.StatusNotFound)
	expectLacks(t, "another user's list", other.get("/jobs").body, job.ID, "Slow paper")

	res := c.postForm("/jobs/"+job.ID+"/cancel", url.Values{"back": {"//evil.example/"}})
	expectStatus(t, "stop", res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/jobs" {
		t.Fatalf("stop went to %q, want /jobs", loc)
	}
	a.srv.WaitDownloads()
	body := c.get("/jobs").body
	expectContains(t, "stopped job", body, `data-status="cancelled"`, `data-testid="job-error"`, "stopped before it finished")
	expectLacks(t, "stopped job", body, `data-testid="stop-job"`)
	res = c.postForm("/jobs/"+job.ID+"/cancel", url.Values{"back": {paperPage}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != paperPage {
		t.Fatalf("stopping an ended job: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	expectStatus(t, "unknown job", c.postForm("/jobs/job_nope/cancel", nil), http.StatusNotFound)
}
