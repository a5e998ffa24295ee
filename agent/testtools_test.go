package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/astroresearch/astroresearch/agent/tools"
)

// Tools used to exercise the executor.

type echoArgs struct {
	Text    string `json:"text"`
	DelayMS int    `json:"delay_ms,omitempty" min:"0" max:"10000"`
}

// echoTool returns its text after an optional delay; read-only and
// concurrency-safe.
func echoTool() tools.Tool {
	return tools.New("echo", "Echo text back.", func(ctx context.Context, tc *tools.Context, a echoArgs) (tools.Result, error) {
		select {
		case <-time.After(time.Duration(a.DelayMS) * time.Millisecond):
		case <-ctx.Done():
			return tools.Result{}, ctx.Err()
		}
		tc.Report("echoing " + a.Text)
		return tools.Result{Output: "echo: " + a.Text}, nil
	}, tools.WithReadOnly(), tools.AlwaysConcurrencySafe())
}

type emptyArgs struct{}

// gate lets a test hold a tool until it says so, and see that it started.
type gate struct {
	started chan struct{}
	release chan struct{}
	once    sync.Once
}

func newGate() *gate { return &gate{started: make(chan struct{}), release: make(chan struct{})} }

func (g *gate) enter() { g.once.Do(func() { close(g.started) }) }

// blockTool waits for its gate and ignores cancellation (InterruptBehavior Block).
func blockTool(g *gate) tools.Tool {
	return tools.New("write_note", "Write a note (blocks on stop).", func(ctx context.Context, tc *tools.Context, _ emptyArgs) (tools.Result, error) {
		g.enter()
		<-g.release
		return tools.Result{Output: "note written"}, nil
	}, tools.WithInterrupt(tools.Block))
}

// waitTool waits for its gate or its context (InterruptBehavior Cancel).
func waitTool(g *gate) tools.Tool {
	return tools.New("wait", "Wait for a signal.", func(ctx context.Context, tc *tools.Context, _ emptyArgs) (tools.Result, error) {
		g.enter()
		select {
		case <-g.release:
			return tools.Result{Output: "released"}, nil
		case <-ctx.Done():
			return tools.Result{}, ctx.Err()
		}
	})
}

// hangTool ignores its context entirely.
func hangTool(stop chan struct{}) tools.Tool {
	return tools.New("hang", "Never returns.", func(ctx context.Context, tc *tools.Context, _ emptyArgs) (tools.Result, error) {
		<-stop
		return tools.Result{Output: "late"}, nil
	})
}

func panicTool() tools.Tool {
	return tools.New("boom", "Panics.", func(ctx context.Context, tc *tools.Context, _ emptyArgs) (tools.Result, error) {
		panic("kaboom")
	})
}

// fetchTool fails when asked to and aborts its siblings (like download_paper).
type fetchArgs struct {
	Fail    bool `json:"fail,omitempty"`
	DelayMS int  `json:"delay_ms,omitempty"`
}

func fetchTool() tools.Tool {
	return tools.New("fetch", "Fetch something.", func(ctx context.Context, tc *tools.Context, a fetchArgs) (tools.Result, error) {
		select {
		case <-time.After(time.Duration(a.DelayMS) * time.Millisecond):
		case <-ctx.Done():
			return tools.Result{}, ctx.Err()
		}
		if a.Fail {
			return tools.Errorf("fetch failed: 404"), nil
		}
		return tools.Result{Output: "fetched"}, nil
	}, tools.WithSiblingAbort(), tools.AlwaysConcurrencySafe())
}

// bigTool returns n characters.
type bigArgs struct {
	N int `json:"n" min:"1" max:"1000000"`
}

func bigTool() tools.Tool {
	return tools.New("big", "Big output.", func(ctx context.Context, tc *tools.Context, a bigArgs) (tools.Result, error) {
		return tools.Result{Output: strings.Repeat("x", a.N)}, nil
	})
}

// askingTool wants permission before it runs (like run_bash).
func askingTool() tools.Tool {
	return tools.New("shell", "Run a command.", func(ctx context.Context, tc *tools.Context, a echoArgs) (tools.Result, error) {
		return tools.Result{Output: fmt.Sprintf("ran %s", a.Text)}, nil
	}, tools.WithPermission(func(ctx context.Context, tc *tools.Context, a echoArgs) tools.PermissionDecision {
		return tools.DecisionAsk
	}))
}

// rendezvousTool: every call waits until n calls have started; run one at a
// time they would give up, so success proves they ran concurrently.
type rvArgs struct {
	Name string `json:"name"`
}

func rendezvousTool(n int) tools.Tool {
	var mu sync.Mutex
	arrived := 0
	all := make(chan struct{})
	return tools.New("meet", "Meet the others.", func(ctx context.Context, tc *tools.Context, a rvArgs) (tools.Result, error) {
		mu.Lock()
		arrived++
		if arrived == n {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
			return tools.Result{Output: "met " + a.Name}, nil
		case <-time.After(3 * time.Second):
			return tools.Errorf("%s waited alone: calls did not run in parallel", a.Name), nil
		}
	}, tools.WithReadOnly(), tools.AlwaysConcurrencySafe())
}
