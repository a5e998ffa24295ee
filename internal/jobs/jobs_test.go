package jobs

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/store/storetest"
)

// fixture is a migrated store with one user and one paper.
func fixture(t *testing.T) (*store.Store, int64, int64) {
	t.Helper()
	ctx := context.Background()
	st := storetest.New(t)
	u, err := st.CreateUser(ctx, "ada", "x", store.RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	arxiv := "2401.00001"
	p, _, err := st.UpsertPaper(ctx, store.Paper{Title: "A paper", ArxivID: &arxiv})
	if err != nil {
		t.Fatal(err)
	}
	return st, u.ID, p.ID
}

func newRunner(t *testing.T, st *store.Store) *Runner {
	r := NewRunner(st, slog.New(slog.NewTextHandler(io.Discard, nil)))
	t.Cleanup(func() { _ = r.Stop(context.Background()) })
	return r
}

func TestPaperJobOutcomes(t *testing.T) {
	tests := []struct {
		name       string
		work       Work
		timeout    time.Duration
		cancel     bool
		wantStatus string
		wantOutput string
	}{
		{"done", func(context.Context, func(any)) error { return nil }, time.Minute, false, store.TaskDone, ""},
		{"failed", func(context.Context, func(any)) error { return errors.New("no source has the PDF") }, time.Minute, false,
			store.TaskFailed, "no source has the PDF"},
		{"timeout", func(ctx context.Context, _ func(any)) error { <-ctx.Done(); return ctx.Err() }, 10 * time.Millisecond, false,
			store.TaskTimeout, "context deadline exceeded"},
		{"cancelled", func(ctx context.Context, _ func(any)) error { <-ctx.Done(); return ctx.Err() }, time.Minute, true,
			store.TaskCancelled, "context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, user, paper := fixture(t)
			r := newRunner(t, st)
			ctx := context.Background()
			job, err := r.StartPaper(ctx, user, paper, store.JobDownload, "A paper", tt.timeout, tt.work)
			if err != nil {
				t.Fatal(err)
			}
			if tt.cancel {
				if err := r.Cancel(ctx, user, job.ID); err != nil {
					t.Fatal(err)
				}
			}
			r.Wait()
			got, err := st.UserJob(ctx, user, job.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != tt.wantStatus || got.Output != tt.wantOutput || got.FinishedAt == nil {
				t.Fatalf("job %+v, want status %q output %q", got, tt.wantStatus, tt.wantOutput)
			}
			if got.SessionID != "" || got.PaperID == nil || *got.PaperID != paper || got.Kind != store.JobDownload {
				t.Fatalf("job row %+v", got)
			}
		})
	}
}

func TestOneOpenJobPerPaperAndKind(t *testing.T) {
	st, user, paper := fixture(t)
	r := newRunner(t, st)
	ctx := context.Background()
	release := make(chan struct{})
	reported := make(chan struct{}, 2)
	block := func(ctx context.Context, report func(any)) error {
		report(map[string]int{"read": 10})
		reported <- struct{}{}
		select { // a failed test's cleanup (Stop) must not wait forever
		case <-release:
		case <-ctx.Done():
		}
		return nil
	}
	job, err := r.StartPaper(ctx, user, paper, store.JobDownload, "A paper", time.Minute, block)
	if err != nil {
		t.Fatal(err)
	}
	<-reported // the progress is stored before report returns
	if _, err := r.StartPaper(ctx, user, paper, store.JobDownload, "A paper", time.Minute, block); !errors.Is(err, ErrRunning) {
		t.Fatalf("second download of the same paper: %v, want ErrRunning", err)
	}
	parse, err := r.StartPaper(ctx, user, paper, store.JobParse, "A paper", time.Minute, block)
	if err != nil {
		t.Fatalf("a parse beside the download: %v", err)
	}
	open, err := st.OpenPaperJob(ctx, paper, store.JobDownload)
	if err != nil || open.ID != job.ID || open.Progress != `{"read":10}` || !r.Running(job.ID) {
		t.Fatalf("open job %+v (%v), want %s with its progress", open, err, job.ID)
	}
	if err := r.Cancel(ctx, user+1, job.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another user cancelled the job: %v", err)
	}
	close(release)
	r.Wait()
	if _, err := st.OpenPaperJob(ctx, paper, store.JobDownload); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("an ended job is still open: %v", err)
	}
	if _, err := r.StartPaper(ctx, user, paper, store.JobDownload, "A paper", time.Minute, func(context.Context, func(any)) error { return nil }); err != nil {
		t.Fatalf("a new download after the first ended: %v", err)
	}
	r.Wait()
	list, err := st.UserJobs(ctx, user, 10)
	if err != nil || len(list) != 3 || list[2].ID != job.ID || list[1].ID != parse.ID {
		t.Fatalf("jobs %+v (%v), want three, newest first", list, err)
	}
}

func TestRestartMarksOpenJobsInterrupted(t *testing.T) {
	st, user, paper := fixture(t)
	ctx := context.Background()
	// A job a stopped process left running: the row alone, nothing runs it.
	job := store.BackgroundTask{ID: "job_left", UserID: user, Kind: store.JobParse, Name: "A paper",
		Status: store.TaskRunning, PaperID: &paper}
	if err := st.CreateBackgroundTask(ctx, &job); err != nil {
		t.Fatal(err)
	}
	if _, err := st.InterruptBackgroundTasks(ctx, "The server restarted."); err != nil {
		t.Fatal(err)
	}
	got, err := st.UserJob(ctx, user, job.ID)
	if err != nil || got.Status != store.TaskInterrupted {
		t.Fatalf("job after a restart: %+v (%v)", got, err)
	}
	r := newRunner(t, st)
	if _, err := r.StartPaper(ctx, user, paper, store.JobParse, "A paper", time.Minute, func(context.Context, func(any)) error { return nil }); err != nil {
		t.Fatalf("a parse after the interrupted one: %v", err)
	}
}
