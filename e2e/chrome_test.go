package e2e

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

const (
	// chromiumPath is where Debian's chromium package installs the browser.
	chromiumPath = "/usr/bin/chromium"
	// browserTimeout bounds a whole browser test, browser start-up included.
	browserTimeout = 60 * time.Second
)

// newBrowser starts a headless Chromium with a fresh profile and returns a
// context for one tab. Every console message of the tab goes to console.
// The browser is stopped (and its profile removed) when t ends, and killed
// once browserTimeout has passed. A missing browser fails the test: the
// browser tests are part of the suite, never skipped.
func newBrowser(t *testing.T, console *consoleLog) context.Context {
	t.Helper()
	return newBrowserFor(t, console, browserTimeout)
}

// newBrowserFor is newBrowser for tests that walk many pages: the browser
// is killed once timeout has passed.
func newBrowserFor(t *testing.T, console *consoleLog, timeout time.Duration) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("browser tests need Debian's Chromium at %s (apt-get install chromium, or make deps-browser): %v",
			chromiumPath, err)
	}
	browserOut := newTailBuffer(outputLimit)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.CombinedOutput(browserOut),
	)
	timeoutCtx, cancelTimeout := context.WithTimeout(context.Background(), timeout)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(timeoutCtx, opts...)
	ctx, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithListener(console.record))
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
		cancelTimeout()
		if t.Failed() {
			t.Logf("--- browser output (D-Bus noise removed) ---\n%s", withoutDBusNoise(browserOut.String()))
		}
	})
	// Start the browser now, so a start-up failure is reported as such.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	return ctx
}

// withoutDBusNoise drops the D-Bus connection errors Chromium logs on a
// machine without a session bus; they say nothing about the page.
func withoutDBusNoise(out string) string {
	var b strings.Builder
	for line := range strings.Lines(out) {
		if !strings.Contains(line, ":ERROR:dbus/") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// consoleLog collects what a tab writes to its console: console API calls,
// uncaught exceptions and browser log entries (CSP violations among them).
// It is safe for concurrent use.
type consoleLog struct {
	mu       sync.Mutex
	messages []consoleMessage
}

// consoleMessage is one console line in a form tests can filter.
type consoleMessage struct {
	Kind string // "console.error", "exception", "log:<source>", ...
	Text string
}

func (m consoleMessage) String() string { return m.Kind + ": " + m.Text }

// record is a chromedp listener. It runs on the tab's event loop, so it
// only appends.
func (c *consoleLog) record(ev any) {
	var m consoleMessage
	switch ev := ev.(type) {
	case *log.EventEntryAdded:
		text := ev.Entry.Text
		if ev.Entry.URL != "" {
			text += " (" + ev.Entry.URL + ")"
		}
		m = consoleMessage{Kind: fmt.Sprintf("log:%s:%s", ev.Entry.Source, ev.Entry.Level), Text: text}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil {
			text += " " + d.Exception.Description
		}
		m = consoleMessage{Kind: "exception", Text: text}
	case *runtime.EventConsoleAPICalled:
		var args []string
		for _, a := range ev.Args {
			if a.Value != nil {
				args = append(args, string(a.Value))
			} else {
				args = append(args, a.Description)
			}
		}
		m = consoleMessage{Kind: "console." + string(ev.Type), Text: strings.Join(args, " ")}
	default:
		return
	}
	c.mu.Lock()
	c.messages = append(c.messages, m)
	c.mu.Unlock()
}

// all returns every message recorded so far.
func (c *consoleLog) all() []consoleMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]consoleMessage(nil), c.messages...)
}

// problems returns the messages that mean a page is broken: Content
// Security Policy violations (and other security log entries) and uncaught
// exceptions. Failed sub-resource loads (such as htmx missing from a build
// that skipped `make vendor`) are not problems here.
func (c *consoleLog) problems() []consoleMessage {
	var bad []consoleMessage
	for _, m := range c.all() {
		if m.Kind == "exception" || strings.HasPrefix(m.Kind, "log:security:") ||
			strings.Contains(m.Text, "Content Security Policy") {
			bad = append(bad, m)
		}
	}
	return bad
}
