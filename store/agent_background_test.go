package store

import (
	"context"
	"errors"
	"testing"
)

func TestBackgroundTaskLifecycle(t *testing.T) {
	st := newStore(t, nil)
	ctx := context.Background()
	u, err := st.CreateUser(ctx, "vera", "x", RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	s, err := st.CreateAgentSession(ctx, u.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	other, _ := st.CreateAgentSession(ctx, u.ID, "")
	add := func(id, kind, status string, notified bool) {
		t.Helper()
		task := BackgroundTask{ID: id, SessionID: s.ID, UserID: u.ID, Turn: 1, Kind: kind, Name: "download_paper",
			Arguments: `{"id":"x"}`, Status: status, Notified: notified}
		if err := st.CreateBackgroundTask(ctx, &task); err != nil {
			t.Fatal(err)
		}
	}
	add("a", BackgroundTool, TaskQueued, false)
	add("b", BackgroundTool, TaskQueued, false)
	add("w", BackgroundWorker, TaskQueued, true)

	// Running sets the start time; a final status the finish time, once.
	got, err := st.SetBackgroundTaskStatus(ctx, "a", TaskRunning, "")
	if err != nil || got.Status != TaskRunning || got.StartedAt == nil || got.FinishedAt != nil {
		t.Fatalf("running: %+v %v", got, err)
	}
	if has, _ := st.HasBackgroundNotifications(ctx, s.ID); has {
		t.Fatal("a running task counted as a notification")
	}
	got, err = st.SetBackgroundTaskStatus(ctx, "a", TaskDone, "downloaded")
	if err != nil || got.Status != TaskDone || got.FinishedAt == nil || got.Output != "downloaded" {
		t.Fatalf("done: %+v %v", got, err)
	}
	got, err = st.SetBackgroundTaskStatus(ctx, "a", TaskFailed, "late")
	if err != nil || got.Status != TaskDone || got.Output != "downloaded" {
		t.Fatalf("a final status was overwritten: %+v %v", got, err)
	}
	if _, err := st.SetBackgroundTaskStatus(ctx, "nope", TaskDone, ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown task: %v", err)
	}

	// Notifications: each finished tool task is claimed once.
	if has, _ := st.HasBackgroundNotifications(ctx, s.ID); !has {
		t.Fatal("the finished task is not pending")
	}
	claimed, err := st.ClaimBackgroundNotifications(ctx, s.ID)
	if err != nil || len(claimed) != 1 || claimed[0].ID != "a" {
		t.Fatalf("claimed %+v %v", claimed, err)
	}
	if again, _ := st.ClaimBackgroundNotifications(ctx, s.ID); len(again) != 0 {
		t.Fatalf("claimed twice: %+v", again)
	}

	// A restart interrupts what is open: b (queued) and the worker.
	interrupted, err := st.InterruptBackgroundTasks(ctx, "restarted")
	if err != nil || len(interrupted) != 2 {
		t.Fatalf("interrupted %+v %v", interrupted, err)
	}
	if b, _ := st.BackgroundTask(ctx, s.ID, "b"); b.Status != TaskInterrupted || b.Output != "restarted" {
		t.Fatalf("b after the restart: %+v", b)
	}
	claimed, _ = st.ClaimBackgroundNotifications(ctx, s.ID)
	if len(claimed) != 1 || claimed[0].ID != "b" {
		t.Fatalf("after the restart, claimed %+v (the worker is never a notification)", claimed)
	}
	if _, err := st.BackgroundTask(ctx, other.ID, "a"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a task read through another session: %v", err)
	}
	tools, _ := st.BackgroundTasks(ctx, s.ID, BackgroundTool)
	all, _ := st.BackgroundTasks(ctx, s.ID, "")
	if len(tools) != 2 || len(all) != 3 || tools[0].ID != "a" {
		t.Fatalf("lists: %d tools, %d all", len(tools), len(all))
	}
}
