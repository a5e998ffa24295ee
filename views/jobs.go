package views

import "time"

// JobsPage lists the signed-in user's jobs: the downloads and parses they
// started from paper pages and the research assistant's background tasks,
// newest first (docs/features.md L7).
type JobsPage struct {
	Chrome
	Jobs []JobRow
}

// JobRow is one job.
type JobRow struct {
	ID       string
	What     string // "PDF download", "Parse", "Background task", "Worker"
	Name     string // the paper's title, the tool or the worker's title
	Link     string // the paper's page or the session, under the base path
	Status   string // queued, running, done, failed, timeout, cancelled, interrupted
	Started  time.Time
	Finished *time.Time
	// Failure explains a job that did not finish (nil otherwise).
	Failure *Failure
	// CanStop: the job runs in this server and can be stopped here.
	CanStop bool
}

// StatusLabel is the status as the page says it.
func (r JobRow) StatusLabel() string {
	switch r.Status {
	case "done":
		return "finished"
	case "timeout":
		return "took too long"
	}
	return r.Status
}
