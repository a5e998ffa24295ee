package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a goroutine-safe log sink.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func envMap(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestRunRejectsBadConfigNamingTheVariable(t *testing.T) {
	err := run(context.Background(), nil, envMap(map[string]string{"AGENT_MAX_STEPS": "lots"}), &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "AGENT_MAX_STEPS") {
		t.Fatalf("error = %v, want one naming AGENT_MAX_STEPS", err)
	}
	if err := run(context.Background(), []string{"frobnicate"}, envMap(nil), &bytes.Buffer{}); err == nil {
		t.Fatal("unknown command accepted")
	}
}

func TestRunVersion(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"version"}, envMap(nil), &out); err != nil || out.Len() == 0 {
		t.Fatalf("version: %v %q", err, out.String())
	}
}

var listenRE = regexp.MustCompile(`msg=listening addr=(\S+)`)

// TestServeLifecycle starts the real server in-process: ready after
// migrations, the configured admin exists, SIGTERM-style cancellation shuts
// it down cleanly, and the backup command copies the database afterwards.
func TestServeLifecycle(t *testing.T) {
	dir := t.TempDir()
	env := envMap(map[string]string{
		"ADDR": "127.0.0.1:0", "DATA_DIR": dir, "ADMIN_USER": "vera", "ADMIN_PASSWORD": "galaxy-rotation",
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs := &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, nil, env, logs) }()

	deadline := time.Now().Add(10 * time.Second)
	var addr string
	for addr == "" || !strings.Contains(logs.String(), "msg=ready") {
		if time.Now().After(deadline) {
			t.Fatalf("server not ready in time; log:\n%s", logs.String())
		}
		if m := listenRE.FindStringSubmatch(logs.String()); m != nil {
			addr = m[1]
		}
		select {
		case err := <-done:
			t.Fatalf("run returned early: %v\n%s", err, logs.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
	res, err := http.Get("http://" + addr + "/readyz")
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("readyz: %v %v", res, err)
	}
	res.Body.Close()
	res, err = http.Post("http://"+addr+"/api/auth/login", "application/json",
		strings.NewReader(`{"username":"vera","password":"galaxy-rotation"}`))
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("ADMIN_USER login: %v %v", res, err)
	}
	res.Body.Close()
	if !strings.Contains(logs.String(), "administrator created from ADMIN_USER") {
		t.Fatal("admin creation not logged")
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shutdown: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("server did not shut down")
	}
	if !strings.Contains(logs.String(), "msg=stopped") {
		t.Fatalf("no clean stop in the log:\n%s", logs.String())
	}

	dest := filepath.Join(dir, "copy.db")
	var out bytes.Buffer
	if err := run(context.Background(), []string{"backup", dest}, env, &out); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(dest); err != nil || st.Size() == 0 || !strings.Contains(out.String(), dest) {
		t.Fatalf("backup: %v %q", err, out.String())
	}
	if err := run(context.Background(), []string{"backup", dest}, env, &out); err == nil {
		t.Fatal("backup overwrote an existing file")
	}
	if err := run(context.Background(), []string{"backup", dest}, envMap(map[string]string{"DATA_DIR": t.TempDir()}), &out); err == nil {
		t.Fatal("backup of a missing database succeeded")
	}
}
