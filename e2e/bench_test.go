package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The benchmarks report figures with b.ReportMetric and assert nothing
// about time. The slow ones measure once however large b.N is; run them as
//
//	go test -tags sqlite_fts5 ./e2e/ -run '^$' -bench . -benchtime 1x

const (
	// megabyte is the unit of the "MB" metrics: 10^6 bytes.
	megabyte = 1e6
	// loadClients is the number of concurrent clients of BenchmarkLoad.
	loadClients = 64
	// loadDuration is how long BenchmarkLoad drives each endpoint.
	loadDuration = 5 * time.Second
)

// BenchmarkStartupEmpty measures process start → first /readyz 200 on an
// empty DATA_DIR, so it includes creating the database and applying every
// migration.
func BenchmarkStartupEmpty(b *testing.B) {
	benchStartup(b, nil)
}

// BenchmarkStartup1GB measures process start → first /readyz 200 on a
// migrated database grown to 1 GiB (built once and cached, see
// bigDataDir). The file is in the page cache after the first run, so this
// is a warm start.
func BenchmarkStartup1GB(b *testing.B) {
	dir := bigDataDir(b)
	benchStartup(b, map[string]string{"DATA_DIR": dir})
}

// benchStartup starts the server b.N times with env and reports the mean
// time to ready in "ms-to-ready"; ns/op covers the same span (shutdown
// excluded). /readyz is polled every millisecond.
func benchStartup(b *testing.B, env map[string]string) {
	var total time.Duration
	b.ResetTimer()
	for range b.N {
		a := launchApp(b, env)
		ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
		err := a.waitReady(ctx, time.Millisecond)
		ready := time.Now()
		cancel()
		if err != nil {
			b.Fatalf("server did not become ready: %v", err)
		}
		total += ready.Sub(a.started)
		b.StopTimer()
		if err := a.stop(); err != nil {
			b.Fatalf("stop: %v", err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Microseconds())/1e3/float64(b.N), "ms-to-ready")
}

// BenchmarkIdleRSS reports the resident memory of a server that has served
// a few pages and then sat idle for two seconds, in "MB-rss".
func BenchmarkIdleRSS(b *testing.B) {
	var total float64
	for range b.N {
		a := startApp(b, nil)
		for _, path := range []string{"/", "/login", "/healthz", "/", "/setup"} {
			if err := fetch(a.URL + path); err != nil {
				b.Fatal(err)
			}
		}
		time.Sleep(2 * time.Second) // idle on purpose: let start-up garbage settle
		rss, err := residentBytes(a.Pid())
		if err != nil {
			b.Fatal(err)
		}
		total += float64(rss)
		if err := a.stop(); err != nil {
			b.Fatalf("stop: %v", err)
		}
	}
	b.ReportMetric(total/float64(b.N)/megabyte, "MB-rss")
	b.ReportMetric(0, "ns/op")
}

// fetch GETs url (following redirects) and discards the body.
func fetch(url string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return err
}

// residentBytes reads VmRSS of process pid from /proc.
func residentBytes(pid int) (int64, error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("parse VmRSS %q: %w", rest, err)
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}

// BenchmarkLoad drives loadClients concurrent clients at /healthz and then
// at the signed-in home page for loadDuration each, and reports throughput
// and p99 latency of both, plus the home/healthz ratios. The load generator
// shares the machine's CPUs with the server. It measures once, whatever
// b.N is.
func BenchmarkLoad(b *testing.B) {
	const user, password = "bench", "bench-password-1"
	a := startApp(b, map[string]string{"ADMIN_USER": user, "ADMIN_PASSWORD": password})
	cookie, err := apiLogin(context.Background(), a.URL, user, password)
	if err != nil {
		b.Fatal(err)
	}
	client := loadClient(loadClients)
	defer client.CloseIdleConnections()
	ctx := context.Background()

	b.ResetTimer()
	health := runLoad(ctx, client, loadTarget{URL: a.URL + "/healthz"}, loadClients, loadDuration)
	home := runLoad(ctx, client, loadTarget{URL: a.URL + "/", Cookie: cookie}, loadClients, loadDuration)
	b.StopTimer()

	for name, r := range map[string]loadResult{"healthz": health, "home": home} {
		b.Logf("%s: %s", name, r)
		if r.Errors > 0 {
			b.Errorf("%s: %d of %d requests failed, first: %v", name, r.Errors, r.Errors+len(r.Latencies), r.FirstErr)
		}
		if len(r.Latencies) == 0 {
			b.Fatalf("%s: no successful requests", name)
		}
	}
	b.ReportMetric(health.RPS(), "healthz-req/s")
	b.ReportMetric(ms(health.Percentile(0.99)), "healthz-p99-ms")
	b.ReportMetric(home.RPS(), "home-req/s")
	b.ReportMetric(ms(home.Percentile(0.99)), "home-p99-ms")
	b.ReportMetric(ms(home.Percentile(0.99))/ms(health.Percentile(0.99)), "home/healthz-p99")
	b.ReportMetric(home.RPS()/health.RPS(), "home/healthz-req/s")
	b.ReportMetric(0, "ns/op")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkBinarySize reports the size of the binary TestMain built (with
// symbols, as `go build` makes it) in "MB", and of a stripped build made
// like `make build` (-trimpath -ldflags "-s -w") in "MB-stripped". It
// measures once, whatever b.N is.
func BenchmarkBinarySize(b *testing.B) {
	full, err := os.Stat(binPath)
	if err != nil {
		b.Fatal(err)
	}
	strippedPath := filepath.Join(b.TempDir(), "astroresearch-stripped")
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	if err := buildServer(ctx, strippedPath, "-trimpath", "-ldflags", "-s -w"); err != nil {
		b.Fatal(err)
	}
	stripped, err := os.Stat(strippedPath)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(full.Size())/megabyte, "MB")
	b.ReportMetric(float64(stripped.Size())/megabyte, "MB-stripped")
	b.ReportMetric(0, "ns/op")
}
