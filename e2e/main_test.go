package e2e

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const (
	// repoRoot is the module root as seen from this package's directory,
	// which is the working directory of `go test`.
	repoRoot = ".."
	// buildTags are the tags the server is always built with.
	buildTags = "sqlite_fts5"
	// buildTimeout bounds each `go build` of the server.
	buildTimeout = 5 * time.Minute
	// readyTimeout bounds how long startApp waits for /readyz.
	readyTimeout = 30 * time.Second
	// stopTimeout is how long a server may take to exit after SIGTERM
	// before it is killed (and the test fails).
	stopTimeout = 20 * time.Second
	// outputLimit is how much of a server's output is kept for failure
	// reports; load tests produce far more access-log lines than that.
	outputLimit = 256 << 10
)

// binPath is the server binary TestMain builds once for the whole package.
// It is the package's only variable: every test starts its own process.
var binPath string

// TestMain builds the server binary into a temporary directory, runs the
// tests and benchmarks, and removes the binary.
func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

// runTests is TestMain's body, separate so that deferred clean-up runs
// before os.Exit.
func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "astro-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	binPath = filepath.Join(dir, "astroresearch")
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	if err := buildServer(ctx, binPath); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: building the server failed:", err)
		return 1
	}
	return m.Run()
}

// buildServer compiles the server at repoRoot into out, with the project's
// build tags and any extra `go build` flags.
func buildServer(ctx context.Context, out string, extra ...string) error {
	args := append([]string{"build", "-tags", buildTags}, extra...)
	args = append(args, "-o", out, repoRoot)
	output, err := exec.CommandContext(ctx, "go", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, output)
	}
	return nil
}

// app is one running server process.
type app struct {
	// URL is the server's base URL, BASE_PATH included, without a
	// trailing slash: http://127.0.0.1:PORT[/base].
	URL string
	// BasePath is the BASE_PATH the server was started with ("" or "/x").
	BasePath string
	// DataDir is the DATA_DIR the server was started with.
	DataDir string

	cmd      *exec.Cmd
	started  time.Time // just before the process was started
	out      *tailBuffer
	exited   chan struct{} // closed once the process has exited
	waitErr  error         // the result of cmd.Wait, set before exited closes
	stopOnce sync.Once
	stopErr  error
}

// startApp starts the server binary with a fresh DATA_DIR (t.TempDir())
// on a free port, plus env (which may override DATA_DIR or anything else),
// and waits until /readyz answers 200. The server is stopped with SIGTERM
// when tb ends; its output is logged if tb failed.
func startApp(tb testing.TB, env map[string]string) *app {
	tb.Helper()
	a := launchApp(tb, env)
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	if err := a.waitReady(ctx, 10*time.Millisecond); err != nil {
		tb.Fatalf("server did not become ready: %v", err) // the cleanup logs its output
	}
	return a
}

// launchApp starts the server process like startApp but returns at once,
// without waiting for it to be ready.
func launchApp(tb testing.TB, env map[string]string) *app {
	tb.Helper()
	work := tb.TempDir() // working directory: no stray .env is read
	addr := freeAddr(tb)
	vars := map[string]string{
		"PATH":     os.Getenv("PATH"),
		"HOME":     work,
		"ADDR":     addr,
		"DATA_DIR": filepath.Join(work, "data"),
		// Tests script every model call; the memory extractor would add
		// unscripted ones. Tests that want it set it to true.
		"AGENT_MEMORY_EXTRACTION": "false",
		// Likewise the title the model proposes after a first answer.
		"AGENT_TITLE_PROPOSAL": "false",
	}
	maps.Copy(vars, env)
	a := &app{
		URL:      "http://" + addr + vars["BASE_PATH"],
		BasePath: vars["BASE_PATH"],
		DataDir:  vars["DATA_DIR"],
		out:      newTailBuffer(outputLimit),
		exited:   make(chan struct{}),
	}
	a.cmd = exec.Command(binPath)
	a.cmd.Dir = work
	a.cmd.Stdout, a.cmd.Stderr = a.out, a.out
	for k, v := range vars {
		a.cmd.Env = append(a.cmd.Env, k+"="+v)
	}
	a.started = time.Now()
	if err := a.cmd.Start(); err != nil {
		tb.Fatalf("start server: %v", err)
	}
	go func() {
		a.waitErr = a.cmd.Wait()
		close(a.exited)
	}()
	tb.Cleanup(func() {
		if err := a.stop(); err != nil {
			tb.Errorf("stopping the server: %v", err)
		}
		if tb.Failed() {
			tb.Logf("--- server output ---\n%s", a.Output())
		}
	})
	return a
}

// Pid returns the server's process id.
func (a *app) Pid() int { return a.cmd.Process.Pid }

// Output returns the tail of the server's combined stdout and stderr.
func (a *app) Output() string { return a.out.String() }

// waitReady polls /readyz every interval until it answers 200, the server
// exits, or ctx ends.
func (a *app) waitReady(ctx context.Context, every time.Duration) error {
	tr := &http.Transport{MaxIdleConnsPerHost: 1}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 2 * time.Second}
	tick := time.NewTicker(every)
	defer tick.Stop()
	var last error
	for {
		ok, err := probe(ctx, client, a.URL+"/readyz")
		if ok {
			return nil
		}
		last = err
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w; last probe: %v", ctx.Err(), last)
		case <-a.exited:
			return fmt.Errorf("server exited before it was ready: %v", a.waitErr)
		case <-tick.C:
		}
	}
}

// probe reports whether url answers 200 OK.
func probe(ctx context.Context, client *http.Client, url string) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return false, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return false, fmt.Errorf("status %s", resp.Status)
	}
	return true, nil
}

// stop sends SIGTERM and waits for the process to exit, killing it after
// stopTimeout. It reports an error unless the server exited cleanly
// (status 0) in time. It is idempotent.
func (a *app) stop() error {
	a.stopOnce.Do(func() { a.stopErr = a.terminate() })
	return a.stopErr
}

func (a *app) terminate() error {
	select {
	case <-a.exited:
		return fmt.Errorf("server had already exited: %v", a.waitErr)
	default:
	}
	if err := a.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("send SIGTERM: %w", err)
	}
	timer := time.NewTimer(stopTimeout)
	defer timer.Stop()
	select {
	case <-a.exited:
		if a.waitErr != nil {
			return fmt.Errorf("server exited uncleanly after SIGTERM: %w", a.waitErr)
		}
		return nil
	case <-timer.C:
		_ = a.cmd.Process.Kill()
		<-a.exited
		return fmt.Errorf("server still running %v after SIGTERM; killed", stopTimeout)
	}
}

// freeAddr returns a loopback address with a port that was free a moment
// ago. Another process could take it before the server binds it; on this
// loopback-only test machine that is rare enough to accept.
func freeAddr(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatalf("find a free port: %v", err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
