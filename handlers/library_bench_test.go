package handlers

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/store"
)

// BenchmarkLibraryPage measures the library list page with 10,000 papers
// under 64 concurrent clients (in-process, no network): requests/s, p50,
// p99 and CPU per request; "serial" runs have one client, so their
// latencies are the service time without queueing. The list cache is keyed by the library version, so the
// "+writes" runs tag a paper every 50 ms while the clients read: each
// write invalidates the cache and the next request pays for the query.
// "cold" runs ask for different searches or pages, mostly not cached;
// the others are timed after one request has filled the cache.
func BenchmarkLibraryPage(b *testing.B) {
	a := newAppForBench(b)
	c := a.setupAdmin()
	ctx := context.Background()
	var ids []int64
	for i := 0; i < 10_000; i++ {
		id := fmt.Sprintf("2401.%05d", i)
		y := 2000 + i%25
		p, _, err := a.store.UpsertPaper(ctx, store.Paper{Title: fmt.Sprintf("Paper %d on galaxy clusters", i), ArxivID: &id, Year: &y,
			Abstract: "We study the intracluster medium.", Authors: []string{"Smith, J.", "Doe, A.", "Roe, B."}, Keywords: []string{"clusters"}})
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	cookie := &http.Cookie{Name: "astro_session", Value: c.sessionCookie()}
	h := a.srv.Echo()
	same := func(path string) func(client, i int) string { return func(int, int) string { return path } }
	for _, run := range []struct {
		name    string
		path    func(client, i int) string
		writes  bool
		clients int // default 64
	}{
		{"serial:/library", same("/library"), false, 1},
		{"serial:/library?q=galaxy+clusters", same("/library?q=galaxy+clusters"), false, 1},
		{"/library", same("/library"), false, 0},
		{"/library?q=galaxy+clusters", same("/library?q=galaxy+clusters"), false, 0},
		{"/library+writes", same("/library"), true, 0},
		{"/library?q=galaxy+clusters+writes", same("/library?q=galaxy+clusters"), true, 0},
		{"cold:/library?q=paper+N", func(client, i int) string { return fmt.Sprintf("/library?q=paper+%d", client*1000+i) }, false, 0},
		{"cold:/library?page=N", func(client, i int) string { return fmt.Sprintf("/library?page=%d", 1+(client*50+i)%200) }, false, 0},
	} {
		b.Run(run.name, func(b *testing.B) {
			stop := make(chan struct{})
			var writer sync.WaitGroup
			if run.writes {
				writer.Add(1)
				go func() {
					defer writer.Done()
					for n := 0; ; n++ {
						select {
						case <-stop:
							return
						case <-time.After(50 * time.Millisecond):
						}
						if _, err := a.store.AddPaperTags(ctx, ids[n%len(ids)], []string{fmt.Sprintf("t%d", n)}, 100); err != nil {
							b.Error(err)
						}
					}
				}()
			}
			if !strings.HasPrefix(run.name, "cold:") { // one request fills the cache first
				req := httptest.NewRequest(http.MethodGet, run.path(0, 0), nil)
				req.AddCookie(cookie)
				h.ServeHTTP(httptest.NewRecorder(), req)
			}
			cpu0 := processCPU()
			clients := run.clients
			if clients == 0 {
				clients = 64
			}
			lat, elapsed := loadLibrary(b, h, cookie, clients, run.path)
			cpu := processCPU() - cpu0
			close(stop)
			writer.Wait()
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "req/s")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(cpu.Microseconds())/float64(len(lat)), "cpu-µs/req")
		})
	}
}

// processCPU is the CPU time (user and system) this process has used. On
// a shared machine the latencies depend on what else runs; CPU per
// request does not.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadLibrary runs clients concurrent clients, 3200 requests in all, and
// returns the latencies and the wall time.
func loadLibrary(b *testing.B, h http.Handler, cookie *http.Cookie, clients int, path func(client, i int) string) ([]time.Duration, time.Duration) {
	perClient := 3200 / clients
	var mu sync.Mutex
	var lat []time.Duration
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perClient; i++ {
				p := path(w, i)
				req := httptest.NewRequest(http.MethodGet, p, nil)
				req.AddCookie(cookie)
				rec := httptest.NewRecorder()
				t0 := time.Now()
				h.ServeHTTP(rec, req)
				d := time.Since(t0)
				if rec.Code != http.StatusOK {
					b.Errorf("%s = %d", p, rec.Code)
					return
				}
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return lat, time.Since(start)
}
