package handlers

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// jobsPageSize is how many of a user's newest jobs the jobs page lists.
const jobsPageSize = 100

// jobsPage is GET /jobs: the signed-in user's jobs of every kind.
func (s *Server) jobsPage(c echo.Context) error {
	list, err := s.st.UserJobs(c.Request().Context(), currentUser(c).ID, jobsPageSize)
	if err != nil {
		return err
	}
	page := views.JobsPage{Chrome: s.chrome(c, "Jobs", "jobs")}
	for _, j := range list {
		page.Jobs = append(page.Jobs, s.jobRow(j))
	}
	return s.render(c, http.StatusOK, views.Jobs(page))
}

// jobRow is one job as the jobs page shows it.
func (s *Server) jobRow(j store.BackgroundTask) views.JobRow {
	r := views.JobRow{ID: j.ID, Name: j.Name, Status: j.Status, Started: j.CreatedAt, Finished: j.FinishedAt}
	if j.StartedAt != nil {
		r.Started = *j.StartedAt
	}
	failed := j.Status == store.TaskFailed || j.Status == store.TaskTimeout || j.Status == store.TaskCancelled || j.Status == store.TaskInterrupted
	switch j.Kind {
	case store.JobDownload, store.JobParse:
		r.What = "PDF download"
		explain := views.DownloadFailure
		if j.Kind == store.JobParse {
			r.What, explain = "Parse", views.ParseFailure
		}
		if j.PaperID != nil {
			r.Link = s.cfg.BasePath + "/library/" + strconv.FormatInt(*j.PaperID, 10)
		}
		r.CanStop = !store.TaskFinal(j.Status) && s.paperJobs.Running(j.ID)
		if failed {
			f := explain(j.Output)
			if j.Status == store.TaskInterrupted {
				f.Summary = "The server restarted before this job finished; start it again from the paper's page."
			}
			r.Failure = &f
		}
	default:
		r.What = "Background task"
		if j.Kind == store.BackgroundWorker {
			r.What = "Worker"
		}
		if j.SessionID != "" {
			r.Link = s.cfg.BasePath + "/research/" + j.SessionID
		}
		if failed {
			r.Failure = &views.Failure{Summary: "This task did not finish; its session shows what the research assistant did next.",
				Detail: j.Output}
		}
	}
	return r
}

// cancelJob is POST /jobs/{id}/cancel: stops one of the user's running
// jobs, then returns to the form's local "back" path (the jobs page by
// default). An ended job is not an error: it simply is not running.
func (s *Server) cancelJob(c echo.Context) error {
	err := s.paperJobs.Cancel(c.Request().Context(), currentUser(c).ID, c.Param("id"))
	if errors.Is(err, store.ErrNotFound) {
		return echo.ErrNotFound
	}
	if err != nil {
		return err
	}
	s.flash(c, "The job was stopped.")
	back := c.FormValue("back")
	if !strings.HasPrefix(back, "/") || strings.HasPrefix(back, "//") || strings.Contains(back, `\`) {
		back = "/jobs"
	}
	return s.redirect(c, back)
}
