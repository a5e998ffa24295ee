package handlers

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
)

func TestLogPathRedactsTriageFeedToken(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/triage/feed/abc123", "/triage/feed/[token]"},
		{"/astro/triage/feed/abc123", "/astro/triage/feed/[token]"},
		{"/triage/feed/", "/triage/feed/"},
		{"/triage", "/triage"},
		{"/research/7/record", "/research/7/record"},
	} {
		if got := logPath(tc.in); got != tc.want {
			t.Errorf("logPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// lockedBuffer is a log sink safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestTriageFeedTokenNotInAccessLog(t *testing.T) {
	var logs lockedBuffer
	a := newAppLogged(t, nil, slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	const token = "f00dfeedcafe0123456789"
	expectStatus(t, "feed", a.client().get("/triage/feed/"+token), http.StatusNotFound)
	if strings.Contains(logs.String(), token) {
		t.Fatalf("the access log carries the feed token:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), "/triage/feed/[token]") {
		t.Fatalf("the access log lacks the request:\n%s", logs.String())
	}
}
