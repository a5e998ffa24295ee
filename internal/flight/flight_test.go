package flight

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// TestFlightGroup: concurrent callers share one run; a waiter that gives up
// does not stop it; a finished run is not reused.
func TestFlightGroup(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var g Group[string]
		release := make(chan struct{})
		var runs atomic.Int64
		fn := func() (string, error) {
			runs.Add(1)
			<-release
			return "shared", nil
		}
		// The first caller gives up; the flight goes on for the others.
		leaderCtx, cancelLeader := context.WithCancel(t.Context())
		leaderErr := make(chan error, 1)
		go func() {
			_, err := g.Do(leaderCtx, "k", fn)
			leaderErr <- err
		}()
		synctest.Wait()
		results := make(chan string, 5)
		for range 5 {
			go func() {
				r, err := g.Do(t.Context(), "k", fn)
				if err != nil {
					t.Error(err)
				}
				results <- r
			}()
		}
		synctest.Wait() // everyone is now waiting on the one flight
		cancelLeader()
		if err := <-leaderErr; !errors.Is(err, context.Canceled) {
			t.Fatalf("leader err = %v, want Canceled", err)
		}
		close(release)
		for range 5 {
			if r := <-results; r != "shared" {
				t.Fatalf("follower got %v", r)
			}
		}
		if runs.Load() != 1 {
			t.Fatalf("fn ran %d times, want 1", runs.Load())
		}
		synctest.Wait()
		if _, err := g.Do(t.Context(), "k", func() (string, error) { return "", errors.New("second flight") }); err == nil {
			t.Fatal("a finished flight was reused")
		}
	})
}

// TestFlightGroupCancelledCallerStartsNothing: a caller that has already
// given up gets its context's error and no run starts.
func TestFlightGroupCancelledCallerStartsNothing(t *testing.T) {
	var g Group[int]
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	ran := false
	if _, err := g.Do(ctx, "k", func() (int, error) { ran = true; return 1, nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want Canceled", err)
	}
	if v, err := g.Do(t.Context(), "k", func() (int, error) { return 2, nil }); err != nil || v != 2 {
		t.Fatalf("next caller got %d, %v", v, err)
	}
	if ran {
		t.Fatal("a run started for a caller that had given up")
	}
}
